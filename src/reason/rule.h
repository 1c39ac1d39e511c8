/* rule.h: compiled rules. A rule `{ body } => { head }` becomes body atoms whose positions are codes
 * (a constant term, a variable slot, or a term with variables inside such as a builtin's argument list),
 * head templates, the head's existential blank nodes, and one join plan per body atom: the order in
 * which to visit the body when that atom is the one matched against the newest triples (semi-naive). */
#ifndef LDGSM_REASON_RULE_H
#define LDGSM_REASON_RULE_H

#include <stdbool.h>
#include <stdint.h>

#include "n3/n3_reader.h"
#include "rdf/log.h"
#include "rdf/store.h"
#include "rdf/term.h"
#include "reason/builtins.h"

#define RULE_MAX_VARS 64

/* A position code: > 0 a ground term, < 0 variable slot -(code + 1); a structured term holding
 * variables (a list or formula) is a term id with `structured` set in the atom. */
typedef int64_t pos_code;

#define HEAD_EXISTENTIAL(e) (-(pos_code)RULE_MAX_VARS - 1 - (pos_code)(e))

/* What a body element does. N3 rules use MATCH and BUILTIN; sentries (sentry.h) add the rest. */
enum atom_kind {
    ATOM_MATCH,    /* a triple pattern matched against the store */
    ATOM_BUILTIN,  /* a builtin relation, evaluated */
    ATOM_FILTER,   /* a SPARQL FILTER expression over the bindings */
    ATOM_OPTIONAL, /* a left join with groups[0] */
    ATOM_UNION,    /* one of groups[0..group_count) */
    ATOM_NOT,      /* `?scope log:notIncludes { ... }`: no match of groups[0] in the store, or in the formula
                    * pos[0] names when `scoped` */
    ATOM_INCLUDES, /* `?f log:includes { ... }`: each match of groups[0] in the formula pos[0] names */
    ATOM_COLLECT,  /* `( template { where } ?list ) log:collectAllIn ?scope`: binds `result` to the list of
                    * the template's values over the matches of groups[0] */
    ATOM_FORALL,   /* `( { where } { then } ) log:forAllIn ?scope`: every match of groups[0] extends to one
                    * of groups[1] */
};

struct sq_expr;
struct rule_seq;

typedef struct rule_atom {
    enum atom_kind kind;
    pos_code pos[3];       /* s, p, o */
    bool structured[3];    /* position is a list/formula containing variables: match by unification */
    bool quoted[3];        /* position is a formula written where a builtin reads one (a builtin's argument, a
                            * log:includes scope ...): the rule's bindings are put into it, its other variables
                            * stay its own, and it is compared, not unified */
    const builtin *builtin; /* ATOM_BUILTIN */
    struct sq_expr *filter; /* ATOM_FILTER (owned by the rule) */
    struct rule_seq *groups; /* ATOM_OPTIONAL, ATOM_UNION (owned by the rule) */
    unsigned group_count;
    uint64_t needs;         /* the slots bound elsewhere in the body that must be bound before it runs: a
                             * negation's or collection's shared variables, a scope's, a quoted formula's */
    bool scoped;            /* ATOM_NOT: pos[0] is the formula to look in (always so for ATOM_INCLUDES);
                             * ATOM_COLLECT, ATOM_FORALL: pos[2] is, else the working memory is the scope */
    pos_code template, result; /* ATOM_COLLECT: the template and the list (structured if lists or formulas) */
    bool template_structured, result_structured;
    bool iri_lists;         /* ATOM_BUILTIN: an IRI heading an rdf:first/rdf:rest chain is read as the list */
    bool viewed;            /* ATOM_MATCH of a rule with a viewer: matches only the triples the viewer may see */
} rule_atom;

/* A nested group of a sentry: its elements in the order they are evaluated. */
typedef struct rule_seq {
    rule_atom *atoms;
    unsigned count;
    /* Variables the group reads but none of its patterns binds (in a FILTER, an inner OPTIONAL): SPARQL
     * evaluates a group alone, so a binding of these made outside it is hidden from it while it runs and
     * joined with its solutions after (engine.c) */
    uint64_t hidden;
} rule_seq;

