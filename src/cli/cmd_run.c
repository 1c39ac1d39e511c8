/* cmd_run.c: `ldgsm run`: the polling agent over N3 request rules (agent/agent.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent/agent.h"
#include "agent/agent_metrics.h"
#include "agent/shard.h"
#include "http/oidc_token.h"
#include "cli/commands.h"
#include "cli/shipped.h"
#include "cli/watchers.h"
#include "http/metrics_listener.h"
#include "rdf/buf.h"
#include "rdf/log_json.h"

static const char run_usage[] =
    "usage: ldgsm run -p RULES.n3 [-p ...] [-i INPUT ...] [options]\n"
    "       ldgsm run --instance URI [--instance URI ...] [-p RULES.n3 ...] [options]\n"
    "       ldgsm run --instances-from CONTAINER [--shard I/N] [-p RULES.n3 ...] [options]\n"
    "       ldgsm run --machine URI [--machine URI ...] [-p RULES.n3 ...] [options]\n"
    "\n"
    "Runs N3 rule programs as a Read-Write Linked Data agent (ASM4LD, as Linked Data-Fu does): every\n"
    "iteration starts from an empty working memory, GETs what the rules ask for and derives to a fixpoint,\n"
    "then sends the unsafe requests (PUT, POST, DELETE, PATCH, ldgsm:UPDATE) the rules derived.\n"
    "\n"
    "With --instance, it runs Guard-Stage-Milestone workflows: the shipped ontology (ontology/gsm.ttl) and\n"
    "rules (rules/: rdfs, ldp-crawl, gsm-setup, gsm-fcr, gsm-events, calls, gsm-call, gsm-alternatives,\n"
    "gsm-stalls; compat-authors-draft with --compat authors-draft) are loaded, found beside the binary or\n"
    "in the source tree; -p adds rules of your own (e.g. turning sensor readings into what a sentry asks).\n"
    "Every model is checked by `ldgsm lint` as it is read: its warnings are printed, and an instance whose\n"
    "model has an error is refused (nothing of it is written; exit 1 when every instance is refused).\n"
    "Nothing waits silently: a held set-up, an unreadable instance, model or sentry input, a stage that\n"
    "cycles, an exhausted call each give a line naming the instance and the cause (held:, waiting:,\n"
    "cycling:, incident:), again every --remind iterations while it lasts; a GET that fails (GET <url>: ...)\n"
    "is said once while it keeps failing, and again when it fails after --remind iterations without; -v\n"
    "adds a progress line per instance when its stages or milestones change.\n"
    "\n"
    "With --machine, it runs workflow state machines (ontology/wsm.ttl, rules/wsm.n3): each iteration takes\n"
    "the first event (in the lexical order of the IRIs) of each instance's inbox container that is not\n"
    "consumed yet and writes its outcome (fired, rejected, set aside), the new state, the assignments and a\n"
    "history entry in one conditional write of the instance document; then it deletes the event resource.\n"
    "Each schema is checked by `ldgsm lint` as it is read; an instance whose schema has an error is held.\n"
    "Two transitions from one state on one event are a warning there: the instance whose next event meets\n"
    "them is held (held: names the state and the event), the others go on, and it resumes once the schema\n"
    "is fixed.\n"
    "--instance and --machine may be given together.\n"
    "\n"
    "options:\n"
    "      --instance URI      a workflow instance, e.g. http://host/status/order1#it (repeatable)\n"
    "      --machine URI       a state machine instance, e.g. http://host/machines/doc1#it (repeatable)\n"
    "      --instances-from CONTAINER\n"
    "                          run the workflow instances described by the members of this LDP container\n"
    "                          (repeatable): read in every iteration, so instances created later join the\n"
    "                          run and deleted ones leave it; a member is read once to learn its instances\n"
    "                          (subjects with gsm:isInstanceOf), and one describing none is not read again\n"
    "      --shard I/N         take only the instances of shard I of N: one agent of a fleet of N, each\n"
    "                          given every instance or container; rendezvous hashing of the --instance or\n"
    "                          --machine IRI as given, of a container member's IRI, so growing the fleet\n"
    "                          to N+1 moves about 1/(N+1) of them\n"
    "      --until complete    exit 0 once every instance's workflow is complete (with --instances-from:\n"
    "                          every one listed, once there is one); ended by --iterations before, exit 6\n"
    "      --compat authors-draft\n"
    "                          also read models in the GSM paper authors' draft vocabulary\n"
    "                          (rules/compat-authors-draft.n3); instances stay in ours\n"
    "  -p, --program FILE      an N3 rule program (repeatable; at least one without --instance)\n"
    "  -i, --input FILE        RDF data asserted in every iteration (repeatable)\n"
    "  -n, --interval MS       pause between the end of one iteration and the next (default 1000)\n"
    "      --incremental       leave an instance out of an iteration while nothing it depends on changed:\n"
    "                          it was quiet (derived no request, no read failed, no call waiting), a\n"
    "                          conditional GET finds every document it read unchanged, and no\n"
    "                          ldgsm:wakeAt time of it has come; so a poll of waiting or finished\n"
    "                          instances costs a 304 each, no parse and no reasoning\n"
    "      --safety-poll MS    with --notifications, read every document by GET at least this often\n"
    "                          (default 60000), whatever its channel says, so that a notification lost\n"
    "                          on an open channel is made up for by then (each document in the last\n"
    "                          quarter of its period, not all at once); an instance is evaluated again\n"
    "                          only if a GET finds a change\n"
    "      --notifications     --incremental, with Solid Notifications: subscribe to each document read\n"
    "                          (WebSocketChannel2023, where the description of its storage offers it: the\n"
    "                          one its answers link to, rel solid#storageDescription, on its own origin;\n"
    "                          for an absent document, that of the known storage whose root holds it;\n"
    "                          else the server's /.well-known/solid); an\n"
    "                          open channel stands in for the document's conditional GET, and a\n"
    "                          notification starts an iteration at once (the documents a --machine reads,\n"
    "                          its inbox among them, too); documents without a channel are polled as\n"
    "                          with --incremental\n"
    "      --webhook ADDR:PORT --notifications, receiving WebhookChannel2023 notifications on a listener\n"
    "                          of the agent's own at ADDR:PORT (a numeric address the servers reach it at,\n"
    "                          [ADDR] for IPv6; port 0: any free one, said in the log): where a server offers\n"
    "                          webhooks, each subscription names a URL of its own there (with a random part;\n"
    "                          a POST to any other path gets 404), one listener for all channels where\n"
    "                          WebSocketChannel2023 needs a socket each; other servers get WebSocket channels\n"
    "                          or polling as with --notifications. Channels no longer read, and all of them\n"
    "                          when the agent ends, are unsubscribed (DELETE)\n"
    "      --settle MS         with --notifications, after a notification wait this long for the rest\n"
    "                          of a burst before the iteration (default 5)\n"
    "      --iterations N      stop after N iterations (default: run until stopped)\n"
    "      --until quiescent   exit after an iteration that derived no unsafe request (exit 0), or when\n"
    "                          --iterations ends with requests withheld (exit 3)\n"
    "      --dry-run           print the unsafe requests instead of sending them\n"
    "      --step              run an iteration for each line read on standard input (end of input\n"
    "                          stops): for stepping through a workflow, and for tests that drive one\n"
    "      --on-incomplete P   hold (default): a failed GET withholds the writes that depended on it;\n"
    "                          proceed: write anyway\n"
    "      --allow-origin O    unsafe requests may go only to these origins (repeatable; default: any)\n"
    "      --header [ORIGIN=]'Name: value'\n"
    "                          send a header to ORIGIN only (without ORIGIN: to the --allow-origin ones)\n"
    "      --auth FILE         authenticate as a Solid client (Solid-OIDC client credentials, DPoP): FILE,\n"
    "                          of mode 0600, is JSON {\"client_id\", \"client_secret\", \"issuer\" or \"webid\"}\n"
    "                          (scripts/css-pod.sh writes one); the access token and its proofs go only to\n"
    "                          the --allow-origin origins, or without any to the origins of the --instance,\n"
    "                          --machine and --instances-from resources; the secret only to the issuer.\n"
    "                          Renewed before it expires and after a 401. Wrong credentials, an issuer that\n"
    "                          does not answer or answers garbage end the run at its start (exit 1)\n"
    "      --max-body BYTES    refuse response bodies larger than this (default 16777216)\n"
    "      --connect-timeout MS  give up connecting after MS (default 2000)\n"
    "      --timeout MS        give up a request after MS, redirects included (default 10000)\n"
    "      --read-wait MS      wait at most MS for a GET's answer (default 2000; 0: until it ends): one\n"
    "                          unanswered by then fails for this iteration, holding the writes of the\n"
    "                          instances that read it, and goes on in the background up to --timeout;\n"
    "                          later iterations take its answer when it comes and do not wait for that\n"
    "                          document until it answers, so a sensor that hangs slows no other instance\n"
    "      --max-fresh N       per iteration, stop deriving after N fresh blank nodes from rule heads and\n"
    "                          hold the iteration, naming the rule (default 1000000)\n"
    "      --max-derived N     per iteration, the same for derived triples (default: one per KiB of the\n"
    "                          memory ldgsm may use, the least of RAM, cgroup limit and ulimit -v; a\n"
    "                          derived triple takes 70-250 bytes, so the cap comes before a quarter of it)\n"
    "      --release-terms N   release the terms iterations interned (each poll parses its documents\n"
    "                          again) once more than N piled up (default 65536, or more when the rules\n"
    "                          and inputs have more terms)\n"
    "      --allow-unconditional-status\n"
    "                          let updates write documents that have no strong ETag\n"
    "      --patch             write a document's updates as an N3 Patch of what changes, conditional\n"
    "                          like the PUT, where its server lists text/n3 in Accept-Patch (a refused\n"
    "                          patch falls back to PUT); by default a PUT of the whole document\n"
    "      --trace FILE        one JSON object per line for every GET, every unsafe request decided (its\n"
    "                          rules, outcome and reason) and every iteration (phase timings, counts);\n"
    "                          flushed at each iteration's end; '-' is standard output\n"
    "      --history N         keep the last N transitions in each status document (default 100; 0: none)\n"
    "      --archive-history   move the transitions from each status document to its archive, the\n"
    "                          resource DOC.history the document links to (ldgsm:historyArchive), in the\n"
    "                          iteration after each is written: polls read the state, not the past\n"
    "      --remind N          say a wait or an incident that lasts again every N iterations (default 100)\n"
    "      --log-format F      text (default) or json: one JSON object per line (keys time, level, event,\n"
    "                          instance, message, then the event's own; docs/guide/logs-and-metrics.md)\n"
    "      --metrics ADDR:PORT serve the run's metrics in the Prometheus text format at\n"
    "                          http://ADDR:PORT/metrics (PORT alone: on 127.0.0.1; port 0: any free one,\n"
    "                          said in the start line): iterations, their phases' durations, requests by\n"
    "                          method and outcome, 412s, retries, notifications received, instances and\n"
    "                          calls by state, held and waiting instances\n"
    "  -v, --verbose           also a line per request (method, URI, status, ms, rules) and per iteration\n"
    "                          (its counts), progress lines, and the HTTP client's; -vv: each rule's work\n"
    "  -h, --help              this text\n"
    "\n"
    "The log, on standard error, has one line per thing to act on or know: start (pid, instances) and\n"
    "stop (exit status, iterations), held:, waiting:, incident:, cycling:, stuck:, a failed read (GET <url>:\n"
    "...), a write that failed or was withheld, instances joining or leaving, notification channels;\n"
    "warnings prefixed 'warning: ', errors 'error: '. Request and iteration lines only with -v.\n"
    "SIGINT or SIGTERM finish the current iteration, then exit 0.\n"
    "exit status: 0 done; 1 bad input, or every instance's model rejected by lint; 2 usage error;\n"
    "             3 --until quiescent ended with requests withheld; 4 ... with a call still calling;\n"
    "             5 --until complete: an instance failed; 6 an --until run ended with an instance held or\n"
    "             waiting (its held: or waiting: line says why), or not complete (--until complete ended by\n"
    "             --iterations: a line names it)\n";

/* Keeps the instances of the list that belong to shard index of count (agent/shard.h), in order. */
static void take_shard(char **list, size_t *count, unsigned index, unsigned shard_count) {
    size_t kept = 0;
    for (size_t i = 0; i < *count; i++)
        if (shard_of(list[i], shard_count) == index)
            list[kept++] = list[i];
    *count = kept;
}

