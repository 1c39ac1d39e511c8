/* lint_read.h: `ldgsm lint` on what an agent read, for the watchers of `ldgsm run` (gsm/watch.h for GSM
 * models, wsm/wsm_watch.h for state machine schemas): the documents a workflow's model was read from, and
 * their lint, once per version of them (the documents and their ETags), its findings printed as lines
 * naming the instance. */
#ifndef LDGSM_GSM_LINT_READ_H
#define LDGSM_GSM_LINT_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gsm/lint.h"
#include "rdf/log.h"
#include "rdf/store.h"
#include "rdf/term.h"

/* The ETag of the document of iri as read in this iteration, or NULL (not read, no ETag). */
typedef const char *(*watch_etag_fn)(void *user, const char *iri);

/* What the agent read in this iteration. */
typedef struct lint_read {
    terms *t;
    store *wm;
    watch_etag_fn etag_of;
    void *user;
    const log_sink *log;
} lint_read;

typedef struct lint_memo lint_memo;
lint_memo *lint_memo_new(void);
void lint_memo_free(lint_memo *m);

/* The documents of each term found so far, for one working memory: a model's terms serve every instance of
 * it, so each is looked at once per iteration, not once per instance. */
typedef struct lint_term_docs lint_term_docs;
lint_term_docs *lint_term_docs_new(void);
void lint_term_docs_free(lint_term_docs *m);

/* The documents (http(s) source graphs) of the triples about the terms `<term> <serves> <instance>` names,
 * into *out (the caller frees it); none while one of those terms could not be read (`ldgsm:readFailure`):
 * the model is incomplete, the rules say why, and lint would only echo the missing part. memo: this
 * working memory's (lint_term_docs_new), filled on the first call with every term that serves: pass the same
 * serves to each call. */
size_t lint_read_documents(terms *t, store *wm, lint_term_docs *memo, term_id serves, term_id read_failure,
                           term_id instance, term_id **out);

/* Lints docs as read (once per version: the memo keeps the verdict) with `before_check` (may be NULL)
 * run before gsm_lint_check; prints each finding as "lint: <instance>'s NOUN: ..." and returns NULL when
 * lint finds no error, else why it refuses them: "ldgsm lint finds N errors in it: FILE: error: ...; ..."
 * (every error; valid until the next check). */
const char *lint_memo_check(lint_memo *m, const lint_read *read, const term_id *docs, size_t doc_count,
                            term_id instance, const char *noun, bool compat_authors_draft,
                            void (*before_check)(gsm_lint *l));

#endif
