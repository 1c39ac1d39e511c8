/* wsm_status.c: the report of wsm_status.h: read from working memory into views (plain strings), then
 * printed as text or JSON from the same views. */
#include "wsm/wsm_status.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "http/http_client.h"
#include "rdf/json_out.h"
#include "rdf/rdfio.h"
#include "rdf/vocab_ns.h"
#include "wsm/wsm_names.h"

bool wsm_status_is_machine(const char *iri, long connect_timeout_ms, long timeout_ms, const http_auth *auth) {
    http_options options = http_options_default();
    if (connect_timeout_ms > 0)
        options.connect_timeout_ms = connect_timeout_ms;
    if (timeout_ms > 0)
        options.total_timeout_ms = timeout_ms;
    log_sink quiet = {.threshold = LOG_ERROR};
    options.log = &quiet;
    http_client *client = http_client_new(&options);
    if (!client)
        return false;
    if (auth && auth->hop_headers)
        http_client_set_auth(client, auth);
    http_header accept = {"Accept", rdf_accept_header()};
    http_request request = {.method = "GET", .url = iri, .headers = &accept, .header_count = 1};
    http_result result;
    http_run(client, &request, 1, &result);
    bool machine = false;
    enum rdf_syntax syntax = rdf_syntax_from_media_type(result.content_type);
    if (result.failure == HTTP_FAIL_NONE && result.status / 100 == 2 && syntax != RDF_SYNTAX_UNKNOWN) {
        terms *t = terms_new();
        store *st = store_new();
        rdfio *io = rdfio_new(t);
        rdf_error err;
        const char *hash = strchr(iri, '#');
        char *doc = xstrndup(iri, hash ? (size_t)(hash - iri) : strlen(iri));
        if (rdf_parse(io, st, syntax, result.body.data ? result.body.data : "", result.body.len,
                      result.final_url ? result.final_url : doc, 0, iri, &err) == 0)
            machine = store_first_object(st, terms_iri_cstr(t, iri), terms_iri_cstr(t, WSM_instanceOf)) != 0;
        free(doc);
        rdfio_free(io);
        store_free(st);
        terms_free(t);
    }
    http_result_free(&result);
    http_client_free(client);
    return machine;
}

/* --- the views ------------------------------------------------------------------------------------ */

typedef struct named {
    char *iri, *name; /* iri NULL: not given (name then NULL too) */
} named;

typedef struct variable_view {
    named variable;
    char *value; /* NULL: not set */
} variable_view;

typedef struct waiting_view {
    char *resource;
    named *events; /* what it names with wsm:event (one, unless it is set aside for naming several) */
    size_t event_count;
    char *unread; /* why its document brought no data, or NULL */
    char *next;   /* the head event: what the rules derived its taking does, or NULL */
} waiting_view;

typedef struct entry_view {
    long sequence; /* -1: not given */
    char *at, *resource, *outcome, *reason;
    named event, from, to, fired;
    named *failed;
    size_t failed_count;
} entry_view;

typedef struct report {
    char *instance, *error;
    named schema, state;
    long taken; /* -1: not set up */
    variable_view *variables;
    size_t variable_count;
    char **waits, **held;
    size_t wait_count, held_count;
    char *inbox;
    waiting_view *waiting;
    size_t waiting_count;
    entry_view *history;
    size_t history_count; /* every entry of the instance, by sequence */
    size_t shown_from;    /* the first of the last entries shown */
} report;

typedef struct ctx {
    terms *t;
    store *wm;
    wsm_terms v;
    term_id instance, read_failure, wx_outcome, wx_reason, wx_fires, wx_fails_for, wx_decides;
} ctx;

#define PUSH(array, count) ((array) = xrealloc((array), ((count) + 1) * sizeof *(array)), &(array)[(count)++])

static char *dup_str(const char *s) {
    return s ? xstrndup(s, strlen(s)) : NULL;
}

static named name_of(const ctx *c, term_id id) {
    if (!id)
        return (named){0};
    return (named){dup_str(wsm_text(c->t, id)), wsm_name(c->t, c->wm, &c->v, id)};
}

/* The IRI or lexical form of (s, p)'s first object, or NULL. */
static char *object_text(const ctx *c, term_id s, term_id p) {
    term_id o = store_first_object(c->wm, s, p);
    return o ? dup_str(wsm_text(c->t, o)) : NULL;
}

static long integer(const ctx *c, term_id s, term_id p) {
    term_id o = store_first_object(c->wm, s, p);
    if (!o || terms_kind(c->t, o) != TERM_LITERAL)
        return -1;
    char *end;
    long value = strtol(terms_lex(c->t, o, NULL), &end, 10);
    return *end ? -1 : value;
}

