/* pattern_term.c: a recursive-descent reader of the term syntax, and the structural checks of a pattern
 * tree (which the RDF reader shares). */
#include "patterns/pattern_term.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *s, *end, *at;
    int line;
    const char *line_start;
    const char *base;
    char *err;
    size_t err_len;
    bool failed;
} reader;

static int column(const reader *r, const char *at) { return (int)(at - r->line_start) + 1; }

static void fail_at(reader *r, const char *at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fail_at(reader *r, const char *at, const char *fmt, ...) {
    if (r->failed)
        return;
    r->failed = true;
    int n = snprintf(r->err, r->err_len, "%d:%d: ", r->line, column(r, at));
    if (n < 0 || (size_t)n >= r->err_len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err + n, r->err_len - (size_t)n, fmt, ap);
    va_end(ap);
}

static void skip_space(reader *r) {
    while (r->at < r->end) {
        char c = *r->at;
        if (c == '\n') {
            r->line++;
            r->line_start = ++r->at;
        } else if (c == '#') {
            while (r->at < r->end && *r->at != '\n')
                r->at++;
        } else if (isspace((unsigned char)c)) {
            r->at++;
        } else {
            break;
        }
    }
}

static bool peek(reader *r, char c) {
    skip_space(r);
    return r->at < r->end && *r->at == c;
}

static bool expect(reader *r, char c) {
    if (peek(r, c)) {
        r->at++;
        return true;
    }
    if (r->at >= r->end)
        fail_at(r, r->at, "expected '%c', found the end of the term", c);
    else
        fail_at(r, r->at, "expected '%c', found '%c'", c, *r->at);
    return false;
}

static bool is_name_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '-'; }

/* A word: keyword or name. Returns its length (0 when there is none) and its start in *start. */
static size_t word(reader *r, const char **start) {
    skip_space(r);
    *start = r->at;
    if (r->at < r->end && (isalpha((unsigned char)*r->at) || *r->at == '_'))
        while (r->at < r->end && is_name_char(*r->at))
            r->at++;
    return (size_t)(r->at - *start);
}

static bool word_is(const char *w, size_t len, const char *keyword) {
    return strlen(keyword) == len && memcmp(w, keyword, len) == 0;
}

/* A name: `x` (base#x) or `<iri>`; returns a malloc'd IRI or NULL. */
static char *name(reader *r, const char *what) {
    skip_space(r);
    if (r->at < r->end && *r->at == '<') {
        const char *start = ++r->at;
        while (r->at < r->end && *r->at != '>' && *r->at != '\n' && !isspace((unsigned char)*r->at))
            r->at++;
        if (r->at >= r->end || *r->at != '>') {
            fail_at(r, start - 1, "an IRI in < > must end with '>' on its line, without spaces");
            return NULL;
        }
        char *iri = xstrndup(start, (size_t)(r->at - start));
        r->at++;
        return iri;
    }
    const char *w;
    size_t len = word(r, &w);
    if (len == 0) {
        fail_at(r, r->at, "expected %s (a name of the names file, or <iri>)", what);
        return NULL;
    }
    buf iri = {0};
    buf_printf(&iri, "%s#%.*s", r->base, (int)len, w);
    return buf_cstr(&iri);
}

static long number(reader *r, const char *what) {
    skip_space(r);
    const char *start = r->at;
    while (r->at < r->end && isdigit((unsigned char)*r->at))
        r->at++;
    if (r->at == start || r->at - start > 9) {
        fail_at(r, start, r->at == start ? "expected %s (a number)" : "%s is too large", what);
        return -1;
    }
    long value = 0; /* not strtol: the text need not end in a NUL where the number does */
    for (const char *d = start; d < r->at; d++)
        value = value * 10 + (*d - '0');
    return value;
}

static pattern *term(reader *r, int depth);

