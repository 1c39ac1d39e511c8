/* demo_suppliers.c: the procurement scenario of demo_suppliers.h: the model's names, the status document's
 * stages, milestones and order call read after each agent iteration, what changed described as rows of
 * the run table, and the environment's reactions:
 *
 *   when                                           the environment writes
 *   warehouse/expected says shop:expecting true    warehouse/delivery  shop:arrived true   (the goods arrive)
 *   inbox/ holds a member besides the confirmation inbox/confirmation  shop:confirmed true (the clerk phoned)
 *   at the start, with no_supplier_b               DELETE supplier-b/orders/              (B's shop is gone) */
#include "demos/demo_suppliers.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "agent/vocab.h"
#include "reason/xsd_time.h"

#define MODEL_PATH "models/procurement"
#define EXPECTED_PATH "warehouse/expected"
#define DELIVERY_PATH "warehouse/delivery"
#define INBOX_PATH "inbox/"
#define CONFIRMATION_PATH "inbox/confirmation"
#define SUPPLIER_B_PATH "supplier-b/orders/"

/* The table fits 100 columns: iteration, what happened, the open stages, the order call. */
enum { WHAT_WIDTH = 41, STAGES_WIDTH = 21, CALL_WIDTH = 25, MAX_ALTERNATIVES = 64 };

/* The stages the table follows: the root (its completion ends the run) and the four columns. */
enum stage { S_ROOT, S_ORDER, S_ONLINE, S_PHONE, S_RECEIVE, STAGE_COUNT };
static const char *const stage_fragments[STAGE_COUNT] = {"root", "order", "order-online", "order-by-phone",
                                                         "receive"};
/* The order call's columns, after the stages'. */
enum { C_STAGES, C_CALL, COLUMN_COUNT };
static const char *const column_names[COLUMN_COUNT] = {"open stages", "order call"};

/* The milestones the rules give an alternative stage and its parent (rules/gsm-alternatives.n3) are no part
 * of the model's document: they are named here as the rules label them, by their documented fragments. */
static const struct rule_milestone {
    const char *fragment_prefix, *name;
} rule_milestones[] = {{"ldgsm-gave-way-", "gave way"}, {"ldgsm-all-failed-", "all alternatives failed"}};

/* ---- status ------------------------------------------------------------------------------------- */

typedef struct stage_status {
    bool present, active, completed;
} stage_status;

typedef struct milestone_status {
    term_id node, model; /* the instance in the status document, its milestone in the model */
    int stage; /* an enum stage, or -1 for a stage the table does not follow */
    bool achieved;
} milestone_status;

typedef struct call_status {
    bool present;
    term_id state; /* ldgsm:calling, answered, exhausted, cancelled */
    long alternative, retries_left, answer_status;
    int64_t called_at, deadline, failed_attempt; /* ms since the epoch; 0 when absent */
    term_id last_failure;
} call_status;

typedef struct status {
    bool set_up; /* the root's state is active or inactive (not uninitialized) */
    stage_status stage[STAGE_COUNT];
    milestone_status *milestones;
    size_t milestone_count;
    call_status call;
} status;

static void status_free(status *s) {
    free(s->milestones);
    *s = (status){0};
}

static const milestone_status *find_milestone(const status *s, term_id node) {
    for (size_t i = 0; i < s->milestone_count; i++)
        if (s->milestones[i].node == node)
            return &s->milestones[i];
    return NULL;
}

static bool call_equal(const call_status *a, const call_status *b) {
    return a->present == b->present && a->state == b->state && a->alternative == b->alternative &&
           a->retries_left == b->retries_left && a->answer_status == b->answer_status &&
           a->called_at == b->called_at && a->deadline == b->deadline && a->failed_attempt == b->failed_attempt &&
           a->last_failure == b->last_failure;
}

static bool status_equal(const status *a, const status *b) {
    if (a->set_up != b->set_up || a->milestone_count != b->milestone_count || !call_equal(&a->call, &b->call))
        return false;
    for (int s = 0; s < STAGE_COUNT; s++)
        if (a->stage[s].present != b->stage[s].present || a->stage[s].active != b->stage[s].active ||
            a->stage[s].completed != b->stage[s].completed)
            return false;
    for (size_t i = 0; i < a->milestone_count; i++) {
        const milestone_status *other = find_milestone(b, a->milestones[i].node);
        if (!other || other->achieved != a->milestones[i].achieved)
            return false;
    }
    return true;
}

