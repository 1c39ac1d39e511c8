/* agent.c: the loop of agent.h's phase list (assert, crawl, sentries, later rules, inspect, plan, send) and
 * the run around it (logging, the exit status). What a GET's answer means is get_outcome.c's, the answers
 * to calls answers.c's, the release of terms release.c's; a workflow's completion is the caller's, through
 * the inspect hook (gsm/inspect.h for GSM). */
#include "agent/agent.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <time.h>

#include "agent/agent_metrics.h"
#include "agent/answers.h"
#include "agent/arguments.h"
#include "agent/discover.h"
#include "agent/doc_cache.h"
#include "agent/get_outcome.h"
#include "agent/incremental.h"
#include "agent/notifications.h"
#include "agent/history.h"
#include "agent/plan.h"
#include "agent/release.h"
#include "agent/request.h"
#include "agent/results.h"
#include "agent/sentries.h"
#include "agent/views.h"
#include "agent/trace.h"
#include "http/http_client.h"
#include "http/http_url.h"
#include "http/oidc_token.h"
#include "n3/n3_reader.h"
#include "rdf/rdfio.h"
#include "rdf/vocab_ns.h"
#include "reason/backward.h"
#include "reason/reasoner.h"
#include "reason/strata.h"
#include "reason/xsd_time.h"

enum { STUCK_AFTER = 10, DEFAULT_REMIND = 100, DEFAULT_SAFETY_POLL_MS = 60000 };

typedef struct base_fact {
    triple t;
    term_id graph;
} base_fact;

struct agent {
    agent_options opt;
    const log_sink *log;
    terms *t;
    terms_mark lasting; /* what agent_new interned; iterations' terms after it are released */
    rdfio *io;
    agent_vocab v;
    rule_set rules;
    base_fact *facts;
    size_t fact_count, fact_cap;
    http_client *http;
    get_outcomes gets; /* what the reads brought, said once while it recurs; reads that hang (get_outcome.h) */
    unsigned held_streak;
    strmap warned_origins;
    strmap write_turns; /* plan_input.turns */
    strmap patch_refused; /* documents whose server refused an N3 Patch: written with PUT from then on */
    identity_cache identities; /* request URIs' identities, kept across iterations */
    term_id default_timeout; /* --timeout as an xsd:dayTimeDuration: a call's T_E when its model gives none */
    sentry_table *sentries;
    views *views; /* what each instance's sentries see */
    argument_solutions *arguments; /* the argument queries' solutions of this iteration (arguments.h) */
    answers *answers;      /* answers to requests with ldgsm:reportTo, asserted into later iterations */
    doc_cache *doc_cache;  /* documents parsed, per strong ETag, across iterations */
    size_t kept_by_release; /* the terms the last release kept (release.h) */
    strmap waits;          /* "kind\tsubject\ttext" -> the iteration it was last said in (report_waits) */
    unsigned long iteration; /* iterations begun */
    int ended_by_inspect;    /* the exit status the inspect callback asked for (AGENT_GO_ON: none) */
    discovery *discovery;    /* --instances-from, or NULL */
    const char **instances;  /* agent_instances: --instance, then the discovered ones */
    size_t instance_count;
    unsigned waiting;        /* held and waiting lines true in the last iteration (report_waits) */
    incremental *incremental; /* --incremental, or NULL */
    notifications *notifications; /* --notifications, or NULL */
    strmap listings; /* --instances-from's containers, as resources: with --notifications, watched too */
    char **listing_of;        /* per --instances-from container (in order): its listing, as a resource */
    int64_t *listing_read_ms; /* ... when it was last read (with --notifications: a safety poll of its own) */
    bool *listing_unchanged;  /* ... whether a watching channel vouches for it in this iteration */
    const char **evaluating;  /* agent_evaluated_instances: this iteration's, when some are left out */
    size_t evaluating_count, evaluating_cap;
    strmap archived;          /* --archive-history: the run's instance documents ... */
    bool archived_stale;      /* ... to be listed again (the instances changed) */
    bool retain_due;          /* instances left the run: incremental_retain once the iteration is done with them */
    strmap machine_reads; /* --notifications: what the state machines read in the last iteration (they are
                             evaluated in every iteration, so a change there is a reason to iterate): watched too */
    /* per iteration */
    store *wm;
    request *requests;
    size_t request_count, request_cap;
    doc_state *docs;
    size_t doc_count, doc_cap;
    strmap doc_index; /* resource -> index in docs */
    trace *trace;     /* --trace, or NULL */
    int64_t clock_ms; /* ldgsm:now, in milliseconds since the epoch */
    /* --incremental: the answers to the revalidations (incremental.h), for the crawl to take */
    strmap revalidated; /* resource -> index in revalidated_results */
    http_result *revalidated_results;
    const char **revalidated_etags; /* the tag each asked with (NULL: whether it is still absent); the
                                       incremental's strings, valid until note_evaluations */
    size_t revalidated_count;
    u64map retrying;  /* --metrics: the call records with a failed attempt (note_states), for send_batch */
    strmap instance_states; /* --metrics: instance -> 1 + its state's label index, kept while it is left out */
    size_t left_out;  /* instances this iteration leaves out */
    size_t evaluated; /* ... and evaluates (each instance once, however often it is listed) */
};