/* join policies: all | sync_merge | first_complete | first_n(K) | n_of_m(K, M) */
static bool policy(reader *r, pattern *p) {
    const char *w;
    size_t len = word(r, &w);
    if (word_is(w, len, "all")) {
        p->policy = JOIN_ALL;
    } else if (word_is(w, len, "sync_merge")) {
        p->policy = JOIN_SYNC_MERGE;
    } else if (word_is(w, len, "first_complete")) {
        p->policy = JOIN_FIRST_COMPLETE;
        p->k = 1;
    } else if (word_is(w, len, "first_n")) {
        p->policy = JOIN_FIRST_N;
        if (!expect(r, '('))
            return false;
        p->k = number(r, "first_n's K");
        return !r->failed && expect(r, ')');
    } else if (word_is(w, len, "n_of_m")) {
        p->policy = JOIN_N_OF_M;
        if (!expect(r, '('))
            return false;
        p->k = number(r, "n_of_m's N");
        if (r->failed || !expect(r, ','))
            return false;
        p->m = number(r, "n_of_m's M");
        return !r->failed && expect(r, ')');
    } else {
        fail_at(r, w, "expected a join policy: all, sync_merge, first_complete, first_n(K) or n_of_m(N, M)");
        return false;
    }
    return true;
}

/* A comma-separated list of terms up to ')' (the '(' was read). */
static void term_list(reader *r, pattern *p, int depth) {
    do {
        pattern *child = term(r, depth + 1);
        if (!child)
            return;
        pattern_add(p, child, NULL);
    } while (peek(r, ',') && (r->at++, true));
}

/* xor/defer branches: when(c, T) / on(e, T), and for xor a last else(T). */
static void branches(reader *r, pattern *p, const char *keyword, int depth) {
    do {
        const char *w;
        size_t len = word(r, &w);
        bool is_else = p->kind == PAT_XOR && word_is(w, len, "else");
        if (!is_else && !word_is(w, len, keyword)) {
            fail_at(r, w, p->kind == PAT_XOR ? "expected when(CONDITION, TERM) or else(TERM)"
                                             : "expected on(EVENT, TERM)");
            return;
        }
        if (!expect(r, '('))
            return;
        char *guard = NULL;
        if (!is_else) {
            guard = name(r, p->kind == PAT_XOR ? "a condition" : "an event");
            if (!guard || !expect(r, ',')) {
                free(guard);
                return;
            }
        }
        pattern *child = term(r, depth + 1);
        if (child)
            pattern_add(p, child, guard);
        free(guard);
        if (!child || !expect(r, ')'))
            return;
        if (is_else && peek(r, ',')) {
            fail_at(r, r->at, "else(...) must be the last branch of a xor");
            return;
        }
    } while (peek(r, ',') && (r->at++, true));
}

static void loop_policy(reader *r, pattern *p) {
    const char *w;
    size_t len = word(r, &w);
    if (word_is(w, len, "while") || word_is(w, len, "until")) {
        p->loop = word_is(w, len, "while") ? LOOP_WHILE : LOOP_UNTIL;
        if (expect(r, '(') && (p->name = name(r, "a condition")) != NULL)
            expect(r, ')');
    } else if (word_is(w, len, "count")) {
        p->loop = LOOP_COUNT;
        if (expect(r, '(')) {
            p->count = number(r, "count's N");
            if (!r->failed)
                expect(r, ')');
        }
    } else {
        fail_at(r, w, "expected a loop policy: while(CONDITION), until(CONDITION) or count(N)");
    }
}

static void cancel_scope(reader *r, pattern *p) {
    const char *w;
    size_t len = word(r, &w);
    if (word_is(w, len, "activity"))
        p->scope = CANCEL_ACTIVITY;
    else if (word_is(w, len, "region"))
        p->scope = CANCEL_REGION;
    else if (word_is(w, len, "case"))
        p->scope = CANCEL_CASE;
    else {
        fail_at(r, w, "expected a cancel scope: activity(EVENT), region(EVENT) or case(EVENT)");
        return;
    }
    if (expect(r, '(') && (p->name = name(r, "the event that cancels")) != NULL)
        expect(r, ')');
}