typedef struct rule {
    unsigned index;
    char *name;            /* "file:line:col" of the rule, plus its comment label when it has one */
    rule_atom *body;
    unsigned body_count;
    triple *head;          /* templates over variables (TERM_VAR) and existentials (TERM_BNODE) */
    rule_atom *head_codes; /* the same templates as position codes; existential e is HEAD_EXISTENTIAL(e) */
    unsigned head_count;
    term_id head_formula;  /* the head as a formula term, for request rules */
    triple *body_triples;  /* the body as compiled, parallel to body */
    term_id vars[RULE_MAX_VARS]; /* slot -> variable term (body blank nodes become variables too) */
    unsigned var_count;
    term_id *existentials; /* head blank nodes not in the body: Skolemized per head binding */
    unsigned existential_count;
    unsigned *head_vars;   /* slots of variables occurring in the head (the Skolem key) */
    unsigned head_var_count;
    unsigned **plans;      /* plans[i]: body order when atom i is the delta atom (i over matched atoms) */
    unsigned matched_count; /* number of non-builtin atoms */
    int stratum;           /* which derivation phase runs it (the agent sets it; 0 by default) */
    unsigned layer;        /* a rule with negation: evaluated once, after the rules of lower layers
                            * (rule_set_layer_negation); 0 for rules without */
    bool is_request;       /* head goes to the request sink, not into the store */
    bool is_fuse;          /* `{ body } => false`: firing stops the run (an inference fuse) */
    bool single_pass;      /* evaluated once over a closed store (sentries: OPTIONAL and FILTER need it) */
    bool head_structured;  /* a head position is a list or formula with variables (instantiated term by term) */
    bool has_negation;     /* a body atom is ATOM_NOT, ATOM_COLLECT or ATOM_FORALL over the working memory:
                            * what it reads must be complete (stratified) */
    bool negation_checked; /* its negation reads what its own dependency cycle derives (rule_set_layer_negation) */
    bool disabled;         /* cannot fire (reported when compiled) */
    bool bnode_vars;       /* some variable is a blank node of the body */
    struct sq_node *sentry_tree; /* a sentry's query, which its FILTER atoms point into (owned) */
    pos_code viewer;       /* < 0: the slot naming whose view the viewed atoms match in (reasoner.h,
                            * sentry_rule_view); 0: none */
    uint64_t fired;        /* head instantiations so far (profiling: `ldgsm run -v -v`) */
    uint64_t probed;       /* triples the joins looked at, the rule's work (profiling) */
} rule;

/* A rule written `{ H } <= { B }` with one head triple: run on demand (backward.h), not forward. */
typedef struct backward_rule {
    term_id body, head; /* formulas */
    char *name;
} backward_rule;

typedef struct rule_set {
    rule **rules;
    unsigned count, cap;
    backward_rule *backward; /* waiting for rule_set_compile_backward */
    unsigned backward_count;
    term_id *hidden;         /* predicates of the demand triples, which are not output (sorted) */
    unsigned hidden_count;
    term_id *on_demand;      /* predicates backward rules conclude (sorted) */
    unsigned on_demand_count;
} rule_set;

/* Compiles one rule from its body and head formulas (or false), named `name`, as rule_set_add_program
 * compiles a statement of a document. */
rule *rule_compile(terms *t, term_id body, term_id head, const char *name, const log_sink *log);
/* Compiles every `{B} => {H}` and `{B} => false` statement of doc into rs (a `{H} <= {B}` with one head
 * triple waits in rs->backward for rule_set_compile_backward) (other statements are not rules and are ignored
 * here). Rules that can never fire (a builtin whose input no atom binds, an unknown builtin, a head
 * variable the body does not bind) are compiled disabled and reported once through log.
 * source names the document in rule names. Returns the number of rules added. */
unsigned rule_set_add_program(rule_set *rs, terms *t, const n3_doc *doc, const char *source, const log_sink *log);
/* Compiles into rs the rules a run derived (a rule may derive rules): the rule statements among st's
 * triples numbered from *scanned on, each named "derived:N:1" (N: its number plus one); moves *scanned to
 * the end. Returns how many were added. */
unsigned rule_set_add_derived(rule_set *rs, terms *t, const store *st, uint32_t *scanned, const log_sink *log);
void rule_set_free(rule_set *rs);
/* Appends a rule compiled elsewhere (sentry.h); the set owns it. */
void rule_set_add(rule_set *rs, rule *r);
void rule_free(rule *r);
/* True when the statement is a rule (log:implies from a formula to a formula, or to false: a fuse). */
bool rule_statement(const terms *t, const triple *statement);

#endif
