/* demo.c: the fire-alarm scenario of demo.h: reading the status document and the devices after each
 * agent iteration, describing what changed as rows of the run table, the devices' reactions, and the
 * scenario's steps when the workflow rests.
 *
 * The scenario, one step per rest of the workflow (docs/DESIGN.md §5.6, ldp-fixtures/fire-alarm/README.md):
 *
 *   step                       the environment writes                   Fig. 2
 *   smoke is detected          devices/smoke-detector obscuration 12.5  leads to lines 2, 3, 4
 *   the doors keep smoke in    nothing (an environment row)             line 5
 *   a door is reopened         devices/doors front open                 leads to line 6
 *   the smoke clears           devices/smoke-detector obscuration 0.0   the root milestone: complete
 *
 * Between the steps the devices react after every iteration: the sensor copies the doors (at once, or
 * one iteration late), and the alarm stops once the sensor shows every door closed. */
#include "demos/demo.h"

#include <stdlib.h>
#include <string.h>

#define NS_DEV "https://example.org/devices#"
#define MODEL_PATH "models/fire-alarm"
#define SMOKE_PATH "devices/smoke-detector"
#define ALARM_PATH "devices/alarm"
#define DOORS_PATH "devices/doors"
#define SENSOR_PATH "devices/door-sensor"

enum { WHAT_WIDTH = 30 }; /* the table fits 100 columns */
static const double SMOKE_OBSCURATION = 12.5; /* %/m; g1 opens SFA at 4 or more */
static const double CLEAR_OBSCURATION = 0.0;

/* ---- the workflow's parts and their status ------------------------------------------------------ */

/* What the table follows: the root and the two stages, each with its milestone. */
enum part { P_ROOT, P_SFA, P_CD, P_FIRE_OVER, P_M1, P_M2B, P_COUNT };
static const struct part_model {
    const char *fragment; /* in models/fire-alarm */
    const char *name;     /* in the table */
    bool stage;
    enum part other;      /* a stage's milestone, a milestone's stage */
} parts[P_COUNT] = {
    [P_ROOT] = {"root", "the workflow", true, P_FIRE_OVER},
    [P_SFA] = {"SFA", "Start Fire Alarm", true, P_M1},
    [P_CD] = {"CD", "Close Doors", true, P_M2B},
    [P_FIRE_OVER] = {"fire-over", "fire over", false, P_ROOT},
    [P_M1] = {"m1", "alarm on", false, P_SFA},
    [P_M2B] = {"m2b", "all doors closed", false, P_CD},
};
/* The table's status columns, Fig. 2's, each as wide as its name (a stage's at least "completed"). */
static const enum part columns[] = {P_SFA, P_CD, P_M1, P_M2B};
enum { COLUMN_COUNT = sizeof columns / sizeof *columns };
static const int column_widths[COLUMN_COUNT] = {16, 11, 8, 16};

typedef struct part_status {
    bool present;   /* the status document describes it */
    bool active;    /* stages */
    bool completed; /* stages */
    bool achieved;  /* milestones */
} part_status;

typedef struct status {
    bool set_up; /* the root's state is active or inactive (not uninitialized) */
    part_status p[P_COUNT];
} status;

static bool status_equal(const status *a, const status *b) {
    if (a->set_up != b->set_up)
        return false;
    for (int i = 0; i < P_COUNT; i++)
        if (a->p[i].present != b->p[i].present || a->p[i].active != b->p[i].active ||
            a->p[i].completed != b->p[i].completed || a->p[i].achieved != b->p[i].achieved)
            return false;
    return true;
}

/* Fig. 2's lines as (SFA active, CD active, m1, m2b), docs/DESIGN.md §5.6; line 5 is the environment's. */
static const struct fig2_line {
    int number;
    bool environment;
    bool sfa_active, cd_active, m1, m2b;
} fig2[] = {
    {1, false, false, false, false, false}, {2, false, true, false, false, false},
    {3, false, false, true, true, false},   {4, false, false, false, false, true},
    {5, true, false, false, false, true},   {6, false, true, false, false, false},
};
enum { FIG2_LINES = sizeof fig2 / sizeof *fig2 };

