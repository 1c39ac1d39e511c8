/* doc_cache.h: the documents the agent read or wrote, parsed, kept per strong ETag across iterations
 * (docs/DESIGN.md §2.6), so that a document that did not change costs neither a transfer nor a parse:
 * the next GET sends the tag in If-None-Match and a 304 (or a 200 with the same strong tag) brings back
 * the triples held.
 *
 *   1. Only a strong ETag keys an entry (RFC 9110 8.8.1: a weak one does not promise the same bytes), and
 *      an entry stands for one resource, one tag and the base its IRIs were resolved against; a different
 *      tag or base replaces it.
 *   2. A composed write that returned 2xx with a strong ETag keys the document it wrote: a PUT, or a
 *      conditional PATCH (the server applied it to the state that was read). Its blank nodes are renamed
 *      to fresh ones, as a parse of the stored document would give.
 *   3. An entry no GET used for DOC_CACHE_IDLE_ITERATIONS iterations is dropped: the cache holds what the
 *      agent reads now, not every document it ever read.
 *   4. The terms of the triples held survive a release of the term table (agent/release.h): their ids are
 *      handed out by doc_cache_held_terms and updated in place. */
#ifndef LDGSM_AGENT_DOC_CACHE_H
#define LDGSM_AGENT_DOC_CACHE_H

#include <stdbool.h>
#include <stddef.h>

#include "rdf/term.h"

enum { DOC_CACHE_IDLE_ITERATIONS = 2 };

typedef struct doc_cache doc_cache;

doc_cache *doc_cache_new(void);
void doc_cache_free(doc_cache *c);

/* Starts an iteration: drops the entries no GET used in the last DOC_CACHE_IDLE_ITERATIONS. */
void doc_cache_begin_iteration(doc_cache *c, unsigned long iteration);
/* The strong ETag held for resource (for If-None-Match), or NULL. */
const char *doc_cache_etag(const doc_cache *c, const char *resource);
/* The triples held for resource under this strong ETag and base, or NULL; marks the entry used.
 * *takes_n3_patch: what the answer that brought them said of N3 Patch (a 304 need not repeat it). */
const triple *doc_cache_take(doc_cache *c, const char *resource, const char *etag, const char *base, size_t *count,
                             bool *takes_n3_patch);
/* Holds ts[0..n) (the cache takes the array, allocated with malloc) as resource's representation with
 * the strong ETag etag, its IRIs resolved against base; replaces what was held for resource. */
void doc_cache_keep(doc_cache *c, const char *resource, const char *etag, const char *base, bool takes_n3_patch,
                    triple *ts, size_t n);
/* Holds a copy of ts[0..n), each blank node renamed to a fresh one (guarantee 2); holds nothing for
 * resource when a term is a list or a formula (those are written as what reads back differently). */
void doc_cache_keep_written(doc_cache *c, terms *t, const char *resource, const char *etag, const char *base,
                            bool takes_n3_patch, const triple *ts, size_t n);
/* Forgets what is held for resource (a write whose outcome does not say what the document now is). */
void doc_cache_forget(doc_cache *c, const char *resource);
/* Every term id held, as pointers for a release to update (*held: malloc'd); returns how many. */
size_t doc_cache_held_terms(doc_cache *c, term_id ***held);
/* How many entries and triples are held (for the log and the tests). */
size_t doc_cache_entries(const doc_cache *c, size_t *triples);

#endif