static void mi_policy(reader *r, pattern *p) {
    const char *w;
    size_t len = word(r, &w);
    if (word_is(w, len, "fixed")) {
        if (expect(r, '(')) {
            p->count = number(r, "fixed's N");
            if (!r->failed)
                expect(r, ')');
        }
    } else if (word_is(w, len, "dynamic")) {
        p->mi_dynamic = 1;
        if (!expect(r, '(') || !(p->name = name(r, "an item list")) || !expect(r, ','))
            return;
        p->min = number(r, "dynamic's MIN");
        if (r->failed || !expect(r, ','))
            return;
        p->max = number(r, "dynamic's MAX");
        if (!r->failed)
            expect(r, ')');
    } else {
        fail_at(r, w, "expected fixed(N) or dynamic(ITEMS, MIN, MAX)");
    }
}

static pattern *term(reader *r, int depth) {
    const char *w;
    size_t len = word(r, &w);
    if (len == 0) {
        fail_at(r, r->at, r->at >= r->end ? "expected a term, found the end of the text" : "expected a term");
        return NULL;
    }
    if (depth > PATTERN_MAX_DEPTH) {
        fail_at(r, w, "terms %s", NESTING_ERROR);
        return NULL;
    }
    static const struct {
        const char *keyword;
        enum pattern_kind kind;
    } kinds[] = {{"task", PAT_TASK}, {"seq", PAT_SEQ},     {"par", PAT_JOIN},       {"join", PAT_JOIN}, {"xor", PAT_XOR},
                 {"loop", PAT_LOOP}, {"defer", PAT_DEFER}, {"cancel", PAT_CANCEL}, {"mi", PAT_MI}};
    size_t which = 0;
    while (which < sizeof kinds / sizeof kinds[0] && !word_is(w, len, kinds[which].keyword))
        which++;
    if (which == sizeof kinds / sizeof kinds[0]) {
        fail_at(r, w, "unknown term '%.*s' (task, seq, par, join, xor, loop, defer, cancel, mi)", (int)len, w);
        return NULL;
    }
    pattern *p = pattern_new(kinds[which].kind, r->line, column(r, w));
    if (!expect(r, '(')) {
        pattern_free(p);
        return NULL;
    }
    switch (p->kind) {
    case PAT_TASK: p->name = name(r, "a task"); break;
    case PAT_SEQ: term_list(r, p, depth); break;
    case PAT_JOIN:
        if (word_is(w, len, "par")) {
            p->written_as_par = 1;
            p->policy = JOIN_ALL;
        } else if (!policy(r, p) || !expect(r, ',')) {
            break;
        }
        term_list(r, p, depth);
        break;
    case PAT_XOR: branches(r, p, "when", depth); break;
    case PAT_DEFER: branches(r, p, "on", depth); break;
    case PAT_LOOP:
        loop_policy(r, p);
        if (!r->failed && expect(r, ','))
            term_list(r, p, depth);
        break;
    case PAT_CANCEL:
        cancel_scope(r, p);
        if (!r->failed && expect(r, ','))
            term_list(r, p, depth);
        break;
    case PAT_MI:
        mi_policy(r, p);
        if (!r->failed && expect(r, ',') && policy(r, p) && expect(r, ','))
            term_list(r, p, depth);
        break;
    }
    if (!r->failed)
        expect(r, ')');
    if (r->failed) {
        pattern_free(p);
        return NULL;
    }
    return p;
}

pattern *pattern_parse_term(const char *text, size_t len, const char *names_base, char *err, size_t err_len) {
    reader r = {.s = text, .end = text + len, .at = text, .line = 1, .line_start = text, .base = names_base,
                .err = err, .err_len = err_len};
    pattern *p = term(&r, 0);
    if (p) {
        skip_space(&r);
        if (r.at < r.end) {
            fail_at(&r, r.at, "text after the term");
            pattern_free(p);
            return NULL;
        }
        if (pattern_check(p, err, err_len) != 0) {
            pattern_free(p);
            return NULL;
        }
    }
    return p;
}