static long safety_poll_ms(const agent *a) {
    return a->opt.safety_poll_ms > 0 ? a->opt.safety_poll_ms : DEFAULT_SAFETY_POLL_MS;
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void add_fact(agent *a, term_id s, term_id p, term_id o, term_id g) {
    if (a->fact_count == a->fact_cap) {
        a->fact_cap = a->fact_cap ? a->fact_cap * 2 : 64;
        a->facts = xrealloc(a->facts, a->fact_cap * sizeof *a->facts);
    }
    a->facts[a->fact_count++] = (base_fact){{s, p, o}, g};
}

static term_id file_graph(terms *t, const char *path) {
    char *iri = rdf_file_iri(path);
    term_id g = terms_iri_cstr(t, iri);
    free(iri);
    return g;
}

/* Rules that read sentry results run after the sentries are evaluated (docs/DESIGN.md §1.2): those
 * reading ldgsm:holdsFor or what the argument queries' evaluation (arguments.h) asserts after the
 * sentries, and, to a fixpoint, those reading what such rules derive; rules with negation run there too,
 * since only then is what the crawl read closed (reason/strata.h). */
static void assign_strata(agent *a) {
    const term_id late[] = {a->v.holds_for, a->v.evaluated, a->v.arguments_problem};
    rule_set_assign_late_stratum(&a->rules, late, sizeof late / sizeof *late, AFTER_SENTRIES_STRATUM);
}

/* -1 with a message naming OPTION when one of the IRIs is not an http(s) URI. */
static int check_http_uris(char *const *iris, size_t count, const char *option, char *error, size_t error_len) {
    for (size_t i = 0; i < count; i++) {
        char *origin = http_url_origin(iris[i]);
        free(origin);
        if (!origin) {
            snprintf(error, error_len, "%s %s: not an http(s) URI", option, iris[i]);
            return -1;
        }
    }
    return 0;
}

/* `<urn:ldgsm:agent> PREDICATE <iri>` for each workflow the run was started on (ldgsm:instance for GSM,
 * ldgsm:machine for state machines); -1 with a message naming OPTION when one is not an http(s) URI. */
static int assert_workflows(agent *a, char *const *iris, size_t count, term_id predicate, const char *option,
                            char *error, size_t error_len) {
    if (check_http_uris(iris, count, option, error, error_len) != 0)
        return -1;
    for (size_t i = 0; i < count; i++)
        add_fact(a, a->v.agent, predicate, terms_iri_cstr(a->t, iris[i]), a->v.clock_graph);
    return 0;
}

static int load_program(agent *a, const char *path, char *error, size_t error_len) {
    size_t len;
    char *text = read_file(path, &len);
    if (!text) {
        snprintf(error, error_len, "%s: %s", path, strerror(errno));
        return -1;
    }
    term_id g = file_graph(a->t, path);
    n3_doc doc = {0};
    n3_error err;
    int rc = n3_parse(a->t, text, len, path, terms_lex(a->t, g, NULL), &doc, &err);
    free(text);
    if (rc != 0) {
        snprintf(error, error_len, "%s", err.message);
        return -1;
    }
    unsigned first = a->rules.count;
    rule_set_add_program(&a->rules, a->t, &doc, path, a->log);
    for (unsigned i = first; i < a->rules.count; i++)
        a->rules.rules[i]->is_request = request_rule_head(a->t, &a->v, a->rules.rules[i]->head_formula);
    for (size_t i = 0; i < doc.count; i++)
        if (!rule_statement(a->t, &doc.statements[i].t))
            add_fact(a, doc.statements[i].t.s, doc.statements[i].t.p, doc.statements[i].t.o, g);
    n3_doc_free(&doc);
    return 0;
}

static int load_input(agent *a, const char *path, char *error, size_t error_len) {
    store *tmp = store_new();
    rdf_error err;
    term_id g = file_graph(a->t, path);
    if (rdf_parse_file(a->io, tmp, path, g, &err) != 0) {
        snprintf(error, error_len, "%s", err.message);
        store_free(tmp);
        return -1;
    }
    for (uint32_t i = 0; i < store_size(tmp); i++) {
        const triple *tr = store_triple(tmp, i);
        add_fact(a, tr->s, tr->p, tr->o, g);
    }
    store_free(tmp);
    return 0;
}

oidc_session *agent_auth_start(const agent_options *o, const char *path, const log_sink *log, char *error,
                               size_t error_len) {
    size_t count = o->allow_origin_count ? o->allow_origin_count
                                         : o->instance_count + o->machine_count + o->instance_container_count;
    if (!count) { /* as --header without ORIGIN=: a token sent nowhere would only hide the mistake */
        snprintf(error, error_len, "--auth needs --allow-origin (or --instance, --machine, --instances-from) to say "
                                   "where the token goes");
        return NULL;
    }
    /* a core dump would hold the client secret and the tokens (ssh-agent refuses them too) */
    struct rlimit no_core = {0, 0};
    if (getrlimit(RLIMIT_CORE, &no_core) == 0) {
        no_core.rlim_cur = 0;
        setrlimit(RLIMIT_CORE, &no_core);
    }
    auth_credentials cred;
    if (auth_file_read(path, &cred, error, error_len) != 0)
        return NULL;
    const char **origins = xcalloc(count + 1, sizeof *origins);
    size_t n = 0;
    for (size_t i = 0; i < o->allow_origin_count; i++)
        origins[n++] = o->allow_origins[i];
    for (size_t i = 0; !o->allow_origin_count && i < o->instance_count; i++)
        origins[n++] = o->instances[i];
    for (size_t i = 0; !o->allow_origin_count && i < o->machine_count; i++)
        origins[n++] = o->machines[i];
    for (size_t i = 0; !o->allow_origin_count && i < o->instance_container_count; i++)
        origins[n++] = o->instance_containers[i];
    http_options hopt = http_options_default();
    hopt.log = log;
    if (o->connect_timeout_ms)
        hopt.connect_timeout_ms = o->connect_timeout_ms;
    if (o->timeout_ms)
        hopt.total_timeout_ms = o->timeout_ms;
    oidc_session *s = oidc_session_new(&cred, origins, n, &hopt, error, error_len);
    free(origins);
    return s;
}

agent *agent_new(const agent_options *options, const log_sink *log, char *error, size_t error_len) {
    agent *a = xcalloc(1, sizeof *a);
    a->opt = *options;
    a->log = log;
    a->ended_by_inspect = AGENT_GO_ON;
    a->gets = (get_outcomes){.remind = options->remind_iterations ? options->remind_iterations : DEFAULT_REMIND,
                             .log = log};
    if (!a->opt.out)
        a->opt.out = stdout;
    a->t = terms_new();
    a->io = rdfio_new(a->t);
    agent_vocab_init(&a->v, a->t);
    a->sentries = sentry_table_new(a->t, &a->v, log);
    a->views = views_new();
    a->arguments = arguments_new();
    a->answers = answers_new();
    a->doc_cache = doc_cache_new();
    if (options->incremental)
        a->incremental = incremental_new(safety_poll_ms(a));
    for (size_t i = 0; i < options->program_count; i++)
        if (load_program(a, options->programs[i], error, error_len) != 0)
            goto fail;
    for (size_t i = 0; i < options->input_count; i++)
        if (load_input(a, options->inputs[i], error, error_len) != 0)
            goto fail;
    if (options->reads_history)
        add_fact(a, a->v.agent, a->v.reads_history, T_TRUE, a->v.clock_graph);
    if (assert_workflows(a, options->instances, options->instance_count, a->v.instance, "--instance", error,
                         error_len) != 0 ||
        assert_workflows(a, options->machines, options->machine_count, a->v.wsm_machine, "--machine", error,
                         error_len) != 0)
        goto fail;
    if (check_http_uris(options->instance_containers, options->instance_container_count, "--instances-from", error,
                        error_len) != 0)
        goto fail;
    if (options->instance_container_count)
        a->discovery = discovery_new(options->instance_containers, options->instance_container_count,
                                     options->shard_index, options->shard_count, a->t, &a->v, log);
    long timeout_ms = options->timeout_ms ? options->timeout_ms : 10000;
    char duration[48];
    int len = snprintf(duration, sizeof duration, "PT%ld.%03ldS", timeout_ms / 1000, timeout_ms % 1000);
    a->default_timeout = terms_literal(a->t, duration, (size_t)len, terms_iri_cstr(a->t, NS_XSD "dayTimeDuration"),
                                       NULL, 0);
    rule_set_compile_backward(&a->rules, a->t, log);
    assign_strata(a);
    rule_set_layer_negation(&a->rules);
    http_options hopt = http_options_default();
    hopt.log = log;
    hopt.stop = options->stop;
    if (options->max_body)
        hopt.max_body_bytes = options->max_body;
    if (options->connect_timeout_ms)
        hopt.connect_timeout_ms = options->connect_timeout_ms;
    if (options->timeout_ms)
        hopt.total_timeout_ms = options->timeout_ms;
    a->http = http_client_new(&hopt);
    if (!a->http) {
        snprintf(error, error_len, "cannot start the HTTP client");
        goto fail;
    }
    for (size_t i = 0; i < options->header_count; i++) {
        const agent_header_option *h = &options->headers[i];
        if (h->origin) {
            const char *bad = http_client_add_origin_header(a->http, h->origin, h->name, h->value);
            if (bad) {
                snprintf(error, error_len, "--header %s=%s: %s", h->origin, h->name, bad);
                goto fail;
            }
            continue;
        }
        if (!options->allow_origin_count) {
            snprintf(error, error_len, "--header '%s: ...' without ORIGIN= needs --allow-origin to say where it goes",
                     h->name);
            goto fail;
        }
        for (size_t o = 0; o < options->allow_origin_count; o++)
            http_client_add_origin_header(a->http, options->allow_origins[o], h->name, h->value);
    }
    if (options->auth) {
        http_auth hook = oidc_session_hook(options->auth);
        http_client_set_auth(a->http, &hook);
    }
    if (options->trace_path && !(a->trace = trace_open(options->trace_path, log, error, error_len)))
        goto fail;
    if (options->notifications &&
        !(a->notifications = notifications_new(a->http, a->io, a->t, log, options->webhook, error, error_len)))
        goto fail;
    a->listing_of = xcalloc(options->instance_container_count + 1, sizeof *a->listing_of);
    a->listing_read_ms = xcalloc(options->instance_container_count + 1, sizeof *a->listing_read_ms);
    a->listing_unchanged = xcalloc(options->instance_container_count + 1, sizeof *a->listing_unchanged);
    for (size_t i = 0; i < options->instance_container_count; i++) {
        a->listing_of[i] = http_url_identity(options->instance_containers[i]);
        strmap_put(&a->listings, a->listing_of[i], 1, NULL);
    }
    a->archived_stale = true;
    a->lasting = terms_mark_now(a->t);
    return a;
fail:
    agent_free(a);
    return NULL;
}

static void clear_iteration(agent *a) {
    for (size_t i = 0; i < a->request_count; i++)
        request_free(&a->requests[i]);
    a->request_count = 0;
    for (size_t i = 0; i < a->doc_count; i++) {
        free(a->docs[i].resource);
        free(a->docs[i].etag);
        free(a->docs[i].parse_error);
        free(a->docs[i].storage_description);
        free(a->docs[i].groups);
        free(a->docs[i].group_sources);
        u64map_free(&a->docs[i].group_set);
    }
    free(a->docs);
    a->docs = NULL;
    a->doc_count = a->doc_cap = 0;
    strmap_free(&a->doc_index);
    store_free(a->wm);
    a->wm = NULL;
    for (size_t i = 0; i < a->revalidated_count; i++)
        http_result_free(&a->revalidated_results[i]);
    free(a->revalidated_results);
    free(a->revalidated_etags);
    a->revalidated_results = NULL;
    a->revalidated_etags = NULL;
    a->revalidated_count = 0;
    strmap_free(&a->revalidated);
    a->left_out = a->evaluated = 0;
}

void agent_free(agent *a) {
    if (!a)
        return;
    clear_iteration(a);
    free(a->requests);
    get_outcomes_free(&a->gets);
    strmap_free(&a->warned_origins);
    strmap_free(&a->write_turns);
    strmap_free(&a->patch_refused);
    identity_cache_free(&a->identities);
    sentry_table_free(a->sentries);
    views_free(a->views);
    arguments_free(a->arguments);
    answers_free(a->answers);
    doc_cache_free(a->doc_cache);
    incremental_free(a->incremental);
    notifications_free(a->notifications);
    strmap_free(&a->listings);
    for (size_t i = 0; a->listing_of && i < a->opt.instance_container_count; i++)
        free(a->listing_of[i]);
    free(a->listing_of);
    free(a->listing_read_ms);
    free(a->listing_unchanged);
    free(a->evaluating);
    strmap_free(&a->archived);
    strmap_free(&a->machine_reads);
    strmap_free(&a->waits);
    u64map_free(&a->retrying);
    strmap_free(&a->instance_states);
    discovery_free(a->discovery);
    free(a->instances);
    http_client_free(a->http);
    rule_set_free(&a->rules);
    free(a->facts);
    rdfio_free(a->io);
    terms_free(a->t);
    trace_close(a->trace);
    free(a);
}

static void on_request(void *user, const rule *r, const triple *head, size_t n) {
    agent *a = user;
    if (sentry_table_owns(a->sentries, r)) { /* an argument query's solution */
        arguments_take(a->arguments, a->t, &a->v, terms_formula(a->t, head, n));
        return;
    }
    request_extract(a->t, &a->v, a->wm, head, n, r, a->log, &a->identities, &a->requests, &a->request_count,
                    &a->request_cap);
}

/* ldgsm:now of this iteration (and a->clock_ms), asserted after the base facts. */
static term_id read_clock(agent *a) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    char stamp[40];
    int n = snprintf(stamp, sizeof stamp, "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ", tm.tm_year + 1900, tm.tm_mon + 1,
                     tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000000);
    a->clock_ms = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
    return terms_literal(a->t, stamp, (size_t)n, T_XSD_DATETIME, NULL, 0);
}

