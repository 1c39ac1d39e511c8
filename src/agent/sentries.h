/* sentries.h: the sentries an iteration meets (docs/DESIGN.md §5.3): every sp:Ask node in
 * working memory, given as SPIN RDF or as sp:text. A sentry is parsed and compiled when first seen and
 * again only when the document it came from changes (its ETag; for a blank-node sentry, which every parse
 * labels anew, its strong ETag); the constant subjects it names are
 * asserted as `<sentry> ldgsm:reads <iri>` so the crawl rules fetch them; after the crawl, every sentry
 * seen in the iteration is evaluated once per active artifact instance (gsm:thisArtifactInstance bound to
 * it), asserting `<sentry> ldgsm:holdsFor <instance>` where it is true. An invalid sentry is never silently
 * false: it is reported once per change of its document and makes the iteration hold its writes. */
#ifndef LDGSM_AGENT_SENTRIES_H
#define LDGSM_AGENT_SENTRIES_H

#include <stdbool.h>
#include <stddef.h>

#include "agent/vocab.h"
#include "rdf/store.h"
#include "reason/reasoner.h"
#include "reason/rule.h"
#include "reason/sentry_ast.h"

enum { SENTRY_STRATUM = 1, AFTER_SENTRIES_STRATUM = 2 };

typedef struct sentry_table sentry_table;

/* The ETag of the document behind a source graph, or NULL (not fetched, no ETag). */
typedef const char *(*sentry_etag_fn)(void *user, term_id graph);

sentry_table *sentry_table_new(terms *t, const agent_vocab *v, const log_sink *log);
void sentry_table_free(sentry_table *s);
/* Drops every sentry compiled (their terms are about to be released, rdf/term.h): each is compiled again
 * when next met, and one that was invalid is not said again for the same version. */
void sentry_table_forget(sentry_table *s);
/* Starts an iteration: no sentry seen yet. */
void sentry_table_begin(sentry_table *s);
/* Takes in the sentries among wm's triples numbered from `from` on; asserts their ldgsm:reads triples.
 * Returns how many triples it asserted. */
size_t sentry_table_scan(sentry_table *s, store *wm, uint32_t from, sentry_etag_fn etag_of, void *user);
/* Evaluates the sentries seen this iteration over wm (closed by now). Returns 0, or -1 with the reasoner's
 * error. */
int sentry_table_evaluate(sentry_table *s, reasoner *r);
/* How many times a sentry was parsed and compiled over the table's life (`ldgsm run -v`'s phases line). */
size_t sentry_table_compiles(const sentry_table *s);
/* How many sentries seen this iteration are invalid (each was reported). */
size_t sentry_table_invalid(const sentry_table *s);
/* The sentries seen this iteration that read the clock (a pattern with ldgsm:now): into *nodes (the caller
 * frees it), their count returned. */
size_t sentry_table_clock_readers(const sentry_table *s, term_id **nodes);
/* What a sentry's solutions are: the active GSM artifact instances it holds for (gsm:thisArtifactInstance
 * bound to each), or, for a state machine's condition (the object of a wsm:condition), the context nodes
 * `[] wsm:forInstance I ; wsm:forEvent E` (rules/wsm.n3) it holds for, wsm:thisInstance bound to I and
 * wsm:thisEvent to E. */
enum sentry_context { SENTRY_OF_ARTIFACT, SENTRY_OF_MACHINE };

/* What a message about an invalid sentry says after its name: the front ends name it as N-Triples
 * (sq_error), the rule compiler (sentry_table_rule) by its text. */
const char *sentry_error_what(const terms *t, term_id node, const char *error);

/* The rule the table evaluates for the sentry `node` parsed as tree (taken over) in its context. NULL with the error when it cannot be compiled (too many
 * variables): `ldgsm lint` asks it too, so that a model it accepts has no sentry the agent refuses. */
rule *sentry_table_rule(terms *t, const agent_vocab *v, sq_node *tree, term_id node, enum sentry_context context,
                        char *error, size_t error_len);

/* Argument queries (docs/DESIGN.md §8.3): the objects of `ldgsm:arguments`, SELECT queries given as sp:text,
 * are taken in and compiled like sentries (the same table, errors said the same way), and evaluated with
 * them, once per context the rules name: `?ctx gx:evaluates ?request` with `?ctx gx:thisInstance ?i`
 * (and gx:thisItem, gx:thisIndex, gx:thisEvent), where `?request ldgsm:arguments ?query`. The table
 * asserts `?query gx:queryAlias <urn:ldgsm:query:N>`, the name its rule knows it by. Their rules are
 * request rules: each distinct solution goes to the reasoner's request sink as the formula
 * `{ alias gx:solutionFor ctx . alias gx:solutionRequest request . alias <ARGUMENT_VARIABLE_NS name> value ... }`. */
#define ARGUMENT_VARIABLE_NS "urn:ldgsm:var:"

/* The rule of an argument query `tree` (taken over) with its projection vars; NULL with the error. */
rule *argument_query_rule(terms *t, const agent_vocab *v, sq_node *tree, term_id alias, const term_id *vars,
                          size_t var_count, const char *name, char *error, size_t error_len);
/* The table's SPARQL text parser (NULL when rasqal could not start), for other queries of the agent's. */
sentry_text_parser *sentry_table_text_parser(sentry_table *s);
/* True when r is one of the table's rules (an argument query's heads come from such a rule). */
bool sentry_table_owns(const sentry_table *s, const rule *r);

#endif
