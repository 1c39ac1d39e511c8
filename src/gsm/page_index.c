/* page_index.c: the instances each document holds (page_index.h): reading a document's instances and
 * their console states, the entries by URI, the queue of documents to read and the reader thread. */
#define _GNU_SOURCE /* memmem */
#include "gsm/page_index.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rdf/rdfio.h"
#include "rdf/store.h"
#include "rdf/strmap.h"
#include "rdf/vocab_ns.h"

char *text_copy(const char *text) { return text ? xstrndup(text, strlen(text)) : NULL; }

/* ==== a document's instances (page.h design note 1) ==== */

static bool holds(store *st, term_id s, term_id p, term_id o) { return store_find(st, s, p, o) != UINT32_MAX; }

/* The state of instance x: its root's, or, while it is active, its calls' when one failed. */
static enum console_state state_of(terms *t, store *st, term_id x) {
    if (holds(st, x, terms_iri_cstr(t, GSM_hasState), terms_iri_cstr(t, GSM_uninitialized)) ||
        !holds(st, x, terms_iri_cstr(t, GSM_inArtifactInstance), x))
        return CS_NOT_SET_UP;
    if (!holds(st, x, terms_iri_cstr(t, GSM_hasState), terms_iri_cstr(t, GSM_active)))
        return holds(st, x, terms_iri_cstr(t, LDGSM_isCompleted), T_TRUE) ? CS_COMPLETED : CS_INACTIVE;
    term_id record = terms_iri_cstr(t, NS_LDGSM "CallRecord"), call_state = terms_iri_cstr(t, LDGSM_callState);
    term_id in_artifact = terms_iri_cstr(t, GSM_inArtifactInstance), failure = terms_iri_cstr(t, LDGSM_lastFailure);
    term_id calling = terms_iri_cstr(t, NS_LDGSM "calling"), exhausted = terms_iri_cstr(t, NS_LDGSM "exhausted");
    enum console_state state = CS_ACTIVE;
    store_iter it;
    uint32_t n;
    store_match(st, 0, in_artifact, x, 0, store_size(st), &it);
    for (const triple *tr; (tr = store_next(&it, &n));) {
        if (!holds(st, tr->s, T_RDF_TYPE, record))
            continue;
        if (holds(st, tr->s, call_state, exhausted))
            return CS_EXHAUSTED;
        if (holds(st, tr->s, call_state, calling) && store_first_object(st, tr->s, failure))
            state = CS_RETRYING;
    }
    return state;
}

static void find_instances(terms *t, rdfio *io, const gsm_page_document *doc, doc_instances *out) {
    store *st = store_new();
    rdf_error err;
    if (rdf_parse(io, st, RDF_TURTLE, doc->turtle, doc->len, doc->uri, 0, doc->uri, &err) == 0) {
        term_id stage_instance = terms_iri_cstr(t, NS_GSM "StageInstance");
        term_id in_artifact = terms_iri_cstr(t, GSM_inArtifactInstance);
        term_id has_state = terms_iri_cstr(t, GSM_hasState);
        term_id uninitialized = terms_iri_cstr(t, GSM_uninitialized);
        term_id is_instance_of = terms_iri_cstr(t, GSM_isInstanceOf);
        store_iter it;
        uint32_t n;
        const triple *tr;
        store_match(st, 0, T_RDF_TYPE, stage_instance, 0, store_size(st), &it);
        while ((tr = store_next(&it, &n))) {
            term_id x = tr->s;
            bool set_up = holds(st, x, in_artifact, x), not_yet = holds(st, x, has_state, uninitialized);
            if (terms_kind(t, x) != TERM_IRI || !(set_up || not_yet))
                continue;
            term_id model = store_first_object(st, x, is_instance_of);
            out->items = xrealloc(out->items, (out->count + 1) * sizeof *out->items);
            out->items[out->count++] = (held_instance){
                .iri = text_copy(terms_lex(t, x, NULL)),
                .model = model && terms_kind(t, model) == TERM_IRI ? text_copy(terms_lex(t, model, NULL)) : NULL,
                .state = state_of(t, st, x)};
        }
    }
    store_free(st);
}

void doc_instances_read(const gsm_page_document *doc, doc_instances *out) {
    *out = (doc_instances){.etag = text_copy(doc->etag)};
    if (!memmem(doc->turtle, doc->len, "StageInstance", strlen("StageInstance")))
        return; /* design note 3 */
    /* A term table per document: one kept for the reader's life would grow with every IRI it met. */
    terms *t = terms_new();
    rdfio *io = rdfio_new(t);
    find_instances(t, io, doc, out);
    rdfio_free(io);
    terms_free(t);
}

