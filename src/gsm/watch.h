/* watch.h: what `ldgsm run` checks about the GSM instances it runs, in every iteration, once working memory
 * is derived and before any write is planned (docs/DESIGN.md §6.5: an agent never waits silently):
 *
 *   lint       every model an instance runs is checked by `ldgsm lint` (gsm/lint.h) as the agent read it:
 *              each version of the model once (its documents and their ETags). Warnings are printed; a
 *              model with an error is refused: the instance's writes are held
 *              (`<instance> ldgsm:heldBecause "..."`) so no stage of it opens and no task is sent, and
 *              when every instance of the run is refused the run ends with exit status 1.
 *   cycling    a stage that opens again while nothing its sentries read has changed since it last opened
 *              (the same ETags of the resources they name) cycles: opened, closed by a milestone, opened
 *              again by the same inputs, re-sending its task each time. It is named once, with the
 *              milestones whose achieving and invalidating sentries both hold.
 *   progress   at -v, one line per instance when its stages or milestones changed, and every 10
 *              iterations without change how long it has rested.
 *
 * The watcher keeps only what it needs to compare iterations (the last state seen per fragment); the
 * workflow's state stays on the servers. */
#ifndef LDGSM_GSM_WATCH_H
#define LDGSM_GSM_WATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "agent/agent.h"
#include "gsm/lint_read.h"
#include "rdf/log.h"
#include "rdf/store.h"
#include "rdf/term.h"

typedef struct gsm_watch gsm_watch;

typedef struct gsm_watch_options {
    bool open_ended;              /* the run goes on when every instance it has is refused: instances come
                                     and go (--instances-from), or the command only looks (ldgsm status) */
    bool compat_authors_draft;    /* lint reads the authors' draft vocabulary */
    bool verbose;                 /* progress lines */
    const log_sink *log;
} gsm_watch_options;

gsm_watch *gsm_watch_new(const gsm_watch_options *options);
void gsm_watch_free(gsm_watch *w);

/* Checks one iteration's working memory for the instances the run has in it (agent_instances), from the
 * agent's inspect hook at AGENT_DERIVED (gsm/inspect.h); a refused model's instance is held through
 * agent_hold. Returns 0, or 1 when every instance is refused and the run is not open-ended (the run
 * ends). */
int gsm_watch_iteration(gsm_watch *w, agent *a);

#endif
