/* wsm_watch.h: what `ldgsm run --machine` checks about the state machine instances it runs, in every
 * iteration, once working memory is derived and before any write is planned: the schema each instance
 * runs is checked by `ldgsm lint` as the agent read it, once per version of its documents (gsm/lint_read.h).
 * Warnings are printed; a schema with an error is refused: the instance's writes are held
 * (`<instance> ldgsm:heldBecause "..."`), so no event is taken on a schema whose transitions are not exactly
 * defined; when every instance of the run is refused the run ends with exit status 1. */
#ifndef LDGSM_WSM_WSM_WATCH_H
#define LDGSM_WSM_WSM_WATCH_H

#include <stddef.h>

#include "agent/agent.h"
#include "gsm/lint_read.h"

typedef struct wsm_watch wsm_watch;

wsm_watch *wsm_watch_new(const char *const *machines, size_t machine_count, const log_sink *log);
void wsm_watch_free(wsm_watch *w);
/* Checks one iteration's working memory, from the agent's inspect hook at AGENT_DERIVED; a refused
 * schema's instance is held through agent_hold. Returns 0, or 1 when every instance is refused. */
int wsm_watch_iteration(wsm_watch *w, agent *a);

#endif
