/* cmd_demo.c: `ldgsm demo`: the fire-alarm workflow (docs/DESIGN.md §5.6) end to end in one process: the
 * embedded LDP server with ldp-fixtures/fire-alarm on a free loopback port, the agent run iteration by
 * iteration with the shipped GSM rules, and the scenario of demos/demo.h playing the devices between the
 * iterations and printing the run table. With --suppliers, the procurement workflow of
 * ldp-fixtures/suppliers instead (docs/DESIGN.md §6.1), played by demos/demo_suppliers.h; with --orders, the
 * three orders of ldp-fixtures/orders (docs/DESIGN.md §8.6), watched by demos/demo_orders.h. */
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agent/agent.h"
#include "agent/body.h"
#include "cli/commands.h"
#include "cli/shipped.h"
#include "demos/demo.h"
#include "demos/demo_common.h"
#include "demos/demo_orders.h"
#include "demos/demo_suppliers.h"
#include "http/http_client.h"
#include "ldp/ldp_fixtures.h"
#include "ldp/ldp_path.h"
#include "ldp/ldp_server.h"
#include "ldp/ldp_store.h"
#include "rdf/buf.h"
#include "rdf/rdfio.h"

enum { DEMO_MAX_ITERATIONS = 100, DEFAULT_INTERVAL_MS = 200, DEFAULT_TIME_LIMIT_S = 30, WAIT_POLL_MS = 50 };

static const char demo_usage[] =
    "usage: ldgsm demo [--late-sensor] [--interval MS] [--verbose]\n"
    "       ldgsm demo --suppliers [--no-supplier-b] [--time-limit S] [--interval MS] [--verbose]\n"
    "       ldgsm demo --orders [--interval MS] [--verbose]\n"
    "\n"
    "Runs the GSM paper's fire-alarm workflow (its Fig. 1 and 2, as DESIGN.md section 5 reconstructs them)\n"
    "end to end, in this one process: the embedded LDP server on a free 127.0.0.1 port serving\n"
    "ldp-fixtures/fire-alarm (the model, the devices, the instance status/alarm1), the agent running that\n"
    "instance with the shipped GSM rules as `ldgsm run --instance` does, and the environment played between\n"
    "the agent's iterations: the alarm rings when a task tells it to, the door sensor shows the doors, the\n"
    "alarm stops once the sensor shows every door closed. Whenever the workflow rests (an iteration that\n"
    "derived no unsafe request, and no device moved), the scenario takes its next step: smoke is detected;\n"
    "the closed doors keep the smoke in (an environment row); a door is reopened; the smoke clears and the\n"
    "workflow completes. The environment acts on these rests, never after a fixed time (--interval only\n"
    "paces the output).\n"
    "\n"
    "The run is printed as a table like the paper's Fig. 2, one row per change: the agent's iteration\n"
    "(none for the environment's rows, marked \"env:\"), what happened (the agent's transitions and tasks,\n"
    "or the environment's step), the states of the stages Start Fire Alarm and Close Doors (active,\n"
    "inactive, completed), and whether the milestones alarm on and all doors closed are achieved (yes,\n"
    "no). The demo checks that the run shows the states of Fig. 2's six lines in order.\n"
    "\n"
    "With --suppliers, the procurement workflow of ldp-fixtures/suppliers (DESIGN.md section 6.1, instance\n"
    "status/order1) instead: its \"Order online\" stage places the order by a call to supplier A's shop,\n"
    "which is down (every send fails), retried twice 0.5 s and 1 s after the failures, then rebound to\n"
    "supplier B's shop, which takes it; the demo plays the warehouse (the goods arrive once it is told to\n"
    "expect them) and the clerk (a phone order is confirmed once a request is in the inbox). With\n"
    "--no-supplier-b, B's shop is gone too (404, not retried): the call is exhausted and the alternative\n"
    "stage \"Order by phone\" runs. One row per change shows what happened (each failure of the call with\n"
    "its reason and its retry), the stages open and the order call's record (the alternative's number,\n"
    "the call's state and, while it calls, its retries left); the run ends when the workflow is complete,\n"
    "with a summary. While the call waits for a deadline, the iterations are at least 50 ms apart.\n"
    "\n"
    "With --orders, the order workflow of ldp-fixtures/orders (DESIGN.md section 8) shows three orders\n"
    "side by side: one model, three instances (status/o1, o2, o3), each acting on its own order: its own\n"
    "quote GET (40, 250, 90), an approval request only for the one over 100, its own shipment POST, and a\n"
    "notification naming that shipment's Location. One row per order that changed in an iteration (stage\n"
    "reached, price, approval, shipment); at the end the demo checks on the server that each order's\n"
    "notification names its own shipment and that only order 2 asked for approval.\n"
    "\n"
    "The output fits 100 columns. Without --verbose, what the agent and the server warn of during the run\n"
    "(a failed send, an incident) is said after the table, each warning once with how often it came.\n"
    "\n"
    "options:\n"
    "      --late-sensor    the door sensor shows the doors one poll (one agent iteration) after they\n"
    "                       changed (default: at once)\n"
    "      --suppliers      the procurement workflow with its supplier call (see above)\n"
    "      --orders         three orders of one workflow model, side by side (see above)\n"
    "      --no-supplier-b  with --suppliers: supplier B's shop is gone too\n"
    "      --time-limit S   with --suppliers: fail when the workflow is not complete after S seconds\n"
    "                       (default 30)\n"
    "  -n, --interval MS    pause between iterations, so the table can be watched (default 200; 0: none)\n"
    "  -v, --verbose        show the agent's log lines (one per request and per iteration) on standard\n"
    "                       error as they come\n"
    "  -h, --help           this text\n"
    "\n"
    "The fixtures and the rules are found in $LDGSM_HOME, beside the binary, or in the source tree.\n"
    "exit status: 0 the scenario ended with the workflow complete (the fire alarm: with Fig. 2's states\n"
    "shown; --orders: every order, each notification naming its own shipment); 1 it stalled (the fire\n"
    "alarm, --orders: not over within 100 iterations; --suppliers: not complete within --time-limit),\n"
    "failed, or was stopped by SIGINT or SIGTERM; 2 usage error\n";