static bool shows_line(const status *s, const struct fig2_line *line) {
    for (int c = 0; c < COLUMN_COUNT; c++)
        if (!s->p[columns[c]].present)
            return false;
    return s->set_up && s->p[P_SFA].active == line->sfa_active && s->p[P_CD].active == line->cd_active &&
           s->p[P_M1].achieved == line->m1 && s->p[P_M2B].achieved == line->m2b;
}

/* ---- the devices -------------------------------------------------------------------------------- */

enum { FRONT, BACK, DOORS };
static const char *const door_names[DOORS] = {"front", "back"};

typedef struct devices {
    double obscuration;        /* the smoke detector, %/m */
    bool ringing;              /* the alarm */
    bool door_closed[DOORS];   /* the doors' actuator */
    bool sensor_closed[DOORS]; /* what the door sensor shows */
} devices;

static bool sensor_shows_doors(const devices *d) {
    return memcmp(d->sensor_closed, d->door_closed, sizeof d->door_closed) == 0;
}

static bool sensor_all_closed(const devices *d) {
    for (int i = 0; i < DOORS; i++)
        if (!d->sensor_closed[i])
            return false;
    return true;
}

/* ---- the scenario ------------------------------------------------------------------------------- */

enum scenario_step { STEP_SMOKE, STEP_SMOKE_KEPT_IN, STEP_REOPEN, STEP_SMOKE_CLEARS, STEP_END };
static const char *const step_waits[] = {
    [STEP_SMOKE] = "the workflow to rest after its set-up, so that smoke is detected",
    [STEP_SMOKE_KEPT_IN] = "the workflow to rest after the smoke, so that line 5 follows",
    [STEP_REOPEN] = "the workflow to rest after line 5, so that a door is reopened",
    [STEP_SMOKE_CLEARS] = "the workflow to rest after the door was reopened, so that the smoke clears",
    [STEP_END] = "the workflow to rest after the smoke cleared, so that the scenario ends",
};

struct demo {
    demo_options opt;
    demo_io io;
    terms *t;
    rdfio *rdf;
    term_id instance, model[P_COUNT];
    term_id is_instance_of, in_artifact_instance, has_state, active, inactive, is_completed, is_achieved;
    term_id obscuration, ringing, door_state, shows, closed;
    term_id smoke_it, alarm_it, door[DOORS], reading[DOORS];
    status status;
    devices devices;
    bool doors_seen_closed[DOORS]; /* the doors at the previous reaction (for the late sensor) */
    bool copy_pending;             /* the late sensor shows the doors after the next iteration */
    enum scenario_step step;
    size_t next_line; /* the Fig. 2 line (index into fig2) the rows are expected to show next */
    unsigned iterations, alarm_told, doors_told;
};

