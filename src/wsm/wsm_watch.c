/* wsm_watch.c: the lint of state machine schemas as `ldgsm run --machine` read them (wsm_watch.h). */
#include "wsm/wsm_watch.h"

#include <stdlib.h>

#include "rdf/buf.h"
#include "rdf/vocab_ns.h"
#include "wsm/wsm_lint.h"

struct wsm_watch {
    const char *const *machines;
    size_t machine_count;
    bool open_ended;
    const log_sink *log;
    lint_memo *lint;
};

wsm_watch *wsm_watch_new(const char *const *machines, size_t machine_count, bool open_ended, const log_sink *log) {
    wsm_watch *w = xcalloc(1, sizeof *w);
    *w = (wsm_watch){machines, machine_count, open_ended, log, lint_memo_new()};
    return w;
}

void wsm_watch_free(wsm_watch *w) {
    if (!w)
        return;
    lint_memo_free(w->lint);
    free(w);
}

/* Two transitions from one state on one event refuse no schema here: the rules hold an instance where it
 * meets them (rules/wsm.n3), and the others go on. */
static void check_schemas(gsm_lint *l) { wsm_lint_check(l, LINT_WARNING); }

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
        const char *refusal =
            doc_count ? lint_memo_check(w->lint, &read, docs, doc_count, instance, "schema", false, check_schemas)
                      : NULL;
        free(docs);
        if (!refusal)
            continue;
        refused++;
        buf why = {0};
        buf_printf(&why, "its schema is refused: %s", refusal);
        agent_hold(a, instance, buf_cstr(&why));
        buf_free(&why);
    }
    lint_term_docs_free(term_docs);
    if (refused && refused == w->machine_count && !w->open_ended) {
        log_msg(w->log, LOG_ERROR, "every state machine instance of this run has a schema that ldgsm lint rejects: "
                "nothing to run");
        return 1;
    }
    return 0;
}