/* ---- the environment's requests (demos/demo.h's demo_io over the HTTP client) ---------------------- */

typedef struct demo_http {
    http_client *client;
    const char *base; /* ends in '/' */
} demo_http;

/* GET (the body appended to *body), PUT (turtle given) or DELETE of base + path: 0 (2xx); 1 for a GET
 * answered 404; -1 otherwise. */
static int demo_http_request(demo_http *h, const char *method, const char *path, const char *turtle, buf *body,
                             char *message, size_t size) {
    buf url = {0};
    buf_printf(&url, "%s%s", h->base, path);
    http_header header = turtle ? (http_header){"Content-Type", "text/turtle"}
                                : (http_header){"Accept", "text/turtle"};
    http_request request = {.method = method, .url = buf_cstr(&url), .headers = &header, .header_count = 1,
                            .body = turtle, .body_len = turtle ? strlen(turtle) : 0};
    http_result result;
    http_run(h->client, &request, 1, &result);
    int rc = 0;
    if (result.failure != HTTP_FAIL_NONE) {
        snprintf(message, size, "%s %s: %s", method, url.data,
                 result.message[0] ? result.message : http_failure_name(result.failure));
        rc = -1;
    } else if (result.status / 100 != 2) {
        snprintf(message, size, "%s %s answered %ld%s%.200s", method, url.data, result.status,
                 result.body.len ? ": " : "", result.body.len ? result.body.data : "");
        rc = result.status == 404 && body ? 1 : -1;
    } else if (body && result.body.len) {
        buf_append(body, result.body.data, result.body.len);
    }
    http_result_free(&result);
    buf_free(&url);
    return rc;
}

static int demo_http_get(void *user, const char *path, buf *turtle, char *message, size_t size) {
    return demo_http_request(user, "GET", path, NULL, turtle, message, size);
}

static int demo_http_put(void *user, const char *path, const char *turtle, char *message, size_t size) {
    return demo_http_request(user, "PUT", path, turtle, NULL, message, size);
}

static int demo_http_delete(void *user, const char *path, char *message, size_t size) {
    return demo_http_request(user, "DELETE", path, NULL, NULL, message, size);
}

/* ---- logging ------------------------------------------------------------------------------------ */