demo *demo_new(const demo_options *options, const demo_io *io) {
    demo *d = xcalloc(1, sizeof *d);
    d->opt = *options;
    d->io = *io;
    d->t = terms_new();
    d->rdf = rdfio_new(d->t);
    d->instance = demo_iri(d->t, options->base, DEMO_INSTANCE_PATH DEMO_INSTANCE_FRAGMENT);
    for (int p = 0; p < P_COUNT; p++) {
        buf b = {0};
        buf_printf(&b, "%s%s#%s", options->base, MODEL_PATH, parts[p].fragment);
        d->model[p] = terms_iri(d->t, b.data, b.len);
        buf_free(&b);
    }
    d->is_instance_of = terms_iri_cstr(d->t, GSM_isInstanceOf);
    d->in_artifact_instance = terms_iri_cstr(d->t, GSM_inArtifactInstance);
    d->has_state = terms_iri_cstr(d->t, GSM_hasState);
    d->active = terms_iri_cstr(d->t, GSM_active);
    d->inactive = terms_iri_cstr(d->t, GSM_inactive);
    d->is_achieved = terms_iri_cstr(d->t, GSM_isAchieved);
    d->is_completed = terms_iri_cstr(d->t, LDGSM_isCompleted);
    d->obscuration = demo_iri(d->t, NS_DEV, "obscuration");
    d->ringing = demo_iri(d->t, NS_DEV, "ringing");
    d->door_state = demo_iri(d->t, NS_DEV, "state");
    d->shows = demo_iri(d->t, NS_DEV, "shows");
    d->closed = demo_iri(d->t, NS_DEV, "closed");
    d->smoke_it = demo_iri(d->t, options->base, SMOKE_PATH "#it");
    d->alarm_it = demo_iri(d->t, options->base, ALARM_PATH "#it");
    for (int i = 0; i < DOORS; i++) {
        buf b = {0};
        buf_printf(&b, "%s%s#%s", options->base, DOORS_PATH, door_names[i]);
        d->door[i] = terms_iri(d->t, b.data, b.len);
        b.len = 0;
        buf_printf(&b, "%s%s#%s", options->base, SENSOR_PATH, door_names[i]);
        d->reading[i] = terms_iri(d->t, b.data, b.len);
        buf_free(&b);
    }
    return d;
}

void demo_free(demo *d) {
    if (!d)
        return;
    rdfio_free(d->rdf);
    terms_free(d->t);
    free(d);
}

const char *demo_waiting_for(const demo *d) {
    return step_waits[d->step];
}

/* ---- reading ------------------------------------------------------------------------------------ */

/* GETs path and parses it into a new store; NULL with message. */
static store *read_document(demo *d, const char *path, char *message, size_t size) {
    return demo_read(&d->io, d->rdf, d->opt.base, path, NULL, message, size);
}

/* The object of (s, p) a device document must hold; 0 with message (when *rc is still 0) otherwise. */
static term_id required(demo *d, store *st, const char *path, term_id s, term_id p, int *rc, char *message,
                        size_t size) {
    term_id o = store_first_object(st, s, p);
    if (!o && *rc == 0) {
        snprintf(message, size, "%s does not say <%s> <%s>", path, terms_lex(d->t, s, NULL),
                 terms_lex(d->t, p, NULL));
        *rc = -1;
    }
    return o;
}

static int read_devices(demo *d, devices *out, char *message, size_t size) {
    static const char *const paths[] = {SMOKE_PATH, ALARM_PATH, DOORS_PATH, SENSOR_PATH};
    store *st[4] = {0};
    int rc = 0;
    for (int i = 0; i < 4 && rc == 0; i++)
        if (!(st[i] = read_document(d, paths[i], message, size)))
            rc = -1;
    if (rc == 0) {
        term_id level = required(d, st[0], paths[0], d->smoke_it, d->obscuration, &rc, message, size);
        if (level && terms_kind(d->t, level) != TERM_LITERAL) {
            snprintf(message, size, "%s: the obscuration is not a number", paths[0]);
            rc = -1;
        }
        if (rc == 0)
            out->obscuration = strtod(terms_lex(d->t, level, NULL), NULL);
        out->ringing = required(d, st[1], paths[1], d->alarm_it, d->ringing, &rc, message, size) == T_TRUE;
        for (int i = 0; i < DOORS; i++) {
            out->door_closed[i] =
                required(d, st[2], paths[2], d->door[i], d->door_state, &rc, message, size) == d->closed;
            out->sensor_closed[i] =
                required(d, st[3], paths[3], d->reading[i], d->shows, &rc, message, size) == d->closed;
        }
    }
    for (int i = 0; i < 4; i++)
        if (st[i])
            store_free(st[i]);
    return rc;
}