/* The literal objects of (s, p) as strings. */
static size_t strings(const ctx *c, term_id s, term_id p, char ***out) {
    u32vec objects = {0};
    store_objects(c->wm, s, p, &objects);
    size_t n = 0;
    *out = NULL;
    for (size_t i = 0; i < objects.len; i++)
        if (terms_kind(c->t, objects.data[i]) == TERM_LITERAL)
            *PUSH(*out, n) = dup_str(terms_lex(c->t, objects.data[i], NULL));
    u32vec_free(&objects);
    return n;
}

/* wsm:fired -> "fired": outcomes by their local names. */
static char *outcome_word(const ctx *c, term_id o) {
    if (!o)
        return NULL;
    const char *text = wsm_text(c->t, o);
    return dup_str(strncmp(text, NS_WSM, strlen(NS_WSM)) == 0 ? text + strlen(NS_WSM) : text);
}

static bool consumed(const ctx *c, term_id event) {
    store_iter it;
    uint32_t n;
    store_match(c->wm, 0, c->v.event_resource, event, 0, store_size(c->wm), &it);
    for (const triple *tr; (tr = store_next(&it, &n));)
        if (store_find(c->wm, tr->s, c->v.entry_of, c->instance) != UINT32_MAX)
            return true;
    return false;
}

static int by_iri(const void *a, const void *b) {
    return strcmp(((const waiting_view *)a)->resource, ((const waiting_view *)b)->resource);
}

static int by_sequence(const void *a, const void *b) {
    long x = ((const entry_view *)a)->sequence, y = ((const entry_view *)b)->sequence;
    return (x > y) - (x < y);
}

/* What the rules derived the head event's taking does (rules/wsm.n3: `?I wx:decides ?e ; wx:outcome ?o ;
 * wx:reason ?why ; wx:fires ?t`, `?c wx:failsFor ?I`). */
static char *next_step(const ctx *c, term_id event) {
    term_id outcome = store_first_object(c->wm, c->instance, c->wx_outcome);
    if (store_find(c->wm, c->instance, c->wx_decides, event) == UINT32_MAX || !outcome)
        return NULL;
    buf text = {0};
    char *word = outcome_word(c, outcome);
    term_id transition = store_first_object(c->wm, c->instance, c->wx_fires);
    term_id to = transition ? store_first_object(c->wm, transition, c->v.to) : 0;
    char *reason = object_text(c, c->instance, c->wx_reason);
    if (transition && to) {
        char *name = wsm_name(c->t, c->wm, &c->v, transition), *state = wsm_name(c->t, c->wm, &c->v, to);
        buf_printf(&text, "%s: \"%s\" to \"%s\"", word, name, state);
        free(name);
        free(state);
    } else {
        buf_printf(&text, "%s%s%s", word, reason ? ": " : "", reason ? reason : "");
    }
    store_iter it;
    uint32_t n;
    size_t failing = 0;
    store_match(c->wm, 0, c->wx_fails_for, c->instance, 0, store_size(c->wm), &it);
    for (const triple *tr; (tr = store_next(&it, &n));) {
        char *name = wsm_name(c->t, c->wm, &c->v, tr->s);
        buf_printf(&text, "%s\"%s\"", failing++ ? ", " : "; failing: ", name);
        free(name);
    }
    free(reason);
    free(word);
    return buf_cstr(&text);
}

static void read_inbox(const ctx *c, report *r, term_id inbox) {
    r->inbox = dup_str(wsm_text(c->t, inbox));
    u32vec members = {0}, events = {0};
    store_objects(c->wm, inbox, c->v.contains, &members);
    for (size_t i = 0; i < members.len; i++) {
        term_id member = members.data[i];
        if (consumed(c, member))
            continue; /* taken: deleted by the agent's next request */
        waiting_view *w = PUSH(r->waiting, r->waiting_count);
        *w = (waiting_view){.resource = dup_str(wsm_text(c->t, member)),
                            .unread = object_text(c, member, c->read_failure)};
        store_objects(c->wm, member, c->v.event, &events);
        for (size_t k = 0; k < events.len; k++)
            *PUSH(w->events, w->event_count) = name_of(c, events.data[k]);
    }
    u32vec_free(&events);
    if (r->waiting_count) {
        qsort(r->waiting, r->waiting_count, sizeof *r->waiting, by_iri);
        term_id head = terms_iri_cstr(c->t, r->waiting[0].resource);
        /* a held instance's writes are held: whatever the rules derived for its head, it is not taken */
        r->waiting[0].next = r->held_count ? dup_str("not taken while the instance is held (held: above)")
                                           : next_step(c, head);
    }
    u32vec_free(&members);
}