static void push(char ***list, size_t *count, char *item) {
    *list = xrealloc(*list, (*count + 1) * sizeof **list);
    (*list)[(*count)++] = item;
}

/* "[ORIGIN=]Name: value" */
static bool parse_header_option(const char *arg, agent_header_option *out) {
    *out = (agent_header_option){0};
    const char *colon = strchr(arg, ':');
    const char *equals = strchr(arg, '=');
    const char *name = arg;
    if (equals && colon && equals < colon) {
        out->origin = xstrndup(arg, (size_t)(equals - arg));
        name = equals + 1;
    }
    colon = strchr(name, ':');
    if (!colon || colon == name) {
        free(out->origin);
        return false;
    }
    const char *value = colon + 1;
    while (*value == ' ' || *value == '\t')
        value++;
    out->name = xstrndup(name, (size_t)(colon - name));
    out->value = xstrndup(value, strlen(value));
    return true;
}

static void log_to_stderr(void *user, enum log_level level, const char *message) {
    (void)user;
    static const char *const prefix[] = {"error: ", "warning: ", "", ""};
    fprintf(stderr, "%s%s\n", prefix[level], message);
}

int cmd_run(int argc, char **argv) {
    shipped_files shipped = {0};
    enum { OPT_ITERATIONS = 256, OPT_UNTIL, OPT_INSTANCE, OPT_COMPAT, OPT_STEP, OPT_DRY_RUN, OPT_ON_INCOMPLETE, OPT_ALLOW_ORIGIN, OPT_HEADER,
           OPT_MAX_BODY, OPT_UNCONDITIONAL, OPT_PATCH, OPT_CONNECT_TIMEOUT, OPT_TIMEOUT, OPT_MAX_FRESH, OPT_MAX_DERIVED, OPT_RELEASE_TERMS, OPT_TRACE,
           OPT_HISTORY, OPT_REMIND, OPT_MACHINE, OPT_SHARD, OPT_INSTANCES_FROM, OPT_READ_WAIT,
           OPT_INCREMENTAL, OPT_SAFETY_POLL, OPT_ARCHIVE_HISTORY, OPT_NOTIFICATIONS, OPT_SETTLE, OPT_WEBHOOK,
           OPT_LOG_FORMAT, OPT_METRICS, OPT_AUTH };
    static const struct option options[] = {
        {"program", required_argument, NULL, 'p'},
        {"input", required_argument, NULL, 'i'},
        {"interval", required_argument, NULL, 'n'},
        {"iterations", required_argument, NULL, OPT_ITERATIONS},
        {"until", required_argument, NULL, OPT_UNTIL},
        {"instance", required_argument, NULL, OPT_INSTANCE},
        {"machine", required_argument, NULL, OPT_MACHINE},
        {"shard", required_argument, NULL, OPT_SHARD},
        {"instances-from", required_argument, NULL, OPT_INSTANCES_FROM},
        {"compat", required_argument, NULL, OPT_COMPAT},
        {"dry-run", no_argument, NULL, OPT_DRY_RUN},
        {"step", no_argument, NULL, OPT_STEP},
        {"on-incomplete", required_argument, NULL, OPT_ON_INCOMPLETE},
        {"allow-origin", required_argument, NULL, OPT_ALLOW_ORIGIN},
        {"header", required_argument, NULL, OPT_HEADER},
        {"auth", required_argument, NULL, OPT_AUTH},
        {"max-body", required_argument, NULL, OPT_MAX_BODY},
        {"allow-unconditional-status", no_argument, NULL, OPT_UNCONDITIONAL},
        {"patch", no_argument, NULL, OPT_PATCH},
        {"connect-timeout", required_argument, NULL, OPT_CONNECT_TIMEOUT},
        {"timeout", required_argument, NULL, OPT_TIMEOUT},
        {"read-wait", required_argument, NULL, OPT_READ_WAIT},
        {"max-fresh", required_argument, NULL, OPT_MAX_FRESH},
        {"release-terms", required_argument, NULL, OPT_RELEASE_TERMS},
        {"max-derived", required_argument, NULL, OPT_MAX_DERIVED},
        {"trace", required_argument, NULL, OPT_TRACE},
        {"history", required_argument, NULL, OPT_HISTORY},
        {"remind", required_argument, NULL, OPT_REMIND},
        {"incremental", no_argument, NULL, OPT_INCREMENTAL},
        {"safety-poll", required_argument, NULL, OPT_SAFETY_POLL},
        {"notifications", no_argument, NULL, OPT_NOTIFICATIONS},
        {"settle", required_argument, NULL, OPT_SETTLE},
        {"webhook", required_argument, NULL, OPT_WEBHOOK},
        {"archive-history", no_argument, NULL, OPT_ARCHIVE_HISTORY},
        {"log-format", required_argument, NULL, OPT_LOG_FORMAT},
        {"metrics", required_argument, NULL, OPT_METRICS},
        {"verbose", no_argument, NULL, 'v'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    agent_options opt = {.interval_ms = 1000, .read_wait_ms = 2000, .settle_ms = 5, .stop = &cli_stop_requested};
    const char *auth_path = NULL; /* --auth */
    unsigned shard_index = 0, shard_count = 0;
    bool log_json = false;
    const char *metrics_address = NULL;
    int status = 2;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, "p:i:n:vh", options, NULL)) != -1) {
        char *end = NULL;
        switch (c) {
        case 'p': push(&opt.programs, &opt.program_count, optarg); break;
        case 'i': push(&opt.inputs, &opt.input_count, optarg); break;
        case 'n':
            opt.interval_ms = strtol(optarg, &end, 10);
            if (*end || opt.interval_ms < 0) {
                fprintf(stderr, "ldgsm run: --interval needs milliseconds, not '%s'\n", optarg);
                goto done;
            }
            break;
        case OPT_ITERATIONS:
            opt.iterations = strtoul(optarg, &end, 10);
            if (*end || opt.iterations == 0) {
                fprintf(stderr, "ldgsm run: --iterations needs a positive number, not '%s'\n", optarg);
                goto done;
            }
            break;
        case OPT_UNTIL:
            if (strcmp(optarg, "quiescent") == 0)
                opt.until_quiescent = true;
            else if (strcmp(optarg, "complete") == 0)
                opt.until_complete = true;
            else {
                fprintf(stderr, "ldgsm run: --until takes 'quiescent' or 'complete', not '%s'\n", optarg);
                goto done;
            }
            break;
        case OPT_INSTANCE: push(&opt.instances, &opt.instance_count, optarg); break;
        case OPT_MACHINE: push(&opt.machines, &opt.machine_count, optarg); break;
        case OPT_INSTANCES_FROM: push(&opt.instance_containers, &opt.instance_container_count, optarg); break;
        case OPT_SHARD:
            if (shard_parse(optarg, &shard_index, &shard_count) != 0) {
                fprintf(stderr, "ldgsm run: --shard takes I/N, 1 <= I <= N <= %d, not '%s'\n", SHARD_COUNT_MAX, optarg);
                goto done;
            }
            break;
        case OPT_COMPAT:
            if (strcmp(optarg, "authors-draft") != 0) {
                fprintf(stderr, "ldgsm run: --compat takes authors-draft, not '%s'\n", optarg);
                goto done;
            }
            opt.compat_authors_draft = true;
            break;
        case OPT_DRY_RUN: opt.dry_run = true; break;
        case OPT_STEP: opt.step = true; break;
        case OPT_ON_INCOMPLETE:
            if (strcmp(optarg, "hold") != 0 && strcmp(optarg, "proceed") != 0) {
                fprintf(stderr, "ldgsm run: --on-incomplete takes hold or proceed, not '%s'\n", optarg);
                goto done;
            }
            opt.proceed_on_incomplete = strcmp(optarg, "proceed") == 0;
            break;
        case OPT_ALLOW_ORIGIN: push(&opt.allow_origins, &opt.allow_origin_count, optarg); break;
        case OPT_AUTH: auth_path = optarg; break;
        case OPT_HEADER: {
            agent_header_option h;
            if (!parse_header_option(optarg, &h)) {
                fprintf(stderr, "ldgsm run: --header wants [ORIGIN=]'Name: value', not '%s'\n", optarg);
                goto done;
            }
            opt.headers = xrealloc(opt.headers, (opt.header_count + 1) * sizeof *opt.headers);
            opt.headers[opt.header_count++] = h;
            break;
        }
        case OPT_MAX_BODY: {
            unsigned long long v = strtoull(optarg, &end, 10);
            if (*end || v == 0) {
                fprintf(stderr, "ldgsm run: --max-body needs a positive number of bytes, not '%s'\n", optarg);
                goto done;
            }
            opt.max_body = (size_t)v;
            break;
        }
        case OPT_UNCONDITIONAL: opt.allow_unconditional_status = true; break;
        case OPT_PATCH: opt.patch = true; break;
        case OPT_CONNECT_TIMEOUT:
        case OPT_TIMEOUT:
        case OPT_MAX_FRESH:
        case OPT_MAX_DERIVED:
        case OPT_RELEASE_TERMS:
        case OPT_SAFETY_POLL: {
            unsigned long v = strtoul(optarg, &end, 10);
            if (*end || v == 0 || v > 4000000000UL) {
                const char *name = c == OPT_CONNECT_TIMEOUT ? "--connect-timeout" : c == OPT_TIMEOUT ? "--timeout"
                                   : c == OPT_MAX_FRESH ? "--max-fresh" : c == OPT_MAX_DERIVED ? "--max-derived"
                                   : c == OPT_SAFETY_POLL ? "--safety-poll"
                                                                          : "--release-terms";
                fprintf(stderr, "ldgsm run: %s needs a positive number, not '%s'\n", name, optarg);
                goto done;
            }
            if (c == OPT_CONNECT_TIMEOUT)
                opt.connect_timeout_ms = (long)v;
            else if (c == OPT_TIMEOUT)
                opt.timeout_ms = (long)v;
            else if (c == OPT_MAX_FRESH)
                opt.max_fresh_nodes = (unsigned)v;
            else if (c == OPT_MAX_DERIVED)
                opt.max_derived = (unsigned)v;
            else if (c == OPT_SAFETY_POLL)
                opt.safety_poll_ms = (long)v;
            else
                opt.release_terms = v;
            break;
        }
        case OPT_INCREMENTAL:
            opt.incremental = true;
            break;
        case OPT_NOTIFICATIONS:
            opt.incremental = opt.notifications = true;
            break;
        case OPT_WEBHOOK: /* the address is checked where the listener starts */
            opt.incremental = opt.notifications = true;
            opt.webhook = optarg;
            break;
        case OPT_SETTLE: {
            unsigned long v = strtoul(optarg, &end, 10);
            if (*end || !*optarg || v > 60000) {
                fprintf(stderr, "ldgsm run: --settle needs milliseconds from 0 to 60000, not '%s'\n", optarg);
                goto done;
            }
            opt.settle_ms = (long)v;
            break;
        }
        case OPT_ARCHIVE_HISTORY:
            opt.archive_history = true;
            break;
        case OPT_READ_WAIT: {
            unsigned long v = strtoul(optarg, &end, 10);
            if (*end || !*optarg || v > 4000000000UL) {
                fprintf(stderr, "ldgsm run: --read-wait needs milliseconds (0: wait until a GET ends), not '%s'\n", optarg);
                goto done;
            }
            opt.read_wait_ms = (long)v;
            break;
        }
        case OPT_TRACE: opt.trace_path = optarg; break;
        case OPT_LOG_FORMAT:
            if (strcmp(optarg, "text") != 0 && strcmp(optarg, "json") != 0) {
                fprintf(stderr, "ldgsm run: --log-format takes text or json, not '%s'\n", optarg);
                goto done;
            }
            log_json = strcmp(optarg, "json") == 0;
            break;
        case OPT_METRICS: metrics_address = optarg; break;
        case OPT_HISTORY:
        case OPT_REMIND: {
            unsigned long v = strtoul(optarg, &end, 10);
            if (*end || !*optarg || v > 1000000 || (c == OPT_REMIND && v == 0)) {
                fprintf(stderr, "ldgsm run: %s needs a number%s, not '%s'\n", c == OPT_HISTORY ? "--history" : "--remind",
                        c == OPT_HISTORY ? " from 0 to 1000000" : " from 1 to 1000000", optarg);
                goto done;
            }
            if (c == OPT_HISTORY)
                opt.history = v ? (long)v : -1;
            else
                opt.remind_iterations = v;
            break;
        }
        case 'v': opt.verbose++; break;
        case 'h': fputs(run_usage, stdout); status = 0; goto done;
        default: fputs(run_usage, stderr); goto done;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "ldgsm run: unexpected argument '%s'\n", argv[optind]);
        goto done;
    }
    bool runs_gsm = opt.instance_count || opt.instance_container_count; /* before the shard takes its share */
    if (shard_count) {
        if (!runs_gsm && !opt.machine_count) {
            fputs("ldgsm run: --shard needs --instance, --instances-from or --machine (the instances it takes a "
                  "share of)\n", stderr);
            goto done;
        }
        size_t given = opt.instance_count + opt.machine_count;
        take_shard(opt.instances, &opt.instance_count, shard_index, shard_count);
        take_shard(opt.machines, &opt.machine_count, shard_index, shard_count);
        opt.shard_index = shard_index;
        opt.shard_count = shard_count;
        if (given)
            fprintf(stderr, "shard %u/%u: %zu of the %zu instances\n", shard_index, shard_count,
                    opt.instance_count + opt.machine_count, given);
        if (!opt.instance_count && !opt.machine_count && !opt.instance_container_count) {
            status = 0; /* a fleet larger than its work: this agent has none */
            goto done;
        }
    }
    runs_gsm = opt.instance_count || opt.instance_container_count;
    if (opt.until_complete && !runs_gsm) {
        fputs("ldgsm run: --until complete needs --instance or --instances-from\n", stderr);
        goto done;
    }
    if (opt.trace_path && strcmp(opt.trace_path, "-") == 0 && opt.dry_run) {
        fputs("ldgsm run: --trace - and --dry-run would both write to standard output\n", stderr);
        goto done;
    }
    if (opt.compat_authors_draft && !runs_gsm) {
        fputs("ldgsm run: --compat authors-draft needs --instance or --instances-from\n", stderr);
        goto done;
    }
    opt.own_programs = opt.program_count > 0;
    if (runs_gsm && shipped_add_gsm(&opt, &shipped, "ldgsm run") != 0) {
        status = 1;
        goto done;
    }
    if (opt.machine_count && shipped_add_wsm(&opt, &shipped, "ldgsm run") != 0) {
        status = 1;
        goto done;
    }
    if (!opt.program_count) {
        fputs("ldgsm run: no rule program (-p FILE)\n\n", stderr);
        fputs(run_usage, stderr);
        goto done;
    }
    log_sink log = {.write = log_to_stderr, .threshold = opt.verbose ? LOG_DEBUG : LOG_INFO,
                    .write_record = log_json ? log_json_to_stream : NULL, .user = stderr};
    char error[1024];
    /* before loading: a stop signal while the rules load ends the run cleanly, before its first iteration */
    cli_catch_stop_signals();
    watchers watch;
    watchers_open(&watch, &opt,
                  &(watchers_options){.gsm_instances = runs_gsm, .open_ended = opt.instance_container_count > 0,
                                      .compat_authors_draft = opt.compat_authors_draft, .verbose = opt.verbose > 0,
                                      .until_complete = opt.until_complete, .log = &log});
    agent_metrics *metrics = metrics_address ? xcalloc(1, sizeof *metrics) : NULL;
    metrics_listener *listener = NULL;
    agent *a = NULL;
    opt.metrics = metrics;
    if ((metrics && !(listener = metrics_listener_new(metrics_address, agent_metrics_render, metrics, error,
                                                      sizeof error))) ||
        (auth_path && !(opt.auth = agent_auth_start(&opt, auth_path, &log, error, sizeof error)))) {
        fprintf(stderr, "ldgsm run: %s\n", error);
        status = 1;
    } else if (!(a = agent_new(&opt, &log, error, sizeof error))) {
        fprintf(stderr, "ldgsm run: %s\n", error);
        status = 1;
    } else {
        log_event(&log, LOG_INFO, "start", NULL,
                  LOG_FIELDS(LOG_NUMBER("pid", getpid()), LOG_NUMBER("instances", opt.instance_count),
                             LOG_NUMBER("containers", opt.instance_container_count),
                             LOG_NUMBER("machines", opt.machine_count),
                             LOG_TEXT("metrics", listener ? metrics_listener_url(listener) : "")),
                  "start: pid %d, %zu instances, %zu containers of instances, %zu state machines%s%s", (int)getpid(),
                  opt.instance_count, opt.instance_container_count, opt.machine_count,
                  listener ? "; metrics at " : "", listener ? metrics_listener_url(listener) : "");
        status = agent_run(a);
        log_event(&log, LOG_INFO, "stop", NULL,
                  LOG_FIELDS(LOG_NUMBER("status", status), LOG_NUMBER("iterations", agent_iterations(a))),
                  "stop: exit status %d after %lu iterations%s", status, agent_iterations(a),
                  cli_stop_requested ? " (stopped by a signal)" : "");
        agent_free(a);
    }
    metrics_listener_free(listener);
    free(metrics);
    oidc_session_free(opt.auth);
    watchers_free(&watch);
done:
    for (size_t i = 0; i < opt.header_count; i++) {
        free(opt.headers[i].origin);
        free(opt.headers[i].name);
        free(opt.headers[i].value);
    }
    free(opt.headers);
    free(opt.programs);
    free(opt.inputs);
    free(opt.instances);
    free(opt.instance_containers);
    free(opt.machines);
    shipped_files_free(&shipped);
    free(opt.allow_origins);
    return status;
}
