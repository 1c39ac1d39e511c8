/* wsm_watch.h: what `ldgsm run --machine` checks about the state machine instances it runs, in every
 * iteration, once working memory is derived and before any write is planned: the schema each instance
 * runs is checked by `ldgsm lint` as the agent read it, once per version of its documents (gsm/lint_read.h).
 * Warnings are printed; a schema with an error is refused: the instance's writes are held
 * (`<instance> ldgsm:heldBecause "..."`); when every instance of the run is refused the run ends with exit
 * status 1. Two transitions from one state on one event are a warning here, not a refusal (wsm_lint.h): the
 * rules hold an instance whose next event meets them, naming the state and the event, until the schema
 * is fixed, and every other instance goes on. */
#ifndef LDGSM_WSM_WSM_WATCH_H
#define LDGSM_WSM_WSM_WATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "agent/agent.h"
#include "gsm/lint_read.h"

typedef struct wsm_watch wsm_watch;

/* open_ended: the caller goes on when every instance is refused (`ldgsm status` only looks). */
wsm_watch *wsm_watch_new(const char *const *machines, size_t machine_count, bool open_ended, const log_sink *log);
void wsm_watch_free(wsm_watch *w);
/* Checks one iteration's working memory, from the agent's inspect hook at AGENT_DERIVED; a refused
 * schema's instance is held through agent_hold. Returns 0, or 1 when every instance is refused and the
 * watcher is not open-ended. */
int wsm_watch_iteration(wsm_watch *w, agent *a);

#endif