/* ---- the scenario ------------------------------------------------------------------------------- */

struct suppliers_demo {
    suppliers_options opt;
    demo_io io;
    terms *t;
    rdfio *rdf;
    store *model; /* models/procurement, kept for the names */
    term_id instance, stage_model[STAGE_COUNT], stage_label[STAGE_COUNT], task_label[STAGE_COUNT];
    term_id alternative_label[MAX_ALTERNATIVES];
    size_t alternative_count;
    unsigned sends[MAX_ALTERNATIVES], failures[MAX_ALTERNATIVES];
    struct {
        term_id label, is_instance_of, in_artifact_instance, has_state, active, inactive, is_completed, is_achieved;
        term_id of_stage, has_http_request, alternatives, call_state, answered, exhausted, cancelled, calling;
        term_id alternative, retries_left, called_at, deadline, failed_attempt, last_failure, answer_status;
        term_id contains, expecting, expected_it, confirmation;
    } v;
    status status;
    int widths[COLUMN_COUNT];
    bool idle, goods_arrived, confirmed;
    unsigned iterations, phone_requests;
    double started; /* monotonic seconds */
    buf waiting;
};

suppliers_demo *suppliers_demo_new(const suppliers_options *options, const demo_io *io) {
    suppliers_demo *d = xcalloc(1, sizeof *d);
    d->opt = *options;
    d->io = *io;
    d->t = terms_new();
    d->rdf = rdfio_new(d->t);
    terms *t = d->t;
    d->instance = demo_iri(t, options->base, SUPPLIERS_INSTANCE_PATH SUPPLIERS_INSTANCE_FRAGMENT);
    for (int s = 0; s < STAGE_COUNT; s++) {
        buf b = {0};
        buf_printf(&b, "%s%s#%s", options->base, MODEL_PATH, stage_fragments[s]);
        d->stage_model[s] = terms_iri(t, b.data, b.len);
        buf_free(&b);
    }
    d->v.label = terms_iri_cstr(t, RDFS_label);
    d->v.is_instance_of = terms_iri_cstr(t, GSM_isInstanceOf);
    d->v.in_artifact_instance = terms_iri_cstr(t, GSM_inArtifactInstance);
    d->v.has_state = terms_iri_cstr(t, GSM_hasState);
    d->v.active = terms_iri_cstr(t, GSM_active);
    d->v.inactive = terms_iri_cstr(t, GSM_inactive);
    d->v.is_achieved = terms_iri_cstr(t, GSM_isAchieved);
    d->v.has_http_request = terms_iri_cstr(t, GSM_hasHttpRequest);
    d->v.is_completed = terms_iri_cstr(t, LDGSM_isCompleted);
    d->v.of_stage = terms_iri_cstr(t, LDGSM_ofStage);
    d->v.alternatives = terms_iri_cstr(t, LDGSM_alternatives);
    d->v.call_state = terms_iri_cstr(t, LDGSM_callState);
    d->v.calling = terms_iri_cstr(t, LDGSM_calling);
    d->v.answered = terms_iri_cstr(t, NS_LDGSM "answered");
    d->v.exhausted = terms_iri_cstr(t, LDGSM_exhausted);
    d->v.cancelled = terms_iri_cstr(t, NS_LDGSM "cancelled");
    d->v.alternative = terms_iri_cstr(t, LDGSM_alternative);
    d->v.retries_left = terms_iri_cstr(t, LDGSM_retriesLeft);
    d->v.called_at = terms_iri_cstr(t, LDGSM_calledAt);
    d->v.deadline = terms_iri_cstr(t, LDGSM_deadline);
    d->v.failed_attempt = terms_iri_cstr(t, NS_LDGSM "failedAttempt");
    d->v.last_failure = terms_iri_cstr(t, LDGSM_lastFailure);
    d->v.answer_status = terms_iri_cstr(t, LDGSM_answerStatus);
    d->v.contains = terms_iri_cstr(t, LDP_contains);
    d->v.expecting = demo_iri(t, NS_SHOP, "expecting");
    d->v.expected_it = demo_iri(t, options->base, EXPECTED_PATH "#it");
    d->v.confirmation = demo_iri(t, options->base, CONFIRMATION_PATH);
    d->idle = true;
    return d;
}

