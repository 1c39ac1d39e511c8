/* incremental.c: the instances an iteration can leave out (incremental.h).
 *
 * An iteration's cost follows what is due, not what is noted: with 100,000 instances waiting behind live
 * channels, an iteration for one that changed touches that one. What can make an instance be evaluated is
 * kept where it is found at once: the instances due whatever their documents say (not quiet, or their wake
 * time came: `loud`), the documents a GET must revalidate (no channel watches them: `unwatched`; their safety
 * poll is due: the `checks` heap), and per document the instances that read it (`readers`), through which a
 * changed document reaches the instances to evaluate. The lists are kept lazily: an entry that no longer
 * holds (an instance noted quiet since, a document watched again, a reader that stopped reading it) is
 * dropped when met, and an entry may repeat (the marks of one iteration count each once). */
#include "agent/incremental.h"

#include <stdlib.h>
#include <string.h>

#include "rdf/buf.h"
#include "rdf/due_heap.h"
#include "rdf/strmap.h"

typedef struct noted_doc {
    char *etag;        /* the state noted last: a strong ETag, or NULL for absent */
    bool asked;        /* revalidated in this iteration */
    bool changed;      /* ... and not answered "unchanged" */
    bool watched;      /* a live channel vouches for that state (incremental_watch) */
    bool in_unwatched; /* listed in inc->unwatched */
    bool check_taken;  /* its safety poll came due in this iteration (in inc->checking) */
    int64_t check_due; /* when its safety poll wants it read by GET */
    u32vec readers;    /* the instances that noted reading it (lazily: some may have stopped) */
} noted_doc;

typedef struct noted_instance {
    bool quiet;
    bool woken;     /* quiet, and its wake time came: due until it is noted again */
    bool in_loud;   /* listed in inc->loud */
    bool listed;    /* incremental_retain's mark */
    uint64_t mark;  /* the iteration that chose it for evaluation (inc->iteration) */
    int64_t wake_ms;
    uint32_t *seen; /* the documents it read */
    uint32_t seen_count;
} noted_instance;

struct incremental {
    long safety_poll_ms;
    long gather_ms;       /* safety polls due this much after now are made now (incremental.h) */
    int64_t now_ms;       /* this iteration's */
    uint64_t iteration;   /* counts incremental_begin's calls, from 1 */
    bool decided;         /* incremental_decide ran in this iteration */
    strmap doc_index;     /* resource -> index in docs (= its entry in the map, whose key it is) */
    noted_doc *docs;
    size_t doc_cap;
    strmap instance_index; /* instance IRI -> index in instances */
    noted_instance *instances;
    size_t instance_cap;
    u32vec loud;          /* instances due whatever their documents say */
    u32vec unwatched;     /* documents a GET revalidates in every iteration */
    due_heap wakes;       /* quiet instances by wake time */
    due_heap checks;      /* watched documents by safety poll */
    u32vec checking;      /* the documents whose safety poll this iteration makes */
    u32vec asked_docs;    /* the documents revalidated in this iteration */
    revalidation *asked;
    size_t asked_count, asked_cap;
    const char **evaluated; /* the noted instances incremental_decide did not leave out */
    size_t evaluated_count, evaluated_cap;
    size_t work;          /* entries looked at by the last incremental_begin and incremental_decide */
};

incremental *incremental_new(long safety_poll_ms) {
    incremental *inc = xcalloc(1, sizeof *inc);
    inc->safety_poll_ms = safety_poll_ms;
    inc->gather_ms = safety_poll_ms / 8 < 1000 ? safety_poll_ms / 8 : 1000;
    return inc;
}

/* Frees the tables of documents and instances and what is kept of them (incremental_retain builds new
 * ones). */
