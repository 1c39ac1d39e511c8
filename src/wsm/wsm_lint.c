/* wsm_lint.c: the checks of wsm_lint.h, read from the store of a gsm_lint (every document its own graph)
 * and reported through it, so that a file set holding GSM models and WSM schemas gets one list of
 * messages in one format. A condition is parsed and compiled by the code GSM sentries go through
 * (gsm_lint_sentry_query), in the context the agent evaluates a state machine's conditions in. */
#include "wsm/wsm_lint.h"

#include <stdlib.h>
#include <string.h>

#include "agent/vocab.h"
#include "rdf/buf.h"
#include "rdf/hashmap.h"
#include "rdf/rdf_list.h"

typedef struct wsm_vocab {
    term_id schema, state, event, initial_state, transition, variable, initial_value, from, on, to, condition,
        assigns, value, actions, mthd, request_uri;
} wsm_vocab;

typedef struct wsm_linter {
    gsm_lint *l;
    terms *t;
    store *st;
    wsm_vocab v;
    u64map checked_transitions; /* a transition several schemas list is checked once */
    u64map checked_actions;     /* and a request several actions name */
    u64map condition_index;     /* condition node -> index in queries */
    enum lint_severity ambiguity; /* of two transitions from one state on one event (wsm_lint.h) */
    char **queries;             /* each condition's query printed, NULL when it is invalid */
    size_t condition_count;
} wsm_linter;

/* Where one transition leaves from on one event. */
typedef struct departure {
    term_id state, event, transition;
} departure;

static void vocab_init(wsm_vocab *v, terms *t) {
    v->schema = terms_iri_cstr(t, WSM_Schema);
    v->state = terms_iri_cstr(t, NS_WSM "State");
    v->event = terms_iri_cstr(t, NS_WSM "Event");
    v->initial_state = terms_iri_cstr(t, WSM_initialState);
    v->transition = terms_iri_cstr(t, WSM_transition);
    v->variable = terms_iri_cstr(t, WSM_variable);
    v->initial_value = terms_iri_cstr(t, WSM_initialValue);
    v->from = terms_iri_cstr(t, WSM_from);
    v->on = terms_iri_cstr(t, WSM_on);
    v->to = terms_iri_cstr(t, WSM_to);
    v->condition = terms_iri_cstr(t, WSM_condition);
    v->assigns = terms_iri_cstr(t, WSM_assigns);
    v->value = terms_iri_cstr(t, WSM_value);
    v->actions = terms_iri_cstr(t, NS_WSM "actions");
    v->mthd = terms_iri_cstr(t, HTTP_mthd);
    v->request_uri = terms_iri_cstr(t, HTTP_requestURI);
}

/* ==== reading ==== */

static bool is_literal(const wsm_linter *w, term_id term) {
    return terms_kind(w->t, term) == TERM_LITERAL;
}

/* Adds a term to an ordered set (a vector plus a membership map). */
static void set_add(u32vec *v, u64map *in, term_id term) {
    bool inserted;
    u64map_put(in, term, v->len, &inserted);
    if (inserted)
        u32vec_push(v, term);
}

static bool is_boolean(const wsm_linter *w, term_id term) {
    if (!is_literal(w, term) || terms_datatype(w->t, term) != T_XSD_BOOLEAN)
        return false;
    /* the rules copy the term, and a condition asks for `true` or `false`: "1" would never match */
    const char *lex = terms_lex(w->t, term, NULL);
    return strcmp(lex, "true") == 0 || strcmp(lex, "false") == 0;
}

/* The schemas in the store's order (so messages come out in document order). */
static void find_schemas(wsm_linter *w, u32vec *schemas, u64map *is_schema) {
    uint32_t size = store_size(w->st);
    for (uint32_t n = 0; n < size; n++) {
        const triple *tr = store_triple(w->st, n);
        if ((tr->p == T_RDF_TYPE && tr->o == w->v.schema) || tr->p == w->v.initial_state ||
            tr->p == w->v.transition)
            set_add(schemas, is_schema, tr->s);
    }
}