void suppliers_demo_free(suppliers_demo *d) {
    if (!d)
        return;
    status_free(&d->status);
    if (d->model)
        store_free(d->model);
    buf_free(&d->waiting);
    rdfio_free(d->rdf);
    terms_free(d->t);
    free(d);
}

bool suppliers_demo_idle(const suppliers_demo *d) {
    return d->idle;
}

/* ---- names -------------------------------------------------------------------------------------- */

static const char *lex(const suppliers_demo *d, term_id id) {
    return terms_lex(d->t, id, NULL);
}

/* The rdfs:label the model gives node (a literal), or 0. */
static term_id label_of(suppliers_demo *d, term_id node) {
    term_id label = store_first_object(d->model, node, d->v.label);
    return label && terms_kind(d->t, label) == TERM_LITERAL ? label : 0;
}

static const char *stage_name(const suppliers_demo *d, int s) {
    return lex(d, d->stage_label[s]);
}

static const char *milestone_name(suppliers_demo *d, term_id model) {
    term_id label = label_of(d, model);
    if (label)
        return lex(d, label);
    const char *fragment = strchr(lex(d, model), '#');
    for (size_t i = 0; fragment && i < sizeof rule_milestones / sizeof *rule_milestones; i++)
        if (strncmp(fragment + 1, rule_milestones[i].fragment_prefix, strlen(rule_milestones[i].fragment_prefix)) == 0)
            return rule_milestones[i].name;
    return "a milestone without a label";
}

/* The label of the call's alternative number i (1-based), or NULL when the model has no such one. */
static const char *alternative_name(const suppliers_demo *d, long i) {
    return i >= 1 && (size_t)i <= d->alternative_count ? lex(d, d->alternative_label[i - 1]) : NULL;
}

/* The stages' labels and tasks, and the alternatives of the call of "Order online", from the model. */
static int read_model(suppliers_demo *d, char *message, size_t size) {
    d->model = demo_read(&d->io, d->rdf, d->opt.base, MODEL_PATH, NULL, message, size);
    if (!d->model)
        return -1;
    for (int s = 0; s < STAGE_COUNT; s++) {
        if (!(d->stage_label[s] = label_of(d, d->stage_model[s]))) {
            snprintf(message, size, "%s: the stage <%s> has no rdfs:label", MODEL_PATH, lex(d, d->stage_model[s]));
            return -1;
        }
        term_id task = store_first_object(d->model, d->stage_model[s], d->v.has_http_request);
        d->task_label[s] = task ? label_of(d, task) : 0;
    }
    term_id call = store_first_object(d->model, d->stage_model[S_ONLINE], d->v.has_http_request);
    term_id list = call ? store_first_object(d->model, call, d->v.alternatives) : 0;
    while (list && list != T_RDF_NIL) {
        term_id request = store_first_object(d->model, list, T_RDF_FIRST);
        term_id label = request ? label_of(d, request) : 0;
        if (!label || d->alternative_count == MAX_ALTERNATIVES) {
            snprintf(message, size, "%s: alternative %zu of the call of \"%s\" %s", MODEL_PATH,
                     d->alternative_count + 1, stage_name(d, S_ONLINE),
                     label ? "is one too many" : "is no request with an rdfs:label");
            return -1;
        }
        d->alternative_label[d->alternative_count++] = label;
        list = store_first_object(d->model, list, T_RDF_REST);
    }
    if (d->alternative_count == 0) {
        snprintf(message, size, "%s: the stage \"%s\" has no call with ldgsm:alternatives", MODEL_PATH,
                 stage_name(d, S_ONLINE));
        return -1;
    }
    return 0;
}

/* ---- reading the status ------------------------------------------------------------------------- */

/* The status document's node of a stage model (the root is the instance itself). */
static term_id node_of(suppliers_demo *d, store *st, int s) {
    return s == S_ROOT ? d->instance : demo_instance_node(d->t, st, d->instance, d->stage_model[s]);
}

static long integer_of(suppliers_demo *d, term_id literal) {
    return literal && terms_kind(d->t, literal) == TERM_LITERAL ? strtol(lex(d, literal), NULL, 10) : 0;
}

static int64_t time_of(suppliers_demo *d, term_id literal) {
    xsd_time value;
    return literal && xsd_time_from_term(d->t, literal, &value) && value.kind == XSD_DATETIME ? value.ms : 0;
}

