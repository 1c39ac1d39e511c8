/* demo_orders.c: the three-orders scenario of demo_orders.h: each instance's status document read after
 * every agent iteration (the stage it reached, its shop:price, its approval, its shop:shipment), what
 * changed as a row of the run table per order that changed, and at the end the check of what the run
 * left on the server: notifications/, shipments/ and approvals/. */
#include "demos/demo_orders.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "agent/vocab.h"

#define MODEL_PATH "models/order"
#define APPROVALS_PATH "approvals/"
#define NOTIFICATIONS_PATH "notifications/"

/* The table fits 100 columns: iteration, what happened to the order, the order, the stage it reached, its
 * price, its approval and its shipment's Location ("shipments/shipment-N"). */
enum { WHAT_WIDTH = 33, APPROVAL_LIMIT = 100 };
enum { C_ORDER, C_STAGE, C_PRICE, C_APPROVAL, C_SHIPMENT, COLUMN_COUNT };
static const char *const column_names[COLUMN_COUNT] = {"order", "stage", "price", "approval", "shipment"};
static const int column_widths[COLUMN_COUNT] = {5, 7, 5, 8, 20};

const char *const orders_instance_paths[ORDERS_COUNT] = {"status/o1", "status/o2", "status/o3"};

/* The model's stages in their order, named by their fragments (the labels are too long for a cell). */
enum stage { S_QUOTE, S_APPROVE, S_SHIP, S_NOTIFY, STAGE_COUNT };
static const char *const stage_names[STAGE_COUNT] = {"Quote", "Approve", "Ship", "Notify"};

typedef struct order_status {
    bool set_up, complete;
    int reached;      /* the last stage, in the model's order, that is active or completed; -1 for none */
    bool asked;       /* Approve opened (its task is the approval request) */
    bool approved;    /* its milestone, achieved */
    term_id order, price, shipment; /* the instance's shop:order, shop:price, shop:shipment, or 0 */
} order_status;

struct orders_demo {
    orders_options opt;
    demo_io io;
    terms *t;
    rdfio *rdf;
    term_id instance[ORDERS_COUNT], stage_model[STAGE_COUNT], approved_model;
    struct {
        term_id has_state, active, inactive, is_completed, is_achieved, contains, order, price, shipment;
    } v;
    order_status status[ORDERS_COUNT];
    unsigned iterations;
    double started; /* monotonic seconds */
    buf waiting;
};

orders_demo *orders_demo_new(const orders_options *options, const demo_io *io) {
    orders_demo *d = xcalloc(1, sizeof *d);
    d->opt = *options;
    d->io = *io;
    d->t = terms_new();
    d->rdf = rdfio_new(d->t);
    terms *t = d->t;
    buf b = {0};
    for (int i = 0; i < ORDERS_COUNT; i++) {
        b.len = 0;
        buf_printf(&b, "%s%s", orders_instance_paths[i], ORDERS_INSTANCE_FRAGMENT);
        d->instance[i] = demo_iri(t, options->base, b.data);
    }
    for (int s = 0; s < STAGE_COUNT; s++) {
        b.len = 0;
        buf_printf(&b, "%s#%s", MODEL_PATH, stage_names[s]);
        d->stage_model[s] = demo_iri(t, options->base, b.data);
    }
    buf_free(&b);
    d->approved_model = demo_iri(t, options->base, MODEL_PATH "#approved");
    d->v.has_state = terms_iri_cstr(t, GSM_hasState);
    d->v.active = terms_iri_cstr(t, GSM_active);
    d->v.inactive = terms_iri_cstr(t, GSM_inactive);
    d->v.is_achieved = terms_iri_cstr(t, GSM_isAchieved);
    d->v.is_completed = terms_iri_cstr(t, LDGSM_isCompleted);
    d->v.contains = terms_iri_cstr(t, LDP_contains);
    d->v.order = demo_iri(t, NS_SHOP, "order");
    d->v.price = demo_iri(t, NS_SHOP, "price");
    d->v.shipment = demo_iri(t, NS_SHOP, "shipment");
    return d;
}

void orders_demo_free(orders_demo *d) {
    if (!d)
        return;
    buf_free(&d->waiting);
    rdfio_free(d->rdf);
    terms_free(d->t);
    free(d);
}

static const char *lex(const orders_demo *d, term_id id) {
    return id ? terms_lex(d->t, id, NULL) : "-";
}

/* An IRI on the server as a path relative to its base (as the requests name it); others whole. */
static const char *relative(const orders_demo *d, term_id iri) {
    const char *text = lex(d, iri);
    size_t n = strlen(d->opt.base);
    return iri && strncmp(text, d->opt.base, n) == 0 ? text + n : text;
}

/* ---- reading the instances ---------------------------------------------------------------------- */