/* "<#a> and <#b>", "<#a>, <#b> and <#c>", shown in `file`; the caller frees it. */
static char *show_all(wsm_linter *w, const u32vec *items, size_t file) {
    buf out = {0};
    for (uint32_t i = 0; i < items->len; i++) {
        char *shown = gsm_lint_show(w->l, items->data[i], file);
        buf_printf(&out, "%s%s", i == 0 ? "" : i + 1 == items->len ? " and " : ", ", shown);
        free(shown);
    }
    return buf_cstr(&out);
}

/* ==== one transition ==== */

/* The one value of a property a transition must give once (wsm:from, wsm:on, wsm:to), or 0 after
 * reporting why there is none. */
static term_id exactly_one(wsm_linter *w, term_id node, term_id property, const char *name, const char *role) {
    size_t file = gsm_lint_file_of(w->l, node);
    u32vec found = {0};
    store_objects(w->st, node, property, &found);
    term_id value = 0;
    if (found.len == 0) {
        gsm_lint_report(w->l, file, LINT_ERROR, node, "transition has no %s (%s): it never fires", name, role);
    } else if (found.len > 1) {
        gsm_lint_report(w->l, file, LINT_ERROR, node, "transition has %u %s: it needs exactly one (%s)",
                        found.len, name, role);
    } else if (is_literal(w, found.data[0])) {
        char *shown = gsm_lint_show(w->l, found.data[0], file);
        gsm_lint_report(w->l, file, LINT_ERROR, node, "%s %s is a literal, not a node (%s)", name, shown, role);
        free(shown);
    } else if (terms_kind(w->t, found.data[0]) != TERM_IRI) {
        /* instance documents and events name states and events: a blank node has no name outside its file */
        gsm_lint_report(w->l, file, LINT_ERROR, node, "%s is a blank node, not an IRI (%s): instances and events "
                        "name it", name, role);
    } else {
        value = found.data[0];
    }
    u32vec_free(&found);
    return value;
}

/* The printed query of a condition (NULL when invalid), parsed, compiled and reported on first use. */
static const char *condition_query(wsm_linter *w, term_id node) {
    bool inserted;
    uint32_t *slot = u64map_put(&w->condition_index, node, (uint32_t)w->condition_count, &inserted);
    if (!inserted)
        return w->queries[*slot];
    char error[1536];
    char *query = gsm_lint_sentry_query(w->l, node, SENTRY_OF_MACHINE, error, sizeof error);
    if (!query)
        gsm_lint_report(w->l, gsm_lint_file_of(w->l, node), LINT_ERROR, node, "%s", error);
    w->queries = xrealloc(w->queries, (w->condition_count + 1) * sizeof *w->queries);
    w->queries[w->condition_count++] = query;
    return query;
}

static void check_conditions(wsm_linter *w, term_id transition, size_t file) {
    u32vec conditions = {0};
    store_objects(w->st, transition, w->v.condition, &conditions);
    for (uint32_t i = 0; i < conditions.len; i++) {
        term_id c = conditions.data[i];
        char *shown = gsm_lint_show(w->l, c, file);
        if (is_literal(w, c))
            gsm_lint_report(w->l, file, LINT_ERROR, transition,
                            "wsm:condition %s is a literal, not an sp:Ask (write [ a sp:Ask ; sp:text \"ASK "
                            "{ ... }\" ])",
                            shown);
        else if (!store_any(w->st, c, 0, 0))
            gsm_lint_report(w->l, file, LINT_ERROR, transition,
                            "wsm:condition %s is not described in the schema's documents: it never holds", shown);
        else
            condition_query(w, c);
        free(shown);
    }
    u32vec_free(&conditions);
}