static void read_call(suppliers_demo *d, store *st, term_id stage_node, call_status *out) {
    store_iter it;
    store_match(st, 0, d->v.call_state, 0, 0, store_size(st), &it);
    uint32_t n;
    const triple *tr;
    while ((tr = store_next(&it, &n))) {
        term_id c = tr->s;
        if (!stage_node || store_find(st, c, d->v.of_stage, stage_node) == UINT32_MAX)
            continue;
        *out = (call_status){
            .present = true,
            .state = tr->o,
            .alternative = integer_of(d, store_first_object(st, c, d->v.alternative)),
            .retries_left = integer_of(d, store_first_object(st, c, d->v.retries_left)),
            .answer_status = integer_of(d, store_first_object(st, c, d->v.answer_status)),
            .called_at = time_of(d, store_first_object(st, c, d->v.called_at)),
            .deadline = time_of(d, store_first_object(st, c, d->v.deadline)),
            .failed_attempt = time_of(d, store_first_object(st, c, d->v.failed_attempt)),
            .last_failure = store_first_object(st, c, d->v.last_failure),
        };
        return;
    }
}

static int read_status(suppliers_demo *d, status *out, char *message, size_t size) {
    store *st = demo_read(&d->io, d->rdf, d->opt.base, SUPPLIERS_INSTANCE_PATH, NULL, message, size);
    if (!st)
        return -1;
    *out = (status){0};
    term_id root_state = store_first_object(st, d->instance, d->v.has_state);
    out->set_up = root_state == d->v.active || root_state == d->v.inactive;
    term_id nodes[STAGE_COUNT];
    for (int s = 0; s < STAGE_COUNT; s++) {
        nodes[s] = node_of(d, st, s);
        term_id state = nodes[s] ? store_first_object(st, nodes[s], d->v.has_state) : 0;
        out->stage[s] = (stage_status){.present = state == d->v.active || state == d->v.inactive,
                                       .active = state == d->v.active,
                                       .completed = nodes[s] && store_first_object(st, nodes[s],
                                                                                   d->v.is_completed) == T_TRUE};
    }
    size_t capacity = 0;
    store_iter it;
    store_match(st, 0, d->v.is_achieved, 0, 0, store_size(st), &it);
    uint32_t n;
    const triple *tr;
    while ((tr = store_next(&it, &n))) {
        term_id model = store_first_object(st, tr->s, d->v.is_instance_of);
        term_id owner = store_first_object(st, tr->s, d->v.of_stage);
        if (!model || store_find(st, tr->s, d->v.in_artifact_instance, d->instance) == UINT32_MAX)
            continue;
        int stage = -1;
        for (int s = 0; s < STAGE_COUNT; s++)
            if (owner && owner == nodes[s])
                stage = s;
        if (out->milestone_count == capacity) {
            capacity = capacity ? 2 * capacity : 16;
            out->milestones = xrealloc(out->milestones, capacity * sizeof *out->milestones);
        }
        out->milestones[out->milestone_count++] = (milestone_status){tr->s, model, stage, tr->o == T_TRUE};
    }
    read_call(d, st, nodes[S_ONLINE], &out->call);
    store_free(st);
    return 0;
}

/* ---- the table ---------------------------------------------------------------------------------- */

static demo_table table_of(const suppliers_demo *d) {
    return (demo_table){d->opt.out, WHAT_WIDTH, COLUMN_COUNT, d->widths};
}

/* The stages open (active), by name, or "-". */
static void stages_cell(const suppliers_demo *d, buf *out) {
    for (int stage = S_ORDER; d->status.set_up && stage < STAGE_COUNT; stage++)
        if (d->status.stage[stage].present && d->status.stage[stage].active)
            buf_printf(out, "%s%s", out->len ? ", " : "", stage_name(d, stage));
    if (!out->len)
        buf_puts(out, "-");
}

/* The order call's record: its alternative's number (the intro names them), its state and, while it
 * calls, its retries left ("1 calling, 2 retries left", "2 answered"), or "-". */
static void call_cell(const suppliers_demo *d, const call_status *c, buf *out) {
    if (!c->present) {
        buf_puts(out, "-");
        return;
    }
    const char *state = lex(d, c->state), *hash = strrchr(state, '#');
    buf_printf(out, "%ld %s", c->alternative, hash ? hash + 1 : state);
    if (c->state == d->v.calling)
        buf_printf(out, ", %ld retr%s left", c->retries_left, c->retries_left == 1 ? "y" : "ies");
}