static get_env get_env_of(agent *a) {
    return (get_env){.t = a->t, .v = &a->v, .wm = a->wm, .io = a->io, .cache = a->doc_cache, .iteration = a->iteration,
                     .read_wait_ms = a->opt.read_wait_ms, .patch = a->opt.patch, .patch_refused = &a->patch_refused};
}

static doc_state *find_doc(agent *a, const char *resource) {
    const uint32_t *i = strmap_get(&a->doc_index, resource);
    return i ? &a->docs[*i] : NULL;
}

/* The per-request log line, at -v only (a person acts on what failed, said by its own lines); with -v it
 * names the rules that asked. Every request the agent makes passes here, so it is counted here too. */
static void log_request(agent *a, const char *method, const char *url, const http_result *res, const char *rules) {
    if (a->opt.metrics)
        agent_metrics_request(a->opt.metrics, method, res->failure == HTTP_FAIL_NONE ? res->status : 0);
    char outcome[80];
    if (res->failure != HTTP_FAIL_NONE)
        snprintf(outcome, sizeof outcome, "failed (%s)", http_failure_name(res->failure));
    else
        snprintf(outcome, sizeof outcome, "%ld%s", res->status, res->late ? " (sent in an earlier iteration)" : "");
    const char *failure = res->failure != HTTP_FAIL_NONE ? http_failure_name(res->failure) : NULL;
    const log_field fields[] = {LOG_TEXT("method", method), LOG_TEXT("url", url),
                                failure ? LOG_TEXT("failure", failure) : LOG_NUMBER("status", res->status),
                                LOG_NUMBER("ms", res->elapsed_us / 1000.0), LOG_TEXT("rules", rules)};
    size_t field_count = sizeof fields / sizeof *fields - !(a->opt.verbose && rules);
    if (a->opt.verbose && rules)
        log_event(a->log, LOG_DEBUG, "request", NULL, fields, field_count, "%s %s %s %.1f ms (rule %s)", method,
                  url, outcome, res->elapsed_us / 1000.0, rules);
    else
        log_event(a->log, LOG_DEBUG, "request", NULL, fields, field_count, "%s %s %s %.1f ms", method, url,
                  outcome, res->elapsed_us / 1000.0);
}

static const char *etag_of(void *user, term_id graph) {
    agent *a = user;
    const doc_state *doc = graph ? find_doc(a, terms_lex(a->t, graph, NULL)) : NULL;
    return doc ? doc->etag : NULL;
}

/* A GET derived after the sentries were evaluated would change what they saw: a stratification error,
 * reported and not made. */
static void report_late_gets(agent *a, size_t scanned) {
    for (size_t i = scanned; i < a->request_count; i++) {
        const request *r = &a->requests[i];
        if (r->kind == REQUEST_SAFE && !find_doc(a, r->resource))
            get_report_once(&a->gets, a->iteration, r->resource,
                            "asked for by a rule that reads sentry results (a stratification error): not fetched",
                            r->rule ? r->rule->name : NULL);
    }
}

/* A GET of resource as the agent reads documents: RDF wanted, If-None-Match etag (NULL: none), waited for
 * at most --read-wait, and not at all while an earlier read of it goes unanswered (the healthy reads do not
 * pay for a hang). headers (two) are filled for it. */
static http_request read_request(agent *a, const char *resource, const char *etag, http_header headers[2]) {
    headers[0] = (http_header){"Accept", rdf_accept_header()};
    headers[1] = (http_header){"If-None-Match", etag};
    long wait_ms = !a->opt.read_wait_ms                        ? 0
                   : get_unanswered(&a->gets, resource) ? HTTP_NO_WAIT
                                                             : a->opt.read_wait_ms;
    return (http_request){.method = "GET", .url = resource, .headers = headers, .header_count = etag ? 2 : 1,
                          .wait_ms = wait_ms};
}

/* Moves into *out the answer a revalidation brought for resource, for the crawl to take instead of a GET of
 * its own; false when there is none, or it is a 304 for a tag other than the one the document cache holds
 * (which the cache cannot answer). The caller frees *out. */
static bool take_revalidated(agent *a, const char *resource, http_result *out) {
    const uint32_t *i = a->revalidated_count ? strmap_get(&a->revalidated, resource) : NULL;
    if (!i)
        return false;
    http_result *res = &a->revalidated_results[*i];
    const char *held = doc_cache_etag(a->doc_cache, resource), *asked = a->revalidated_etags[*i];
    if (res->failure == HTTP_FAIL_NONE && res->status == 304 && !(held && asked && strcmp(held, asked) == 0))
        return false;
    *out = *res;
    *res = (http_result){0};
    return true;
}

/* --notifications: resource was read in state etag (by GET, or on a channel's word; storage_description as
 * notifications_read takes it): a channel is made for it if it has none, and the instances' bookkeeping
 * learns whether one vouches for it now. */
static void read_with_channel(agent *a, const char *resource, const char *etag, const char *storage_description) {
    notifications_read(a->notifications, resource, etag, storage_description);
    if (a->incremental)
        incremental_watch(a->incremental, resource, notifications_vouches(a->notifications, resource, etag));
}

static void channel_unvouched(void *user, const char *resource) {
    agent *a = user;
    if (a->incremental)
        incremental_watch(a->incremental, resource, false);
}

/* --notifications: when a live channel vouches that resource is still in the state the document cache
 * holds (held), *out is the 304 a GET would have brought, without the GET. With --incremental, not when
 * its safety poll is due (incremental.h): a notification may have been lost on a channel still open.
 * (`ldgsm status --watch` has notifications without --incremental: it reads everything every MS.) */
static bool vouched_held(agent *a, const char *resource, const char *held, http_result *out) {
    if (!a->notifications || !held ||
        !(a->incremental ? incremental_vouches(a->incremental, resource, held)
                         : notifications_vouches(a->notifications, resource, held)))
        return false;
    *out = (http_result){.status = 304, .etag = xstrndup(held, strlen(held)), .etag_kind = HTTP_ETAG_STRONG};
    return true;
}

/* GETs every resource asked for and not yet fetched this iteration, in one parallel batch (but those a
 * revalidation answered already, or a channel vouches for); returns how many documents it took in. */
static size_t fetch_new(agent *a, size_t *scanned, iteration_stats *stats) {
    size_t first_doc = a->doc_count, first_request = *scanned;
    const get_env env = get_env_of(a);
    for (; *scanned < a->request_count; (*scanned)++) {
        const request *r = &a->requests[*scanned];
        if (r->kind != REQUEST_SAFE || strcmp(r->method, "GET") != 0)
            continue;
        doc_state *known = find_doc(a, r->resource);
        if (known) {
            stats->gets_failed += get_note_asker(a->t, known, r);
            get_assert_read_failure(&env, r, known);
            continue;
        }
        strmap_put(&a->doc_index, r->resource, (uint32_t)a->doc_count, NULL);
        if (a->doc_count == a->doc_cap) {
            a->doc_cap = a->doc_cap ? a->doc_cap * 2 : 16;
            a->docs = xrealloc(a->docs, a->doc_cap * sizeof *a->docs);
        }
        a->docs[a->doc_count++] = (doc_state){.resource = xstrndup(r->resource, strlen(r->resource)),
                                              .graph = terms_iri_cstr(a->t, r->resource),
                                              .asked_by = r->rule ? r->rule->name : NULL};
        get_note_asker(a->t, &a->docs[a->doc_count - 1], r);
    }
    size_t count = a->doc_count - first_doc;
    if (!count)
        return 0;
    http_request *reqs = xcalloc(count, sizeof *reqs);
    http_result *results = xcalloc(count, sizeof *results);
    http_header(*headers)[2] = xcalloc(count, sizeof *headers);
    bool *sent = xcalloc(count, sizeof *sent);
    size_t send_count = 0;
    for (size_t i = 0; i < count; i++) {
        const char *resource = a->docs[first_doc + i].resource, *held = doc_cache_etag(a->doc_cache, resource);
        if (take_revalidated(a, resource, &results[i]))
            continue;
        if (vouched_held(a, resource, held, &results[i])) {
            a->docs[first_doc + i].vouched = true;
            continue;
        }
        sent[i] = true;
        reqs[send_count] = read_request(a, resource, held, headers[send_count]);
        send_count++;
    }
    http_result *answers = xcalloc(send_count ? send_count : 1, sizeof *answers);
    http_run(a->http, reqs, send_count, answers);
    for (size_t i = 0, k = 0; i < count; i++) {
        if (sent[i]) {
            results[i] = answers[k];
            log_request(a, "GET", reqs[k].url, &results[i], a->docs[first_doc + i].asked_by);
            k++;
        }
        get_take_result(&a->gets, &env, &a->docs[first_doc + i], &results[i], stats);
        if (a->notifications && results[i].status / 100 == 2)
            a->docs[first_doc + i].storage_description =
                http_result_link(&results[i], a->docs[first_doc + i].resource, NS_SOLID "storageDescription");
        trace_get(a->trace, &a->docs[first_doc + i], &results[i]);
        if (a->docs[first_doc + i].failed)
            stats->gets_failed++;
        http_result_free(&results[i]);
    }
    for (size_t i = first_request; i < *scanned; i++) {
        const request *r = &a->requests[i];
        const doc_state *doc = r->kind == REQUEST_SAFE ? find_doc(a, r->resource) : NULL;
        if (doc && doc >= &a->docs[first_doc])
            get_assert_read_failure(&env, r, doc);
    }
    stats->gets += (unsigned)send_count;
    free(answers);
    free(sent);
    free(headers);
    free(reqs);
    free(results);
    return count;
}