/* ---- checks ---- */

static int complain(const pattern *p, char *err, size_t err_len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int complain(const pattern *p, char *err, size_t err_len, const char *fmt, ...) {
    int n = p->line ? snprintf(err, err_len, "%d:%d: ", p->line, p->col) : 0;
    if (n < 0 || (size_t)n >= err_len)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err + n, err_len - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

/* A join policy's K (and M) against the number of branches (or instances) it joins. */
static int check_policy(const pattern *p, long branches, char *err, size_t err_len) {
    if ((p->policy == JOIN_FIRST_N || p->policy == JOIN_N_OF_M) && (p->k < 1 || p->k > branches))
        return complain(p, err, err_len, "%s(%ld ...) needs 1 <= %ld <= %ld, the number of %s",
                        p->policy == JOIN_FIRST_N ? "first_n" : "n_of_m", p->k, p->k, branches,
                        p->kind == PAT_MI ? "instances" : "branches");
    if (p->policy == JOIN_N_OF_M && p->m != branches)
        return complain(p, err, err_len, "n_of_m(%ld, %ld): M must be the number of %s, %ld", p->k, p->m,
                        p->kind == PAT_MI ? "instances (MAX for dynamic)" : "branches", branches);
    return 0;
}

int pattern_check(const pattern *p, char *err, size_t err_len) {
    switch (p->kind) {
    case PAT_TASK: break;
    case PAT_SEQ:
        if (p->n < 1)
            return complain(p, err, err_len, "seq needs at least one term");
        break;
    case PAT_JOIN:
        if (p->n < 2)
            return complain(p, err, err_len, "%s needs at least two branches (PAR-FORK)",
                            p->written_as_par ? "par" : "join");
        if (check_policy(p, (long)p->n, err, err_len))
            return -1;
        break;
    case PAT_XOR:
    case PAT_DEFER:
        if (p->n < 2)
            return complain(p, err, err_len, "%s needs at least two branches",
                            p->kind == PAT_XOR ? "xor" : "defer");
        break;
    case PAT_LOOP:
        if (p->n != 1)
            return complain(p, err, err_len, "loop has one body term");
        if (p->loop == LOOP_COUNT && p->count > PATTERN_MAX_COPIES)
            return complain(p, err, err_len, "count(%ld): at most %d (the body is copied N times)", p->count,
                            PATTERN_MAX_COPIES);
        break;
    case PAT_CANCEL:
        if (p->n != 1)
            return complain(p, err, err_len, "cancel has one body term");
        if (p->scope == CANCEL_ACTIVITY && p->children[0]->kind != PAT_TASK)
            return complain(p, err, err_len, "cancel(activity(...), T): T must be a task (use region for more)");
        break;
    case PAT_MI:
        if (p->n != 1)
            return complain(p, err, err_len, "mi has one body term");
        if (!p->mi_dynamic && (p->count < 1 || p->count > PATTERN_MAX_COPIES))
            return complain(p, err, err_len, "fixed(%ld): N must be between 1 and %d (MI-SPAWN-FIXED)", p->count,
                            PATTERN_MAX_COPIES);
        if (p->mi_dynamic && (p->max < 1 || p->max > PATTERN_MAX_DYNAMIC || p->min > p->max))
            return complain(p, err, err_len, "dynamic(..., %ld, %ld): needs 0 <= MIN <= MAX, 1 <= MAX <= %d",
                            p->min, p->max, PATTERN_MAX_DYNAMIC);
        if (check_policy(p, p->mi_dynamic ? p->max : p->count, err, err_len))
            return -1;
        break;
    }
    if (p->n > PATTERN_MAX_CHILDREN)
        return complain(p, err, err_len, "more than %d parts", PATTERN_MAX_CHILDREN);
    for (size_t i = 0; i < p->n; i++)
        if (pattern_check(p->children[i], err, err_len))
            return -1;
    return 0;
}