static void tables_free(incremental *inc) {
    for (uint32_t i = 0; i < inc->doc_index.count; i++) {
        free(inc->docs[i].etag);
        u32vec_free(&inc->docs[i].readers);
    }
    for (uint32_t i = 0; i < inc->instance_index.count; i++)
        free(inc->instances[i].seen);
    free(inc->docs);
    free(inc->instances);
    strmap_free(&inc->doc_index);
    strmap_free(&inc->instance_index);
    inc->loud.len = inc->unwatched.len = inc->checking.len = inc->asked_docs.len = 0;
    due_heap_clear(&inc->wakes);
    due_heap_clear(&inc->checks);
}

void incremental_free(incremental *inc) {
    if (!inc)
        return;
    tables_free(inc);
    u32vec_free(&inc->loud);
    u32vec_free(&inc->unwatched);
    u32vec_free(&inc->checking);
    u32vec_free(&inc->asked_docs);
    due_heap_free(&inc->wakes);
    due_heap_free(&inc->checks);
    free(inc->asked);
    free(inc->evaluated);
    free(inc);
}

static bool due(const noted_instance *in) {
    return !in->quiet || in->woken;
}

/* A channel stands in for d's GET: it watches d and d's safety poll is not due now. */
static bool fresh(const incremental *inc, const noted_doc *d) {
    return d->watched && d->check_due > inc->now_ms + inc->gather_ms;
}

static bool reads(const noted_instance *in, uint32_t doc) {
    for (uint32_t k = 0; k < in->seen_count; k++)
        if (in->seen[k] == doc)
            return true;
    return false;
}

/* The safety poll of document d after a GET now: within the last quarter of the period, by document, so
 * that documents read together are not all read again together. */
static int64_t next_check(const incremental *inc, uint32_t d) {
    uint64_t spread = (uint64_t)inc->safety_poll_ms / 4 + 1;
    return inc->now_ms + inc->safety_poll_ms - (int64_t)(((uint64_t)d * 2654435761u) % spread);
}

/* The heaps keep an entry per change of a time; those no longer current are dropped when they come to the
 * top, and all of them when they outnumber the current ones: a document read by GET in every iteration
 * would otherwise leave one per iteration behind until its old safety poll time. */
static void compact_heaps(incremental *inc) {
    if (inc->checks.count > 2 * (size_t)inc->doc_index.count + 1024) {
        due_heap_clear(&inc->checks);
        for (uint32_t d = 0; d < inc->doc_index.count; d++)
            if (inc->docs[d].watched)
                due_heap_push(&inc->checks, inc->docs[d].check_due, d);
    }
    if (inc->wakes.count > 2 * (size_t)inc->instance_index.count + 1024) {
        due_heap_clear(&inc->wakes);
        for (uint32_t i = 0; i < inc->instance_index.count; i++)
            if (inc->instances[i].wake_ms != INT64_MAX)
                due_heap_push(&inc->wakes, inc->instances[i].wake_ms, i);
    }
}

static void set_check(incremental *inc, uint32_t d, int64_t at) {
    inc->docs[d].check_due = at;
    if (inc->docs[d].watched)
        due_heap_push(&inc->checks, at, d);
}

static void list_unwatched(incremental *inc, uint32_t d) {
    if (!inc->docs[d].in_unwatched) {
        inc->docs[d].in_unwatched = true;
        u32vec_push(&inc->unwatched, d);
    }
}

static void list_loud(incremental *inc, uint32_t i) {
    if (!inc->instances[i].in_loud) {
        inc->instances[i].in_loud = true;
        u32vec_push(&inc->loud, i);
    }
}

void incremental_watch(incremental *inc, const char *resource, bool watched) {
    const uint32_t *d = strmap_get(&inc->doc_index, resource);
    if (!d || inc->docs[*d].watched == watched)
        return;
    inc->docs[*d].watched = watched;
    if (watched)
        due_heap_push(&inc->checks, inc->docs[*d].check_due, *d);
    else
        list_unwatched(inc, *d);
}