/* --incremental, before anything is asserted: the conditional GETs of the documents of the instances that
 * may be left out (incremental.h), in one parallel batch, and which ones are. The answers stay for the
 * crawl, which takes a changed document's body from here rather than reading it again. */
static void revalidate(agent *a, iteration_stats *stats) {
    size_t count;
    const revalidation *asked = incremental_begin(a->incremental, a->clock_ms, &count);
    if (count) {
        http_request *reqs = xcalloc(count, sizeof *reqs);
        http_header(*headers)[2] = xcalloc(count, sizeof *headers);
        a->revalidated_results = xcalloc(count, sizeof *a->revalidated_results);
        a->revalidated_etags = xcalloc(count, sizeof *a->revalidated_etags);
        a->revalidated_count = count;
        for (size_t i = 0; i < count; i++) {
            /* one unanswered by --read-wait counts as changed */
            reqs[i] = read_request(a, asked[i].resource, asked[i].etag, headers[i]);
            a->revalidated_etags[i] = asked[i].etag;
            strmap_put(&a->revalidated, asked[i].resource, (uint32_t)i, NULL);
        }
        http_run(a->http, reqs, count, a->revalidated_results);
        for (size_t i = 0; i < count; i++) {
            const http_result *res = &a->revalidated_results[i];
            log_request(a, "GET", reqs[i].url, res, NULL);
            bool answered = res->failure == HTTP_FAIL_NONE;
            bool same_tag = res->status / 100 == 2 && res->etag_kind == HTTP_ETAG_STRONG && asked[i].etag &&
                            strcmp(res->etag, asked[i].etag) == 0;
            bool unchanged = answered && (asked[i].etag ? res->status == 304 || same_tag
                                                        : res->status == 404 || res->status == 410);
            incremental_revalidated(a->incremental, asked[i].resource, unchanged);
            if (unchanged && a->notifications)
                read_with_channel(a, asked[i].resource, asked[i].etag, NULL);
            trace_revalidation(a->trace, asked[i].resource, res, unchanged);
        }
        stats->gets += (unsigned)count;
        free(headers);
        free(reqs);
    }
    a->left_out = incremental_decide(a->incremental);
}

/* The state incremental_note takes of doc: true with *etag its strong ETag, or NULL when it is absent (a
 * 404 or a 410); false when no revalidation can tell whether it changed. */
static bool revalidatable(const doc_state *doc, const char **etag) {
    *etag = NULL;
    if (doc->failed || doc->unparsable)
        return false;
    if (doc->found) {
        *etag = doc->etag_kind == HTTP_ETAG_STRONG ? doc->etag : NULL;
        return *etag != NULL;
    }
    return doc->read && (doc->status == 404 || doc->status == 410);
}

static uint32_t slot_in(const u64map *slots, term_id key) {
    const uint32_t *slot = key ? u64map_get(slots, key) : NULL;
    return slot ? *slot : 0;
}

/* --incremental, once the rules are done: notes every instance this iteration evaluated (incremental.h).
 * An instance is quiet when no unsafe request of its group was derived and none of its reads failed or can
 * go unrevalidated, and none of its sentries reads the clock; its wake time is a millisecond after the
 * earliest of its `ldgsm:wakeAt` times from this iteration's clock on (a call waiting for its answer needs
 * none of its own: its task is answered, or fails, within the iteration that sends it, which also writes
 * the instance's document; its deadline is a wake time). What cannot be told apart by instance (a request, a read, a
 * clock-reading sentry or a wake time of no instance's group, an invalid sentry met, which withholds every
 * write, an iteration that could not run to its end) counts for every instance; so does every read when
 * programs of the user's run beside the shipped rules (their rules may join any documents). Not what the
 * state machines (evaluated in every iteration) ask for, nor the reads --instances-from makes to find
 * instances (a new member is a new instance). */
static void note_evaluations(agent *a, int rc) {
    size_t n;
    const char *const *evaluated = agent_evaluated_instances(a, &n);
    u64map slot_of = {0}; /* an evaluated instance's term -> 1 + its first index; a state machine's -> n + 1 */
    for (size_t k = 0; k < n; k++) {
        bool first;
        u64map_put(&slot_of, terms_iri_cstr(a->t, evaluated[k]), (uint32_t)k + 1, &first);
        a->evaluated += first;
    }
    for (size_t k = 0; k < a->opt.machine_count; k++)
        u64map_put(&slot_of, terms_iri_cstr(a->t, a->opt.machines[k]), (uint32_t)n + 1, NULL);
    /* slot n: the machines' (not looked at) */
    bool *loud = xcalloc(n + 1, sizeof *loud), everyone_loud = rc != 0 || sentry_table_invalid(a->sentries);
    int64_t *wake = xcalloc(n + 1, sizeof *wake), everyone_wake = INT64_MAX;
    for (size_t k = 0; k <= n; k++)
        wake[k] = INT64_MAX;
    u32vec *reads = xcalloc(n + 1, sizeof *reads), everyone_reads = {0};
    for (size_t i = 0; i < a->request_count; i++) {
        if (a->requests[i].kind == REQUEST_SAFE)
            continue;
        uint32_t slot = slot_in(&slot_of, a->requests[i].group);
        if (slot)
            loud[slot - 1] = true;
        else
            everyone_loud = true;
    }
    for (size_t d = 0; d < a->doc_count; d++) {
        const doc_state *doc = &a->docs[d];
        const char *etag;
        bool known = revalidatable(doc, &etag), everyones = doc->asked_ungrouped || a->opt.own_programs;
        for (size_t g = 0; g < doc->group_count; g++) {
            uint32_t slot = slot_in(&slot_of, doc->groups[g]);
            if (!slot) {
                everyones |= !a->discovery || !discovery_reads(a->discovery, doc->groups[g]);
                continue;
            }
            u32vec_push(&reads[slot - 1], (uint32_t)d);
            loud[slot - 1] |= !known;
        }
        if (everyones) {
            u32vec_push(&everyone_reads, (uint32_t)d);
            everyone_loud |= !known;
        }
    }
    term_id *clock_readers;
    size_t clock_reader_count = sentry_table_clock_readers(a->sentries, &clock_readers);
    store_iter it;
    uint32_t tn;
    for (size_t c = 0; c < clock_reader_count; c++) {
        bool served = false;
        store_match(a->wm, clock_readers[c], a->v.serves, 0, 0, store_size(a->wm), &it);
        for (const triple *tr; (tr = store_next(&it, &tn)); served = true) {
            uint32_t slot = slot_in(&slot_of, tr->o);
            if (slot)
                loud[slot - 1] = true;
        }
        everyone_loud |= !served;
    }
    free(clock_readers);
    /* a rule of the user's may compare the clock without deriving a wake time: every instance is evaluated
     * at least once a safety poll then (the shipped rules derive one for each deadline and timeout) */
    if (a->opt.own_programs)
        everyone_wake = a->clock_ms + safety_poll_ms(a);
    store_match(a->wm, 0, a->v.wake_at, 0, 0, store_size(a->wm), &it);
    for (const triple *tr; (tr = store_next(&it, &tn));) {
        xsd_time at;
        if (!xsd_time_from_term(a->t, tr->o, &at) || at.kind != XSD_DATETIME || at.ms < a->clock_ms)
            continue; /* passed: this iteration acted on it (the rules compare ?due math:lessThan ?now) */
        /* the rules act once the clock is past it: a wake at the time itself (a wait of exactly the time left
         * mostly ends within that millisecond) acted on nothing, found no wake to come, and slept --interval,
         * a minute with --notifications */
        uint32_t slot = slot_in(&slot_of, tr->s);
        int64_t *earliest = slot ? &wake[slot - 1] : &everyone_wake;
        if (at.ms + 1 < *earliest)
            *earliest = at.ms + 1;
    }
    const char **names = NULL, **etags = NULL;
    bool *fetched = NULL;
    size_t cap = 0;
    for (size_t k = 0; k < n; k++) {
        if (slot_in(&slot_of, terms_iri_cstr(a->t, evaluated[k])) != k + 1)
            continue; /* listed before */
        size_t count = everyone_reads.len + reads[k].len;
        if (count > cap) {
            cap = count;
            names = xrealloc(names, cap * sizeof *names);
            etags = xrealloc(etags, cap * sizeof *etags);
            fetched = xrealloc(fetched, cap * sizeof *fetched);
        }
        for (size_t i = 0; i < count; i++) {
            const doc_state *doc = &a->docs[i < everyone_reads.len ? everyone_reads.data[i]
                                                                     : reads[k].data[i - everyone_reads.len]];
            names[i] = doc->resource;
            revalidatable(doc, &etags[i]);
            fetched[i] = !doc->vouched;
        }
        incremental_note(a->incremental, evaluated[k], !everyone_loud && !loud[k],
                         wake[k] < everyone_wake ? wake[k] : everyone_wake, names, etags, fetched, count);
    }
    for (size_t k = 0; k <= n; k++)
        u32vec_free(&reads[k]);
    u32vec_free(&everyone_reads);
    free(reads);
    free(names);
    free(etags);
    free(fetched);
    free(loud);
    free(wake);
    u64map_free(&slot_of);
    /* instances that left the run are forgotten at the iteration's end (what it evaluated is named by the
     * table's strings until then); instances leave only through --instances-from */
    a->retain_due = a->discovery && discovery_some_left(a->discovery);
}