/* An assignment's one variable and one boolean value; false after reporting what is wrong. */
static bool read_assignment(wsm_linter *w, term_id a, term_id *variable, term_id *value) {
    size_t file = gsm_lint_file_of(w->l, a);
    u32vec found = {0};
    bool valid = true;
    store_objects(w->st, a, w->v.variable, &found);
    if (found.len != 1 || is_literal(w, found.data[0])) {
        valid = false;
        if (found.len == 0)
            gsm_lint_report(w->l, file, LINT_ERROR, a, "assignment has no wsm:variable");
        else if (found.len > 1)
            gsm_lint_report(w->l, file, LINT_ERROR, a, "assignment has %u wsm:variable: it sets exactly one",
                            found.len);
        else
            gsm_lint_report(w->l, file, LINT_ERROR, a, "assignment's wsm:variable is a literal, not a variable");
    } else {
        *variable = found.data[0];
    }
    store_objects(w->st, a, w->v.value, &found);
    if (found.len != 1 || !is_boolean(w, found.data[0])) {
        valid = false;
        if (found.len == 0) {
            gsm_lint_report(w->l, file, LINT_ERROR, a, "assignment has no wsm:value (true or false)");
        } else if (found.len > 1) {
            gsm_lint_report(w->l, file, LINT_ERROR, a,
                            "assignment has %u wsm:value: it needs exactly one, true or false", found.len);
        } else {
            char *shown = gsm_lint_show(w->l, found.data[0], file);
            gsm_lint_report(w->l, file, LINT_ERROR, a, "wsm:value %s is not a boolean (true or false)", shown);
            free(shown);
        }
    } else {
        *value = found.data[0];
    }
    u32vec_free(&found);
    return valid;
}

/* The assignments of a transition, each read; a variable set both true and false is an error. */
static void check_assignments(wsm_linter *w, term_id transition, size_t file) {
    u32vec assignments = {0};
    u64map set_to = {0}; /* variable -> bit 1 for true, bit 2 for false */
    store_objects(w->st, transition, w->v.assigns, &assignments);
    for (uint32_t i = 0; i < assignments.len; i++) {
        term_id a = assignments.data[i], variable = 0, value = 0;
        if (is_literal(w, a)) {
            char *shown = gsm_lint_show(w->l, a, file);
            gsm_lint_report(w->l, file, LINT_ERROR, transition,
                            "wsm:assigns %s is a literal, not an assignment (write [ wsm:variable <#v> ; "
                            "wsm:value true ])",
                            shown);
            free(shown);
            continue;
        }
        if (!read_assignment(w, a, &variable, &value))
            continue;
        bool inserted;
        uint32_t *bits = u64map_put(&set_to, variable, 0, &inserted);
        uint32_t before = *bits;
        *bits |= strcmp(terms_lex(w->t, value, NULL), "true") == 0 ? 1u : 2u;
        if (before != 3 && *bits == 3) {
            char *shown = gsm_lint_show(w->l, variable, file);
            gsm_lint_report(w->l, file, LINT_ERROR, transition,
                            "transition sets %s both true and false: an instance it fires for would hold both "
                            "values",
                            shown);
            free(shown);
        }
    }
    u64map_free(&set_to);
    u32vec_free(&assignments);
}

/* wsm:actions: one RDF list of requests, sent in order after the write that fires the transition. */
static void check_actions(wsm_linter *w, term_id transition, size_t file) {
    u32vec lists = {0};
    store_objects(w->st, transition, w->v.actions, &lists);
    if (lists.len > 1)
        gsm_lint_report(w->l, file, LINT_ERROR, transition,
                        "transition has %u wsm:actions: give its actions as one list, in the order they are sent",
                        lists.len);
    for (uint32_t i = 0; i < lists.len; i++) {
        term_id list = is_literal(w, lists.data[i]) ? 0 : rdf_list_read(w->t, w->st, lists.data[i]);
        if (!list) {
            char *shown = gsm_lint_show(w->l, lists.data[i], file);
            gsm_lint_report(w->l, file, LINT_ERROR, transition,
                            "wsm:actions %s is not an RDF list (write wsm:actions ( [ http:mthd httpm:POST ; "
                            "http:requestURI <...> ] ))",
                            shown);
            free(shown);
            continue;
        }
        size_t count;
        const term_id *items = terms_list_items(w->t, list, &count);
        for (size_t k = 0; k < count; k++) {
            term_id action = items[k];
            enum term_kind kind = terms_kind(w->t, action);
            if (kind != TERM_IRI && kind != TERM_BNODE) {
                gsm_lint_report(w->l, file, LINT_ERROR, transition,
                                "action %zu of wsm:actions is a %s, not a request", k + 1,
                                kind == TERM_LIST ? "list" : "literal");
                continue;
            }
            gsm_lint_check_task(w->l, action, NULL, &w->checked_actions);
        }
    }
    u32vec_free(&lists);
}