/* The status document's node of a model part: the one of this instance that isInstanceOf it. */
static term_id node_of(demo *d, store *st, enum part p) {
    if (p == P_ROOT)
        return d->instance;
    store_iter it;
    store_match(st, 0, d->is_instance_of, d->model[p], 0, store_size(st), &it);
    uint32_t n;
    const triple *tr;
    while ((tr = store_next(&it, &n)))
        if (store_find(st, tr->s, d->in_artifact_instance, d->instance) != UINT32_MAX)
            return tr->s;
    return 0;
}

static int read_status(demo *d, status *out, char *message, size_t size) {
    store *st = read_document(d, DEMO_INSTANCE_PATH, message, size);
    if (!st)
        return -1;
    *out = (status){0};
    term_id root_state = store_first_object(st, d->instance, d->has_state);
    out->set_up = root_state == d->active || root_state == d->inactive;
    for (int p = 0; p < P_COUNT; p++) {
        term_id node = node_of(d, st, (enum part)p);
        if (!node)
            continue;
        part_status *ps = &out->p[p];
        if (parts[p].stage) {
            term_id state = store_first_object(st, node, d->has_state);
            ps->present = state == d->active || state == d->inactive;
            ps->active = state == d->active;
            ps->completed = store_first_object(st, node, d->is_completed) == T_TRUE;
        } else {
            term_id achieved = store_first_object(st, node, d->is_achieved);
            ps->present = achieved == T_TRUE || achieved == T_FALSE;
            ps->achieved = achieved == T_TRUE;
        }
    }
    store_free(st);
    return 0;
}

/* ---- the table ---------------------------------------------------------------------------------- */

static void cell_text(const status *s, enum part p, char *out, size_t size) {
    const part_status *ps = &s->p[p];
    if (!s->set_up || !ps->present)
        snprintf(out, size, "-");
    else if (parts[p].stage)
        snprintf(out, size, "%s", ps->active ? "active" : ps->completed ? "completed" : "inactive");
    else
        snprintf(out, size, "%s", ps->achieved ? "yes" : "no");
}

/* The table: what happened, then Fig. 2's status columns. */
static demo_table table_of(const demo *d) {
    return (demo_table){d->opt.out, WHAT_WIDTH, COLUMN_COUNT, column_widths};
}

/* One row with the current status, labelled with the agent's iteration (none for the environment's). */
static void print_row(demo *d, bool agent, const char *what) {
    char cells[COLUMN_COUNT][32];
    const char *cell_texts[COLUMN_COUNT];
    for (int c = 0; c < COLUMN_COUNT; c++) {
        cell_text(&d->status, columns[c], cells[c], sizeof cells[c]);
        cell_texts[c] = cells[c];
    }
    char label[16] = "";
    if (agent)
        snprintf(label, sizeof label, "%u", d->iterations);
    demo_table table = table_of(d);
    demo_table_row(&table, label, what, cell_texts);
}

/* Follows the scenario through Fig. 2's lines: a row showing the next one expected passes it. */
static void take_line(demo *d, bool environment) {
    if (d->next_line >= FIG2_LINES)
        return;
    const struct fig2_line *line = &fig2[d->next_line];
    if (line->environment == environment && shows_line(&d->status, line))
        d->next_line++;
}

static void environment_row(demo *d, const char *what) {
    buf b = {0};
    buf_printf(&b, "env: %s", what);
    print_row(d, false, buf_cstr(&b));
    buf_free(&b);
}