/* The agent's and the server's log lines (from the server's threads too). With --verbose, on standard
 * error at once, indented under the table's rows; without, only warnings and errors come, and they are
 * kept, each said once with how often it came, on lines of their own after the table (log_said_after),
 * so that they never break a row of it. */
typedef struct demo_log {
    bool keep;
    pthread_mutex_t lock;
    char **lines;
    size_t *times, count;
} demo_log;

static const char *const log_prefix[] = {"error: ", "warning: ", "", ""};

static void log_line(void *user, enum log_level level, const char *message) {
    demo_log *log = user;
    if (!log->keep) {
        fprintf(stderr, "      %s%s\n", log_prefix[level], message);
        fflush(stderr);
        return;
    }
    buf line = {0};
    buf_printf(&line, "%s%s", log_prefix[level], message);
    pthread_mutex_lock(&log->lock);
    size_t i = 0;
    while (i < log->count && strcmp(log->lines[i], buf_cstr(&line)) != 0)
        i++;
    if (i == log->count) {
        log->lines = xrealloc(log->lines, (log->count + 1) * sizeof *log->lines);
        log->times = xrealloc(log->times, (log->count + 1) * sizeof *log->times);
        log->lines[i] = buf_cstr(&line);
        log->times[log->count++] = 0;
    } else {
        buf_free(&line);
    }
    log->times[i]++;
    pthread_mutex_unlock(&log->lock);
}

/* The kept lines, after the table (and its summary), and frees them. */
static void log_said_after(demo_log *log) {
    fflush(stdout);
    if (log->count)
        fprintf(stderr, "\nldgsm demo: the agent and the server said during the run:\n");
    for (size_t i = 0; i < log->count; i++) {
        buf line = {0};
        buf_puts(&line, log->lines[i]);
        if (log->times[i] > 1)
            buf_printf(&line, " (%zu times)", log->times[i]);
        demo_wrapped(stderr, buf_cstr(&line));
        buf_free(&line);
        free(log->lines[i]);
    }
    free(log->lines);
    free(log->times);
    pthread_mutex_destroy(&log->lock);
}

/* ---- the run ------------------------------------------------------------------------------------ */

typedef struct demo_settings {
    bool late_sensor;
    bool suppliers, no_supplier_b;
    bool orders;
    long interval_ms;
    long time_limit_s; /* --suppliers */
    int verbose;
} demo_settings;

/* The embedded server, serving the fixtures on a free loopback port. */
typedef struct demo_server {
    char *status_prefix;
    const char *prefixes[1]; /* the server keeps its config's prefix list by reference */
    ldp_store *store;
    ldp_server *server;
} demo_server;

/* Stops the server (its threads end) and frees it. */
static void demo_server_stop(demo_server *s) {
    ldp_server_free(s->server);
    ldp_store_free(s->store);
    free(s->status_prefix);
    *s = (demo_server){0};
}

static int demo_server_start(demo_server *s, const char *fixtures, const log_sink *log) {
    *s = (demo_server){0};
    const char *why;
    if (ldp_path_decode("/status/", &s->status_prefix, &why) != 0) {
        fprintf(stderr, "ldgsm demo: /status/: %s\n", why);
        return -1;
    }
    /* --require-conditional=/status/, as the fixtures' README serves them: status writes must be
     * conditional, device commands need not be. */
    s->prefixes[0] = s->status_prefix;
    ldp_server_config config = {.host = "127.0.0.1", .port = 0, .threads = 2, .max_body = 16u << 20,
                                .require_conditional = true, .conditional_prefixes = s->prefixes,
                                .conditional_prefix_count = 1, .log = log};
    char message[1024];
    rdfio_prepare_libxml(); /* before the server's threads parse (rdfio.h) */
    s->server = ldp_server_bind(&config, message, sizeof message);
    if (s->server) {
        ldp_store_config store_config = {NULL, ldp_server_base_url(s->server), ldp_server_variant_free(), log,
                                         body_prefixes, NULL, NULL};
        ldp_server_hook_store(s->server, &store_config);
        s->store = ldp_store_open(&store_config, message, sizeof message);
    }
    ldp_fixtures_counts counts;
    if (!s->server || !s->store ||
        ldp_fixtures_seed(s->store, fixtures, false, log, &counts, message, sizeof message) != 0 ||
        ldp_server_start(s->server, s->store, message, sizeof message) != 0) {
        fprintf(stderr, "ldgsm demo: %s\n", message);
        demo_server_stop(s);
        return -1;
    }
    return 0;
}