/* One row with the current status: label is the iteration's number for an agent row, "" otherwise. */
static void print_row(suppliers_demo *d, const char *label, const char *what) {
    buf stages = {0}, call = {0};
    stages_cell(d, &stages);
    call_cell(d, &d->status.call, &call);
    const char *cells[COLUMN_COUNT] = {buf_cstr(&stages), buf_cstr(&call)};
    demo_table table = table_of(d);
    demo_table_row(&table, label, what, cells);
    buf_free(&stages);
    buf_free(&call);
    d->idle = false;
}

static void environment_row(suppliers_demo *d, const char *what) {
    buf b = {0};
    buf_printf(&b, "env: %s", what);
    print_row(d, "", buf_cstr(&b));
    buf_free(&b);
}

/* ---- what an iteration changed ------------------------------------------------------------------ */

static bool closed(const status *old, const status *now, int s) {
    return old->stage[s].active && !now->stage[s].active;
}

static bool own_milestone_achieved(const status *old, const status *now, int s) {
    for (size_t i = 0; i < now->milestone_count; i++) {
        const milestone_status *m = &now->milestones[i], *before = find_milestone(old, m->node);
        if (m->stage == s && m->achieved && !(before && before->achieved))
            return true;
    }
    return false;
}

static void report_stages(suppliers_demo *d, const status *old, buf *what) {
    const status *now = &d->status;
    for (size_t i = 0; i < now->milestone_count; i++) {
        const milestone_status *m = &now->milestones[i], *before = find_milestone(old, m->node);
        const char *name = milestone_name(d, m->model);
        if (m->achieved && !(before && before->achieved)) {
            if (m->stage == S_ROOT)
                demo_phrase(what, "%s achieved: the workflow is complete", name);
            else if (m->stage >= 0 && closed(old, now, m->stage))
                demo_phrase(what, "%s achieved, %s closes", name, stage_name(d, m->stage));
            else
                demo_phrase(what, "%s achieved", name);
        } else if (!m->achieved && before && before->achieved) {
            demo_phrase(what, "%s invalidated", name);
        }
    }
    for (int s = S_ORDER; s < STAGE_COUNT; s++)
        if (closed(old, now, s) && !own_milestone_achieved(old, now, s))
            demo_phrase(what, "%s closes", stage_name(d, s));
    for (int s = S_ORDER; s < STAGE_COUNT; s++) {
        if (old->stage[s].active || !now->stage[s].active)
            continue;
        if (d->task_label[s])
            demo_phrase(what, "%s opens: %s", stage_name(d, s), lex(d, d->task_label[s]));
        else
            demo_phrase(what, "%s opens", stage_name(d, s));
    }
}

/* The order call's record: sends (a new record, alternative or calledAt), failed sends (a new
 * failedAttempt) with the wait before the re-send, the answer, the exhaustion. */
static void report_call(suppliers_demo *d, const call_status *old, double began, buf *what) {
    const call_status *c = &d->status.call;
    if (!c->present)
        return;
    const char *listed = alternative_name(d, c->alternative);
    const char *name = listed ? listed : "an alternative the model does not list";
    size_t index = listed ? (size_t)(c->alternative - 1) : 0;
    if (c->state == d->v.calling &&
        (!old->present || old->called_at != c->called_at || old->alternative != c->alternative)) {
        if (listed)
            d->sends[index]++;
        if (!old->present || old->state != d->v.calling)
            demo_phrase(what, "sent to %s", name);
        else if (old->alternative != c->alternative)
            demo_phrase(what, "rebound to %s (alternative %ld): sent", name, c->alternative);
        else
            demo_phrase(what, "re-sent to %s", name);
    }
    if (c->failed_attempt && c->failed_attempt != old->failed_attempt) {
        if (listed)
            d->failures[index]++;
        buf failure = {0};
        if (c->last_failure && terms_datatype(d->t, c->last_failure) == T_XSD_INTEGER)
            buf_printf(&failure, "%s answered %s", name, lex(d, c->last_failure));
        else
            buf_printf(&failure, "%s failed (%s)", name, c->last_failure ? lex(d, c->last_failure) : "no reason given");
        if (c->retries_left > 0) {
            double wait = (double)c->deadline / 1000.0 - began;
            demo_phrase(what, "%s: retry in %.1f s", buf_cstr(&failure), wait > 0 ? wait : 0.0);
        } else if (old->alternative == c->alternative && old->retries_left > 0) {
            demo_phrase(what, "%s: not retried", buf_cstr(&failure));
        } else {
            demo_phrase(what, "%s: no retry left", buf_cstr(&failure));
        }
        buf_free(&failure);
    }
    if (c->state != old->state) {
        if (c->state == d->v.answered)
            demo_phrase(what, "%s took the order (%ld)", name, c->answer_status);
        else if (c->state == d->v.exhausted)
            demo_phrase(what, "the call is exhausted: every alternative failed");
        else if (c->state == d->v.cancelled)
            demo_phrase(what, "the call is cancelled: its stage closed");
    }
}