static void check_transition(wsm_linter *w, term_id transition) {
    bool inserted;
    u64map_put(&w->checked_transitions, transition, 1, &inserted);
    if (!inserted)
        return;
    size_t file = gsm_lint_file_of(w->l, transition);
    exactly_one(w, transition, w->v.from, "wsm:from", "the state it leaves");
    exactly_one(w, transition, w->v.on, "wsm:on", "the event it takes");
    exactly_one(w, transition, w->v.to, "wsm:to", "the state it enters");
    check_conditions(w, transition, file);
    check_assignments(w, transition, file);
    check_actions(w, transition, file);
    u32vec actions = {0};
    store_objects(w->st, transition, w->v.actions, &actions);
    if (actions.len && terms_kind(w->t, transition) != TERM_IRI)
        gsm_lint_report(w->l, file, LINT_ERROR, transition,
                        "transition with wsm:actions is a blank node: the history names the transition it fired, "
                        "to send the actions after the first, so it needs an IRI");
    u32vec_free(&actions);
}

/* ==== one schema ==== */

/* The schema's transitions that are described nodes; the others are reported. */
static void schema_transitions(wsm_linter *w, term_id schema, size_t file, u32vec *out) {
    u32vec listed = {0};
    store_objects(w->st, schema, w->v.transition, &listed);
    out->len = 0;
    for (uint32_t i = 0; i < listed.len; i++) {
        term_id t = listed.data[i];
        char *shown = gsm_lint_show(w->l, t, file);
        if (is_literal(w, t))
            gsm_lint_report(w->l, file, LINT_ERROR, schema, "wsm:transition %s is a literal, not a transition",
                            shown);
        else if (!store_any(w->st, t, 0, 0))
            gsm_lint_report(w->l, file, LINT_ERROR, schema,
                            "wsm:transition %s is not described in the schema's documents", shown);
        else
            u32vec_push(out, t);
        free(shown);
    }
    u32vec_free(&listed);
}

/* s0, or 0 after reporting why there is not exactly one. */
static term_id initial_state(wsm_linter *w, term_id schema, size_t file) {
    u32vec found = {0};
    store_objects(w->st, schema, w->v.initial_state, &found);
    term_id s0 = 0;
    if (found.len == 0) {
        gsm_lint_report(w->l, file, LINT_ERROR, schema,
                        "schema has no wsm:initialState: an instance of it never starts");
    } else if (found.len > 1) {
        char *shown = show_all(w, &found, file);
        gsm_lint_report(w->l, file, LINT_ERROR, schema,
                        "schema has %u wsm:initialState (%s): an instance of it would start in all of them",
                        found.len, shown);
        free(shown);
    } else if (is_literal(w, found.data[0])) {
        char *shown = gsm_lint_show(w->l, found.data[0], file);
        gsm_lint_report(w->l, file, LINT_ERROR, schema, "wsm:initialState %s is a literal, not a state", shown);
        free(shown);
    } else if (terms_kind(w->t, found.data[0]) != TERM_IRI) {
        gsm_lint_report(w->l, file, LINT_ERROR, schema,
                        "wsm:initialState is a blank node, not an IRI: instance documents name their state");
    } else {
        s0 = found.data[0];
    }
    u32vec_free(&found);
    return s0;
}

/* Every (state, event) a transition leaves from, for the nodes it gives (the rules match each pair). */
static void departures(wsm_linter *w, const u32vec *transitions, departure **out, size_t *count) {
    u32vec from = {0}, on = {0};
    *out = NULL;
    *count = 0;
    for (uint32_t i = 0; i < transitions->len; i++) {
        store_objects(w->st, transitions->data[i], w->v.from, &from);
        store_objects(w->st, transitions->data[i], w->v.on, &on);
        for (uint32_t f = 0; f < from.len; f++)
            for (uint32_t e = 0; e < on.len; e++) {
                if (is_literal(w, from.data[f]) || is_literal(w, on.data[e]))
                    continue;
                *out = xrealloc(*out, (*count + 1) * sizeof **out);
                (*out)[(*count)++] = (departure){from.data[f], on.data[e], transitions->data[i]};
            }
    }
    u32vec_free(&from);
    u32vec_free(&on);
}

