/* nt_writer.c: N-Triples output of large triple sets (nt_writer.h): a term cache so that each distinct
 * term is escaped once, and a streaming thread. */
#include "rdf/nt_writer.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rdf/hashmap.h"
#include "rdf/rdfio.h"

/* Emits the rdf:first/rest triples of list `id` (and of lists nested in it) once each. */
static void write_list_triples(const terms *t, term_id id, u64map *written, buf *out) {
    bool inserted;
    u64map_put(written, id, 1, &inserted);
    if (!inserted)
        return;
    size_t n;
    const term_id *items = terms_list_items(t, id, &n);
    for (size_t i = 0; i < n; i++) {
        if (i == 0)
            buf_printf(out, "_:list%u", id);
        else
            buf_printf(out, "_:list%u_%zu", id, i);
        buf_puts(out, " <" NS_RDF "first> ");
        rdf_write_term_nt(t, items[i], out);
        buf_puts(out, " .\n");
        if (i == 0)
            buf_printf(out, "_:list%u", id);
        else
            buf_printf(out, "_:list%u_%zu", id, i);
        if (i + 1 < n)
            buf_printf(out, " <" NS_RDF "rest> _:list%u_%zu .\n", id, i + 1);
        else
            buf_puts(out, " <" NS_RDF "rest> <" NS_RDF "nil> .\n");
    }
    for (size_t i = 0; i < n; i++)
        if (terms_kind(t, items[i]) == TERM_LIST)
            write_list_triples(t, items[i], written, out);
}

/* Each distinct term is escaped once: large outputs repeat the same few thousand terms, so the writer
 * keeps every term's N-Triples text and copies it. */
typedef struct term_text_cache {
    uint64_t *span; /* per term id: offset << 24 | length, 0 when not yet written */
    size_t span_count;
    buf text;
} term_text_cache;

/* term_span for a term not in the cache yet. */
static uint64_t cache_term_text(const terms *t, term_text_cache *cache, term_id id) {
    enum term_kind kind = terms_kind(t, id);
    if (kind == TERM_LIST || kind == TERM_FORMULA)
        return 0;
    if (id >= cache->span_count) { /* terms interned after the cache was made (a stream) */
        size_t count = (size_t)id * 2 + 1;
        cache->span = xrealloc(cache->span, count * sizeof *cache->span);
        memset(cache->span + cache->span_count, 0, (count - cache->span_count) * sizeof *cache->span);
        cache->span_count = count;
    }
    size_t offset = cache->text.len;
    rdf_write_term_nt(t, id, &cache->text);
    size_t length = cache->text.len - offset;
    if (length >= (1u << 24)) {
        cache->text.len = offset;
        return 0;
    }
    cache->span[id] = (uint64_t)offset << 24 | length;
    return cache->span[id];
}

/* The cached text of term id (offset << 24 | length in cache->text), made on first use; 0 for a term
 * written each time (a list or formula, or a text too long for a span). */
static inline uint64_t term_span(const terms *t, term_text_cache *cache, term_id id) {
    uint64_t span = id < cache->span_count ? cache->span[id] : 0;
    return span ? span : cache_term_text(t, cache, id);
}

/* Appends term id, whose span is `span` (0: none); returns true when it is a list (whose rdf:first/rest
 * triples the caller writes). */
static bool append_term(const terms *t, const term_text_cache *cache, term_id id, uint64_t span, buf *out) {
    if (span) {
        buf_append(out, cache->text.data + (span >> 24), span & 0xffffff);
        return false;
    }
    rdf_write_term_nt(t, id, out);
    return terms_kind(t, id) == TERM_LIST;
}

/* What a writer keeps across calls: the term cache, and the lists already expanded. */
typedef struct nt_formatter {
    term_text_cache cache;
    u64map lists_written;
} nt_formatter;

static char *copy_span(char *to, const term_text_cache *cache, uint64_t span) {
    memcpy(to, cache->text.data + (span >> 24), span & 0xffffff);
    return to + (span & 0xffffff);
}

