/* lint.h: `ldgsm lint`, the static checks of a GSM model (docs/DESIGN.md §5.4) before it runs. A model may be
 * spread over several documents; each is loaded with its own base IRI (relative IRIs resolve against
 * it), and all of them form one model. The checks and their severities:
 *
 *   error    a stage, guard or milestone property whose object is described in no loaded document
 *   warning  a non-root stage without a guard condition (it never opens; a root is opened by set-up, an
 *            alternative stage by the turn the rules give it)
 *   error    a milestone without an achieving sentry
 *   error    a sentry (object of hasCondition, hasAchievingSentry, hasInvalidatingSentry) that is not an
 *            sp:Ask or does not parse (SPIN RDF, or sp:text through rasqal)
 *   error    a stage model occurring twice under one root (two hasChildStage paths, or a cycle); the
 *            members of a stage's ldgsm:alternativeStages are its children here and in every check
 *   warning  a milestone model shared by several stages
 *   error    one sentry both achieving and invalidating a milestone (the paper's 4.3.1)
 *   warning  an achieving and an invalidating sentry of one milestone that ask the same query
 *   error    a descendant's guard condition that is an achieving sentry of an ancestor's milestone (4.3.2,
 *            the paper's Eq. (2) of 6.1: the ancestor closes whenever the descendant could open)
 *   warning  the same, where the two are different nodes asking the same query
 *   warning  a root stage without milestones (an instance never completes; with alternative stages it
 *            completes only when all of them fail)
 *   warning  a root milestone with an invalidating sentry (ignored: completion is final)
 *   error    a task (hasHttpRequest), or an alternative of a call, without http:mthd, http:requestURI or
 *            http:body (the call rules send only a request with all three), with a body that is not a
 *            literal, with a body but no Content-Type header, whose http:headers is not a list, or whose
 *            ldgsm:resultIn is not an IRI
 *   error    an ldgsm:Call (docs/DESIGN.md §6.1) without ldgsm:alternatives, with both alternatives and
 *            http:mthd, or whose alternatives are not a proper non-empty list of described nodes
 *   error    a task's ldgsm:timeout that is not a positive xsd:dayTimeDuration, its ldgsm:retryDelay a
 *            negative or no dayTimeDuration (malformed, untyped, counting months), its ldgsm:retries not a
 *            non-negative integer, its ldgsm:backoff not a number of at least 1; any of these, or
 *            ldgsm:alternatives, given twice
 *   warning  a call parameter given on an alternative (the rules read the call's own)
 *   error    a stage's ldgsm:alternativeStages that is not one proper non-empty list of described nodes,
 *            or lists a stage twice; a stage's own ldgsm:timeout that is not a positive dayTimeDuration
 *   warning  an alternative stage with a guard of its own (the rules give it its turn as its guard; its
 *            own guard adds to the turn, so it may open out of turn)
 *
 * Each message names the file where its term is described: "FILE: error: <term>: what". A term whose IRI
 * lies beside that file is shown relative to it (`<#s1>`, `<other.ttl#m2>`), other IRIs in full, a blank
 * node by the triple that reaches it. */
#ifndef LDGSM_GSM_LINT_H
#define LDGSM_GSM_LINT_H

#include <stdbool.h>
#include <stddef.h>

#include "agent/sentries.h"
#include "rdf/hashmap.h"
#include "rdf/rdfio.h"
#include "rdf/store.h"

enum lint_severity { LINT_ERROR, LINT_WARNING };

typedef struct lint_options {
    /* Read the authors' draft vocabulary (http://tok450s.lan:8080/ldbbc/gsm-vocab.ttl#) as ours:
     * hasValidatingSentry, StageModel, MilestoneModel and hasMilestoneModel become hasAchievingSentry,
     * Stage, Milestone and hasMilestone; a stage's draft task, `<s> draft:hasTask <t> . <t>
     * draft:hasHttpRequest <r>` (or `<s> draft:hasTask <r>` directly), becomes `<s> gsm:hasHttpRequest
     * <r>`; other draft terms keep their local names under gsm:. */
    bool compat_authors_draft;
} lint_options;

typedef struct lint_message {
    enum lint_severity severity;
    char *line; /* "FILE: error: <term>: what", without a newline */
} lint_message;

typedef struct gsm_lint gsm_lint;

gsm_lint *gsm_lint_new(const lint_options *options);
void gsm_lint_free(gsm_lint *l);

/* Loads one document of the model: a file by path (syntax from its extension, Turtle when it has none,
 * as in ldp-fixtures/), based at its file: IRI. Returns 0, or -1 after recording an error message
 * (unreadable file, syntax error with line and column). */
int gsm_lint_load_file(gsm_lint *l, const char *path);
/* The same for a document in memory: `name` is the FILE of its messages, `base` its IRI. */
int gsm_lint_load_text(gsm_lint *l, const char *name, const char *base, enum rdf_syntax syntax, const char *text,
                       size_t len);

/* Runs every check over the documents loaded (none when a load failed: the model is incomplete, and its
 * dangling references would only echo the load error). Messages come out ordered by file, in the
 * order the files were loaded, each once. Call once. */
void gsm_lint_check(gsm_lint *l);

size_t gsm_lint_message_count(const gsm_lint *l);
const lint_message *gsm_lint_message(const gsm_lint *l, size_t i);
size_t gsm_lint_count(const gsm_lint *l, enum lint_severity severity);

/* For the checks of another kind of model over the same documents and messages (wsm/wsm_lint.h), run
 * before gsm_lint_check, which sorts every message: */
terms *gsm_lint_terms(gsm_lint *l);
store *gsm_lint_store(gsm_lint *l); /* every triple in its document's graph, the graph its base IRI */
/* Documents were loaded and each parsed: only then do checks run. */
bool gsm_lint_loaded(const gsm_lint *l);
/* The documents hold a model of that kind: without a GSM stage, they are no error. */
void gsm_lint_other_model(gsm_lint *l);
/* The file that describes a term, a term as a message in `file` shows it (the caller frees it), and a
 * message "FILE: severity: <term>: what" (no "<term>: " when term is 0). */
size_t gsm_lint_file_of(gsm_lint *l, term_id term);
char *gsm_lint_show(gsm_lint *l, term_id term, size_t file);
void gsm_lint_report(gsm_lint *l, size_t file, enum lint_severity severity, term_id term, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Parses a sentry as the agent reads it (SPIN RDF or sp:text) and compiles it as its sentry table would in
 * `context`: the parsed query printed (the caller frees it), or NULL with why in `error`. */
/* Checks a task description as the call rules will send it (rules/calls.n3): a request, or an ldgsm:Call
 * with its alternatives and parameters. Requests already in checked are not checked again (it is added
 * to); is_task (may be NULL) holds the tasks named directly, whose call parameters are their own. */
void gsm_lint_check_task(gsm_lint *l, term_id task, const u64map *is_task, u64map *checked);
char *gsm_lint_sentry_query(gsm_lint *l, term_id node, enum sentry_context context, char *error, size_t error_len);

#endif