/* Drops the unwatched list's entries watched again, and the loud list's entries noted quiet since. */
static void prune_lists(incremental *inc) {
    uint32_t kept = 0;
    for (uint32_t k = 0; k < inc->unwatched.len; k++) {
        uint32_t d = inc->unwatched.data[k];
        if (inc->docs[d].watched)
            inc->docs[d].in_unwatched = false;
        else
            inc->unwatched.data[kept++] = d;
    }
    inc->work += inc->unwatched.len;
    inc->unwatched.len = kept;
    kept = 0;
    for (uint32_t k = 0; k < inc->loud.len; k++) {
        uint32_t i = inc->loud.data[k];
        if (due(&inc->instances[i]))
            inc->loud.data[kept++] = i;
        else
            inc->instances[i].in_loud = false;
    }
    inc->work += inc->loud.len;
    inc->loud.len = kept;
}

/* Takes the wake times and safety polls that came due off their heaps (an entry no longer current is
 * dropped). A woken instance stays due until it is noted again; a document whose safety poll is due stays
 * so until a GET reads it. */
static void take_due(incremental *inc) {
    for (const due_entry *e; (e = due_heap_top(&inc->wakes)) && e->at <= inc->now_ms; due_heap_pop(&inc->wakes)) {
        inc->work++;
        noted_instance *in = &inc->instances[e->id];
        if (in->quiet && in->wake_ms == e->at) {
            in->woken = true;
            list_loud(inc, e->id);
        }
    }
    int64_t horizon = inc->now_ms + inc->gather_ms;
    uint32_t kept = 0;
    for (uint32_t k = 0; k < inc->checking.len; k++) { /* those a GET read meanwhile are no longer due */
        noted_doc *d = &inc->docs[inc->checking.data[k]];
        if (d->watched && d->check_due <= horizon)
            inc->checking.data[kept++] = inc->checking.data[k];
        else
            d->check_taken = false;
    }
    inc->work += inc->checking.len;
    inc->checking.len = kept;
    for (const due_entry *e; (e = due_heap_top(&inc->checks)) && e->at <= horizon; due_heap_pop(&inc->checks)) {
        inc->work++;
        noted_doc *d = &inc->docs[e->id];
        if (d->watched && d->check_due == e->at && !d->check_taken) {
            d->check_taken = true;
            u32vec_push(&inc->checking, e->id);
        }
    }
}

/* Whether some instance that reads d and may be left out (quiet, not woken) still reads it: then a GET
 * revalidates d. Its readers that stopped reading it are dropped on the way. */
static bool read_by_one_left_out(incremental *inc, uint32_t d) {
    u32vec *readers = &inc->docs[d].readers;
    bool found = false;
    uint32_t kept = 0, k = 0;
    for (; k < readers->len && !found; k++) {
        inc->work++;
        const noted_instance *in = &inc->instances[readers->data[k]];
        if (!reads(in, d))
            continue;
        readers->data[kept++] = readers->data[k];
        found = !due(in);
    }
    memmove(readers->data + kept, readers->data + k, (readers->len - k) * sizeof *readers->data);
    readers->len = kept + (readers->len - k);
    return found;
}

static void ask(incremental *inc, uint32_t d) {
    noted_doc *doc = &inc->docs[d];
    if (doc->asked)
        return;
    doc->asked = true;
    doc->changed = false;
    u32vec_push(&inc->asked_docs, d);
    if (!read_by_one_left_out(inc, d))
        return; /* its readers are evaluated whatever a GET would say */
    if (inc->asked_count == inc->asked_cap) {
        inc->asked_cap = inc->asked_cap ? inc->asked_cap * 2 : 64;
        inc->asked = xrealloc(inc->asked, inc->asked_cap * sizeof *inc->asked);
    }
    inc->asked[inc->asked_count++] = (revalidation){.resource = inc->doc_index.keys[d], .etag = doc->etag};
}