static void print_write(FILE *out, const planned_write *w) {
    fprintf(out, "%s %s%s%s\n", w->method, w->url, w->is_task ? "  (task after " : "", w->is_task ? w->after : "");
    if (w->is_task)
        fputs(")\n", out);
    for (size_t h = 0; h < w->header_count; h++)
        fprintf(out, "%s: %s\n", w->headers[h].name, w->headers[h].value);
    if (w->body.len)
        fprintf(out, "\n%.*s\n", (int)w->body.len, w->body.data);
    fputs("\n", out);
}

static answer_env answer_env_of(agent *a) {
    return (answer_env){.t = a->t, .v = &a->v, .wm = a->wm, .io = a->io, .log = a->log, .sentries = a->sentries};
}

/* Says what the rules say an instance waits for or suffered, one line per subject and cause: when it
 * appears, and again every --remind iterations while it lasts, so that nothing waits silently and a
 * long wait is not a line per poll. `ldgsm:heldBecause` (its writes are held), `ldgsm:waitsBecause` (it
 * cannot go on) and `ldgsm:incident` (a failure it lives with) are the three kinds. */
static void report_waits(agent *a) {
    static const char *const kinds[] = {"held", "waiting", "incident"};
    const term_id predicates[] = {a->v.held_because, a->v.waits_because, a->v.incident};
    unsigned long remind = a->gets.remind;
    strmap now = {0};
    strmap subjects[2];               /* the held and the waiting instances, for the metrics */
    memset(subjects, 0, sizeof subjects);
    unsigned waiting = 0;
    uint64_t distinct[2] = {0, 0};
    for (int k = 0; k < 3; k++) {
        store_iter it;
        store_match(a->wm, 0, predicates[k], 0, 0, store_size(a->wm), &it);
        uint32_t n;
        for (const triple *tr; (tr = store_next(&it, &n));) {
            if (terms_kind(a->t, tr->o) != TERM_LITERAL)
                continue;
            buf key = {0};
            buf_printf(&key, "%s\t%s\t%s", kinds[k], terms_lex(a->t, tr->s, NULL), terms_lex(a->t, tr->o, NULL));
            const uint32_t *said = strmap_get(&a->waits, key.data);
            uint32_t said_at = said ? *said : (uint32_t)a->iteration;
            if (!said || a->iteration - said_at >= remind) {
                const char *subject = terms_lex(a->t, tr->s, NULL), *cause = terms_lex(a->t, tr->o, NULL);
                log_event(a->log, LOG_WARN, kinds[k], subject, LOG_FIELDS(LOG_TEXT("cause", cause)), "%s: <%s>: %s",
                          kinds[k], subject, cause);
                said_at = (uint32_t)a->iteration;
            }
            strmap_put(&now, key.data, said_at, NULL);
            waiting += k < 2;
            if (a->opt.metrics && k < 2) {
                bool first;
                strmap_put(&subjects[k], terms_lex(a->t, tr->s, NULL), 0, &first);
                distinct[k] += first;
            }
            buf_free(&key);
        }
    }
    strmap_free(&a->waits);
    a->waits = now;
    a->waiting = waiting;
    if (a->opt.metrics) {
        metric_set(&a->opt.metrics->held_instances, distinct[0]);
        metric_set(&a->opt.metrics->waiting_instances, distinct[1]);
    }
    strmap_free(&subjects[0]);
    strmap_free(&subjects[1]);
}

/* --metrics: an iteration's end, with its phases' durations. */
static void note_iteration(agent_metrics *m, const iteration_stats *stats, int rc) {
    metric_add(rc == 0 ? &m->iterations : &m->iterations_held, 1);
    metric_observe(&m->iteration_seconds, stats->elapsed_ms / 1e3);
    const double phase_ms[PHASE_COUNT] = {stats->crawl_ms, stats->sentries_ms, stats->later_rules_ms, stats->plan_ms,
                                          stats->send_ms};
    for (size_t p = 0; p < PHASE_COUNT; p++)
        metric_observe(&m->phase_seconds[p], phase_ms[p] / 1e3);
}

/* The local name of an IRI (after its last '#' or '/'). */
static const char *local_name(terms *t, term_id iri) {
    const char *text = terms_lex(t, iri, NULL), *hash = strrchr(text, '#'), *slash = strrchr(text, '/');
    return hash ? hash + 1 : slash ? slash + 1 : text;
}

/* --metrics: the gauges of what this iteration read (agent_metrics.h note 1): each instance's state (an
 * instance left out keeps the one it was last evaluated with), the call records by state; and the calls
 * with a failed attempt, whose attempt send_batch counts as a retry. */
static void note_states(agent *a) {
    agent_metrics *m = a->opt.metrics;
    uint64_t instances[INSTANCE_STATES] = {0}, calls[CALL_STATES] = {0};
    strmap states = {0};
    for (size_t i = 0; i < a->instance_count; i++) {
        uint32_t label;
        const uint32_t *kept = strmap_get(&a->instance_states, a->instances[i]);
        if (kept && !agent_instance_evaluated(a, a->instances[i])) {
            label = *kept - 1;
        } else {
            term_id state = store_first_object(a->wm, terms_iri_cstr(a->t, a->instances[i]), a->v.has_state);
            label = (uint32_t)agent_metrics_instance_state(state ? local_name(a->t, state) : "unread");
        }
        instances[label]++;
        strmap_put(&states, a->instances[i], label + 1, NULL);
    }
    strmap_free(&a->instance_states);
    a->instance_states = states;
    store_iter it;
    store_match(a->wm, 0, a->v.call_state, 0, 0, store_size(a->wm), &it);
    uint32_t n;
    for (const triple *tr; (tr = store_next(&it, &n));)
        calls[agent_metrics_call_state(local_name(a->t, tr->o))]++;
    for (size_t i = 0; i < INSTANCE_STATES; i++)
        metric_set(&m->instances[i], instances[i]);
    for (size_t i = 0; i < CALL_STATES; i++)
        metric_set(&m->calls[i], calls[i]);
    u64map_free(&a->retrying);
    a->retrying = (u64map){0};
    store_match(a->wm, 0, a->v.failed_attempt, 0, 0, store_size(a->wm), &it);
    for (const triple *tr; (tr = store_next(&it, &n));)
        u64map_put(&a->retrying, tr->s, 1, NULL);
}

/* Calls the status documents show waiting for an answer or a deadline. */
static unsigned count_calling(agent *a) {
    return store_count(a->wm, 0, a->v.call_state, a->v.calling, 0, store_size(a->wm));
}

/* A server that advertised N3 Patch but refuses one the agent composed (it does not take them after
 * all, or cannot apply this one) gets whole documents from then on: the next iteration derives the same
 * update again and PUTs it. A 412 is no refusal: another writer came first. */
static void refuse_patching(agent *a, const planned_write *w, const http_result *res) {
    if (!w->composed || strcmp(w->method, "PATCH") != 0 || res->failure != HTTP_FAIL_NONE || res->status == 412 ||
        res->status < 400 || res->status >= 600 || (res->status >= 500 && res->status != 501))
        return;
    bool first;
    strmap_put(&a->patch_refused, w->doc, 1, &first);
    if (first)
        log_msg(a->log, LOG_WARN, "PATCH %s answered %ld: its updates are sent as PUT of the whole document "
                "from now on", w->url, res->status);
}

/* A composed write that returned 2xx with a strong ETag: the document is now what it wrote (a PUT, or a
 * PATCH made under a condition on the state that was read), so the next read need not parse it. */
static void keep_written(agent *a, const planned_write *w, const http_result *res) {
    bool conditional = false;
    for (size_t h = 0; h < w->header_count; h++)
        conditional |= strcasecmp(w->headers[h].name, "If-Match") == 0 ||
                       strcasecmp(w->headers[h].name, "If-None-Match") == 0;
    if (!w->composed || res->etag_kind != HTTP_ETAG_STRONG || (strcmp(w->method, "PUT") != 0 && !conditional))
        return;
    const doc_state *read = find_doc(a, w->doc);
    doc_cache_keep_written(a->doc_cache, a->t, w->doc, res->etag, res->final_url ? res->final_url : w->url,
                           read && read->takes_n3_patch, w->document, w->document_count);
}

/* Whether w may create or delete its document (and so change its container's members): a DELETE, or a write
 * not conditional on the document's ETag (If-Match: it exists, and stays). */
static bool may_change_membership(const planned_write *w) {
    if (strcmp(w->method, "DELETE") == 0)
        return true;
    for (size_t h = 0; h < w->header_count; h++)
        if (strcasecmp(w->headers[h].name, "If-Match") == 0)
            return false;
    return true;
}

/* Sends ws[0..n) in parallel; ok[i] says which returned 2xx. Answers asked for are kept for the rules.
 * Returns the failures. */
