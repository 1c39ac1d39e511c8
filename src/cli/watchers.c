/* watchers.c: the inspect hook of commands over workflow instances (watchers.h). */
#include "cli/watchers.h"

int watchers_inspect(void *user, agent *a, agent_phase phase, const iteration_stats *stats) {
    watchers *w = user;
    int ended = w->gsm.watch ? gsm_inspect_phase(&w->gsm, a, phase, stats) : AGENT_GO_ON;
    if (phase == AGENT_DERIVED && w->wsm && wsm_watch_iteration(w->wsm, a) && ended == AGENT_GO_ON)
        ended = 1;
    return ended;
}

void watchers_open(watchers *w, agent_options *opt, const watchers_options *with) {
    *w = (watchers){0};
    if (with->gsm_instances)
        w->gsm = (gsm_inspect){.watch = gsm_watch_new(&(gsm_watch_options){
                                   .open_ended = with->open_ended, .compat_authors_draft = with->compat_authors_draft,
                                   .verbose = with->verbose, .log = with->log}),
                               .until_complete = with->until_complete, .log = with->log};
    if (opt->machine_count)
        w->wsm = wsm_watch_new((const char *const *)opt->machines, opt->machine_count, with->status_only, with->log);
    if (w->gsm.watch || w->wsm) {
        opt->inspect = watchers_inspect;
        opt->inspect_user = w;
    }
}

void watchers_free(watchers *w) {
    gsm_watch_free(w->gsm.watch);
    gsm_inspect_free(&w->gsm);
    wsm_watch_free(w->wsm);
}
