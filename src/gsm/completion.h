/* completion.h: when a run of GSM instances under `ldgsm run --until complete` ends (docs/DESIGN.md §1.1,
 * phases 4 and 11; §5.2): read from the working memory the agent derived, through the agent's inspect hook
 * (gsm/inspect.h). Both only read working memory.
 *
 *   1. An instance whose root model is a stage with no milestone can never complete: the run is refused
 *      once the model is read (gsm_never_completes), before anything is evaluated or sent.
 *   2. The run ends with 0 when every instance's root stage is completed as its document says, and with 5
 *      when the others failed and nothing more is to be done (gsm_completion).
 *   3. A run --iterations ended before either ends with 6, each instance not complete named (gsm_cut_short). */
#ifndef LDGSM_GSM_COMPLETION_H
#define LDGSM_GSM_COMPLETION_H

#include <stdbool.h>
#include <stddef.h>

#include "rdf/log.h"
#include "rdf/store.h"
#include "rdf/term.h"

/* True when some instance's root model has no milestone (each such instance is reported as an error). */
bool gsm_never_completes(terms *t, store *wm, const char *const *instances, size_t instance_count,
                         const log_sink *log);

/* What working memory says of one instance it holds: its root stage completed, completed by a failure
 * milestone of its own ("all alternatives failed"), failed with its stage still open (an exhausted call, an
 * achieved failure milestone), or going on. */
enum gsm_verdict { GSM_GOING_ON, GSM_COMPLETE, GSM_FAILED_COMPLETED, GSM_FAILED_OPEN };
enum gsm_verdict gsm_instance_verdict(terms *t, store *wm, const char *instance);

/* Of the instances' verdicts: 0 when every one is complete (said as "every workflow instance is
 * complete"); 5 when the others failed, each reported, and nothing more is to be done (busy false: the
 * iteration sent nothing and no call is calling); -1 while the run goes on, and when there are no instances
 * yet (only --instances-from). */
int gsm_completion(const char *const *instances, const enum gsm_verdict *verdicts, size_t instance_count, bool busy,
                   const log_sink *log);

/* 6, after saying which instances are not complete (or that none was listed yet: only --instances-from). */
int gsm_cut_short(const char *const *instances, const enum gsm_verdict *verdicts, size_t instance_count,
                  const log_sink *log);

#endif