static void read_history(const ctx *c, report *r, unsigned shown) {
    u32vec entries = {0}, failed = {0};
    store_subjects(c->wm, c->v.entry_of, c->instance, &entries);
    size_t count = entries.len;
    entry_view *all = xcalloc(count + 1, sizeof *all);
    for (size_t i = 0; i < count; i++) {
        term_id h = entries.data[i];
        entry_view *e = &all[i];
        *e = (entry_view){
            .sequence = integer(c, h, c->v.sequence), .at = object_text(c, h, c->v.at),
            .resource = object_text(c, h, c->v.event_resource),
            .outcome = outcome_word(c, store_first_object(c->wm, h, c->v.outcome)),
            .reason = object_text(c, h, c->v.reason),
            .event = name_of(c, store_first_object(c->wm, h, c->v.event)),
            .from = name_of(c, store_first_object(c->wm, h, c->v.from_state)),
            .to = name_of(c, store_first_object(c->wm, h, c->v.to_state)),
            .fired = name_of(c, store_first_object(c->wm, h, c->v.fired_transition)),
        };
        store_objects(c->wm, h, c->v.failed_condition, &failed);
        for (size_t k = 0; k < failed.len; k++)
            *PUSH(e->failed, e->failed_count) = name_of(c, failed.data[k]);
    }
    u32vec_free(&failed);
    u32vec_free(&entries);
    qsort(all, count, sizeof *all, by_sequence);
    r->history = all;
    r->history_count = count;
    r->shown_from = count > shown ? count - shown : 0;
}

static void build(const wsm_status_input *in, report *r) {
    ctx c = {.t = in->t, .wm = in->wm};
    wsm_terms_init(&c.v, in->t);
    c.instance = terms_iri_cstr(in->t, in->instance);
    c.read_failure = terms_iri_cstr(in->t, LDGSM_readFailure);
    c.wx_outcome = terms_iri_cstr(in->t, NS_WX "outcome");
    c.wx_reason = terms_iri_cstr(in->t, NS_WX "reason");
    c.wx_fires = terms_iri_cstr(in->t, NS_WX "fires");
    c.wx_fails_for = terms_iri_cstr(in->t, NS_WX "failsFor");
    c.wx_decides = terms_iri_cstr(in->t, NS_WX "decides");
    *r = (report){.instance = dup_str(in->instance), .taken = integer(&c, c.instance, c.v.taken)};
    r->wait_count = strings(&c, c.instance, c.v.waits_because, &r->waits);
    r->held_count = strings(&c, c.instance, c.v.held_because, &r->held);
    char *unread = object_text(&c, c.instance, c.read_failure);
    term_id schema = store_first_object(c.wm, c.instance, c.v.instance_of);
    buf error = {0};
    if (unread)
        buf_printf(&error, "its document cannot be read: %s", unread);
    else if (!schema)
        buf_puts(&error, "its document does not say which schema it is an instance of (wsm:instanceOf)");
    free(unread);
    if (error.len) {
        r->error = buf_cstr(&error);
        return;
    }
    r->schema = name_of(&c, schema);
    unread = object_text(&c, schema, c.read_failure);
    if (!store_first_object(c.wm, schema, c.v.initial_state)) {
        buf_printf(&error, "its schema <%s> is not described (no wsm:initialState)%s%s", r->schema.iri,
                   unread ? ": its document cannot be read: " : "", unread ? unread : "");
        r->error = buf_cstr(&error);
    }
    free(unread);
    r->state = name_of(&c, store_first_object(c.wm, c.instance, c.v.current_state));
    u32vec variables = {0};
    store_objects(c.wm, schema, c.v.variable, &variables);
    for (size_t i = 0; i < variables.len; i++) {
        term_id value = store_first_object(c.wm, c.instance, variables.data[i]);
        *PUSH(r->variables, r->variable_count) =
            (variable_view){name_of(&c, variables.data[i]), value ? dup_str(wsm_text(c.t, value)) : NULL};
    }
    u32vec_free(&variables);
    term_id inbox = store_first_object(c.wm, c.instance, c.v.inbox);
    if (inbox)
        read_inbox(&c, r, inbox);
    read_history(&c, r, in->history);
}

static void named_free(named *n) {
    free(n->iri);
    free(n->name);
}