static void report_iteration(suppliers_demo *d, const status *old, double began) {
    const status *now = &d->status;
    buf what = {0};
    if (!old->set_up && now->set_up)
        demo_phrase(&what, "set-up: stages inactive, milestones unachieved");
    if (old->set_up && now->set_up)
        report_stages(d, old, &what);
    report_call(d, &old->call, began, &what);
    if (!what.len && !status_equal(old, now))
        demo_phrase(&what, "the status changed");
    if (what.len) {
        char label[16];
        snprintf(label, sizeof label, "%u", d->iterations);
        print_row(d, label, buf_cstr(&what));
    }
    buf_free(&what);
}

/* ---- the environment ---------------------------------------------------------------------------- */

static int put_shop(suppliers_demo *d, const char *path, const char *triples, char *message, size_t size) {
    return demo_put(&d->io, path, "shop", NS_SHOP, triples, message, size);
}

/* The warehouse receives the goods once warehouse/expected says it expects them. */
static int warehouse_reacts(suppliers_demo *d, char *message, size_t size) {
    bool absent;
    store *st = demo_read(&d->io, d->rdf, d->opt.base, EXPECTED_PATH, &absent, message, size);
    if (!st)
        return absent ? 0 : -1;
    bool expecting = store_find(st, d->v.expected_it, d->v.expecting, T_TRUE) != UINT32_MAX;
    store_free(st);
    if (!expecting)
        return 0;
    if (put_shop(d, DELIVERY_PATH, "<#it> shop:arrived true .\n", message, size) != 0)
        return -1;
    d->goods_arrived = true;
    environment_row(d, "the warehouse was told to expect the goods: the goods arrived (" DELIVERY_PATH ")");
    return 0;
}

/* The clerk confirms a phone order once a request is in the inbox. */
static int clerk_reacts(suppliers_demo *d, char *message, size_t size) {
    store *st = demo_read(&d->io, d->rdf, d->opt.base, INBOX_PATH, NULL, message, size);
    if (!st)
        return -1;
    term_id inbox = demo_iri(d->t, d->opt.base, INBOX_PATH);
    unsigned requests = store_count(st, inbox, d->v.contains, 0, 0, store_size(st)) -
                        store_count(st, inbox, d->v.contains, d->v.confirmation, 0, store_size(st));
    store_free(st);
    if (requests == 0)
        return 0;
    if (put_shop(d, CONFIRMATION_PATH, "<#it> shop:confirmed true .\n", message, size) != 0)
        return -1;
    d->confirmed = true;
    d->phone_requests = requests;
    environment_row(d, "the clerk found the request in the inbox, phoned a supplier and confirmed the order ("
                       CONFIRMATION_PATH ")");
    return 0;
}

static int react(suppliers_demo *d, char *message, size_t size) {
    if (!d->goods_arrived && warehouse_reacts(d, message, size) != 0)
        return -1;
    if (!d->confirmed && clerk_reacts(d, message, size) != 0)
        return -1;
    return 0;
}

/* ---- the run ------------------------------------------------------------------------------------ */

