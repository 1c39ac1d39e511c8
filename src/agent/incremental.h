/* incremental.h: the instances an iteration can leave out (docs/DESIGN.md §1.4; the specification's section 9,
 * "Incremental iterations"; `ldgsm run --incremental`).
 *
 * What an instance's evaluation derives depends only on the documents it read, the answers it waits for
 * and the clock. After an iteration the agent notes, for every instance it evaluated, whether it was quiet
 * (it derived no unsafe request and none of its reads failed), the state of every document it read (a strong ETag, or absent for a 404 or 410), and its next wake time (the
 * earliest `ldgsm:wakeAt` still to come). Before the next iteration the documents of the quiet instances
 * whose wake time has not come are revalidated (one conditional GET each, shared by every instance that
 * read it); an instance all of whose documents answered "unchanged" is left out: nothing of it is
 * asserted, read, parsed or derived. It is evaluated again once a document of it changes or its wake time
 * comes.
 *
 * When an instance notes a document in another state than the one noted before, the document's other
 * readers saw the older state: each is evaluated in the next iteration, whatever the server answers for
 * the newer one. A document with no strong ETag cannot be revalidated, so its readers are never quiet.
 *
 * An iteration's cost follows what is due, not what is noted (incremental.c): with every document watched
 * by a live channel and nothing due, an iteration looks at no instance (incremental_work counts).
 *
 * With notifications a live channel stands in for a document's GET (the agent says which documents one
 * watches, incremental_watch). The safety poll (--safety-poll) is kept per document: each one is read by GET
 * at least that often whatever its channel says, so a notification lost on an open channel is made up for
 * by then; the times are spread over the last quarter of the period, by document, and those due within a
 * gathering window (an eighth of the period, at most a second) are read together, so that the safety
 * poll of many documents is a trickle of conditional GETs rather than a burst, and nothing is evaluated
 * again for it unless a GET finds a change. */
#ifndef LDGSM_AGENT_INCREMENTAL_H
#define LDGSM_AGENT_INCREMENTAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct incremental incremental;

/* What a revalidation asks for: If-None-Match etag, or (etag NULL) whether it is still absent. */
typedef struct revalidation {
    const char *resource;
    const char *etag;
} revalidation;

/* safety_poll_ms: the longest a document goes without a GET (> 0). */
incremental *incremental_new(long safety_poll_ms);
void incremental_free(incremental *inc);

/* Whether a live notifications channel vouches that resource is still in the state noted (notifications.h):
 * then it is not revalidated by GET until its safety poll. Nothing for a resource not noted. */
void incremental_watch(incremental *inc, const char *resource, bool watched);

/* Begins an iteration at now_ms (milliseconds since the epoch). Returns the documents to revalidate, valid
 * until the next call, and their count in *count: those of the quiet instances whose wake time has not come
 * that no channel watches or whose safety poll is due. */
const revalidation *incremental_begin(incremental *inc, int64_t now_ms, size_t *count);
/* The answer to one revalidation: unchanged for a 304, a 2xx with the same strong ETag, or a 404 or 410 of
 * a document noted absent. */
void incremental_revalidated(incremental *inc, const char *resource, bool unchanged);
/* Decides, once every revalidation is answered, which instances this iteration leaves out; their count. */
size_t incremental_decide(incremental *inc);
bool incremental_skips(const incremental *inc, const char *instance);
/* The noted instances this iteration evaluates (those incremental_decide did not leave out; an instance never
 * noted is evaluated too, and is not among them), valid until incremental_retain. */
const char *const *incremental_evaluated(const incremental *inc, size_t *count);
/* True when resource is a document some instance noted read. */
bool incremental_knows(const incremental *inc, const char *resource);
/* True when a channel watches resource, noted in state etag (NULL: absent), and its safety poll is not
 * due in this iteration: what a GET of it would answer is known without one. */
bool incremental_vouches(const incremental *inc, const char *resource, const char *etag);

/* When the next iteration is needed: the earliest of the instances' wake times and the documents' safety
 * polls, in the past when one passed already (at once). *poll is set when, besides, an instance noted is
 * not quiet or a document of a quiet one is watched by no channel (it must be revalidated by GET), or
 * nothing is noted yet: the caller comes back at --interval, if sooner. */
int64_t incremental_next_due(incremental *inc, bool *poll);
/* How many entries (instances, documents, readers, timers) the last incremental_begin and incremental_decide
 * looked at: the iteration's bookkeeping, for tests of its cost. */
size_t incremental_work(const incremental *inc);

/* After an evaluation of instance: quiet as above; wake_ms its next wake time (INT64_MAX: none); the
 * documents it read and their states (etags[i] a strong ETag, or NULL: absent), fetched[i] true when this
 * iteration read it by GET rather than taking a channel's word (the safety poll counts from there). A
 * document whose state cannot be revalidated is given as not quiet by the caller. */
void incremental_note(incremental *inc, const char *instance, bool quiet, int64_t wake_ms,
                      const char *const *resources, const char *const *etags, const bool *fetched, size_t count);

/* Forgets every instance not among instances[0..count) and the documents only they read (an instance that
 * left the run, e.g. a container member deleted): what is kept stays the size of the run. */
void incremental_retain(incremental *inc, const char *const *instances, size_t count);

#endif
