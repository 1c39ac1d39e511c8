/* incremental.c: the instances an iteration can leave out (incremental.h). */
#include "agent/incremental.h"

#include <stdlib.h>
#include <string.h>

#include "rdf/buf.h"
#include "rdf/strmap.h"

typedef struct noted_doc {
    char *etag;       /* the state noted last: a strong ETag, or NULL for absent */
    uint32_t version; /* goes up whenever that state changes */
    bool asked;       /* revalidated in this iteration */
    bool changed;     /* ... and not answered "unchanged" */
    bool watched;     /* a live channel vouches for that state (incremental_watch) */
    int64_t check_due; /* when its safety poll wants it read by GET */
} noted_doc;

typedef struct seen_doc {
    uint32_t doc, version;
} seen_doc;

typedef struct noted_instance {
    bool quiet, skipped;
    bool listed; /* incremental_retain's mark */
    int64_t wake_ms;
    seen_doc *seen;
    uint32_t seen_count;
} noted_instance;

struct incremental {
    long safety_poll_ms;
    long gather_ms;       /* safety polls due this much after now are made now (incremental.h) */
    int64_t now_ms;       /* this iteration's */
    strmap doc_index;     /* resource -> index in docs (= its entry in the map, whose key it is) */
    noted_doc *docs;
    size_t doc_cap;
    strmap instance_index; /* instance IRI -> index in instances */
    noted_instance *instances;
    size_t instance_cap;
    revalidation *asked;
    size_t asked_count, asked_cap;
    const char **evaluated; /* the noted instances incremental_decide did not leave out */
    size_t evaluated_count, evaluated_cap;
};

incremental *incremental_new(long safety_poll_ms) {
    incremental *inc = xcalloc(1, sizeof *inc);
    inc->safety_poll_ms = safety_poll_ms;
    inc->gather_ms = safety_poll_ms / 8 < 1000 ? safety_poll_ms / 8 : 1000;
    return inc;
}

/* Frees the tables of documents and instances (incremental_retain builds new ones). */
static void tables_free(incremental *inc) {
    for (uint32_t i = 0; i < inc->doc_index.count; i++)
        free(inc->docs[i].etag);
    for (uint32_t i = 0; i < inc->instance_index.count; i++)
        free(inc->instances[i].seen);
    free(inc->docs);
    free(inc->instances);
    strmap_free(&inc->doc_index);
    strmap_free(&inc->instance_index);
}

void incremental_free(incremental *inc) {
    if (!inc)
        return;
    tables_free(inc);
    free(inc->asked);
    free(inc->evaluated);
    free(inc);
}

static bool due(const incremental *inc, const noted_instance *in) {
    return !in->quiet || in->wake_ms <= inc->now_ms;
}

/* A channel stands in for d's GET: it watches d and d's safety poll is not due now. */
static bool fresh(const incremental *inc, const noted_doc *d) {
    return d->watched && d->check_due > inc->now_ms + inc->gather_ms;
}

/* The safety poll of document d after a GET now: within the last quarter of the period, by document, so
 * that documents read together are not all read again together. */
static int64_t next_check(const incremental *inc, uint32_t d) {
    uint64_t spread = (uint64_t)inc->safety_poll_ms / 4 + 1;
    return inc->now_ms + inc->safety_poll_ms - (int64_t)(((uint64_t)d * 2654435761u) % spread);
}

void incremental_watch(incremental *inc, const char *resource, bool watched) {
    const uint32_t *d = strmap_get(&inc->doc_index, resource);
    if (d)
        inc->docs[*d].watched = watched;
}

const revalidation *incremental_begin(incremental *inc, int64_t now_ms, size_t *count) {
    inc->now_ms = now_ms;
    inc->asked_count = 0;
    for (uint32_t d = 0; d < inc->doc_index.count; d++)
        inc->docs[d].asked = inc->docs[d].changed = false;
    for (uint32_t i = 0; i < inc->instance_index.count; i++) {
        noted_instance *in = &inc->instances[i];
        in->skipped = false;
        if (due(inc, in))
            continue;
        for (uint32_t k = 0; k < in->seen_count; k++) {
            noted_doc *d = &inc->docs[in->seen[k].doc];
            if (d->asked)
                continue;
            d->asked = true;
            if (fresh(inc, d))
                continue; /* unchanged without a request */
            if (inc->asked_count == inc->asked_cap) {
                inc->asked_cap = inc->asked_cap ? inc->asked_cap * 2 : 64;
                inc->asked = xrealloc(inc->asked, inc->asked_cap * sizeof *inc->asked);
            }
            inc->asked[inc->asked_count++] =
                (revalidation){.resource = inc->doc_index.keys[in->seen[k].doc], .etag = d->etag};
        }
    }
    *count = inc->asked_count;
    return inc->asked;
}

void incremental_revalidated(incremental *inc, const char *resource, bool unchanged) {
    const uint32_t *d = strmap_get(&inc->doc_index, resource);
    if (!d || !inc->docs[*d].asked)
        return;
    inc->docs[*d].changed = !unchanged;
    if (unchanged)
        inc->docs[*d].check_due = next_check(inc, *d);
}

