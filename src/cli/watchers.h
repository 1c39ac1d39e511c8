/* watchers.h: the agent's inspect hook (agent/agent.h, agent_options.inspect) of a command over workflow
 * instances: GSM instances go to the GSM layer (gsm/inspect.h: the watcher's lint, cycling stages and
 * progress; --until complete), state machines to their watcher (wsm/wsm_watch.h: the lint of their
 * schemas). `ldgsm run` ends when either watcher finds every instance of its kind refused; `ldgsm status`
 * installs the same hook, so that it shows an instance held as a run would hold it. */
#ifndef LDGSM_CLI_WATCHERS_H
#define LDGSM_CLI_WATCHERS_H

#include "agent/agent.h"
#include "gsm/inspect.h"
#include "wsm/wsm_watch.h"

typedef struct watchers {
    gsm_inspect gsm; /* gsm.watch NULL: no GSM instances */
    wsm_watch *wsm;  /* NULL: no state machines */
} watchers;

/* What a command watches: the GSM watcher when gsm_instances (open_ended: more instances may come from
 * containers; the watcher's options otherwise as gsm_watch_options), the state machine watcher when
 * opt->machine_count (status_only: `ldgsm status`, which reports and never ends a run). */
typedef struct watchers_options {
    bool gsm_instances, open_ended, compat_authors_draft, verbose, until_complete, status_only;
    const log_sink *log;
} watchers_options;

/* Opens the watchers and installs the hook in *opt when there is one to install. */
void watchers_open(watchers *w, agent_options *opt, const watchers_options *with);

/* The hook itself, user a watchers: AGENT_GO_ON or the exit status the run ends with. */
int watchers_inspect(void *user, agent *a, agent_phase phase, const iteration_stats *stats);

/* Frees both watchers (either may be absent). */
void watchers_free(watchers *w);

#endif
