/* builtins.h: N3 builtins (log:, math:, time:, string:, list:, crypto:) under their standard names.
 *
 * A builtin is a relation between its subject and object. The engine calls it once per binding with
 * each position either a ground term or 0 (an unbound variable, or a list still holding one); the
 * builtin emits every (subject, object) pair that holds with those bindings (a test emits its inputs
 * unchanged when true; a function emits the computed object, or its inputs when the bound object is
 * that value). Type errors (a non-numeric math argument) are not errors: the relation simply does not
 * hold and nothing is emitted. builtins_<namespace>.c state each family's semantics (strings, regexes, which
 * builtins take dateTimes and durations), numeric.h the number types, precision and canonical forms,
 * xsd_time.h the dateTime and duration values. */
#ifndef LDGSM_REASON_BUILTINS_H
#define LDGSM_REASON_BUILTINS_H

#include <stdbool.h>

#include "rdf/term.h"

/* Which positions must be bound (ground) before the builtin can be evaluated. */
enum builtin_mode {
    BUILTIN_SUBJECT_IN, /* subject ground; object may be unbound (functions: math:sum, list:member) */
    BUILTIN_OBJECT_IN,  /* object ground; subject may be unbound (list:in) */
    BUILTIN_BOTH_IN,    /* both ground (comparisons, string:contains) */
    BUILTIN_EITHER_IN,  /* at least one side ground (log:equalTo, log:uriToString, log:dtlit) */
};

/* Receives one solution; returns false to stop the enumeration. */
typedef bool (*builtin_emit)(void *user, term_id subject, term_id object);

typedef struct builtin {
    const char *iri;
    enum builtin_mode mode;
    /* Emits the solutions for the given bindings (0 = unbound). */
    void (*eval)(terms *t, term_id subject, term_id object, builtin_emit emit, void *user);
    /* Takes a subject list that still holds unbound variables, each passed as a TERM_VAR item, and emits
     * ground subjects the engine unifies with the pattern (`( ?a ?b ?c ) list:append (1 2 3)`). The engine
     * evaluates such a builtin this way only when nothing else in the rule body can run first. */
    bool open_subject;
} builtin;

/* The builtin named by IRI, or NULL when the IRI is not a builtin we implement. */
const builtin *builtin_lookup(const char *iri);
/* True when the IRI is in a builtin namespace (log:, math:, string:, list:, crypto:, time:) even if
 * not implemented: such a predicate in a rule body is reported, never matched against data. */
bool builtin_namespace(const char *iri);

#endif