/* The row of one agent iteration: its transitions (old -> d->status) and the tasks seen in the devices. */
static void report_iteration(demo *d, const status *old, const devices *before) {
    const status *now = &d->status;
    buf what = {0};
    if (!old->set_up && now->set_up)
        demo_phrase(&what, "set-up: stages inactive, milestones unachieved");
    if (old->set_up && now->set_up) {
        static const enum part stages[] = {P_SFA, P_CD, P_ROOT};
        for (int i = 0; i < 3; i++) {
            enum part s = stages[i], m = parts[s].other;
            bool achieved = !old->p[m].achieved && now->p[m].achieved;
            bool closed = old->p[s].active && !now->p[s].active;
            if (s == P_ROOT && achieved)
                demo_phrase(&what, "%s achieved: the workflow is complete", parts[m].name);
            else if (achieved && closed)
                demo_phrase(&what, "%s achieved, %s closes", parts[m].name, parts[s].name);
            else if (achieved)
                demo_phrase(&what, "%s achieved", parts[m].name);
            else if (closed)
                demo_phrase(&what, "%s closes", parts[s].name);
        }
        for (int m = 0; m < P_COUNT; m++)
            if (!parts[m].stage && old->p[m].achieved && !now->p[m].achieved)
                demo_phrase(&what, "%s invalidated", parts[m].name);
        for (int s = 0; s < P_COUNT; s++) {
            if (!parts[s].stage)
                continue;
            if (!old->p[s].active && now->p[s].active)
                demo_phrase(&what, "%s opens", parts[s].name);
            else if (old->p[s].completed && !now->p[s].completed && !now->p[s].active &&
                     !(old->p[parts[s].other].achieved && !now->p[parts[s].other].achieved))
                demo_phrase(&what, "%s may run again", parts[s].name);
        }
    }
    if (!before->ringing && d->devices.ringing) {
        demo_phrase(&what, "task: the alarm rings");
        d->alarm_told++;
    }
    bool doors_closed_now = false;
    for (int i = 0; i < DOORS; i++)
        doors_closed_now |= !before->door_closed[i] && d->devices.door_closed[i];
    if (doors_closed_now) {
        demo_phrase(&what, "task: the doors close");
        d->doors_told++;
    }
    if (!what.len && !status_equal(old, now))
        demo_phrase(&what, "the status changed");
    if (what.len) {
        take_line(d, false);
        print_row(d, true, buf_cstr(&what));
    }
    buf_free(&what);
}

/* ---- writing the devices ------------------------------------------------------------------------ */

static int put_device(demo *d, const char *path, const char *triples, char *message, size_t size) {
    return demo_put(&d->io, path, "dev", NS_DEV, triples, message, size);
}

static int write_smoke(demo *d, double obscuration, char *message, size_t size) {
    char triples[128];
    snprintf(triples, sizeof triples, "<#it> a dev:SmokeDetector ;\n    dev:obscuration %.1f .\n", obscuration);
    if (put_device(d, SMOKE_PATH, triples, message, size) != 0)
        return -1;
    d->devices.obscuration = obscuration;
    return 0;
}

static int write_alarm(demo *d, bool ringing, char *message, size_t size) {
    const char *triples = ringing ? "<#it> a dev:Alarm ;\n    dev:ringing true .\n"
                                  : "<#it> a dev:Alarm ;\n    dev:ringing false .\n";
    if (put_device(d, ALARM_PATH, triples, message, size) != 0)
        return -1;
    d->devices.ringing = ringing;
    return 0;
}

static int write_doors(demo *d, const bool closed[DOORS], char *message, size_t size) {
    buf triples = {0};
    for (int i = 0; i < DOORS; i++)
        buf_printf(&triples, "<#%s> a dev:Door ;\n    dev:state dev:%s .\n", door_names[i],
                   closed[i] ? "closed" : "open");
    int rc = put_device(d, DOORS_PATH, buf_cstr(&triples), message, size);
    buf_free(&triples);
    if (rc == 0)
        memcpy(d->devices.door_closed, closed, sizeof d->devices.door_closed);
    return rc;
}