const revalidation *incremental_begin(incremental *inc, int64_t now_ms, size_t *count) {
    inc->now_ms = now_ms;
    inc->iteration++;
    inc->decided = false;
    inc->work = 0;
    inc->asked_count = 0;
    for (uint32_t k = 0; k < inc->asked_docs.len; k++)
        inc->docs[inc->asked_docs.data[k]].asked = false;
    inc->asked_docs.len = 0;
    prune_lists(inc);
    take_due(inc);
    for (uint32_t k = 0; k < inc->unwatched.len; k++)
        ask(inc, inc->unwatched.data[k]);
    for (uint32_t k = 0; k < inc->checking.len; k++)
        ask(inc, inc->checking.data[k]);
    *count = inc->asked_count;
    return inc->asked;
}

void incremental_revalidated(incremental *inc, const char *resource, bool unchanged) {
    const uint32_t *d = strmap_get(&inc->doc_index, resource);
    if (!d || !inc->docs[*d].asked)
        return;
    inc->docs[*d].changed = !unchanged;
    if (unchanged)
        set_check(inc, *d, next_check(inc, *d));
}

/* Marks instance i for evaluation in this iteration (once). */
static void choose(incremental *inc, uint32_t i) {
    noted_instance *in = &inc->instances[i];
    if (in->mark == inc->iteration)
        return;
    in->mark = inc->iteration;
    if (inc->evaluated_count == inc->evaluated_cap) {
        inc->evaluated_cap = inc->evaluated_cap ? inc->evaluated_cap * 2 : 64;
        inc->evaluated = xrealloc(inc->evaluated, inc->evaluated_cap * sizeof *inc->evaluated);
    }
    inc->evaluated[inc->evaluated_count++] = inc->instance_index.keys[i];
}

size_t incremental_decide(incremental *inc) {
    inc->evaluated_count = 0;
    for (uint32_t k = 0; k < inc->loud.len; k++)
        choose(inc, inc->loud.data[k]);
    /* a document a GET found changed: its readers (one that saw an older state than the one revalidated
     * was woken when the newer one was noted: note_doc) */
    for (uint32_t k = 0; k < inc->asked_docs.len; k++) {
        const noted_doc *doc = &inc->docs[inc->asked_docs.data[k]];
        for (uint32_t r = 0; doc->changed && r < doc->readers.len; r++) {
            inc->work++;
            if (reads(&inc->instances[doc->readers.data[r]], inc->asked_docs.data[k]))
                choose(inc, doc->readers.data[r]);
        }
    }
    inc->decided = true;
    return inc->instance_index.count - inc->evaluated_count;
}

const char *const *incremental_evaluated(const incremental *inc, size_t *count) {
    *count = inc->evaluated_count;
    return inc->evaluated;
}

bool incremental_skips(const incremental *inc, const char *instance) {
    const uint32_t *i = strmap_get(&inc->instance_index, instance);
    return i && inc->decided && inc->instances[*i].mark != inc->iteration;
}

bool incremental_knows(const incremental *inc, const char *resource) {
    return strmap_get(&inc->doc_index, resource) != NULL;
}

bool incremental_vouches(const incremental *inc, const char *resource, const char *etag) {
    const uint32_t *slot = strmap_get(&inc->doc_index, resource);
    if (!slot)
        return false;
    const noted_doc *d = &inc->docs[*slot];
    return fresh(inc, d) && (etag ? d->etag && strcmp(d->etag, etag) == 0 : !d->etag);
}