static unsigned send_batch(agent *a, planned_write *ws, size_t n, bool *ok, unsigned *sent) {
    if (!n)
        return 0;
    http_request *reqs = xcalloc(n, sizeof *reqs);
    http_result *results = xcalloc(n, sizeof *results);
    const char ***keep = xcalloc(n, sizeof *keep); /* the headers each one's results read */
    for (size_t i = 0; i < n; i++) {
        size_t kept = ws[i].results ? results_headers(a->t, a->wm, &a->v, ws[i].results, &keep[i]) : 0;
        reqs[i] = (http_request){.method = ws[i].method, .url = ws[i].url, .headers = ws[i].headers,
                                 .header_count = ws[i].header_count, .body = ws[i].body.data,
                                 .body_len = ws[i].body.len, .send_when_stopping = ws[i].is_task,
                                 .repeatable = ws[i].repeatable,
                                 .timeout_ms = ws[i].timeout_ms, .keep_headers = keep[i], .keep_header_count = kept};
    }
    http_run(a->http, reqs, n, results);
    const answer_env env = answer_env_of(a);
    unsigned failed = 0;
    for (size_t i = 0; i < n; i++) {
        const http_result *res = &results[i];
        log_request(a, ws[i].method, ws[i].url, res, ws[i].why);
        ok[i] = res->failure == HTTP_FAIL_NONE && res->status >= 200 && res->status < 300;
        answers_record(a->answers, &env, &ws[i], res);
        if (res->failure != HTTP_FAIL_STOPPED && res->failure != HTTP_FAIL_INVALID) {
            (*sent)++;
            if (a->opt.metrics && ws[i].report_to && ws[i].called_at && u64map_get(&a->retrying, ws[i].report_to))
                metric_add(&a->opt.metrics->retries, 1);
            if (a->notifications)
                notifications_wrote(a->notifications, ws[i].url, may_change_membership(&ws[i]), channel_unvouched, a);
        }
        if (ok[i]) {
            keep_written(a, &ws[i], res);
            trace_sent(a->trace, &ws[i], res, NULL);
            continue;
        }
        failed++;
        refuse_patching(a, &ws[i], res);
        buf why = {0}; /* logged and traced */
        if (res->failure == HTTP_FAIL_NONE && res->status == 412)
            buf_puts(&why, "412, another writer changed it first; the next iteration decides again");
        else if (res->failure == HTTP_FAIL_TIMEOUT || res->failure == HTTP_FAIL_RESET)
            buf_printf(&why, "outcome unknown (%s)", http_failure_name(res->failure));
        else if (res->failure == HTTP_FAIL_NONE && res->status == 401)
            buf_printf(&why, "answered 401, %s (rules %s)",
                       a->opt.auth ? "the server refused the credentials of --auth"
                               : "the server wants authentication (ldgsm run --auth FILE)", ws[i].why);
        else if (res->failure == HTTP_FAIL_NONE)
            buf_printf(&why, "answered %ld (rules %s)", res->status, ws[i].why);
        else
            buf_printf(&why, "failed: %s", res->message);
        log_event(a->log, LOG_WARN, "write_failed", NULL,
                  LOG_FIELDS(LOG_TEXT("method", ws[i].method), LOG_TEXT("url", ws[i].url),
                             LOG_NUMBER("status", res->failure == HTTP_FAIL_NONE ? res->status : 0),
                             LOG_TEXT("why", buf_cstr(&why))),
                  "%s %s: %s", ws[i].method, ws[i].url, buf_cstr(&why));
        trace_sent(a->trace, &ws[i], res, why.data);
        buf_free(&why);
    }
    for (size_t i = 0; i < n; i++) {
        http_result_free(&results[i]);
        free(keep[i]);
    }
    free(keep);
    free(reqs);
    free(results);
    return failed;
}

static void send_plan(agent *a, plan *p, iteration_stats *stats) {
    if (a->opt.dry_run) {
        for (size_t i = 0; i < p->archive_count; i++) {
            print_write(a->opt.out, &p->archives[i]);
            trace_unsent(a->trace, &p->archives[i], "dry-run", NULL);
        }
        for (size_t i = 0; i < p->write_count; i++) {
            print_write(a->opt.out, &p->writes[i]);
            trace_unsent(a->trace, &p->writes[i], "dry-run", NULL);
        }
        for (size_t i = 0; i < p->task_count; i++) {
            print_write(a->opt.out, &p->tasks[i]);
            trace_unsent(a->trace, &p->tasks[i], "dry-run", NULL);
        }
        fflush(a->opt.out);
        return;
    }
    /* --archive-history: the archives first; a write that drops entries goes only behind its archive's 2xx
     * (archive.h), else it is withheld and the entries stay */
    bool *archived = xcalloc(p->archive_count + 1, sizeof *archived);
    stats->failed += send_batch(a, p->archives, p->archive_count, archived, &stats->sent);
    size_t kept = 0;
    for (size_t w = 0; w < p->write_count; w++) {
        size_t first = p->writes[w].archive_first;
        if (!first || archived[first - 1]) {
            planned_write keep = p->writes[w];
            p->writes[w] = p->writes[kept];
            p->writes[kept++] = keep;
            continue;
        }
        buf why = {0};
        buf_printf(&why, "its history could not be moved to %s; it stays in the document", p->archives[first - 1].url);
        log_event(a->log, LOG_WARN, "withheld", NULL,
                  LOG_FIELDS(LOG_TEXT("method", p->writes[w].method), LOG_TEXT("url", p->writes[w].url),
                             LOG_TEXT("why", why.data)),
                  "%s %s withheld: %s", p->writes[w].method, p->writes[w].url, why.data);
        trace_unsent(a->trace, &p->writes[w], "withheld", why.data);
        stats->withheld++;
        buf_free(&why);
    }
    free(archived);
    bool *ok = xcalloc(p->write_count + 1, sizeof *ok);
    stats->failed += send_batch(a, p->writes, kept, ok, &stats->sent);
    /* tasks go only behind a composed write that returned 2xx */
    planned_write *ready = xcalloc(p->task_count + 1, sizeof *ready);
    size_t ready_count = 0;
    for (size_t t = 0; t < p->task_count; t++) {
        bool write_ok = false;
        for (size_t w = 0; w < p->write_count; w++)
            write_ok |= ok[w] && p->writes[w].composed && strcmp(p->writes[w].doc, p->tasks[t].after) == 0;
        if (write_ok) {
            ready[ready_count++] = p->tasks[t];
            continue;
        }
        buf why = {0};
        buf_printf(&why, "the write to %s it waits for did not succeed", p->tasks[t].after);
        log_event(a->log, LOG_WARN, "withheld", NULL,
                  LOG_FIELDS(LOG_TEXT("method", p->tasks[t].method), LOG_TEXT("url", p->tasks[t].url),
                             LOG_TEXT("why", why.data)),
                  "%s %s withheld: %s", p->tasks[t].method, p->tasks[t].url, why.data);
        trace_unsent(a->trace, &p->tasks[t], "withheld", why.data);
        buf_free(&why);
    }
    bool *task_ok = xcalloc(ready_count + 1, sizeof *task_ok);
    stats->failed += send_batch(a, ready, ready_count, task_ok, &stats->sent);
    free(task_ok);
    free(ready);
    free(ok);
}

static bool read_outcome(void *user, const char *iri, agent_read *out) {
    return agent_read_outcome(user, iri, out);
}

/* agent_instances' list, once the crawl has found the instances of this iteration. */
static void gather_instances(agent *a) {
    size_t found = 0;
    const char *const *discovered = a->discovery ? discovery_instances(a->discovery, &found) : NULL;
    a->instance_count = a->opt.instance_count + found;
    a->instances = xrealloc(a->instances, (a->instance_count + 1) * sizeof *a->instances);
    for (size_t i = 0; i < a->opt.instance_count; i++)
        a->instances[i] = a->opt.instances[i];
    for (size_t i = 0; i < found; i++)
        a->instances[a->opt.instance_count + i] = discovered[i];
    size_t joined = 0;
    const char *const *joiners = a->discovery ? discovery_joined(a->discovery, &joined) : NULL;
    /* --archive-history's list: made again when some left; those that joined are added (a list of
     * 100,000 made again for each new member cost more than the member) */
    a->archived_stale |= a->discovery && discovery_some_left(a->discovery);
    for (size_t i = 0; a->opt.archive_history && !a->archived_stale && i < joined; i++) {
        char *doc = http_url_identity(joiners[i]);
        strmap_put(&a->archived, doc, 1, NULL);
        free(doc);
    }
    if (!a->left_out)
        return;
    /* those left out excepted: the ones noted and not left out, and those that joined in this iteration */
    size_t noted;
    const char *const *evaluated = incremental_evaluated(a->incremental, &noted);
    if (noted + joined > a->evaluating_cap) {
        a->evaluating_cap = noted + joined;
        a->evaluating = xrealloc(a->evaluating, a->evaluating_cap * sizeof *a->evaluating);
    }
    for (size_t i = 0; i < noted; i++)
        a->evaluating[i] = evaluated[i];
    for (size_t i = 0; i < joined; i++)
        a->evaluating[noted + i] = joiners[i];
    a->evaluating_count = noted + joined;
}

/* A document some instance noted read (--incremental), an --instances-from listing or a state machine's read;
 * else one this iteration read. */
static bool still_read(void *user, const char *resource) {
    const agent *a = user;
    return a->incremental ? incremental_knows(a->incremental, resource) || strmap_get(&a->listings, resource) ||
                                strmap_get(&a->machine_reads, resource)
                          : strmap_get(&a->doc_index, resource) != NULL;
}

/* --notifications: every document this iteration read and whose state is known (a revalidation can tell
 * whether it changed) is taken as read in that state, which makes a channel for it (notifications.h); but
 * one still_read() does not keep (with --incremental: no instance noted it, e.g. a member describing none).
 * Those a state machine asked for (its ldgsm:group) are its reads until the next iteration. */
static void note_reads(agent *a) {
    u64map machines = {0};
    for (size_t k = 0; k < a->opt.machine_count; k++)
        u64map_put(&machines, terms_iri_cstr(a->t, a->opt.machines[k]), 1, NULL);
    strmap_free(&a->machine_reads);
    a->machine_reads = (strmap){0};
    for (size_t d = 0; d < a->doc_count; d++) {
        const doc_state *doc = &a->docs[d];
        const char *etag;
        if (!doc->read || !revalidatable(doc, &etag))
            continue;
        for (size_t g = 0; g < doc->group_count; g++)
            if (u64map_get(&machines, doc->groups[g])) {
                strmap_put(&a->machine_reads, doc->resource, 1, NULL);
                break;
            }
    }
    u64map_free(&machines);
    for (size_t d = 0; d < a->doc_count; d++) {
        const char *etag;
        if (a->docs[d].read && revalidatable(&a->docs[d], &etag) && still_read(a, a->docs[d].resource))
            read_with_channel(a, a->docs[d].resource, etag, a->docs[d].storage_description);
    }
}

