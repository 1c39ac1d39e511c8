/* wsm_lint.h: `ldgsm lint` for workflow state machines (seed 002, docs/DESIGN.md §6.3): the static checks of
 * the schemas (ontology/wsm.ttl) among the documents a gsm_lint has loaded, reported in its messages
 * ("FILE: error: <term>: what"). A schema is what is typed wsm:Schema or has a wsm:initialState or a
 * wsm:transition: rules/wsm.n3 reads the triples, not the type, so an untyped schema runs and lints too.
 * The checks and their severities:
 *
 *   error    two or more transitions of a schema from one state on one event (the seed's "if t is not
 *            exactly defined, an exception is thrown"); a warning where the agent reads the schema, since
 *            the exception is its instance's: the agent holds an instance only where it meets them (that
 *            state, that event), and the others of the schema go on
 *   error    a schema without exactly one wsm:initialState, or whose initial state is a literal
 *   error    a wsm:transition that is a literal or is described in no document; a transition without
 *            exactly one wsm:from, wsm:on and wsm:to, or with a literal there
 *   error    a wsm:condition that is a literal, is described in no document, is not an sp:Ask, or whose
 *            SPIN RDF or sp:text does not parse or compile as the agent's sentry table compiles a state
 *            machine's condition (SENTRY_OF_MACHINE)
 *   error    an assignment (wsm:assigns) without exactly one wsm:variable and one wsm:value true or false,
 *            or setting a variable its schema does not declare (wsm:variable of the schema)
 *   error    one transition setting a variable both true and false
 *   error    a wsm:actions that is not an RDF list or is given twice; an action without http:mthd or
 *            http:requestURI
 *   error    a declared variable that is a literal, or whose wsm:initialValue is not true or false or is
 *            given twice
 *   warning  a state no path of transitions leads to from the initial state (conditions ignored); a node
 *            typed wsm:State in a schema's document that no schema names
 *   warning  a node typed wsm:Event in a schema's document that no transition takes (wsm:on)
 *   warning  a transition that no schema lists (it never fires)
 *   warning  a declared variable that no transition of the schema sets and no condition of it reads */
#ifndef LDGSM_WSM_WSM_LINT_H
#define LDGSM_WSM_WSM_LINT_H

#include <stddef.h>

#include "gsm/lint.h"

/* Runs the checks over every schema among the documents l has loaded (none when a load failed), adding
 * their messages to l's; tells l when there is a schema, so that a file set without a GSM model is no
 * error. `ambiguity` is the severity of two transitions from one state on one event: LINT_ERROR for
 * `ldgsm lint`, LINT_WARNING for the agent's lint of what it read (above). Call before gsm_lint_check.
 * Returns how many schemas it found. */
size_t wsm_lint_check(gsm_lint *l, enum lint_severity ambiguity);

#endif