int64_t incremental_next_due(incremental *inc, bool *poll) {
    *poll = inc->instance_index.count == 0; /* nothing noted: as polling */
    for (uint32_t k = 0; k < inc->loud.len && !*poll; k++)
        *poll = !inc->instances[inc->loud.data[k]].quiet;
    int64_t next = INT64_MAX;
    for (uint32_t k = 0; k < inc->loud.len; k++)
        if (inc->instances[inc->loud.data[k]].woken)
            next = inc->now_ms; /* woken and not evaluated since */
    /* a document a GET must revalidate: some instance that may be left out reads it */
    for (uint32_t k = 0; k < inc->unwatched.len && !*poll; k++)
        *poll = !inc->docs[inc->unwatched.data[k]].watched && read_by_one_left_out(inc, inc->unwatched.data[k]);
    /* every wake time counts, beside a busy instance or a polled document too: one that comes before
     * --interval must not wait for it */
    for (const due_entry *e; (e = due_heap_top(&inc->wakes)); due_heap_pop(&inc->wakes)) {
        if (inc->instances[e->id].wake_ms == e->at) {
            next = e->at < next ? e->at : next;
            break;
        }
    }
    for (const due_entry *e; (e = due_heap_top(&inc->checks)); due_heap_pop(&inc->checks)) {
        const noted_doc *d = &inc->docs[e->id];
        if (d->watched && d->check_due == e->at) {
            next = e->at < next ? e->at : next;
            break;
        }
    }
    for (uint32_t k = 0; k < inc->checking.len; k++)
        if (inc->docs[inc->checking.data[k]].check_due < next)
            next = inc->docs[inc->checking.data[k]].check_due;
    return next;
}

size_t incremental_work(const incremental *inc) {
    return inc->work;
}

/* Notes the state instance `reader` read of resource. A change of state makes the document's other readers
 * due (they saw the state before), and ends what its channel vouched for. */
static uint32_t note_doc(incremental *inc, const char *resource, const char *etag, bool fetched) {
    bool inserted;
    uint32_t *slot = strmap_put(&inc->doc_index, resource, inc->doc_index.count, &inserted);
    uint32_t d = *slot;
    if (inserted) {
        inc->docs = xgrow_zeroed(inc->docs, &inc->doc_cap, d, sizeof *inc->docs);
        inc->docs[d] = (noted_doc){.etag = etag ? xstrndup(etag, strlen(etag)) : NULL};
        set_check(inc, d, next_check(inc, d));
        list_unwatched(inc, d);
        return d;
    }
    noted_doc *doc = &inc->docs[d];
    if (etag ? !doc->etag || strcmp(doc->etag, etag) != 0 : doc->etag != NULL) {
        free(doc->etag);
        doc->etag = etag ? xstrndup(etag, strlen(etag)) : NULL;
        if (doc->watched) { /* the channel vouched for the state before */
            doc->watched = false;
            list_unwatched(inc, d);
        }
        /* its other readers saw the state before: each is evaluated in the next iteration */
        for (uint32_t k = 0; k < doc->readers.len; k++) {
            noted_instance *in = &inc->instances[doc->readers.data[k]];
            if (in->quiet && !in->woken && reads(in, d)) {
                in->woken = true;
                list_loud(inc, doc->readers.data[k]);
            }
        }
    }
    if (fetched)
        set_check(inc, d, next_check(inc, d));
    return d;
}

void incremental_note(incremental *inc, const char *instance, bool quiet, int64_t wake_ms,
                      const char *const *resources, const char *const *etags, const bool *fetched, size_t count) {
    bool inserted;
    uint32_t i = *strmap_put(&inc->instance_index, instance, inc->instance_index.count, &inserted);
    if (inserted) {
        inc->instances = xgrow_zeroed(inc->instances, &inc->instance_cap, i, sizeof *inc->instances);
        inc->instances[i] = (noted_instance){0};
    }
    uint32_t *before = inc->instances[i].seen;
    uint32_t before_count = inc->instances[i].seen_count;
    inc->instances[i].seen = NULL; /* not among the readers note_doc wakes */
    inc->instances[i].seen_count = 0;
    uint32_t *seen = xcalloc(count ? count : 1, sizeof *seen);
    for (size_t k = 0; k < count; k++) {
        uint32_t d = note_doc(inc, resources[k], etags[k], fetched[k]);
        seen[k] = d;
        bool was_reader = false;
        for (uint32_t b = 0; b < before_count && !was_reader; b++)
            was_reader = before[b] == d;
        if (!was_reader)
            u32vec_push(&inc->docs[d].readers, i);
    }
    free(before);
    noted_instance *in = &inc->instances[i]; /* note_doc does not move the instances */
    in->seen = seen;
    in->seen_count = (uint32_t)count;
    in->quiet = quiet;
    in->woken = false;
    in->wake_ms = wake_ms;
    in->mark = inc->iteration; /* evaluated in this iteration: not left out */
    if (!quiet)
        list_loud(inc, i);
    if (wake_ms != INT64_MAX)
        due_heap_push(&inc->wakes, wake_ms, i);
    compact_heaps(inc);
}

