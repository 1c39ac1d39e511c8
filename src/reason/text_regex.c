/* text_regex.c: PCRE2 patterns in UTF mode, a per-thread cache of compiled patterns, and the scan for
 * every match (text_regex.h). */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "reason/text_regex.h"

#include <pcre2.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "rdf/buf.h"

_Static_assert(PCRE2_UNSET == TEXT_REGEX_UNSET, "text_match offsets are PCRE2's ovector");

#define CACHE_SLOTS 16
#define MATCH_LIMIT 10000000 /* backtracking steps (NOTES 2) */
#define HEAP_LIMIT_KIB 65536 /* backtracking memory (NOTES 2) */
#define JIT_STACK_START (32 * 1024)
#define JIT_STACK_MAX (HEAP_LIMIT_KIB * (size_t)1024) /* the JIT's backtracking memory */

typedef struct compiled {
    char *pattern; /* NULL: the slot is free */
    size_t pattern_len;
    pcre2_code *code;
    pcre2_match_data *match;
    size_t groups;
    uint64_t last_used;
} compiled;

typedef struct regex_cache {
    compiled slot[CACHE_SLOTS];
    pcre2_match_context *limits;
    pcre2_jit_stack *jit_stack;
    uint64_t clock;
} regex_cache;

static pthread_key_t cache_key;
static pthread_once_t cache_key_once = PTHREAD_ONCE_INIT;

static void compiled_free(compiled *c) {
    pcre2_match_data_free(c->match);
    pcre2_code_free(c->code);
    free(c->pattern);
    memset(c, 0, sizeof *c);
}

static void cache_free(void *p) {
    regex_cache *cache = p;
    for (size_t i = 0; i < CACHE_SLOTS; i++)
        compiled_free(&cache->slot[i]);
    pcre2_match_context_free(cache->limits);
    pcre2_jit_stack_free(cache->jit_stack);
    free(cache);
}

static void cache_key_create(void) {
    if (pthread_key_create(&cache_key, cache_free) != 0)
        abort();
}

static regex_cache *thread_cache(void) {
    pthread_once(&cache_key_once, cache_key_create);
    regex_cache *cache = pthread_getspecific(cache_key);
    if (!cache) {
        cache = xcalloc(1, sizeof *cache);
        cache->limits = pcre2_match_context_create(NULL);
        if (!cache->limits)
            abort();
        pcre2_set_match_limit(cache->limits, MATCH_LIMIT);
        pcre2_set_heap_limit(cache->limits, HEAP_LIMIT_KIB);
        cache->jit_stack = pcre2_jit_stack_create(JIT_STACK_START, JIT_STACK_MAX, NULL);
        pcre2_jit_stack_assign(cache->limits, NULL, cache->jit_stack); /* NULL stack: the JIT's 32 KiB */
        if (pthread_setspecific(cache_key, cache) != 0)
            abort();
    }
    return cache;
}

/* The compiled pattern, from the cache or compiled into its least recently used slot; NULL when the
 * pattern does not compile. */
static compiled *regex_get(regex_cache *cache, const char *pattern, size_t pattern_len) {
    compiled *victim = &cache->slot[0];
    for (size_t i = 0; i < CACHE_SLOTS; i++) {
        compiled *c = &cache->slot[i];
        if (c->pattern && c->pattern_len == pattern_len && memcmp(c->pattern, pattern, pattern_len) == 0) {
            c->last_used = ++cache->clock;
            return c;
        }
        if (!c->pattern || (victim->pattern && c->last_used < victim->last_used))
            victim = c;
    }
    int error;
    PCRE2_SIZE error_at;
    pcre2_code *code = pcre2_compile((PCRE2_SPTR)pattern, pattern_len, PCRE2_UTF | PCRE2_NEVER_BACKSLASH_C, &error,
                                     &error_at, NULL);
    if (!code)
        return NULL;
    /* NOTES 5; where there is no JIT (a build without it, no executable memory) the interpreter runs */
    pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);
    uint32_t groups;
    pcre2_match_data *match = pcre2_match_data_create_from_pattern(code, NULL);
    if (!match || pcre2_pattern_info(code, PCRE2_INFO_CAPTURECOUNT, &groups) != 0)
        abort();
    compiled_free(victim);
    victim->pattern = xstrndup(pattern, pattern_len);
    victim->pattern_len = pattern_len;
    victim->code = code;
    victim->match = match;
    victim->groups = groups;
    victim->last_used = ++cache->clock;
    return victim;
}

static bool limit_error(int rc) {
    return rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT || rc == PCRE2_ERROR_HEAPLIMIT ||
           rc == PCRE2_ERROR_JIT_STACKLIMIT || rc == PCRE2_ERROR_NOMEMORY;
}

/* The length of the character starting at text[0] (the text is known to be UTF-8). */
static size_t char_length(const char *text, size_t remaining) {
    size_t n = 1;
    while (n < remaining && ((unsigned char)text[n] & 0xC0) == 0x80)
        n++;
    return n;
}

enum text_regex_status text_regex_each(const char *pattern, size_t pattern_len, const char *text, size_t text_len,
                                       text_match_fn *fn, void *user) {
    regex_cache *cache = thread_cache();
    compiled *re = regex_get(cache, pattern, pattern_len);
    if (!re)
        return TEXT_REGEX_INVALID;
    uint32_t checked = 0; /* PCRE2_NO_UTF_CHECK after the first call (NOTES 3) */
    size_t at = 0;
    bool after_empty = false;
    for (;;) {
        uint32_t options = checked | (after_empty ? PCRE2_NOTEMPTY_ATSTART | PCRE2_ANCHORED : 0);
        int rc = pcre2_match(re->code, (PCRE2_SPTR)text, text_len, at, options, re->match, cache->limits);
        checked = PCRE2_NO_UTF_CHECK;
        if (rc == PCRE2_ERROR_NOMATCH) {
            if (!after_empty || at >= text_len)
                return TEXT_REGEX_OK;
            at += char_length(text + at, text_len - at);
            after_empty = false;
            continue;
        }
        if (rc < 0)
            return limit_error(rc) ? TEXT_REGEX_LIMIT : TEXT_REGEX_INVALID;
        const size_t *offsets = pcre2_get_ovector_pointer(re->match);
        if (offsets[0] > offsets[1]) /* \K in a lookahead: not a span of the text */
            return TEXT_REGEX_INVALID;
        const text_match m = {re->groups, offsets};
        if (!fn(user, &m))
            return TEXT_REGEX_OK;
        at = offsets[1];
        after_empty = offsets[0] == offsets[1];
    }
}