size_t incremental_decide(incremental *inc) {
    size_t skipped = 0;
    inc->evaluated_count = 0;
    for (uint32_t i = 0; i < inc->instance_index.count; i++) {
        noted_instance *in = &inc->instances[i];
        bool same = !due(inc, in);
        for (uint32_t k = 0; k < in->seen_count && same; k++) {
            const noted_doc *d = &inc->docs[in->seen[k].doc];
            same = d->asked && !d->changed && d->version == in->seen[k].version;
        }
        in->skipped = same;
        skipped += same;
        if (same)
            continue;
        if (inc->evaluated_count == inc->evaluated_cap) {
            inc->evaluated_cap = inc->evaluated_cap ? inc->evaluated_cap * 2 : 64;
            inc->evaluated = xrealloc(inc->evaluated, inc->evaluated_cap * sizeof *inc->evaluated);
        }
        inc->evaluated[inc->evaluated_count++] = inc->instance_index.keys[i];
    }
    return skipped;
}

const char *const *incremental_evaluated(const incremental *inc, size_t *count) {
    *count = inc->evaluated_count;
    return inc->evaluated;
}

bool incremental_skips(const incremental *inc, const char *instance) {
    const uint32_t *i = strmap_get(&inc->instance_index, instance);
    return i && inc->instances[*i].skipped;
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

int64_t incremental_next_due(const incremental *inc, bool *poll) {
    *poll = inc->instance_index.count == 0; /* nothing noted: as polling */
    int64_t next = INT64_MAX;
    /* every wake time counts, beside a busy instance or a polled document too: one that comes before
     * --interval must not wait for it */
    for (uint32_t i = 0; i < inc->instance_index.count; i++) {
        const noted_instance *in = &inc->instances[i];
        if (in->wake_ms < next)
            next = in->wake_ms;
        if (!in->quiet) {
            *poll = true;
            continue;
        }
        for (uint32_t k = 0; k < in->seen_count && !*poll; k++)
            if (!inc->docs[in->seen[k].doc].watched)
                *poll = true;
    }
    for (uint32_t d = 0; d < inc->doc_index.count; d++)
        if (inc->docs[d].watched && inc->docs[d].check_due < next)
            next = inc->docs[d].check_due;
    return next;
}

static uint32_t note_doc(incremental *inc, const char *resource, const char *etag, bool fetched) {
    bool inserted;
    uint32_t *slot = strmap_put(&inc->doc_index, resource, inc->doc_index.count, &inserted);
    if (inserted) {
        if (*slot >= inc->doc_cap) {
            inc->doc_cap = inc->doc_cap ? inc->doc_cap * 2 : 64;
            inc->docs = xrealloc(inc->docs, inc->doc_cap * sizeof *inc->docs);
        }
        inc->docs[*slot] = (noted_doc){.etag = etag ? xstrndup(etag, strlen(etag)) : NULL,
                                       .check_due = next_check(inc, *slot)};
        return *slot;
    }
    noted_doc *d = &inc->docs[*slot];
    if (etag ? !d->etag || strcmp(d->etag, etag) != 0 : d->etag != NULL) {
        free(d->etag);
        d->etag = etag ? xstrndup(etag, strlen(etag)) : NULL;
        d->version++;
        d->watched = false; /* the channel vouched for the state before */
    }
    if (fetched)
        d->check_due = next_check(inc, *slot);
    return *slot;
}

void incremental_note(incremental *inc, const char *instance, bool quiet, int64_t wake_ms,
                      const char *const *resources, const char *const *etags, const bool *fetched, size_t count) {
    bool inserted;
    uint32_t *slot = strmap_put(&inc->instance_index, instance, inc->instance_index.count, &inserted);
    if (inserted && *slot >= inc->instance_cap) {
        inc->instance_cap = inc->instance_cap ? inc->instance_cap * 2 : 64;
        inc->instances = xrealloc(inc->instances, inc->instance_cap * sizeof *inc->instances);
    }
    noted_instance *in = &inc->instances[*slot];
    if (inserted)
        *in = (noted_instance){0};
    in->quiet = quiet;
    in->wake_ms = wake_ms;
    in->skipped = false;
    in->seen = xrealloc(in->seen, (count ? count : 1) * sizeof *in->seen);
    in->seen_count = (uint32_t)count;
    for (size_t k = 0; k < count; k++) {
        uint32_t d = note_doc(inc, resources[k], etags[k], fetched[k]);
        in->seen[k] = (seen_doc){d, inc->docs[d].version};
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
            uint32_t d = in->seen[k].doc;
            if (!doc_of[d]) {
                strmap_put(&kept_docs, inc->doc_index.keys[d], kept_docs.count, NULL);
                docs[kept_docs.count - 1] = inc->docs[d];
                inc->docs[d].etag = NULL;
                doc_of[d] = kept_docs.count;
            }
            in->seen[k].doc = doc_of[d] - 1;
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
}
