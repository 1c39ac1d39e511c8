/* inspect.h: what the GSM layer does in an `ldgsm run` of GSM instances, through the agent's inspect hook
 * (agent/agent.h, agent_options.inspect): the agent's loop knows nothing of GSM; this hook, installed by
 * the command, brings it in at three moments of each iteration, and at the end of a run cut short:
 *
 *   AGENT_CRAWLED  an instance document written in the authors' draft vocabulary (only models may use
 *                  it, through --compat authors-draft) ends the run with status 1, saying what to write
 *                  instead; so does, under --until complete, an instance whose root model has no
 *                  milestone (gsm_never_completes, gsm/completion.h); both before anything is evaluated
 *                  or sent
 *   AGENT_DERIVED  the watcher (gsm/watch.h): lint of the models as read, holding a refused model's
 *                  instance through agent_hold; cycling stages; progress lines. Every instance refused:
 *                  the run ends with status 1 after this iteration
 *   AGENT_ENDED    --until complete: 0 when every instance is complete, 5 when the rest failed with
 *                  nothing more to do (gsm_completion); an instance the iteration left out (--incremental)
 *                  counts as it was when last evaluated
 *   AGENT_CUT_SHORT  --until complete ended by --iterations: 6, naming the instances not complete
 *                  (gsm_cut_short)
 *
 * It reads working memory through agent_terms, agent_memory and agent_instances and writes it only through
 * agent_hold. */
#ifndef LDGSM_GSM_INSPECT_H
#define LDGSM_GSM_INSPECT_H

#include <stdbool.h>

#include "agent/agent.h"
#include "gsm/watch.h"
#include "rdf/strmap.h"

typedef struct gsm_inspect {
    gsm_watch *watch;    /* the watcher (owned by the caller) */
    bool until_complete; /* --until complete */
    const log_sink *log;
    strmap verdicts;     /* instance -> its last enum gsm_verdict: what holds of an instance an iteration left out */
} gsm_inspect;

void gsm_inspect_free(gsm_inspect *g);

/* The inspect hook's shape (agent_options.inspect), user a gsm_inspect: AGENT_GO_ON or an exit status. */
int gsm_inspect_phase(void *user, agent *a, agent_phase phase, const iteration_stats *stats);

#endif