/* A scenario the environment only watches, bounded by iterations (the fire alarm, the orders). */
typedef struct watched_scenario {
    void *scenario;
    int (*start)(void *scenario, char *message, size_t size);
    /* after each iteration; quiescent: it succeeded and derived no unsafe request */
    enum demo_progress (*after)(void *scenario, bool quiescent, char *message, size_t size);
    const char *(*waiting_for)(void *scenario);
    const char *refused, *not_over; /* "the instance", "the scenario is not over" */
} watched_scenario;

/* Runs the agent and the scenario iteration by iteration until the scenario is over, fails, stalls or a
 * signal stops it. */
static int play(const demo_settings *settings, agent *a, const watched_scenario *w) {
    char message[1024];
    if (w->start(w->scenario, message, sizeof message) != 0) {
        fprintf(stderr, "ldgsm demo: %s\n", message);
        return 1;
    }
    for (unsigned i = 0; i < DEMO_MAX_ITERATIONS && !cli_stop_requested; i++) {
        if (i)
            cli_pause_ms(settings->interval_ms);
        iteration_stats stats = {0};
        int rc = agent_iterate(a, &stats);
        if (rc == -2) { /* an instance was refused; the agent said why */
            fprintf(stderr, "ldgsm demo: the agent refused %s\n", w->refused);
            return 1;
        }
        enum demo_progress progress = w->after(w->scenario, rc == 0 && stats.unsafe == 0, message, sizeof message);
        if (progress == DEMO_FAILED) {
            fprintf(stderr, "ldgsm demo: %s\n", message);
            return 1;
        }
        if (progress == DEMO_OVER)
            return 0;
    }
    if (cli_stop_requested)
        fprintf(stderr, "ldgsm demo: stopped by a signal: %s\n", w->not_over);
    else
        fprintf(stderr, "ldgsm demo: stalled: %s after %d iterations; it waits for %s\n", w->not_over,
                DEMO_MAX_ITERATIONS, w->waiting_for(w->scenario));
    return 1;
}

static int fire_alarm_start(void *d, char *message, size_t size) { return demo_start(d, message, size); }
static enum demo_progress fire_alarm_after(void *d, bool quiescent, char *message, size_t size) {
    return demo_after_iteration(d, quiescent, message, size);
}
static const char *fire_alarm_waiting_for(void *d) { return demo_waiting_for(d); }
static int orders_start(void *d, char *message, size_t size) { return orders_demo_start(d, message, size); }
static enum demo_progress orders_after(void *d, bool quiescent, char *message, size_t size) {
    (void)quiescent; /* the orders scenario reads the server, whatever the iteration derived */
    return orders_demo_after_iteration(d, message, size);
}
static const char *orders_waiting_for(void *d) { return orders_demo_waiting_for(d); }

/* play for --suppliers: the environment reacts after every iteration, and the run is bounded by time, as
 * the call's retries wait on the agent's clock. An iteration that changed nothing (the workflow waits for
 * a deadline) is followed by a pause of at least WAIT_POLL_MS. */
static int play_suppliers(const demo_settings *settings, agent *a, suppliers_demo *d) {
    char message[1024];
    if (suppliers_demo_start(d, message, sizeof message) != 0) {
        fprintf(stderr, "ldgsm demo: %s\n", message);
        return 1;
    }
    double limit = demo_seconds(CLOCK_MONOTONIC) + (double)settings->time_limit_s;
    for (unsigned i = 0; !cli_stop_requested; i++) {
        if (demo_seconds(CLOCK_MONOTONIC) > limit) {
            fprintf(stderr, "ldgsm demo: the workflow is not complete after %ld s; it waits: %s\n",
                    settings->time_limit_s, suppliers_demo_waiting_for(d));
            return 1;
        }
        if (i) {
            long pause = settings->interval_ms;
            if (suppliers_demo_idle(d) && pause < WAIT_POLL_MS)
                pause = WAIT_POLL_MS;
            cli_pause_ms(pause);
        }
        double began = demo_seconds(CLOCK_REALTIME);
        iteration_stats stats = {0};
        if (agent_iterate(a, &stats) == -2) {
            fputs("ldgsm demo: the agent refused the instance\n", stderr);
            return 1;
        }
        enum demo_progress progress = suppliers_demo_after_iteration(d, began, message, sizeof message);
        if (progress == DEMO_FAILED) {
            fprintf(stderr, "ldgsm demo: %s\n", message);
            return 1;
        }
        if (progress == DEMO_OVER)
            return 0;
    }
    fputs("ldgsm demo: stopped by a signal before the workflow completed\n", stderr);
    return 1;
}