/* The seed's "if t is not exactly defined, an exception is thrown": one message per (state, event) that
 * several transitions leave from, naming all of them. */
static void check_ambiguity(wsm_linter *w, term_id schema, size_t file, const u32vec *transitions) {
    departure *d;
    size_t count;
    departures(w, transitions, &d, &count);
    u32vec same = {0};
    for (size_t k = 0; k < count; k++) {
        bool seen_before = false;
        for (size_t j = 0; j < k && !seen_before; j++)
            seen_before = d[j].state == d[k].state && d[j].event == d[k].event;
        if (seen_before)
            continue;
        same.len = 0;
        for (size_t m = k; m < count; m++)
            if (d[m].state == d[k].state && d[m].event == d[k].event)
                u32vec_push(&same, d[m].transition);
        if (same.len < 2)
            continue;
        char *names = show_all(w, &same, file);
        char *state = gsm_lint_show(w->l, d[k].state, file), *event = gsm_lint_show(w->l, d[k].event, file);
        gsm_lint_report(w->l, file, w->ambiguity, schema,
                        "transitions %s both leave state %s on event %s: which one fires is not defined (the "
                        "seed's \"if t is not exactly defined, an exception is thrown\"; the agent holds an "
                        "instance that meets them)",
                        names, state, event);
        free(names);
        free(state);
        free(event);
    }
    u32vec_free(&same);
    free(d);
}

/* Conditions ignored: what a path of transitions from s0 reaches; every state a transition names that it
 * does not reach is reported. */
static void check_reachable(wsm_linter *w, term_id schema, term_id s0, const u32vec *transitions) {
    u32vec states = {0}, from = {0}, to = {0};
    u64map is_state = {0}, reached = {0};
    bool inserted, grew = true;
    set_add(&states, &is_state, s0);
    u64map_put(&reached, s0, 1, &inserted);
    for (uint32_t i = 0; i < transitions->len; i++) {
        store_objects(w->st, transitions->data[i], w->v.from, &from);
        store_objects(w->st, transitions->data[i], w->v.to, &to);
        for (uint32_t k = 0; k < from.len; k++)
            if (!is_literal(w, from.data[k]))
                set_add(&states, &is_state, from.data[k]);
        for (uint32_t k = 0; k < to.len; k++)
            if (!is_literal(w, to.data[k]))
                set_add(&states, &is_state, to.data[k]);
    }
    while (grew) { /* a fixpoint: schemas are small */
        grew = false;
        for (uint32_t i = 0; i < transitions->len; i++) {
            store_objects(w->st, transitions->data[i], w->v.from, &from);
            bool leaves_reached = false;
            for (uint32_t k = 0; k < from.len; k++)
                leaves_reached |= u64map_get(&reached, from.data[k]) != NULL;
            if (!leaves_reached)
                continue;
            store_objects(w->st, transitions->data[i], w->v.to, &to);
            for (uint32_t k = 0; k < to.len; k++)
                if (!is_literal(w, to.data[k])) {
                    u64map_put(&reached, to.data[k], 1, &inserted);
                    grew |= inserted;
                }
        }
    }
    for (uint32_t i = 0; i < states.len; i++) {
        if (u64map_get(&reached, states.data[i]))
            continue;
        size_t file = gsm_lint_file_of(w->l, states.data[i]);
        char *shown_s0 = gsm_lint_show(w->l, s0, file), *shown_schema = gsm_lint_show(w->l, schema, file);
        gsm_lint_report(w->l, file, LINT_WARNING, states.data[i],
                        "state is not reachable from %s, the initial state of schema %s: no path of transitions "
                        "leads to it",
                        shown_s0, shown_schema);
        free(shown_s0);
        free(shown_schema);
    }
    u32vec_free(&states);
    u32vec_free(&from);
    u32vec_free(&to);
    u64map_free(&is_state);
    u64map_free(&reached);
}

