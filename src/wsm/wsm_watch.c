/* wsm_watch.c: the lint of state machine schemas as `ldgsm run --machine` read them (wsm_watch.h). */
#include "wsm/wsm_watch.h"

#include <stdio.h>
#include <stdlib.h>

#include "rdf/vocab_ns.h"
#include "wsm/wsm_lint.h"

struct wsm_watch {
    const char *const *machines;
    size_t machine_count;
    const log_sink *log;
    lint_memo *lint;
};

wsm_watch *wsm_watch_new(const char *const *machines, size_t machine_count, const log_sink *log) {
    wsm_watch *w = xcalloc(1, sizeof *w);
    *w = (wsm_watch){machines, machine_count, log, lint_memo_new()};
    return w;
}

void wsm_watch_free(wsm_watch *w) {
    if (!w)
        return;
    lint_memo_free(w->lint);
    free(w);
}

static void check_schemas(gsm_lint *l) { wsm_lint_check(l); }

int wsm_watch_iteration(wsm_watch *w, agent *a) {
    terms *t = agent_terms(a);
    store *wm = agent_memory(a);
    /* the schema is what rules/wsm.n3 serves the instance (wx:serves) */
    term_id serves = terms_iri_cstr(t, NS_WX "serves");
    term_id read_failure = terms_iri_cstr(t, LDGSM_readFailure);
    size_t refused = 0;
    lint_term_docs *term_docs = lint_term_docs_new();
    for (size_t i = 0; i < w->machine_count; i++) {
        term_id instance = terms_iri_cstr(t, w->machines[i]);
        term_id *docs;
        size_t doc_count = lint_read_documents(t, wm, term_docs, serves, read_failure, instance, &docs);
        lint_read read = {t, wm, agent_read_etag, a, w->log};
        uint32_t errors =
            doc_count ? lint_memo_check(w->lint, &read, docs, doc_count, instance, "schema", false, check_schemas) : 0;
        free(docs);
        if (!errors)
            continue;
        refused++;
        char why[160];
        snprintf(why, sizeof why, "its schema is refused: ldgsm lint finds %u error%s in it (said when the schema "
                 "was read)", errors, errors == 1 ? "" : "s");
        agent_hold(a, instance, why);
    }
    lint_term_docs_free(term_docs);
    if (refused && refused == w->machine_count) {
        log_msg(w->log, LOG_ERROR, "every state machine instance of this run has a schema that ldgsm lint rejects: "
                "nothing to run");
        return 1;
    }
    return 0;
}