void doc_instances_free(doc_instances *d) {
    for (size_t i = 0; i < d->count; i++) {
        free(d->items[i].iri);
        free(d->items[i].model);
        free(d->items[i].why);
        free(d->items[i].why_model);
    }
    free(d->items);
    free(d->uri);
    free(d->etag);
    *d = (doc_instances){0};
}

/* ==== the queue of documents to read (design notes 1 and 2) ==== */

typedef struct uri_fifo {
    char **items;
    size_t head, count, cap;
} uri_fifo;

static void fifo_push(uri_fifo *f, char *uri) {
    if (f->head + f->count == f->cap) {
        if (f->head) { /* slide down what is left before growing */
            memmove(f->items, f->items + f->head, f->count * sizeof *f->items);
            f->head = 0;
        }
        if (f->count == f->cap) {
            f->cap = f->cap ? 2 * f->cap : 64;
            f->items = xrealloc(f->items, f->cap * sizeof *f->items);
        }
    }
    f->items[f->head + f->count++] = uri;
}

static char *fifo_pop(uri_fifo *f) {
    if (!f->count)
        return NULL;
    char *uri = f->items[f->head++];
    if (!--f->count)
        f->head = 0;
    return uri;
}

static void fifo_free(uri_fifo *f) {
    for (size_t i = 0; i < f->count; i++)
        free(f->items[f->head + i]);
    free(f->items);
}

struct page_index {
    gsm_page_source source;
    /* the entries (note 4) */
    pthread_mutex_t lock;
    doc_instances *entries; /* slots; a removed document's has uri NULL */
    size_t entry_count, entry_cap, removed;
    strmap by_uri; /* uri -> slot */
    size_t read_in_background, read_in_requests;
    /* the queue (note 2) */
    pthread_mutex_t queue_lock;
    pthread_cond_t queued_cond;
    uri_fifo written, warm_up;
    strmap queued; /* uri -> 1 while queued; emptied whenever the queue is */
    int64_t watched_until_ms; /* note 6: the reader follows writes until then (CLOCK_MONOTONIC) */
    bool reader_started, stopping;
    pthread_t reader;
};

page_index *page_index_new(const gsm_page_source *source) {
    page_index *x = xcalloc(1, sizeof *x);
    if (source)
        x->source = *source;
    pthread_mutex_init(&x->lock, NULL);
    pthread_mutex_init(&x->queue_lock, NULL);
    pthread_cond_init(&x->queued_cond, NULL);
    return x;
}

void page_index_free(page_index *x) {
    if (!x)
        return;
    if (x->reader_started) {
        pthread_mutex_lock(&x->queue_lock);
        x->stopping = true;
        pthread_cond_broadcast(&x->queued_cond);
        pthread_mutex_unlock(&x->queue_lock);
        pthread_join(x->reader, NULL);
    }
    fifo_free(&x->written);
    fifo_free(&x->warm_up);
    strmap_free(&x->queued);
    pthread_cond_destroy(&x->queued_cond);
    pthread_mutex_destroy(&x->queue_lock);
    for (size_t i = 0; i < x->entry_count; i++)
        doc_instances_free(&x->entries[i]);
    free(x->entries);
    strmap_free(&x->by_uri);
    pthread_mutex_destroy(&x->lock);
    free(x);
}

/* How a URI is queued (the values of page_index.queued). */
enum { NOT_QUEUED, IN_WARM_UP, WRITTEN };

void page_index_queue(page_index *x, const char *uri, bool written) {
    pthread_mutex_lock(&x->queue_lock);
    bool inserted;
    uint32_t *queued = strmap_put(&x->queued, uri, NOT_QUEUED, &inserted);
    /* A document of the warm-up written since is queued again among the written, to be read sooner; its
     * place in the warm-up is passed over then. */
    if (*queued == NOT_QUEUED || (written && *queued == IN_WARM_UP)) {
        *queued = written ? WRITTEN : IN_WARM_UP;
        fifo_push(written ? &x->written : &x->warm_up, text_copy(uri));
        pthread_cond_signal(&x->queued_cond);
    }
    pthread_mutex_unlock(&x->queue_lock);
}

static int64_t monotonic_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

void page_index_watched(page_index *x) {
    pthread_mutex_lock(&x->queue_lock);
    x->watched_until_ms = monotonic_ms() + PAGE_INDEX_WATCH_MS;
    pthread_cond_signal(&x->queued_cond);
    pthread_mutex_unlock(&x->queue_lock);
}

/* The next URI to read (the caller frees it); NULL when none is queued or the index is stopping. The
 * reader thread (wait) waits for one, and takes a written one only while the pages are watched (note 6). */