static void report_free(report *r) {
    free(r->instance);
    free(r->error);
    named_free(&r->schema);
    named_free(&r->state);
    for (size_t i = 0; i < r->variable_count; i++) {
        named_free(&r->variables[i].variable);
        free(r->variables[i].value);
    }
    free(r->variables);
    for (size_t i = 0; i < r->wait_count; i++)
        free(r->waits[i]);
    free(r->waits);
    for (size_t i = 0; i < r->held_count; i++)
        free(r->held[i]);
    free(r->held);
    free(r->inbox);
    for (size_t i = 0; i < r->waiting_count; i++) {
        waiting_view *w = &r->waiting[i];
        free(w->resource);
        free(w->unread);
        free(w->next);
        for (size_t k = 0; k < w->event_count; k++)
            named_free(&w->events[k]);
        free(w->events);
    }
    free(r->waiting);
    for (size_t i = 0; i < r->history_count; i++) {
        entry_view *e = &r->history[i];
        free(e->at);
        free(e->resource);
        free(e->outcome);
        free(e->reason);
        named_free(&e->event);
        named_free(&e->from);
        named_free(&e->to);
        named_free(&e->fired);
        for (size_t k = 0; k < e->failed_count; k++)
            named_free(&e->failed[k]);
        free(e->failed);
    }
    free(r->history);
}

/* As wsm_status.h says: 1 not shown, 6 held or waiting, else 0. */
static int exit_status(const report *r) {
    return r->error ? 1 : r->held_count || r->wait_count ? 6 : 0;
}

/* --- text ----------------------------------------------------------------------------------------- */

static void text_named(buf *out, const named *n) {
    if (n->name)
        buf_printf(out, "\"%s\"", n->name);
    else
        buf_puts(out, "?");
}

static void text_waiting(buf *out, const waiting_view *w) {
    buf_printf(out, "  %s: ", w->resource);
    if (w->unread)
        buf_printf(out, "cannot be read: %s", w->unread);
    else if (!w->event_count)
        buf_puts(out, "names no event");
    for (size_t k = 0; !w->unread && k < w->event_count; k++) {
        buf_puts(out, k ? ", " : w->event_count > 1 ? "names several events: " : "");
        text_named(out, &w->events[k]);
    }
    if (w->next)
        buf_printf(out, " (next: %s)", w->next);
    buf_putc(out, '\n');
}

static void text_entry(buf *out, const entry_view *e) {
    if (e->sequence >= 0)
        buf_printf(out, "  %ld", e->sequence);
    else
        buf_puts(out, "  ?");
    buf_printf(out, " %s ", e->at ? e->at : "?");
    if (e->event.name)
        text_named(out, &e->event);
    else
        buf_printf(out, "<%s>", e->resource ? e->resource : "?");
    buf_puts(out, ": ");
    text_named(out, &e->from);
    buf_puts(out, " -> ");
    text_named(out, &e->to);
    buf_printf(out, ", %s", e->outcome ? e->outcome : "?");
    if (e->reason)
        buf_printf(out, ": %s", e->reason);
    for (size_t k = 0; k < e->failed_count; k++) {
        buf_puts(out, k ? ", " : "; failed: ");
        text_named(out, &e->failed[k]);
    }
    buf_putc(out, '\n');
}

int wsm_status_text(const wsm_status_input *in, buf *out) {
    report r;
    build(in, &r);
    buf_printf(out, "%s\n", r.instance);
    if (r.schema.iri)
        buf_printf(out, "  state machine \"%s\" <%s>\n", r.schema.name, r.schema.iri);
    if (r.error) {
        buf_printf(out, "  cannot be shown: %s\n", r.error);
        report_free(&r);
        return 1;
    }
    if (r.state.iri)
        buf_printf(out, "state \"%s\" (%ld event%s taken)\n", r.state.name, r.taken, r.taken == 1 ? "" : "s");
    else
        buf_puts(out, "state: not set up yet (an agent's next iteration sets it up)\n");
    for (size_t i = 0; i < r.variable_count; i++)
        buf_printf(out, "  variable \"%s\": %s\n", r.variables[i].variable.name,
                   r.variables[i].value ? r.variables[i].value : "not set");
    for (size_t i = 0; i < r.wait_count; i++)
        buf_printf(out, "  waits: %s\n", r.waits[i]);
    for (size_t i = 0; i < r.held_count; i++)
        buf_printf(out, "  held: %s\n", r.held[i]);
    if (r.inbox && !r.waiting_count)
        buf_printf(out, "inbox <%s>: no event waiting\n", r.inbox);
    else if (r.inbox)
        buf_printf(out, "inbox <%s>: %zu event%s waiting, in the order they will be taken:\n", r.inbox,
                   r.waiting_count, r.waiting_count == 1 ? "" : "s");
    for (size_t i = 0; i < r.waiting_count; i++)
        text_waiting(out, &r.waiting[i]);
    if (r.history_count == r.shown_from)
        buf_printf(out, "last events taken: %s\n", r.history_count ? "not shown" : "none recorded");
    else
        buf_printf(out, "last events taken (%zu of %zu):\n", r.history_count - r.shown_from, r.history_count);
    for (size_t i = r.shown_from; i < r.history_count; i++)
        text_entry(out, &r.history[i]);
    int rc = exit_status(&r);
    report_free(&r);
    return rc;
}

