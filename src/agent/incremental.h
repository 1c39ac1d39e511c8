/* incremental.h: the instances an iteration can leave out (docs/DESIGN.md §1.4; the specification's section 9,
 * "Incremental iterations"; `ldgsm run --incremental`).
 *
 * What an instance's evaluation derives depends only on the documents it read, the answers it waits for
 * and the clock. After an iteration the agent notes, for every instance it evaluated, whether it was quiet
 * (it derived no unsafe request and none of its reads failed), the state of every document it read (a strong ETag, or absent for a 404 or 410), and its next wake time (the
 * earliest `ldgsm:wakeAt` still to come). Before the next iteration the documents of the quiet instances
 * whose wake time has not come are revalidated (one conditional GET each, shared by every instance that
 * read it); an instance all of whose documents answered "unchanged" is left out: nothing of it is
 * asserted, read, parsed or derived. It is evaluated again once a document of it changes, its wake time
 * comes, or in the full iteration every --safety-poll makes of every instance.
 *
 * A document's version goes up whenever the state noted for it changes, and an instance remembers the
 * version it saw: one that saw an older state than the one revalidated is evaluated, whatever the server
 * answers for the newer one. A document with no strong ETag cannot be revalidated, so its readers are
 * never quiet. */
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

/* safety_poll_ms: the longest an instance is left out (> 0). */
incremental *incremental_new(long safety_poll_ms);
void incremental_free(incremental *inc);

/* Says whether something other than a GET vouches that resource is still in the state noted, etag (NULL:
 * absent): a live notifications channel (notifications.h). NULL: nothing does. */
typedef bool (*incremental_vouch_fn)(void *user, const char *resource, const char *etag);

/* Begins an iteration at now_ms (milliseconds since the epoch). Returns the documents to revalidate, valid
 * until the next call, and their count in *count; none when this iteration evaluates every instance (the
 * first, or --safety-poll after the last full one: *full is then true). A document vouch() vouches for is
 * taken as unchanged without being asked for. */
const revalidation *incremental_begin(incremental *inc, int64_t now_ms, incremental_vouch_fn vouch, void *user,
                                      size_t *count, bool *full);
/* The answer to one revalidation: unchanged for a 304, a 2xx with the same strong ETag, or a 404 or 410 of
 * a document noted absent. */
void incremental_revalidated(incremental *inc, const char *resource, bool unchanged);
/* Decides, once every revalidation is answered, which instances this iteration leaves out; their count. */
size_t incremental_decide(incremental *inc);
bool incremental_skips(const incremental *inc, const char *instance);
/* True when resource is a document some instance noted read. */
bool incremental_knows(const incremental *inc, const char *resource);

/* When the next iteration is needed: the earliest of the quiet instances' wake times and the next full
 * iteration (--safety-poll), in the past when one passed already (while the last iteration ran: at once).
 * *poll is set when, besides, an instance noted is not quiet or a document of a quiet one has no vouch() (it
 * must be revalidated by GET), or nothing is noted yet: the caller comes back at --interval, if sooner. */
int64_t incremental_next_due(const incremental *inc, incremental_vouch_fn vouch, void *user, bool *poll);

/* When the next full iteration is due (--safety-poll after the last one began); INT64_MIN before the first. */
int64_t incremental_next_full(const incremental *inc);

/* After an evaluation of instance: quiet as above; wake_ms its next wake time (INT64_MAX: none); the
 * documents it read and their states (etags[i] a strong ETag, or NULL: absent). A document whose state
 * cannot be revalidated is given as not quiet by the caller. */
void incremental_note(incremental *inc, const char *instance, bool quiet, int64_t wake_ms,
                      const char *const *resources, const char *const *etags, size_t count);

/* Forgets every instance not among instances[0..count) and the documents only they read (an instance that
 * left the run, e.g. a container member deleted): what is kept stays the size of the run. */
void incremental_retain(incremental *inc, const char *const *instances, size_t count);

#endif
