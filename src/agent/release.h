/* release.h: releasing the terms iterations interned (phase 0 of agent.h's list; rdf/term.h). Every poll
 * parses the documents that changed (with fresh blank nodes) and the rules make new terms: an agent that
 * runs for months must not keep them.
 *
 *   1. Only terms interned after `lasting` (what agent_new interned: rules, inputs, vocabulary) go.
 *   2. What outlives an iteration holds its terms as text (discovery, the watchers) or is kept through the
 *      release with its ids updated (the answers still to be taken in, answers.h; the documents held per
 *      ETag, doc_cache.h).
 *   3. What is made of released terms is dropped and made again: the compiled sentries, and the request
 *      identities once more than IDENTITIES_KEPT piled up. */
#ifndef LDGSM_AGENT_RELEASE_H
#define LDGSM_AGENT_RELEASE_H

#include <stddef.h>

#include "agent/answers.h"
#include "agent/doc_cache.h"
#include "agent/request.h"
#include "agent/sentries.h"
#include "rdf/log.h"
#include "rdf/term.h"

/* Releases the terms interned since lasting when more than `after` (0: the default, release.c) piled up
 * beyond the *kept_before the last release kept (updated); between two iterations only. */
void release_terms(terms *t, terms_mark *lasting, size_t after, size_t *kept_before, answers *kept,
                   doc_cache *documents, sentry_table *sentries, identity_cache *identities, const log_sink *log);

#endif