int suppliers_demo_start(suppliers_demo *d, char *message, size_t size) {
    if (read_model(d, message, size) != 0)
        return -1;
    if (d->opt.no_supplier_b && d->io.remove(d->io.user, SUPPLIER_B_PATH, message, size) != 0)
        return -1;
    if (read_status(d, &d->status, message, size) != 0)
        return -1;
    d->started = demo_seconds(CLOCK_MONOTONIC);
    buf intro = {0};
    buf_printf(&intro,
            "The procurement workflow (ldp-fixtures/suppliers) on the embedded LDP server at\n"
            "%s, instance <%s%s%s>, %s.\n"
            "\"%s\" orders by a call to its alternatives in turn:",
            d->opt.base, d->opt.base, SUPPLIERS_INSTANCE_PATH, SUPPLIERS_INSTANCE_FRAGMENT,
            d->status.set_up ? "already set up" : "uninitialized", stage_name(d, S_ONLINE));
    for (size_t i = 0; i < d->alternative_count; i++)
        buf_printf(&intro, "%s %zu %s", i ? "," : "", i + 1, lex(d, d->alternative_label[i]));
    buf_printf(&intro,
            ".\nThe first is down (nothing listens there); %s\n"
            "One row per change: \"env:\" rows are the environment (this demo playing the warehouse and the\n"
            "clerk), the others what agent iteration \"iter\" did; the stages open after it, and the order\n"
            "call's record: the alternative called (by its number above), the call's state and, while it\n"
            "calls, its retries left.\n\n",
            d->opt.no_supplier_b ? "the second is gone too, so the workflow must order by phone."
                                 : "the second takes orders.");
    demo_wrapped(d->opt.out, buf_cstr(&intro));
    buf_free(&intro);
    d->widths[C_STAGES] = STAGES_WIDTH;
    d->widths[C_CALL] = CALL_WIDTH;
    demo_table table = table_of(d);
    demo_table_head(&table, "iter", "what happened", column_names);
    if (d->opt.no_supplier_b)
        environment_row(d, "supplier B's shop is gone (" SUPPLIER_B_PATH " deleted)");
    return 0;
}

/* The summary: iterations, time, the sends to each alternative and how the order was placed. */
static void summarize(suppliers_demo *d) {
    buf line = {0};
    buf_printf(&line, "\nThe workflow is complete after %u iterations (%.1f s). The order was sent", d->iterations,
               demo_seconds(CLOCK_MONOTONIC) - d->started);
    for (size_t i = 0; i < d->alternative_count; i++) {
        char count[16];
        buf_printf(&line, "%s to %s %s", i == 0 ? "" : i + 1 < d->alternative_count ? "," : " and",
                   lex(d, d->alternative_label[i]), demo_times(d->sends[i], count, sizeof count));
        if (d->failures[i])
            buf_printf(&line, " (%u failed)", d->failures[i]);
    }
    const call_status *c = &d->status.call;
    const char *taker = alternative_name(d, c->alternative);
    if (c->state == d->v.answered)
        buf_printf(&line, "; %s took it.", taker ? taker : "an alternative the model does not list");
    else
        buf_printf(&line, "; no supplier took it online: the clerk confirmed %u phone order request%s.",
                   d->phone_requests, d->phone_requests == 1 ? "" : "s");
    demo_wrapped(d->opt.out, buf_cstr(&line));
    fflush(d->opt.out);
    buf_free(&line);
}

enum demo_progress suppliers_demo_after_iteration(suppliers_demo *d, double began, char *message, size_t size) {
    d->iterations++;
    d->idle = true;
    status old = d->status;
    if (read_status(d, &d->status, message, size) != 0) {
        d->status = old;
        return DEMO_FAILED;
    }
    report_iteration(d, &old, began);
    status_free(&old);
    if (react(d, message, size) != 0)
        return DEMO_FAILED;
    if (!d->status.stage[S_ROOT].completed)
        return DEMO_GOING_ON;
    summarize(d);
    return DEMO_OVER;
}

const char *suppliers_demo_waiting_for(suppliers_demo *d) {
    buf *w = &d->waiting;
    w->len = 0;
    const status *s = &d->status;
    for (int stage = S_ORDER; stage < STAGE_COUNT; stage++) {
        if (!s->stage[stage].active)
            continue;
        buf_printf(w, "%s\"%s\" is open", w->len ? "; " : "", stage_name(d, stage));
        const char *sep = ", until: ";
        for (size_t i = 0; i < s->milestone_count; i++)
            if (s->milestones[i].stage == stage && !s->milestones[i].achieved) {
                buf_printf(w, "%s%s", sep, milestone_name(d, s->milestones[i].model));
                sep = " or ";
            }
    }
    if (s->call.present && s->call.state == d->v.calling)
        buf_printf(w, "%sthe order call is calling alternative %ld", w->len ? "; " : "", s->call.alternative);
    if (!w->len)
        buf_puts(w, s->set_up ? "no stage is open" : "the instance is not set up");
    return buf_cstr(w);
}