/* --- JSON ----------------------------------------------------------------------------------------- */

/* "KEY": IRI, "KEYName": name */
static void set_named(json_t *o, const char *key, const named *n) {
    char name_key[64];
    snprintf(name_key, sizeof name_key, "%sName", key);
    json_object_set_new(o, key, json_out_string(n->iri));
    json_object_set_new(o, name_key, json_out_string(n->name));
}

/* [{"ITEM": IRI, "ITEMName": name}...] */
static json_t *nameds_json(const char *item, const named *values, size_t count) {
    json_t *array = json_array();
    for (size_t i = 0; i < count; i++) {
        json_t *o = json_object();
        set_named(o, item, &values[i]);
        json_array_append_new(array, o);
    }
    return array;
}

static json_t *variable_json(const variable_view *v) {
    json_t *o = json_object();
    set_named(o, "variable", &v->variable);
    /* a boolean value is written as a JSON boolean, any other as a string */
    const char *value = v->value;
    bool boolean = value && (strcmp(value, "true") == 0 || strcmp(value, "false") == 0);
    json_object_set_new(o, "value", boolean ? json_boolean(value[0] == 't') : json_out_string(value));
    return o;
}

static json_t *waiting_json(const waiting_view *w) {
    return json_pack("{s:o, s:o, s:o, s:o}",
                     "resource", json_out_string(w->resource),
                     "events", nameds_json("event", w->events, w->event_count),
                     "unread", json_out_string(w->unread),
                     "next", json_out_string(w->next));
}

static json_t *entry_json(const entry_view *e) {
    json_t *o = json_object();
    json_object_set_new(o, "sequence", json_out_count(e->sequence));
    json_object_set_new(o, "at", json_out_string(e->at));
    json_object_set_new(o, "eventResource", json_out_string(e->resource));
    set_named(o, "event", &e->event);
    set_named(o, "from", &e->from);
    set_named(o, "to", &e->to);
    json_object_set_new(o, "outcome", json_out_string(e->outcome));
    json_object_set_new(o, "reason", json_out_string(e->reason));
    set_named(o, "firedTransition", &e->fired);
    json_object_set_new(o, "failedConditions", nameds_json("condition", e->failed, e->failed_count));
    return o;
}

int wsm_status_json(const wsm_status_input *in, buf *out) {
    report r;
    build(in, &r);
    json_t *variables = json_array(), *waiting = json_array(), *history = json_array();
    for (size_t i = 0; i < r.variable_count; i++)
        json_array_append_new(variables, variable_json(&r.variables[i]));
    for (size_t i = 0; i < r.waiting_count; i++)
        json_array_append_new(waiting, waiting_json(&r.waiting[i]));
    for (size_t i = r.shown_from; i < r.history_count; i++)
        json_array_append_new(history, entry_json(&r.history[i]));
    json_t *o = json_object();
    json_object_set_new(o, "instance", json_out_string(r.instance));
    json_object_set_new(o, "error", json_out_string(r.error));
    set_named(o, "schema", &r.schema);
    set_named(o, "state", &r.state);
    json_object_set_new(o, "taken", json_out_count(r.taken));
    json_object_set_new(o, "variables", variables);
    json_object_set_new(o, "waits", json_out_strings(r.waits, r.wait_count));
    json_object_set_new(o, "held", json_out_strings(r.held, r.held_count));
    json_object_set_new(o, "inbox", json_out_string(r.inbox));
    json_object_set_new(o, "waiting", waiting);
    json_object_set_new(o, "entriesRecorded", json_out_count((long)r.history_count));
    json_object_set_new(o, "history", history);
    json_out_line(o, out);
    int rc = exit_status(&r);
    report_free(&r);
    return rc;
}