static int read_order(orders_demo *d, int i, order_status *out, char *message, size_t size) {
    store *st = demo_read(&d->io, d->rdf, d->opt.base, orders_instance_paths[i], NULL, message, size);
    if (!st)
        return -1;
    term_id it = d->instance[i], state = store_first_object(st, it, d->v.has_state);
    *out = (order_status){.set_up = state == d->v.active || state == d->v.inactive,
                          .complete = store_first_object(st, it, d->v.is_completed) == T_TRUE,
                          .reached = -1,
                          .order = store_first_object(st, it, d->v.order),
                          .price = store_first_object(st, it, d->v.price),
                          .shipment = store_first_object(st, it, d->v.shipment)};
    for (int s = 0; s < STAGE_COUNT; s++) {
        term_id node = demo_instance_node(d->t, st, it, d->stage_model[s]);
        bool opened = node && (store_first_object(st, node, d->v.has_state) == d->v.active ||
                               store_first_object(st, node, d->v.is_completed) == T_TRUE);
        if (opened)
            out->reached = s;
        if (opened && s == S_APPROVE)
            out->asked = true;
    }
    term_id approved = demo_instance_node(d->t, st, it, d->approved_model);
    out->approved = approved && store_first_object(st, approved, d->v.is_achieved) == T_TRUE;
    store_free(st);
    return 0;
}

static int read_orders(orders_demo *d, order_status *out, char *message, size_t size) {
    for (int i = 0; i < ORDERS_COUNT; i++)
        if (read_order(d, i, &out[i], message, size) != 0)
            return -1;
    return 0;
}

/* ---- the table ---------------------------------------------------------------------------------- */

static bool over_limit(const orders_demo *d, const order_status *s) {
    return s->price && strtol(lex(d, s->price), NULL, 10) > APPROVAL_LIMIT;
}

/* The name of order i in the table: its status document's ("o1"). */
static const char *order_name(int i) {
    return orders_instance_paths[i] + strlen("status/");
}

/* Order i's row: its stage, price, approval and shipment, one word each ("-" for nothing yet). */
static void print_row(orders_demo *d, const char *label, int i, const char *what) {
    const order_status *s = &d->status[i];
    const char *cells[COLUMN_COUNT] = {
        [C_ORDER] = order_name(i),
        [C_STAGE] = !s->set_up ? "-" : s->complete ? "done" : s->reached < 0 ? "set-up" : stage_names[s->reached],
        [C_PRICE] = lex(d, s->price),
        [C_APPROVAL] = s->approved ? "approved"
                       : s->asked  ? "asked"
                       : s->price  ? (over_limit(d, s) ? "needed" : "no-need")
                                   : "-",
        [C_SHIPMENT] = relative(d, s->shipment),
    };
    demo_table table = {d->opt.out, WHAT_WIDTH, COLUMN_COUNT, column_widths};
    demo_table_row(&table, label, what, cells);
}

/* The phrases of what changed for an order ("quoted 250"). */
static void report_order(const orders_demo *d, const order_status *old, const order_status *now, buf *what) {
    if (!old->set_up && now->set_up)
        demo_phrase(what, "set up");
    if (!old->price && now->price)
        demo_phrase(what, "quoted %s", lex(d, now->price));
    if (!old->asked && now->asked)
        demo_phrase(what, "asks approval");
    if (!old->approved && now->approved)
        demo_phrase(what, "approved");
    if (!old->shipment && now->shipment)
        demo_phrase(what, "shipped");
    if (!old->complete && now->complete)
        demo_phrase(what, "notified: done");
    else if (old->reached != now->reached && now->reached >= 0 && !what->len) /* nothing else said */
        demo_phrase(what, "at %s", stage_names[now->reached]);
}

/* ---- the check at the end ----------------------------------------------------------------------- */

/* The members of a container, as paths relative to the base; NULL with message when it cannot be read. */
static term_id *members(orders_demo *d, const char *container, size_t *count, char *message, size_t size) {
    store *st = demo_read(&d->io, d->rdf, d->opt.base, container, NULL, message, size);
    if (!st)
        return NULL;
    *count = store_count(st, 0, d->v.contains, 0, 0, store_size(st));
    term_id *out = xcalloc(*count + 1, sizeof *out);
    store_iter it;
    store_match(st, 0, d->v.contains, 0, 0, store_size(st), &it);
    uint32_t n;
    const triple *tr;
    for (size_t k = 0; (tr = store_next(&it, &n)) && k < *count; k++)
        out[k] = tr->o;
    store_free(st);
    return out;
}

/* The object of (member, p) in the member's own document (the subject is the document), or 0. */
static term_id member_says(orders_demo *d, term_id member, term_id p, char *message, size_t size) {
    store *st = demo_read(&d->io, d->rdf, d->opt.base, relative(d, member), NULL, message, size);
    if (!st)
        return 0;
    term_id o = store_first_object(st, member, p);
    store_free(st);
    if (!o)
        snprintf(message, size, "%s has no %s", relative(d, member), lex(d, p));
    return o;
}

/* Every order's notification names its own shipment, which names its order; approvals/ holds one request
 * per order over the limit and none for another. One summary line per order. */