static char *next_queued(page_index *x, bool wait) {
    pthread_mutex_lock(&x->queue_lock);
    char *uri = NULL;
    while (!uri) {
        bool take_written = x->written.count && (!wait || monotonic_ms() < x->watched_until_ms);
        while (wait && !x->stopping && !take_written && !x->warm_up.count) {
            pthread_cond_wait(&x->queued_cond, &x->queue_lock);
            take_written = x->written.count && monotonic_ms() < x->watched_until_ms;
        }
        if (x->stopping || (!take_written && !x->warm_up.count))
            break;
        uri = fifo_pop(take_written ? &x->written : &x->warm_up);
        uint32_t *queued = strmap_get(&x->queued, uri);
        if (!take_written && *queued != IN_WARM_UP) { /* read since, or queued among the written */
            free(uri);
            uri = NULL;
        } else {
            *queued = NOT_QUEUED;
        }
        if (!x->written.count && !x->warm_up.count)
            strmap_free(&x->queued); /* note 5: its keys are every URI queued since it was last empty */
    }
    pthread_mutex_unlock(&x->queue_lock);
    return uri;
}

/* ==== the entries (design notes 4 and 5) ==== */

/* Builds the map again from the live entries, dropping the removed ones' slots. Under the lock. */
static void compact(page_index *x) {
    strmap_free(&x->by_uri);
    size_t live = 0;
    bool inserted;
    for (size_t i = 0; i < x->entry_count; i++) {
        if (!x->entries[i].uri)
            continue;
        x->entries[live] = x->entries[i];
        strmap_put(&x->by_uri, x->entries[live].uri, (uint32_t)live, &inserted);
        live++;
    }
    x->entry_count = live;
    x->removed = 0;
}

/* Puts fresh in uri's slot (fresh NULL: the document is gone). Under the lock. */
static void replace_entry(page_index *x, const char *uri, doc_instances *fresh) {
    uint32_t *slot = strmap_get(&x->by_uri, uri);
    doc_instances *entry = slot ? &x->entries[*slot] : NULL;
    bool live = entry && entry->uri;
    if (live)
        doc_instances_free(entry);
    if (!fresh) {
        if (live && ++x->removed > x->entry_count / 2)
            compact(x);
        return;
    }
    if (entry && !live) {
        x->removed--; /* a removed document's slot taken again */
    } else if (!entry) {
        bool inserted;
        if (x->entry_count == x->entry_cap) {
            x->entry_cap = x->entry_cap ? 2 * x->entry_cap : 64;
            x->entries = xrealloc(x->entries, x->entry_cap * sizeof *x->entries);
        }
        strmap_put(&x->by_uri, uri, (uint32_t)x->entry_count, &inserted);
        entry = &x->entries[x->entry_count++];
    }
    *entry = *fresh;
}

static void read_queued(page_index *x, const char *uri) {
    gsm_page_document doc;
    void *hold = NULL;
    bool held = x->source.read && x->source.read(x->source.user, uri, &doc, &hold);
    doc_instances fresh = {0};
    if (held) {
        doc_instances_read(&doc, &fresh);
        fresh.uri = text_copy(uri);
        if (x->source.release)
            x->source.release(x->source.user, hold);
    }
    pthread_mutex_lock(&x->lock);
    replace_entry(x, uri, held ? &fresh : NULL);
    x->read_in_background++;
    pthread_mutex_unlock(&x->lock);
}

bool page_index_read_next(page_index *x) {
    char *uri = next_queued(x, false);
    if (uri)
        read_queued(x, uri);
    free(uri);
    return uri != NULL;
}

static void *reader_main(void *arg) {
    page_index *x = arg;
    for (char *uri; (uri = next_queued(x, true)); free(uri))
        read_queued(x, uri);
    return NULL;
}

void page_index_start(page_index *x) {
    if (!x->reader_started && pthread_create(&x->reader, NULL, reader_main, x) == 0)
        x->reader_started = true;
}

void page_index_lock(page_index *x) { pthread_mutex_lock(&x->lock); }
void page_index_unlock(page_index *x) { pthread_mutex_unlock(&x->lock); }

doc_instances *page_index_entry(page_index *x, const char *uri) {
    uint32_t *slot = strmap_get(&x->by_uri, uri);
    return slot && x->entries[*slot].uri ? &x->entries[*slot] : NULL;
}

void page_index_count_request_read(page_index *x) { x->read_in_requests++; }

void page_index_counters(page_index *x, gsm_page_counters *out) {
    pthread_mutex_lock(&x->lock);
    out->read_in_background = x->read_in_background;
    out->read_in_requests = x->read_in_requests;
    pthread_mutex_unlock(&x->lock);
    pthread_mutex_lock(&x->queue_lock);
    out->queued = x->written.count + x->warm_up.count;
    pthread_mutex_unlock(&x->queue_lock);
}