/* Starts the server, the agent on the scenario's instances (status/alarm1#it; --suppliers: status/order1#it;
 * --orders: status/o1#it, o2, o3) and the scenario; plays; stops. */
static int serve_and_play(const demo_settings *settings, agent_options *opt, const char *fixtures) {
    demo_log said = {.keep = !settings->verbose};
    pthread_mutex_init(&said.lock, NULL);
    log_sink server_log = {.write = log_line, .user = &said, .threshold = LOG_WARN};
    log_sink agent_log = {.write = log_line, .user = &said,
                          .threshold = settings->verbose ? LOG_DEBUG : LOG_WARN}; /* requests are -v's */
    demo_server server;
    if (demo_server_start(&server, fixtures, &server_log) != 0) {
        log_said_after(&said);
        return 1;
    }
    buf base = {0}, instance[ORDERS_COUNT] = {{0}};
    buf_printf(&base, "%s/", ldp_server_base_url(server.server));
    char *instances[ORDERS_COUNT];
    size_t instance_count = settings->orders ? ORDERS_COUNT : 1;
    for (size_t i = 0; i < instance_count; i++) {
        if (settings->orders)
            buf_printf(&instance[i], "%s%s%s", base.data, orders_instance_paths[i], ORDERS_INSTANCE_FRAGMENT);
        else if (settings->suppliers)
            buf_printf(&instance[i], "%s%s%s", base.data, SUPPLIERS_INSTANCE_PATH, SUPPLIERS_INSTANCE_FRAGMENT);
        else
            buf_printf(&instance[i], "%s%s%s", base.data, DEMO_INSTANCE_PATH, DEMO_INSTANCE_FRAGMENT);
        instances[i] = buf_cstr(&instance[i]);
    }
    opt->instances = instances;
    opt->instance_count = instance_count;
    char message[1024];
    int status = 1;
    agent *a = agent_new(opt, &agent_log, message, sizeof message);
    http_options http_opt = http_options_default();
    http_opt.log = &agent_log;
    demo_http io_state = {http_client_new(&http_opt), buf_cstr(&base)};
    demo_io io = {demo_http_get, demo_http_put, demo_http_delete, &io_state};
    demo_options demo_opt = {.base = buf_cstr(&base), .late_sensor = settings->late_sensor, .out = stdout};
    suppliers_options suppliers_opt = {.base = buf_cstr(&base), .no_supplier_b = settings->no_supplier_b,
                                       .out = stdout};
    orders_options orders_opt = {.base = buf_cstr(&base), .out = stdout};
    demo *d = settings->suppliers || settings->orders ? NULL : demo_new(&demo_opt, &io);
    suppliers_demo *sd = settings->suppliers ? suppliers_demo_new(&suppliers_opt, &io) : NULL;
    orders_demo *od = settings->orders ? orders_demo_new(&orders_opt, &io) : NULL;
    watched_scenario fire_alarm = {d, fire_alarm_start, fire_alarm_after, fire_alarm_waiting_for, "the instance",
                                   "the scenario is not over"},
                     orders = {od, orders_start, orders_after, orders_waiting_for, "an instance",
                               "the orders are not complete"};
    if (!a)
        fprintf(stderr, "ldgsm demo: %s\n", message);
    else if (io_state.client)
        status = sd ? play_suppliers(settings, a, sd) : play(settings, a, od ? &orders : &fire_alarm);
    /* The server's threads end before the agent and the demo free their raptor worlds: freeing the last
     * one cleans libxml2 up, and a server thread alive then would leak libxml2's per-thread state. */
    demo_server_stop(&server);
    demo_free(d);
    suppliers_demo_free(sd);
    orders_demo_free(od);
    http_client_free(io_state.client);
    agent_free(a);
    opt->instances = NULL;
    opt->instance_count = 0;
    for (size_t i = 0; i < instance_count; i++)
        buf_free(&instance[i]);
    buf_free(&base);
    log_said_after(&said);
    return status;
}