/* Rebuilds what is kept beside the tables (readers, lists, heaps) from them, after incremental_retain
 * renumbered them. */
static void rebuild_kept(incremental *inc) {
    for (uint32_t i = 0; i < inc->instance_index.count; i++) {
        noted_instance *in = &inc->instances[i];
        in->in_loud = false;
        for (uint32_t k = 0; k < in->seen_count; k++)
            u32vec_push(&inc->docs[in->seen[k]].readers, i);
        if (due(in))
            list_loud(inc, i);
        if (in->wake_ms != INT64_MAX)
            due_heap_push(&inc->wakes, in->wake_ms, i);
    }
    for (uint32_t d = 0; d < inc->doc_index.count; d++) {
        noted_doc *doc = &inc->docs[d];
        doc->in_unwatched = doc->check_taken = doc->asked = false;
        if (doc->watched)
            due_heap_push(&inc->checks, doc->check_due, d);
        else
            list_unwatched(inc, d);
    }
}

void incremental_retain(incremental *inc, const char *const *instances, size_t count) {
    size_t listed = 0;
    for (size_t i = 0; i < count; i++) {
        const uint32_t *slot = strmap_get(&inc->instance_index, instances[i]);
        if (slot && !inc->instances[*slot].listed) {
            inc->instances[*slot].listed = true;
            listed++;
        }
    }
    for (uint32_t i = 0; i < inc->instance_index.count; i++)
        inc->instances[i].listed = false;
    if (listed == inc->instance_index.count)
        return; /* every instance noted is still in the run */
    strmap kept = {0}, kept_docs = {0};
    noted_instance *kept_instances = xcalloc(count ? count : 1, sizeof *kept_instances);
    uint32_t *doc_of = xcalloc(inc->doc_index.count ? inc->doc_index.count : 1, sizeof *doc_of); /* 1 + new index */
    noted_doc *docs = xcalloc(inc->doc_index.count ? inc->doc_index.count : 1, sizeof *docs);
    for (size_t i = 0; i < count; i++) {
        const uint32_t *old = strmap_get(&inc->instance_index, instances[i]);
        bool inserted;
        if (!old || (strmap_put(&kept, instances[i], kept.count, &inserted), !inserted))
            continue;
        noted_instance *in = &kept_instances[kept.count - 1];
        *in = inc->instances[*old];
        inc->instances[*old].seen = NULL;
        for (uint32_t k = 0; k < in->seen_count; k++) {
            uint32_t d = in->seen[k];
            if (!doc_of[d]) {
                strmap_put(&kept_docs, inc->doc_index.keys[d], kept_docs.count, NULL);
                docs[kept_docs.count - 1] = inc->docs[d];
                docs[kept_docs.count - 1].readers = (u32vec){0};
                inc->docs[d].etag = NULL;
                doc_of[d] = kept_docs.count;
            }
            in->seen[k] = doc_of[d] - 1;
        }
    }
    tables_free(inc); /* what moved to the new tables was taken out of the old */
    free(doc_of);
    inc->instance_index = kept;
    inc->instances = kept_instances;
    inc->instance_cap = count ? count : 1;
    inc->doc_index = kept_docs;
    inc->docs = docs;
    inc->doc_cap = inc->doc_index.count ? inc->doc_index.count : 1;
    inc->asked_count = 0; /* its strings were the old map's */
    inc->evaluated_count = 0;
    rebuild_kept(inc);
}
