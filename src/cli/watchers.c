/* watchers.c: the inspect hook of commands over workflow instances (watchers.h). */
#include "cli/watchers.h"

int watchers_inspect(void *user, agent *a, agent_phase phase, const iteration_stats *stats) {
    watchers *w = user;
    int ended = w->gsm.watch ? gsm_inspect_phase(&w->gsm, a, phase, stats) : AGENT_GO_ON;
    if (phase == AGENT_DERIVED && w->wsm && wsm_watch_iteration(w->wsm, a) && ended == AGENT_GO_ON)
        ended = 1;
    return ended;
}

void watchers_free(watchers *w) {
    gsm_watch_free(w->gsm.watch);
    wsm_watch_free(w->wsm);
}