static void format_triples(const terms *t, nt_formatter *f, const triple *ts, size_t n, buf *out) {
    term_text_cache *cache = &f->cache;
    for (size_t i = 0; i < n; i++) {
        uint64_t s = term_span(t, cache, ts[i].s), p = term_span(t, cache, ts[i].p), o = term_span(t, cache, ts[i].o);
        if (s && p && o) { /* the common case: three cached texts, one reservation, no term table lookup */
            size_t len = (s & 0xffffff) + (p & 0xffffff) + (o & 0xffffff) + 5;
            buf_reserve(out, len);
            char *at = copy_span(out->data + out->len, cache, s);
            *at++ = ' ';
            at = copy_span(at, cache, p);
            *at++ = ' ';
            at = copy_span(at, cache, o);
            memcpy(at, " .\n", 3);
            out->len += len;
            continue;
        }
        bool subject_list = append_term(t, cache, ts[i].s, s, out);
        buf_putc(out, ' ');
        append_term(t, cache, ts[i].p, p, out);
        buf_putc(out, ' ');
        bool object_list = append_term(t, cache, ts[i].o, o, out);
        buf_append(out, " .\n", 3);
        if (subject_list)
            write_list_triples(t, ts[i].s, &f->lists_written, out);
        if (object_list)
            write_list_triples(t, ts[i].o, &f->lists_written, out);
    }
}

static void formatter_free(nt_formatter *f) {
    free(f->cache.span);
    buf_free(&f->cache.text);
    u64map_free(&f->lists_written);
}

void rdf_write_ntriples(const terms *t, const triple *ts, size_t n, buf *out) {
    nt_formatter f = {0};
    format_triples(t, &f, ts, n, out);
    formatter_free(&f);
}

/* ---- the stream ---- */

enum { STREAM_CHUNK = 16384 }; /* triples formatted per write(2) */

typedef struct triple_vec {
    triple *data;
    size_t len, cap;
} triple_vec;

struct nt_stream {
    const terms *t;
    int fd;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t changed;
    triple_vec queued; /* handed, not yet taken by the thread */
    bool finishing;
    int error; /* errno of the first failed write, 0 when none (set by the thread) */
};

static int write_all(int fd, const char *data, size_t len) {
    while (len) {
        ssize_t n = write(fd, data, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return errno;
        data += n;
        len -= (size_t)n;
    }
    return 0;
}

static void *stream_run(void *arg) {
    nt_stream *s = arg;
    nt_formatter f = {0};
    buf out = {0};
    triple_vec taken = {0};
    for (;;) {
        pthread_mutex_lock(&s->lock);
        while (!s->queued.len && !s->finishing)
            pthread_cond_wait(&s->changed, &s->lock);
        if (!s->queued.len) {
            pthread_mutex_unlock(&s->lock);
            break;
        }
        /* the caller fills the emptied vector while this one is formatted */
        triple_vec batch = s->queued;
        taken.len = 0;
        s->queued = taken;
        taken = batch;
        pthread_mutex_unlock(&s->lock);
        for (size_t i = 0; i < taken.len && !s->error; i += STREAM_CHUNK) {
            out.len = 0;
            size_t n = taken.len - i < STREAM_CHUNK ? taken.len - i : STREAM_CHUNK;
            format_triples(s->t, &f, taken.data + i, n, &out);
            s->error = write_all(s->fd, out.data ? out.data : "", out.len);
        }
    }
    free(taken.data);
    buf_free(&out);
    formatter_free(&f);
    return NULL;
}

nt_stream *nt_stream_start(const terms *t, int fd) {
    nt_stream *s = xcalloc(1, sizeof *s);
    s->t = t;
    s->fd = fd;
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->changed, NULL);
    if (pthread_create(&s->thread, NULL, stream_run, s) != 0) {
        pthread_mutex_destroy(&s->lock);
        pthread_cond_destroy(&s->changed);
        free(s);
        return NULL;
    }
    return s;
}

void nt_stream_push(nt_stream *s, const triple *ts, size_t n) {
    if (!n)
        return;
    pthread_mutex_lock(&s->lock);
    triple_vec *q = &s->queued;
    if (q->len + n > q->cap) {
        q->cap = q->len + n > q->cap * 2 ? q->len + n : q->cap * 2;
        q->data = xrealloc(q->data, q->cap * sizeof *q->data);
    }
    memcpy(q->data + q->len, ts, n * sizeof *ts);
    q->len += n;
    pthread_cond_signal(&s->changed);
    pthread_mutex_unlock(&s->lock);
}

int nt_stream_finish(nt_stream *s) {
    pthread_mutex_lock(&s->lock);
    s->finishing = true;
    pthread_cond_signal(&s->changed);
    pthread_mutex_unlock(&s->lock);
    pthread_join(s->thread, NULL);
    int error = s->error;
    free(s->queued.data);
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->changed);
    free(s);
    if (error) {
        errno = error;
        return -1;
    }
    return 0;
}