/* --notifications, for discovery_begin: per --instances-from container, whether its listing is unchanged since
 * it was last read (a channel watches it, and its safety poll is not due), so that neither it nor its members
 * are read again; NULL when none can be. The others are read now. */
static const bool *unchanged_listings(agent *a) {
    if (!a->notifications || !a->incremental)
        return NULL;
    bool unread = discovery_unread(a->discovery); /* members waiting for their turn: the listings say which */
    for (size_t i = 0; i < a->opt.instance_container_count; i++) {
        a->listing_unchanged[i] = !unread && a->listing_read_ms[i] &&
                                  a->clock_ms < a->listing_read_ms[i] + safety_poll_ms(a) &&
                                  notifications_watching(a->notifications, a->listing_of[i]);
        if (!a->listing_unchanged[i])
            a->listing_read_ms[i] = a->clock_ms;
    }
    return a->listing_unchanged;
}


int agent_iterate(agent *a, iteration_stats *stats) {
    double start = now_ms();
    *stats = (iteration_stats){0};
    a->iteration++;
    clear_iteration(a);
    release_terms(a->t, &a->lasting, a->opt.release_terms, &a->kept_by_release, a->answers, a->doc_cache,
                  a->sentries, &a->identities, a->log);
    doc_cache_begin_iteration(a->doc_cache, a->iteration);
    get_forget_old(&a->gets, a->iteration);
    term_id now = read_clock(a);
    trace_begin_iteration(a->trace, terms_lex(a->t, now, NULL));
    if (a->notifications) {
        notifications_take(a->notifications, a->clock_ms, channel_unvouched, a);
        if (a->opt.metrics)
            metric_set(&a->opt.metrics->notifications, notifications_received(a->notifications));
    }
    if (a->incremental)
        revalidate(a, stats);
    a->wm = store_new();
    for (size_t i = 0; i < a->fact_count; i++) {
        const base_fact *f = &a->facts[i];
        if (a->left_out && f->t.p == a->v.instance && f->t.s == a->v.agent)
            continue; /* asserted below, those evaluated */
        store_add(a->wm, f->t.s, f->t.p, f->t.o, f->graph);
    }
    if (a->left_out) { /* what was not left out, --instance and --instances-from alike */
        size_t noted;
        const char *const *evaluated = incremental_evaluated(a->incremental, &noted);
        for (size_t i = 0; i < noted; i++)
            store_add(a->wm, a->v.agent, a->v.instance, terms_iri_cstr(a->t, evaluated[i]), a->v.clock_graph);
    }
    store_add(a->wm, a->v.agent, a->v.now, now, a->v.clock_graph);
    store_add(a->wm, a->v.agent, a->v.default_timeout, a->default_timeout, a->v.clock_graph);
    answers_assert(a->answers, a->wm, a->v.derived_graph);
    if (a->discovery)
        discovery_begin(a->discovery, a->wm, !a->left_out, unchanged_listings(a));

    reasoner_options ropt = {.derived_graph = a->v.derived_graph, .log = a->log, .request_sink = on_request,
                             .request_sink_user = a, .max_fresh_nodes = a->opt.max_fresh_nodes,
                             .max_derived = a->opt.max_derived, .visible = views_visible, .visible_user = a->views};
    reasoner *r = reasoner_new(a->t, a->wm, &ropt);
    int rc = 0;
    uint32_t from = 0;
    size_t scanned = 0, compiled_before = sentry_table_compiles(a->sentries);
    sentry_table_begin(a->sentries);
    arguments_begin(a->arguments);
    /* the crawl: derive, take in the sentries met, GET what was asked for, until nothing new */
    for (;;) {
        if (reasoner_run_from(r, &a->rules, 0, from) != 0) {
            log_msg(a->log, LOG_ERROR, "iteration held: %s", reasoner_error(r));
            rc = -1;
            break;
        }
        uint32_t settled = store_size(a->wm);
        size_t reads = sentry_table_scan(a->sentries, a->wm, from, etag_of, a);
        size_t fetched = fetch_new(a, &scanned, stats);
        size_t discovered = a->discovery ? discovery_scan(a->discovery, a->wm, read_outcome, a) : 0;
        if (!reads && !fetched && !discovered)
            break;
        from = settled;
    }
    /* the crawl is done: the relations ldgsm:groupsOf names are whole */
    for (size_t i = 0; i < a->doc_count; i++)
        get_expand_group_sources(a->wm, &a->docs[i]);
    gather_instances(a);
    if (rc == 0 && a->opt.inspect) {
        int ended = a->opt.inspect(a->opt.inspect_user, a, AGENT_CRAWLED, stats);
        if (ended != AGENT_GO_ON) {
            a->ended_by_inspect = ended;
            rc = -2;
        }
    }
    double crawled = now_ms();
    views_begin(a->views, a->wm, a->docs, a->doc_count);
    if (rc == 0 && sentry_table_evaluate(a->sentries, r) != 0)
        rc = -1;
    if (rc == 0)
        arguments_bind(a->arguments, a->t, &a->v, a->wm, a->io);
    double sentried = now_ms();
    if (rc == 0 && reasoner_run(r, &a->rules, AFTER_SENTRIES_STRATUM) != 0)
        rc = -1;
    stats->crawl_ms = crawled - start;
    stats->sentries_ms = sentried - crawled;
    stats->later_rules_ms = now_ms() - sentried;
    if (rc != 0 && reasoner_error(r))
        log_msg(a->log, LOG_ERROR, "iteration held: %s", reasoner_error(r));
    log_msg(a->log, LOG_DEBUG, "phases: crawl %.1f ms (%zu sentries compiled), sentries %.1f ms, later rules %.1f ms",
            stats->crawl_ms, sentry_table_compiles(a->sentries) - compiled_before, stats->sentries_ms,
            stats->later_rules_ms);
    report_late_gets(a, scanned);
    stats->derived = (unsigned)reasoner_get_stats(r)->derived;
    reasoner_free(r);
    /* before the waits are said: what the watcher holds (a model lint refuses) is said with them */
    if (rc == 0 && a->opt.inspect) {
        int ended = a->opt.inspect(a->opt.inspect_user, a, AGENT_DERIVED, stats);
        if (ended != AGENT_GO_ON)
            a->ended_by_inspect = ended;
    }
    if (a->incremental)
        note_evaluations(a, rc);
    if (a->notifications)
        note_reads(a);
    if (rc == 0) {
        stats->calling = count_calling(a);
        report_waits(a);
        if (a->opt.metrics)
            note_states(a);
        const answer_env env = answer_env_of(a);
        answers_drop_taken(a->answers, &env, a->docs, &a->doc_index);
    }
    if (rc == 0 && !a->opt.observe) {
        char **origins = xcalloc(a->opt.allow_origin_count + 1, sizeof *origins);
        for (size_t i = 0; i < a->opt.allow_origin_count; i++)
            origins[i] = http_url_origin(a->opt.allow_origins[i]);
        size_t invalid = sentry_table_invalid(a->sentries);
        u64map history_properties = {0};
        store_iter tracked;
        store_match(a->wm, 0, T_RDF_TYPE, a->v.history_property, 0, store_size(a->wm), &tracked);
        uint32_t tn;
        for (const triple *tr; (tr = store_next(&tracked, &tn));)
            u64map_put(&history_properties, tr->s, 1, NULL);
        /* the reasoning is done, and what it looked triples up by is not needed to compose the writes (the
         * iteration's peak) */
        store_drop_lookup_indexes(a->wm);
        plan_input in = {.hold_all = invalid ? "an invalid sentry was met in this iteration" : NULL,
                         .t = a->t, .wm = a->wm, .io = a->io, .v = &a->v, .requests = a->requests,
                         .request_count = a->request_count, .docs = a->docs, .doc_count = a->doc_count,
                         .doc_index = &a->doc_index,
                         .hold = !a->opt.proceed_on_incomplete,
                         .allow_unconditional_status = a->opt.allow_unconditional_status,
                         .allow_origins = origins, .allow_origin_count = a->opt.allow_origin_count,
                         .warned_origins = &a->warned_origins, .turns = &a->write_turns, .log = a->log, .clock = store_first_object(a->wm, a->v.agent, a->v.now),
                         .history_limit = a->opt.history < 0 ? 0
                                          : a->opt.history ? (unsigned)a->opt.history : HISTORY_DEFAULT_LIMIT,
                         .history_properties = &history_properties};
        if (a->opt.archive_history && a->archived_stale) {
            strmap_free(&a->archived);
            a->archived = (strmap){0};
            for (size_t i = 0; i < a->instance_count; i++) {
                char *doc = http_url_identity(a->instances[i]);
                strmap_put(&a->archived, doc, 1, NULL);
                free(doc);
            }
            a->archived_stale = false;
        }
        in.archived = a->opt.archive_history ? &a->archived : NULL;
        plan p;
        double planning = now_ms();
        plan_make(&in, &p);
        stats->plan_ms = now_ms() - planning;
        u64map_free(&history_properties);
        trace_plan(a->trace, &in, &p);
        stats->unsafe = p.unsafe;
        stats->withheld = p.withheld;
        stats->conflicts = p.conflicts;
        stats->yielded = p.yielded;
        stats->refused = p.refused;
        double sending = now_ms();
        send_plan(a, &p, stats);
        stats->send_ms = now_ms() - sending;
        plan_free(&p);
        for (size_t i = 0; i < a->opt.allow_origin_count; i++)
            free(origins[i]);
        free(origins);
    }
    if (a->opt.verbose >= 2)
        for (unsigned i = 0; i < a->rules.count; i++)
            if (a->rules.rules[i]->probed)
                log_msg(a->log, LOG_DEBUG, "rule %s looked at %llu triples and fired %llu times",
                        a->rules.rules[i]->name, (unsigned long long)a->rules.rules[i]->probed,
                        (unsigned long long)a->rules.rules[i]->fired);
    for (unsigned i = 0; i < a->rules.count; i++)
        a->rules.rules[i]->fired = a->rules.rules[i]->probed = 0;
    if (a->retain_due) {
        incremental_retain(a->incremental, a->instances, a->instance_count);
        a->evaluating_count = 0; /* its strings were the table's */
    }
    if (a->notifications)
        /* with --incremental a document stops being read only when the table forgets it */
        notifications_flush(a->notifications, a->clock_ms, !a->incremental || a->retain_due ? still_read : NULL, a);
    stats->elapsed_ms = now_ms() - start;
    if (a->opt.metrics)
        note_iteration(a->opt.metrics, stats, rc);
    /* flushed before the iteration's log line: whoever sees that line can read the iteration's records */
    trace_end_iteration(a->trace, stats, rc);
    char evaluated[64] = "";
    if (a->incremental)
        snprintf(evaluated, sizeof evaluated, "; %zu instances evaluated, %zu left out", a->evaluated, a->left_out);
    if (a->notifications)
        snprintf(evaluated + strlen(evaluated), sizeof evaluated - strlen(evaluated), ", %zu channels live",
                 notifications_live(a->notifications));
    log_event(a->log, LOG_DEBUG, "iteration", NULL,
              LOG_FIELDS(LOG_NUMBER("iteration", a->iteration), LOG_NUMBER("ms", stats->elapsed_ms),
                         LOG_NUMBER("gets", stats->gets), LOG_NUMBER("gets_failed", stats->gets_failed),
                         LOG_NUMBER("unsafe", stats->unsafe), LOG_NUMBER("sent", stats->sent),
                         LOG_NUMBER("withheld", stats->withheld), LOG_NUMBER("conflicting", stats->conflicts),
                         LOG_NUMBER("failed", stats->failed)),
              "iteration: %.1f ms, %u GETs (%u failed), %u held, %llu bytes, %u triples read, %u derived, unsafe %u: "
              "%u sent, %u withheld, %u conflicting, %u yielded, %u refused, %u failed; %zu terms%s",
              stats->elapsed_ms, stats->gets, stats->gets_failed, stats->gets_held, stats->bytes, stats->triples_read,
              stats->derived, stats->unsafe, stats->sent, stats->withheld, stats->conflicts, stats->yielded,
              stats->refused, stats->failed, terms_live(a->t), evaluated);
    return rc;
}