/* The door sensor shows what the doors are (a row when that changes what it shows). */
static int copy_doors_to_sensor(demo *d, char *message, size_t size) {
    if (sensor_shows_doors(&d->devices))
        return 0;
    buf triples = {0};
    buf_puts(&triples, "<#it> a dev:DoorSensor ;\n    dev:reading <#front>, <#back> .\n");
    for (int i = 0; i < DOORS; i++)
        buf_printf(&triples, "<#%s> a dev:DoorReading ;\n    dev:door <doors#%s> ;\n    dev:shows dev:%s .\n",
                   door_names[i], door_names[i], d->devices.door_closed[i] ? "closed" : "open");
    int rc = put_device(d, SENSOR_PATH, buf_cstr(&triples), message, size);
    buf_free(&triples);
    if (rc != 0)
        return -1;
    memcpy(d->devices.sensor_closed, d->devices.door_closed, sizeof d->devices.sensor_closed);
    buf what = {0};
    if (sensor_all_closed(&d->devices)) {
        buf_puts(&what, "the door sensor shows every door closed");
    } else {
        buf_puts(&what, "the door sensor shows");
        const char *sep = " the ";
        for (int i = 0; i < DOORS; i++)
            if (!d->devices.sensor_closed[i]) {
                buf_printf(&what, "%s%s", sep, door_names[i]);
                sep = " and the ";
            }
        buf_puts(&what, " door open");
    }
    environment_row(d, buf_cstr(&what));
    buf_free(&what);
    return 0;
}

/* The doors have changed: the sensor shows them now, or (late) after the next iteration. */
static int sensor_follows(demo *d, char *message, size_t size) {
    memcpy(d->doors_seen_closed, d->devices.door_closed, sizeof d->doors_seen_closed);
    if (!d->opt.late_sensor)
        return copy_doors_to_sensor(d, message, size);
    d->copy_pending = true;
    if (!sensor_shows_doors(&d->devices))
        environment_row(d, "the door sensor lags: it shows the doors after the next poll");
    return 0;
}

/* The devices react to the iteration: the sensor, the alarm. *moved when anything changed or will. */
static int react(demo *d, bool *moved, char *message, size_t size) {
    devices *dev = &d->devices;
    if (d->opt.late_sensor) {
        if (d->copy_pending) {
            *moved |= !sensor_shows_doors(dev);
            if (copy_doors_to_sensor(d, message, size) != 0)
                return -1;
            d->copy_pending = false;
        }
        if (memcmp(d->doors_seen_closed, dev->door_closed, sizeof dev->door_closed) != 0 &&
            sensor_follows(d, message, size) != 0)
            return -1;
        *moved |= d->copy_pending;
    } else if (!sensor_shows_doors(dev)) {
        if (sensor_follows(d, message, size) != 0)
            return -1;
        *moved = true;
    }
    if (sensor_all_closed(dev) && dev->ringing) {
        if (write_alarm(d, false, message, size) != 0)
            return -1;
        environment_row(d, "the alarm stops (every door shown closed)");
        *moved = true;
    }
    return 0;
}

/* The smoke detector reads a new obscuration, shown as an environment row. */
static int smoke_step(demo *d, double obscuration, const char *what, char *message, size_t size) {
    if (write_smoke(d, obscuration, message, size) != 0)
        return -1;
    char row[96];
    snprintf(row, sizeof row, "env: %s (obscuration %.1f %%/m)", what, obscuration);
    print_row(d, false, row);
    return 0;
}

/* The scenario's next step, taken when the workflow rests. */
static int take_step(demo *d, char *message, size_t size) {
    switch (d->step) {
    case STEP_SMOKE:
        if (smoke_step(d, SMOKE_OBSCURATION, "smoke is detected", message, size) != 0)
            return -1;
        break;
    case STEP_SMOKE_KEPT_IN:
        take_line(d, true);
        print_row(d, false, "env: the smoke cannot circulate through closed doors (no change the workflow reads)");
        break;
    case STEP_REOPEN: {
        bool closed[DOORS];
        memcpy(closed, d->devices.door_closed, sizeof closed);
        closed[FRONT] = false;
        if (write_doors(d, closed, message, size) != 0)
            return -1;
        environment_row(d, "someone reopens the front door");
        if (sensor_follows(d, message, size) != 0)
            return -1;
        break;
    }
    case STEP_SMOKE_CLEARS:
        if (smoke_step(d, CLEAR_OBSCURATION, "the smoke clears", message, size) != 0)
            return -1;
        break;
    case STEP_END:
        break;
    }
    d->step++;
    return 0;
}