/* Does some condition of the schema's transitions name the variable (its IRI in the printed query)? */
static bool read_by_condition(wsm_linter *w, term_id variable, const u32vec *transitions) {
    if (terms_kind(w->t, variable) != TERM_IRI)
        return false;
    buf named = {0};
    buf_printf(&named, "<%s>", terms_lex(w->t, variable, NULL));
    u32vec conditions = {0};
    bool read = false;
    for (uint32_t i = 0; i < transitions->len && !read; i++) {
        store_objects(w->st, transitions->data[i], w->v.condition, &conditions);
        for (uint32_t c = 0; c < conditions.len && !read; c++) {
            const uint32_t *slot = u64map_get(&w->condition_index, conditions.data[c]);
            read = slot && w->queries[*slot] && strstr(w->queries[*slot], buf_cstr(&named));
        }
    }
    u32vec_free(&conditions);
    buf_free(&named);
    return read;
}

/* The declared variables: initial values, use; every assignment sets one of them. */
static void check_variables(wsm_linter *w, term_id schema, size_t file, const u32vec *transitions) {
    u32vec declared = {0}, found = {0}, assignments = {0};
    u64map is_declared = {0}, assigned = {0};
    bool inserted;
    store_objects(w->st, schema, w->v.variable, &declared);
    for (uint32_t i = 0; i < declared.len; i++) {
        term_id v = declared.data[i];
        if (is_literal(w, v)) {
            char *shown = gsm_lint_show(w->l, v, file);
            gsm_lint_report(w->l, file, LINT_ERROR, schema, "wsm:variable %s is a literal, not a variable", shown);
            free(shown);
            continue;
        }
        u64map_put(&is_declared, v, 1, &inserted);
        size_t v_file = gsm_lint_file_of(w->l, v);
        store_objects(w->st, v, w->v.initial_value, &found);
        if (found.len > 1)
            gsm_lint_report(w->l, v_file, LINT_ERROR, v,
                            "variable has %u wsm:initialValue: it needs at most one, true or false", found.len);
        for (uint32_t k = 0; k < found.len; k++)
            if (!is_boolean(w, found.data[k])) {
                char *shown = gsm_lint_show(w->l, found.data[k], v_file);
                gsm_lint_report(w->l, v_file, LINT_ERROR, v, "wsm:initialValue %s is not a boolean (true or false)",
                                shown);
                free(shown);
            }
    }
    for (uint32_t i = 0; i < transitions->len; i++) {
        store_objects(w->st, transitions->data[i], w->v.assigns, &assignments);
        for (uint32_t a = 0; a < assignments.len; a++) {
            store_objects(w->st, assignments.data[a], w->v.variable, &found);
            if (found.len != 1 || is_literal(w, found.data[0]))
                continue; /* reported with the assignment */
            u64map_put(&assigned, found.data[0], 1, &inserted);
            if (u64map_get(&is_declared, found.data[0]))
                continue;
            size_t a_file = gsm_lint_file_of(w->l, assignments.data[a]);
            char *shown_v = gsm_lint_show(w->l, found.data[0], a_file);
            char *shown_schema = gsm_lint_show(w->l, schema, a_file);
            gsm_lint_report(w->l, a_file, LINT_ERROR, assignments.data[a],
                            "assignment sets %s, which schema %s does not declare (wsm:variable): it has no "
                            "initial value",
                            shown_v, shown_schema);
            free(shown_v);
            free(shown_schema);
        }
    }
    for (uint32_t i = 0; i < declared.len; i++) {
        term_id v = declared.data[i];
        if (is_literal(w, v) || u64map_get(&assigned, v) || read_by_condition(w, v, transitions))
            continue;
        gsm_lint_report(w->l, gsm_lint_file_of(w->l, v), LINT_WARNING, v,
                        "variable is never set (wsm:assigns) and no condition reads it: it decides nothing");
    }
    u32vec_free(&declared);
    u32vec_free(&found);
    u32vec_free(&assignments);
    u64map_free(&is_declared);
    u64map_free(&assigned);
}