static void report_stuck(agent *a) {
    buf names = {0};
    for (size_t i = 0; i < a->doc_count; i++)
        if (a->docs[i].failed)
            buf_printf(&names, "%s%s", names.len ? ", " : "", a->docs[i].resource);
    log_event(a->log, LOG_WARN, "stuck", NULL,
              LOG_FIELDS(LOG_NUMBER("iterations", a->held_streak), LOG_TEXT("failing", names.len ? names.data : "")),
              "stuck: %u iterations in a row held back writes; failing: %s", a->held_streak,
              names.len ? names.data : "(none)");
    buf_free(&names);
}

static void pause_ms(agent *a, long ms) {
    /* sleep in slices so a stop signal ends the pause quickly */
    while (ms > 0 && !(a->opt.stop && *a->opt.stop)) {
        long slice = ms < 50 ? ms : 50;
        struct timespec ts = {slice / 1000, (slice % 1000) * 1000000L};
        nanosleep(&ts, NULL);
        ms -= slice;
    }
}

void agent_pause(agent *a, long ms) {
    if (a->notifications)
        notifications_wait(a->notifications, ms, a->opt.settle_ms, a->opt.stop);
    else
        pause_ms(a, ms);
}

/* Between iterations: --interval; with --notifications, until a notification comes or the next
 * iteration is due: at --interval while some document must be read by GET or an instance is busy, and no
 * later than the next wake time or safety poll of a document (a busy instance may wait for a notification
 * that was lost). None while --instances-from members wait for their turn to be read (discovery_more). */
static void wait_for_next(agent *a) {
    if (a->discovery && discovery_more(a->discovery))
        return; /* members wait for their turn to be read */
    if (!a->notifications || !a->incremental) {
        agent_pause(a, a->opt.interval_ms);
        return;
    }
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    int64_t now = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
    bool poll;
    int64_t due = incremental_next_due(a->incremental, &poll);
    /* a listing without a watching channel is polled: a new member is a new instance */
    for (uint32_t i = 0; i < a->listings.count && !poll; i++)
        if (!notifications_watching(a->notifications, a->listings.keys[i]))
            poll = true;
    /* so is a state machine's read: a new member of its inbox is its next event */
    for (uint32_t i = 0; i < a->machine_reads.count && !poll; i++)
        if (!notifications_watching(a->notifications, a->machine_reads.keys[i]))
            poll = true;
    if (poll && due - now > a->opt.interval_ms)
        due = now + a->opt.interval_ms;
    int64_t channels_due = notifications_next_due(a->notifications);
    if (channels_due < due)
        due = channels_due;
    long wait = due <= now ? 0 : (long)(due - now < LONG_MAX ? due - now : LONG_MAX);
    notifications_wait(a->notifications, wait, a->opt.settle_ms, a->opt.stop);
}

int agent_run(agent *a) {
    unsigned long done = 0;
    iteration_stats stats = {0};
    for (;;) {
        char line[64];
        if ((a->opt.stop && *a->opt.stop) || (a->opt.step && !fgets(line, sizeof line, stdin)))
            break;
        int rc = agent_iterate(a, &stats);
        if (rc == -2)
            return a->ended_by_inspect != AGENT_GO_ON ? a->ended_by_inspect : 1;
        if (a->ended_by_inspect != AGENT_GO_ON)
            return a->ended_by_inspect;
        done++;
        bool held = rc != 0 || stats.withheld > 0 || stats.conflicts > 0;
        a->held_streak = held ? a->held_streak + 1 : 0;
        if (a->held_streak >= STUCK_AFTER)
            report_stuck(a);
        if (a->opt.until_quiescent && rc == 0 && stats.unsafe == 0 && stats.calling == 0)
            return a->waiting ? 6 : 0;
        int ended = rc == 0 && a->opt.inspect ? a->opt.inspect(a->opt.inspect_user, a, AGENT_ENDED, &stats)
                                               : AGENT_GO_ON;
        if (ended != AGENT_GO_ON)
            return ended;
        if ((a->opt.iterations && done >= a->opt.iterations) || (a->opt.stop && *a->opt.stop))
            break;
        if (!a->opt.step)
            wait_for_next(a);
        if (a->opt.stop && *a->opt.stop)
            break;
    }
    if (a->opt.until_quiescent && (stats.withheld || stats.conflicts))
        return 3;
    if (a->opt.until_quiescent && stats.calling)
        return 4;
    bool stopped = a->opt.stop && *a->opt.stop;
    if (a->opt.until_complete && !stopped) {
        /* the loop ended by --iterations (or the end of --step's input): not every instance is complete */
        int ended = a->opt.inspect ? a->opt.inspect(a->opt.inspect_user, a, AGENT_CUT_SHORT, &stats) : AGENT_GO_ON;
        return ended != AGENT_GO_ON ? ended : 6;
    }
    if (a->opt.until_quiescent && !stopped && a->waiting)
        return 6;
    return 0;
}

bool agent_instance_evaluated(agent *a, const char *instance) {
    return !a->left_out || !incremental_skips(a->incremental, instance);
}

const char *const *agent_evaluated_instances(agent *a, size_t *count) {
    if (!a->left_out)
        return agent_instances(a, count);
    *count = a->evaluating_count;
    return a->evaluating;
}

unsigned long agent_iterations(const agent *a) {
    return a->iteration;
}

terms *agent_terms(agent *a) {
    return a->t;
}

store *agent_memory(agent *a) {
    return a->wm;
}

const char *const *agent_instances(agent *a, size_t *count) {
    *count = a->instance_count;
    return a->instances;
}

void agent_hold(agent *a, term_id group, const char *why) {
    store_add(a->wm, group, a->v.held_because, terms_string(a->t, why), terms_iri_cstr(a->t, LDGSM_WATCH_GRAPH));
}

bool agent_read_outcome(agent *a, const char *iri, agent_read *out) {
    char *identity = http_url_identity(iri);
    const doc_state *doc = identity ? find_doc(a, identity) : NULL;
    free(identity);
    if (!doc)
        return false;
    bool answered = doc->failure == HTTP_FAIL_NONE;
    *out = (agent_read){.status = answered ? doc->status : 0,
                        .failure = answered ? NULL : http_failure_name(doc->failure),
                        .unparsable = doc->unparsable, .parse_error = doc->parse_error, .etag = doc->etag,
                        .graph = doc->graph};
    return true;
}

const char *agent_read_etag(void *agent, const char *iri) {
    agent_read read;
    return agent_read_outcome(agent, iri, &read) ? read.etag : NULL;
}