/* ---- the run ------------------------------------------------------------------------------------ */

int demo_start(demo *d, char *message, size_t size) {
    if (read_devices(d, &d->devices, message, size) != 0 || read_status(d, &d->status, message, size) != 0)
        return -1;
    memcpy(d->doors_seen_closed, d->devices.door_closed, sizeof d->doors_seen_closed);
    FILE *out = d->opt.out;
    fprintf(out,
            "The fire-alarm workflow of the GSM paper on the embedded LDP server at %s,\n"
            "instance <%s%s%s>, %s;\nthe door sensor shows the doors %s.\n"
            "One row per change: \"env:\" rows are the environment (this demo playing the devices), the\n"
            "others what agent iteration \"iter\" did; the states of the stages Start Fire Alarm and Close\n"
            "Doors, and whether the milestones alarm on and all doors closed are achieved.\n\n",
            d->opt.base, d->opt.base, DEMO_INSTANCE_PATH, DEMO_INSTANCE_FRAGMENT,
            d->status.set_up ? "already set up" : "uninitialized",
            d->opt.late_sensor ? "one poll late" : "at once");
    const char *names[COLUMN_COUNT];
    for (int c = 0; c < COLUMN_COUNT; c++)
        names[c] = parts[columns[c]].name;
    demo_table table = table_of(d);
    demo_table_head(&table, "iter", "what happened", names);
    return 0;
}

/* The scenario ended: it must have shown every Fig. 2 line and completed the workflow. */
static enum demo_progress finish(demo *d, char *message, size_t size) {
    if (d->next_line < FIG2_LINES) {
        const struct fig2_line *l = &fig2[d->next_line];
        snprintf(message, size,
                 "the scenario ended before showing the state of its step %d of %d (Start Fire Alarm %s, Close "
                 "Doors %s, alarm on %s, all doors closed %s%s)", l->number, (int)FIG2_LINES,
                 l->sfa_active ? "active" : "inactive", l->cd_active ? "active" : "inactive",
                 l->m1 ? "achieved" : "not achieved", l->m2b ? "achieved" : "not achieved",
                 l->environment ? ", in an environment row" : "");
        return DEMO_FAILED;
    }
    if (!d->status.p[P_ROOT].completed) {
        snprintf(message, size, "the smoke cleared, but the workflow did not complete (\"fire over\" %s)",
                 d->status.p[P_FIRE_OVER].achieved ? "achieved" : "not achieved");
        return DEMO_FAILED;
    }
    char alarm[16], doors[16];
    fprintf(d->opt.out,
            "\nThe scenario is over after %u iterations: the paper's six states of the run were shown in order,\n"
            "the alarm told to ring %s and the doors to close %s (once per activation);\n"
            "the workflow is complete.\n",
            d->iterations, demo_times(d->alarm_told, alarm, sizeof alarm),
            demo_times(d->doors_told, doors, sizeof doors));
    fflush(d->opt.out);
    return DEMO_OVER;
}

enum demo_progress demo_after_iteration(demo *d, bool quiescent, char *message, size_t size) {
    d->iterations++;
    status old = d->status;
    devices before = d->devices;
    if (read_status(d, &d->status, message, size) != 0 || read_devices(d, &d->devices, message, size) != 0)
        return DEMO_FAILED;
    report_iteration(d, &old, &before);
    bool moved = false;
    if (react(d, &moved, message, size) != 0)
        return DEMO_FAILED;
    if (!quiescent || moved)
        return DEMO_GOING_ON;
    if (d->step == STEP_END)
        return finish(d, message, size);
    return take_step(d, message, size) == 0 ? DEMO_GOING_ON : DEMO_FAILED;
}