/* The documents a schema is described in: where it or one of its transitions is a subject. */
static void add_schema_graphs(wsm_linter *w, term_id schema, const u32vec *transitions, u64map *graphs) {
    bool inserted;
    for (uint32_t i = 0; i <= transitions->len; i++) {
        store_iter it;
        uint32_t n;
        store_match(w->st, i == 0 ? schema : transitions->data[i - 1], 0, 0, 0, store_size(w->st), &it);
        while (store_next(&it, &n))
            u64map_put(graphs, store_first_graph(w->st, n), 1, &inserted);
    }
}

static void check_schema(wsm_linter *w, term_id schema, u64map *schema_graphs) {
    size_t file = gsm_lint_file_of(w->l, schema);
    u32vec transitions = {0};
    term_id s0 = initial_state(w, schema, file);
    schema_transitions(w, schema, file, &transitions);
    for (uint32_t i = 0; i < transitions.len; i++)
        check_transition(w, transitions.data[i]);
    check_ambiguity(w, schema, file, &transitions);
    check_variables(w, schema, file, &transitions);
    if (s0)
        check_reachable(w, schema, s0, &transitions);
    add_schema_graphs(w, schema, &transitions, schema_graphs);
    u32vec_free(&transitions);
}

/* ==== across schemas ==== */

/* States and events a schema's documents type but no schema uses, and transitions no schema lists. */
static void check_unused(wsm_linter *w, const u64map *schema_graphs) {
    uint32_t size = store_size(w->st);
    u64map reported = {0};
    bool inserted;
    for (uint32_t n = 0; n < size; n++) {
        const triple tr = *store_triple(w->st, n);
        if (tr.p == T_RDF_TYPE && (tr.o == w->v.state || tr.o == w->v.event) &&
            u64map_get(schema_graphs, store_first_graph(w->st, n))) {
            size_t file = gsm_lint_file_of(w->l, tr.s);
            if (tr.o == w->v.event && !store_any(w->st, 0, w->v.on, tr.s))
                gsm_lint_report(w->l, file, LINT_WARNING, tr.s,
                                "event no transition takes (wsm:on): an instance rejects it in every state");
            if (tr.o == w->v.state && !store_any(w->st, 0, w->v.from, tr.s) &&
                !store_any(w->st, 0, w->v.to, tr.s) && !store_any(w->st, 0, w->v.initial_state, tr.s))
                gsm_lint_report(w->l, file, LINT_WARNING, tr.s,
                                "state no transition or schema names (wsm:from, wsm:to, wsm:initialState): no "
                                "instance is ever in it");
        }
        if ((tr.p == w->v.from || tr.p == w->v.on || tr.p == w->v.to) &&
            !store_any(w->st, 0, w->v.transition, tr.s)) {
            u64map_put(&reported, tr.s, 1, &inserted);
            if (inserted)
                gsm_lint_report(w->l, gsm_lint_file_of(w->l, tr.s), LINT_WARNING, tr.s,
                                "transition no schema lists (wsm:transition): it never fires");
        }
    }
    u64map_free(&reported);
}

size_t wsm_lint_check(gsm_lint *l, enum lint_severity ambiguity) {
    if (!gsm_lint_loaded(l))
        return 0;
    wsm_linter w = {.l = l, .t = gsm_lint_terms(l), .st = gsm_lint_store(l), .ambiguity = ambiguity};
    vocab_init(&w.v, w.t);
    u32vec schemas = {0};
    u64map is_schema = {0}, schema_graphs = {0};
    find_schemas(&w, &schemas, &is_schema);
    if (schemas.len)
        gsm_lint_other_model(l);
    for (uint32_t i = 0; i < schemas.len; i++)
        check_schema(&w, schemas.data[i], &schema_graphs);
    check_unused(&w, &schema_graphs);
    size_t found = schemas.len;
    u32vec_free(&schemas);
    u64map_free(&is_schema);
    u64map_free(&schema_graphs);
    u64map_free(&w.checked_transitions);
    u64map_free(&w.checked_actions);
    u64map_free(&w.condition_index);
    for (size_t i = 0; i < w.condition_count; i++)
        free(w.queries[i]);
    free(w.queries);
    return found;
}
