/* inspect.c: the GSM layer's part of each iteration of `ldgsm run`, through the agent's inspect hook
 * (inspect.h). */
#include "gsm/inspect.h"

#include <stdlib.h>
#include <string.h>

#include "gsm/completion.h"
#include "rdf/buf.h"
#include "rdf/vocab_ns.h"

/* An instance document in the authors' draft vocabulary is refused with what to write instead: only models
 * are read through compat-authors-draft.n3 (docs/DESIGN.md §5.2). True when one was found (and reported).
 * What the document says of the instance is read from the document's graph: a lookup by subject alone
 * would index every triple of working memory by subject, for this check only. */
static bool draft_instances(agent *a, const log_sink *log) {
    bool found = false;
    size_t ns = strlen(NS_DRAFT), count;
    const char *const *instances = agent_evaluated_instances(a, &count); /* the others' documents were not read */
    terms *t = agent_terms(a);
    store *wm = agent_memory(a);
    for (size_t i = 0; i < count; i++) {
        term_id root = terms_iri_cstr(t, instances[i]);
        agent_read read;
        uint32_t stated = 0;
        const uint32_t *ns_of_doc =
            agent_read_outcome(a, instances[i], &read) ? store_graph_triples(wm, read.graph, &stated) : NULL;
        term_id model = 0;
        bool draft = false;
        for (uint32_t j = 0; j < stated; j++) {
            const triple *tr = store_triple(wm, ns_of_doc[j]);
            if (tr->s != root)
                continue;
            const term_id parts[2] = {tr->p, tr->o};
            for (int k = 0; k < 2; k++)
                if (terms_kind(t, parts[k]) == TERM_IRI && strncmp(terms_lex(t, parts[k], NULL), NS_DRAFT, ns) == 0)
                    draft = true;
            if (strstr(terms_lex(t, tr->p, NULL), "isInstanceOf") && terms_kind(t, tr->o) == TERM_IRI)
                model = tr->o;
        }
        if (!draft)
            continue;
        found = true;
        log_msg(log, LOG_ERROR,
                "instance <%s> is written in the authors' draft vocabulary, which only models may use; write its "
                "document as:\n  <%s> a <" NS_GSM "StageInstance> ;\n    <" NS_GSM "isInstanceOf> <%s> ;\n"
                "    <" NS_GSM "hasState> <" NS_GSM "uninitialized> .",
                instances[i], instances[i], model ? terms_lex(t, model, NULL) : "MODEL#root");
    }
    return found;
}

/* Every instance's verdict: read from working memory for those the iteration evaluated, remembered for the
 * others (agent_instance_evaluated). The caller frees the array. */
static enum gsm_verdict *verdicts_of(gsm_inspect *g, agent *a, const char *const *instances, size_t count) {
    enum gsm_verdict *verdicts = xcalloc(count ? count : 1, sizeof *verdicts);
    if (g->verdicts.count > 2 * count + 64) { /* instances that left the run: keep only the listed ones' */
        strmap kept = {0};
        for (size_t i = 0; i < count; i++) {
            const uint32_t *v = strmap_get(&g->verdicts, instances[i]);
            if (v)
                strmap_put(&kept, instances[i], *v, NULL);
        }
        strmap_free(&g->verdicts);
        g->verdicts = kept;
    }
    for (size_t i = 0; i < count; i++) {
        bool inserted;
        uint32_t *slot = strmap_put(&g->verdicts, instances[i], GSM_GOING_ON, &inserted);
        if (agent_instance_evaluated(a, instances[i]))
            *slot = gsm_instance_verdict(agent_terms(a), agent_memory(a), instances[i]);
        verdicts[i] = (enum gsm_verdict)*slot;
    }
    return verdicts;
}

int gsm_inspect_phase(void *user, agent *a, agent_phase phase, const iteration_stats *stats) {
    gsm_inspect *g = user;
    size_t count;
    const char *const *instances = agent_instances(a, &count);
    switch (phase) {
    case AGENT_CRAWLED:
        if (draft_instances(a, g->log))
            return 1;
        if (!g->until_complete)
            return AGENT_GO_ON;
        instances = agent_evaluated_instances(a, &count); /* what working memory holds */
        return gsm_never_completes(agent_terms(a), agent_memory(a), instances, count, g->log) ? 1 : AGENT_GO_ON;
    case AGENT_DERIVED:
        return g->watch && gsm_watch_iteration(g->watch, a) ? 1 : AGENT_GO_ON;
    case AGENT_ENDED: {
        if (!g->until_complete)
            return AGENT_GO_ON;
        enum gsm_verdict *verdicts = verdicts_of(g, a, instances, count);
        int ended = gsm_completion(instances, verdicts, count, stats->unsafe || stats->calling, g->log);
        free(verdicts);
        return ended >= 0 ? ended : AGENT_GO_ON;
    }
    case AGENT_CUT_SHORT: {
        if (!g->until_complete)
            return AGENT_GO_ON;
        enum gsm_verdict *verdicts = verdicts_of(g, a, instances, count);
        int ended = gsm_cut_short(instances, verdicts, count, g->log);
        free(verdicts);
        return ended;
    }
    }
    return AGENT_GO_ON;
}

void gsm_inspect_free(gsm_inspect *g) {
    strmap_free(&g->verdicts);
}
