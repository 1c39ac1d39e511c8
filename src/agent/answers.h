/* answers.h: the answers to requests that asked for one (`ldgsm:reportTo`, docs/DESIGN.md §6.1). An
 * answer is kept from the iteration that sent its request and asserted into every later one until an
 * iteration that read the document it reports to finds no rule awaiting it (`<answer> ldgsm:awaited
 * true`): the write that takes an answer in may lose a race (412) and be made again, and an agent must not
 * forget an answer before its rules have recorded it.
 *
 *   1. An answer's body keeps only triples about the answering service's own resources (or blank nodes),
 *      none about the status document it goes to nor with a gsm: or ldgsm: term, at most 1000: a service
 *      can neither change a workflow's state nor vouch for other resources by what it answers.
 *   2. A request not sent because the agent is stopping has no answer. */
#ifndef LDGSM_AGENT_ANSWERS_H
#define LDGSM_AGENT_ANSWERS_H

#include <stddef.h>

#include "agent/plan.h"
#include "agent/sentries.h"
#include "agent/vocab.h"
#include "http/http_client.h"
#include "rdf/log.h"
#include "rdf/rdfio.h"
#include "rdf/store.h"

typedef struct answers answers;

/* What taking in an answer reads: the iteration's working memory (results' queries read it) and how to
 * parse and log. */
typedef struct answer_env {
    terms *t;
    const agent_vocab *v;
    store *wm;
    rdfio *io;
    const log_sink *log;
    sentry_table *sentries; /* its text parser reads the results' queries (results.h) */
} answer_env;

answers *answers_new(void);
void answers_free(answers *as);
/* Keeps the answer to w, a sent request that asked for one, to be asserted from the next iteration on. */
void answers_record(answers *as, const answer_env *e, const planned_write *w, const http_result *res);
/* Phase 2: every kept answer into wm, in graph. */
void answers_assert(answers *as, store *wm, term_id graph);
/* Phase 8: forgets the answers no rule awaits, of the iterations that read the document each reports to
 * (docs[*doc_index[identity]]); one whose document was not read is kept. */
void answers_drop_taken(answers *as, const answer_env *e, const doc_state *docs, const strmap *doc_index);
/* Where every term the answers hold is (*held, to free), for a release of terms to update them
 * (release.h); returns how many. */
size_t answers_held_terms(answers *as, term_id ***held);

#endif
