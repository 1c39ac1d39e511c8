/* views.h: what each workflow instance's queries see (docs/DESIGN.md §8.6: "decisions of one instance never
 * depend on which other instances share its agent"). An instance's view is every triple with a source it
 * may read: a document fetched for its group (ldgsm:group, the instance itself), a document some request
 * asked for without a group (a plain N3 program's reads), and every source that is no fetched document
 * (what the rules derived, the agent's own facts). Another instance's documents are outside it, so a
 * sentry whose pattern is connected to nothing (`?i x:flag true`) reads only its own instance's data.
 * The sentry table's rules ask through reasoner_options.visible (sentry_rule_view). Two limits: what the
 * rules derive is everyone's, so a rule turning another instance's data into derived triples shows them to
 * all; and a list a builtin reads item by item (rdf:first/rest) is read whole, only its head's triple
 * being checked. */
#ifndef LDGSM_AGENT_VIEWS_H
#define LDGSM_AGENT_VIEWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "agent/plan.h"
#include "rdf/store.h"

typedef struct views views;

views *views_new(void);
void views_free(views *v);
/* Starts the views of one evaluation over wm's documents: what was cached of earlier ones is forgotten
 * (the documents, and who asked for them, are those of this iteration). The arrays must outlive the
 * evaluation. */
void views_begin(views *v, const store *wm, const doc_state *docs, size_t doc_count);
/* reasoner_options.visible: whether triple n of wm has a source in viewer's view. */
bool views_visible(void *views, term_id viewer, uint32_t n);

#endif