static int check_server(orders_demo *d, char *message, size_t size) {
    size_t notification_count, approval_count;
    term_id *notifications = members(d, NOTIFICATIONS_PATH, &notification_count, message, size);
    term_id *approvals = notifications ? members(d, APPROVALS_PATH, &approval_count, message, size) : NULL;
    int rc = approvals ? 0 : -1;
    for (int i = 0; rc == 0 && i < ORDERS_COUNT; i++) {
        const order_status *s = &d->status[i];
        const char *name = orders_instance_paths[i];
        term_id notification = 0, approval = 0;
        unsigned notified = 0, asked = 0;
        for (size_t k = 0; rc == 0 && k < notification_count; k++) {
            term_id order = member_says(d, notifications[k], d->v.order, message, size);
            rc = order ? 0 : -1;
            if (order == s->order && notified++ == 0)
                notification = notifications[k];
        }
        for (size_t k = 0; rc == 0 && k < approval_count; k++) {
            term_id order = member_says(d, approvals[k], d->v.order, message, size);
            rc = order ? 0 : -1;
            if (order == s->order && asked++ == 0)
                approval = approvals[k];
        }
        if (rc != 0)
            break;
        term_id named = notification ? member_says(d, notification, d->v.shipment, message, size) : 0;
        term_id shipped_order = s->shipment ? member_says(d, s->shipment, d->v.order, message, size) : 0;
        rc = -1;
        if (notified != 1)
            snprintf(message, size, "%s: %u notifications name its order %s, not one", name, notified,
                     relative(d, s->order));
        else if (!named || named != s->shipment)
            snprintf(message, size, "%s: its notification %s names the shipment %s, not its own %s", name,
                     relative(d, notification), relative(d, named), relative(d, s->shipment));
        else if (shipped_order != s->order)
            snprintf(message, size, "%s: its shipment %s is for the order %s, not %s", name,
                     relative(d, s->shipment), relative(d, shipped_order), relative(d, s->order));
        else if (asked != (over_limit(d, s) ? 1u : 0u))
            snprintf(message, size, "%s: quoted %s, yet %u approval requests name its order", name,
                     lex(d, s->price), asked);
        else
            rc = 0;
        if (rc == 0)
            fprintf(d->opt.out, "%s (%s, quoted %s): %s%s;\n  notification %s names shipment %s, its own\n", name,
                    relative(d, s->order), lex(d, s->price), asked ? "approval request " : "no approval needed",
                    asked ? relative(d, approval) : "", relative(d, notification), relative(d, named));
    }
    free(notifications);
    free(approvals);
    return rc;
}

/* ---- the run ------------------------------------------------------------------------------------ */

int orders_demo_start(orders_demo *d, char *message, size_t size) {
    if (read_orders(d, d->status, message, size) != 0)
        return -1;
    d->started = demo_seconds(CLOCK_MONOTONIC);
    fprintf(d->opt.out,
            "The order workflow (ldp-fixtures/orders) on the embedded LDP server at %s:\n"
            "one model, three instances (status/o1, o2, o3), each acting on its own order: its own quote GET,\n"
            "approval (asked when the price is over %d), shipment POST, and notification naming that\n"
            "shipment's Location. One row per order that changed in an agent iteration (\"iter\"): the stage\n"
            "it reached, the price bound from its quote, its approval and its shipment's Location.\n\n",
            d->opt.base, APPROVAL_LIMIT);
    demo_table table = {d->opt.out, WHAT_WIDTH, COLUMN_COUNT, column_widths};
    demo_table_head(&table, "iter", "what happened", column_names);
    return 0;
}

enum demo_progress orders_demo_after_iteration(orders_demo *d, char *message, size_t size) {
    d->iterations++;
    order_status now[ORDERS_COUNT];
    if (read_orders(d, now, message, size) != 0)
        return DEMO_FAILED;
    order_status old[ORDERS_COUNT];
    memcpy(old, d->status, sizeof old);
    memcpy(d->status, now, sizeof now);
    char label[16];
    snprintf(label, sizeof label, "%u", d->iterations);
    for (int i = 0; i < ORDERS_COUNT; i++) {
        buf what = {0};
        report_order(d, &old[i], &now[i], &what);
        if (what.len)
            print_row(d, label, i, buf_cstr(&what));
        buf_free(&what);
    }
    for (int i = 0; i < ORDERS_COUNT; i++)
        if (!d->status[i].complete)
            return DEMO_GOING_ON;
    fprintf(d->opt.out, "\nEvery order is complete after %u iterations (%.1f s). What the server holds:\n",
            d->iterations, demo_seconds(CLOCK_MONOTONIC) - d->started);
    return check_server(d, message, size) == 0 ? DEMO_OVER : DEMO_FAILED;
}

const char *orders_demo_waiting_for(orders_demo *d) {
    buf *w = &d->waiting;
    w->len = 0;
    for (int i = 0; i < ORDERS_COUNT; i++) {
        const order_status *s = &d->status[i];
        if (!s->complete)
            buf_printf(w, "%s%s %s%s", w->len ? ", " : "", orders_instance_paths[i],
                       !s->set_up ? "not set up" : s->reached < 0 ? "set up, no stage open" : "at ",
                       s->set_up && s->reached >= 0 ? stage_names[s->reached] : "");
    }
    return w->len ? buf_cstr(w) : "nothing";
}
