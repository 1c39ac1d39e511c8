/* inspect.c: the GSM layer's part of each iteration of `ldgsm run`, through the agent's inspect hook
 * (inspect.h). */
#include "gsm/inspect.h"

#include "gsm/completion.h"

int gsm_inspect_phase(void *user, agent *a, agent_phase phase, const iteration_stats *stats) {
    gsm_inspect *g = user;
    size_t count;
    const char *const *instances = agent_instances(a, &count);
    switch (phase) {
    case AGENT_CRAWLED:
        return g->until_complete && gsm_never_completes(agent_terms(a), agent_memory(a), instances, count, g->log)
                   ? 1
                   : AGENT_GO_ON;
    case AGENT_DERIVED:
        return g->watch && gsm_watch_iteration(g->watch, a) ? 1 : AGENT_GO_ON;
    case AGENT_ENDED:
        if (!g->until_complete)
            return AGENT_GO_ON;
        int ended = gsm_completion(agent_terms(a), agent_memory(a), instances, count,
                                   stats->unsafe || stats->calling, g->log);
        return ended >= 0 ? ended : AGENT_GO_ON;
    case AGENT_CUT_SHORT:
        return g->until_complete ? gsm_cut_short(agent_terms(a), agent_memory(a), instances, count, g->log)
                                 : AGENT_GO_ON;
    }
    return AGENT_GO_ON;
}