int cmd_demo(int argc, char **argv) {
    enum { OPT_LATE_SENSOR = 256, OPT_SUPPLIERS, OPT_NO_SUPPLIER_B, OPT_TIME_LIMIT, OPT_ORDERS };
    static const struct option options[] = {
        {"late-sensor", no_argument, NULL, OPT_LATE_SENSOR},
        {"suppliers", no_argument, NULL, OPT_SUPPLIERS},
        {"no-supplier-b", no_argument, NULL, OPT_NO_SUPPLIER_B},
        {"orders", no_argument, NULL, OPT_ORDERS},
        {"time-limit", required_argument, NULL, OPT_TIME_LIMIT},
        {"interval", required_argument, NULL, 'n'},
        {"verbose", no_argument, NULL, 'v'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    demo_settings settings = {.interval_ms = DEFAULT_INTERVAL_MS, .time_limit_s = DEFAULT_TIME_LIMIT_S};
    bool time_limit_given = false;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, "n:vh", options, NULL)) != -1) {
        char *end = NULL;
        switch (c) {
        case OPT_LATE_SENSOR: settings.late_sensor = true; break;
        case OPT_SUPPLIERS: settings.suppliers = true; break;
        case OPT_NO_SUPPLIER_B: settings.no_supplier_b = true; break;
        case OPT_ORDERS: settings.orders = true; break;
        case OPT_TIME_LIMIT:
            settings.time_limit_s = strtol(optarg, &end, 10);
            if (*end || !*optarg || settings.time_limit_s < 1 || settings.time_limit_s > 3600) {
                fprintf(stderr, "ldgsm demo: --time-limit needs seconds (1 to 3600), not '%s'\n", optarg);
                return 2;
            }
            time_limit_given = true;
            break;
        case 'n':
            settings.interval_ms = strtol(optarg, &end, 10);
            if (*end || !*optarg || settings.interval_ms < 0 || settings.interval_ms > 60000) {
                fprintf(stderr, "ldgsm demo: --interval needs milliseconds (0 to 60000), not '%s'\n", optarg);
                return 2;
            }
            break;
        case 'v': settings.verbose++; break;
        case 'h': fputs(demo_usage, stdout); return 0;
        default: fputs(demo_usage, stderr); return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "ldgsm demo: unexpected argument '%s'\n\n%s", argv[optind], demo_usage);
        return 2;
    }
    if (settings.orders && (settings.suppliers || settings.late_sensor || settings.no_supplier_b || time_limit_given)) {
        fprintf(stderr, "ldgsm demo: --orders takes none of --suppliers, --late-sensor, --no-supplier-b, "
                "--time-limit\n\n%s", demo_usage);
        return 2;
    }
    if (settings.suppliers ? settings.late_sensor : settings.no_supplier_b || time_limit_given) {
        fprintf(stderr, "ldgsm demo: %s\n\n%s",
                settings.suppliers ? "--late-sensor is an option of the fire-alarm demo, not of --suppliers"
                                   : "--no-supplier-b and --time-limit need --suppliers",
                demo_usage);
        return 2;
    }
    const char *fixtures_dir = settings.suppliers ? "ldp-fixtures/suppliers"
                               : settings.orders  ? "ldp-fixtures/orders"
                                                  : "ldp-fixtures/fire-alarm";
    char *fixtures = shipped_path(fixtures_dir);
    if (!fixtures) {
        fprintf(stderr, "ldgsm demo: cannot find %s (set LDGSM_HOME to the directory holding ldp-fixtures/, "
                "rules/ and ontology/)\n", fixtures_dir);
        return 1;
    }
    agent_options opt = {.verbose = settings.verbose, .stop = &cli_stop_requested};
    shipped_files shipped = {0};
    int status = 1;
    if (shipped_add_gsm(&opt, &shipped, "ldgsm demo") == 0) {
        cli_catch_stop_signals();
        signal(SIGPIPE, SIG_IGN);
        status = serve_and_play(&settings, &opt, fixtures);
    }
    free(opt.programs);
    free(opt.inputs);
    shipped_files_free(&shipped);
    free(fixtures);
    return status;
}
