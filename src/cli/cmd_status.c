/* cmd_status.c: `ldgsm status`: workflow instances shown as their models' trees (gsm/status_report.h), and
 * state machine instances as their states, inboxes and histories (wsm/wsm_status.h), from one read-only
 * iteration of the agent with the shipped GSM and machine rules (agent_options.observe: it crawls,
 * evaluates the sentries and derives, and sends nothing); with --watch, again every MS milliseconds. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agent/agent.h"
#include "cli/commands.h"
#include "cli/shipped.h"
#include "cli/watchers.h"
#include "http/oidc_token.h"
#include "gsm/status_report.h"
#include "rdf/buf.h"
#include "wsm/wsm_status.h"

static const char status_usage[] =
    "usage: ldgsm status URI... [--json] [--watch [MS]] [--count N] [--history N] [options]\n"
    "\n"
    "Shows each workflow instance (e.g. http://host/status/alarm1#it) as its model's tree: every stage's\n"
    "state (active, inactive, uninitialized) and completion, every milestone (achieved or not), named by\n"
    "the model (rdfs:label, else the model IRI's fragment), the stages' call records, and:\n"
    "  - for a stage that is not active, why it does not open: the workflow is not set up, its parent is\n"
    "    not active, it is completed, or, for each guard, whether its sentry holds for this instance and\n"
    "    what each resource the sentry reads answered;\n"
    "  - for an active stage, likewise the sentries of the milestones that would close it;\n"
    "  - 'held:' lines when the instance's writes are held back (a read failed, set-up waits, its model is\n"
    "    refused by `ldgsm lint`, with every error lint finds, as `ldgsm run` lints it), and 'waiting:'\n"
    "    lines when it cannot go on (a stage's arguments have no solution yet);\n"
    "  - an mi's copies (pat:copyIndex) in copy order, only those spawned (pat:spawned on the mi's stage\n"
    "    instance; none before it opens), then a line 'K of its N copies spawned';\n"
    "  - the last transitions of the status document's history (a flag's first value, false, written at\n"
    "    set-up, is left out: no '(none) -> not completed').\n"
    "It only reads (GET), with the agent's own crawl and the shipped GSM rules, so it works on any LDP\n"
    "server, beside running agents.\n"
    "\n"
    "A state machine instance (its document says wsm:instanceOf, e.g. http://host/documents/doc1#it) is\n"
    "read with the shipped machine rules, as `ldgsm run --machine` reads it, and shown as: its schema, its\n"
    "current state, each variable's value, 'waits:' and 'held:' lines when the rules say why it waits or\n"
    "its schema is refused by `ldgsm lint` or is not exactly defined at its state for its next event, the\n"
    "events waiting in its inbox in the order they will be taken (the event each names; for the first,\n"
    "what taking it will do), and the last events taken from its history (sequence, time, event, from ->\n"
    "to, outcome, reason, the conditions that did not hold).\n"
    "\n"
    "A read's outcome: NNN (data) for 2xx; 404 or 410 (empty: the resource does not exist, which the rules\n"
    "read as no triples); 406 or 415 (unsupported); any other status (failed: the agent holds the\n"
    "instance's writes); KIND (no answer) for a timeout, a connect failure, a reset...; NNN (RDF that does\n"
    "not parse).\n"
    "\n"
    "options:\n"
    "      --json              one JSON object per instance and line, instead of text (below)\n"
    "      --watch [MS]        read again every MS milliseconds (default 1000), and at once when a\n"
    "                          document read changes on a server that offers Solid Notifications\n"
    "                          (WebSocketChannel2023 in the description of its storage, as `ldgsm run\n"
    "                          --notifications` finds it), and print again when\n"
    "                          what is shown changed: on a terminal the screen is redrawn, otherwise each\n"
    "                          new state follows a line '---' (with --json, the objects follow each other);\n"
    "                          until SIGINT or SIGTERM\n"
    "      --count N           with --watch: stop after N reads\n"
    "      --history N         show the last N transitions (default 5; 0: none)\n"
    "      --compat authors-draft\n"
    "                          also read models in the GSM paper authors' draft vocabulary\n"
    "  -p, --program FILE      an N3 rule program of your own, as `ldgsm run` loads it (repeatable)\n"
    "  -i, --input FILE        RDF data asserted in the iteration (repeatable)\n"
    "      --auth FILE         read as a Solid client, as `ldgsm run --auth FILE` (its help says more)\n"
    "      --connect-timeout MS  give up connecting after MS (default 2000)\n"
    "      --timeout MS        give up a request after MS (default 10000)\n"
    "  -v, --verbose           the agent's log lines on standard error\n"
    "  -h, --help              this text\n"
    "\n"
    "JSON (one object per instance):\n"
    "  {\"instance\": IRI, \"error\": null or why it cannot be shown, \"model\": IRI, \"held\": [text],\n"
    "   \"waiting\": [text],\n"
    "   \"root\": STAGE, \"transitionsRecorded\": N, \"history\": [TRANSITION]}\n"
    "  STAGE: {\"model\": IRI, \"name\", \"fragment\": IRI or null (not set up), \"state\", \"completed\": bool,\n"
    "   \"milestones\": [{\"model\", \"name\", \"fragment\", \"achieved\": bool, \"achievingSentries\": [SENTRY]\n"
    "   (for an active stage's unachieved milestones)}],\n"
    "   \"calls\": [{\"record\", \"state\", \"alternative\", \"alternatives\", \"request\", \"retriesLeft\",\n"
    "   \"deadline\", \"lastFailure\", \"answerStatus\"}],\n"
    "   \"whyNot\": null (active) or {\"reason\": \"not set up\" | \"workflow complete\" | \"parent not active\" |\n"
    "   \"completed\" | \"no guard\" | \"no guard holds\" | \"a guard holds\" (it opens in an agent's next\n"
    "   iteration unless its writes are held), \"parent\": name or null, \"guards\": [{\"guard\": IRI,\n"
    "   \"name\", \"conditions\": [SENTRY]}]}, \"children\": [STAGE] (an mi's: the copies spawned),\n"
    "   \"copies\": N or null (not an mi), \"copiesSpawned\": N or null}\n"
    "  SENTRY: {\"sentry\": IRI or null, \"description\", \"holds\": bool or null (not evaluated), \"verdict\",\n"
    "   \"byRules\": bool, \"reads\": [{\"resource\": IRI, \"container\": bool, \"status\": N or null,\n"
    "   \"failure\": kind or null, \"outcome\": \"data\" | \"empty\" | \"unsupported\" | \"failed\" | \"no answer\" |\n"
    "   \"unparsable\" | \"not read\"}]}\n"
    "  TRANSITION: {\"sequence\", \"at\", \"changed\": IRI, \"name\", \"property\": IRI, \"from\": [value],\n"
    "   \"to\": [value]}; gsm: and ldgsm: values by their local names. Absent numbers are null.\n"
    "  A state machine instance: {\"instance\", \"error\", \"schema\": IRI, \"schemaName\", \"state\": IRI or\n"
    "   null (not set up), \"stateName\", \"taken\", \"variables\": [{\"variable\", \"variableName\", \"value\"}],\n"
    "   \"waits\": [text], \"held\": [text], \"inbox\", \"waiting\": [{\"resource\", \"events\": [{\"event\",\n"
    "   \"eventName\"}], \"unread\", \"next\"}], \"entriesRecorded\", \"history\": [{\"sequence\", \"at\",\n"
    "   \"eventResource\", \"event\", \"eventName\", \"from\", \"fromName\", \"to\", \"toName\", \"outcome\",\n"
    "   \"reason\", \"firedTransition\", \"firedTransitionName\", \"failedConditions\": [{\"condition\",\n"
    "   \"conditionName\"}]}]}\n"
    "\n"
    "exit status: 0 shown; 1 an instance or its model (schema) could not be read (the reason is shown); 2 usage\n"
    "             error; 6 an instance is held or waiting (its held:, waiting: or waits: line says why), as\n"
    "             an `ldgsm run --until` ending then exits\n";

static void push(char ***list, size_t *count, char *item) {
    *list = xrealloc(*list, (*count + 1) * sizeof **list);
    (*list)[(*count)++] = item;
}

static void log_to_stderr(void *user, enum log_level level, const char *message) {
    (void)user;
    static const char *const prefix[] = {"error: ", "warning: ", "", ""};
    fprintf(stderr, "ldgsm status: %s%s\n", prefix[level], message);
}

static bool read_outcome(void *user, const char *iri, status_read *out) {
    agent_read r;
    if (!agent_read_outcome(user, iri, &r))
        return false;
    *out = (status_read){.status = r.status, .failure = r.failure, .unparsable = r.unparsable,
                         .parse_error = r.parse_error};
    return true;
}

static bool is_machine(const agent_options *opt, const char *uri) {
    for (size_t i = 0; i < opt->machine_count; i++)
        if (opt->machines[i] == uri)
            return true;
    return false;
}

/* One read of every instance (uris, in the order given), rendered into out. Returns the exit status it
 * calls for: 1 when an instance cannot be shown, else 6 when one is held or waiting, else 0. */
static int observe(agent *a, const agent_options *opt, char **uris, size_t uri_count, unsigned history, bool json,
                   buf *out) {
    iteration_stats stats;
    int rc = agent_iterate(a, &stats);
    if (rc == -2)
        return 1; /* the agent said why (an instance in the authors' draft vocabulary) */
    int status = rc == 0 ? 0 : 1;
    for (size_t i = 0; i < uri_count; i++) {
        if (is_machine(opt, uris[i])) {
            wsm_status_input in = {.t = agent_terms(a), .wm = agent_memory(a), .instance = uris[i],
                                   .history = history};
            int shown = (json ? wsm_status_json : wsm_status_text)(&in, out);
            if (shown && status != 1)
                status = shown;
            continue;
        }
        status_input in = {.t = agent_terms(a), .wm = agent_memory(a), .instance = uris[i],
                           .read = read_outcome, .read_user = a, .history = history};
        status_report *r = status_report_build(&in);
        if (status_report_error(r))
            status = 1;
        else if (status_report_waits(r) && status == 0)
            status = 6;
        if (json)
            status_report_json(r, out);
        else
            status_report_text(r, out);
        status_report_free(r);
    }
    return status;
}

static bool parse_count(const char *text, unsigned long *out) {
    char *end;
    *out = strtoul(text, &end, 10);
    return *text >= '0' && *text <= '9' && !*end;
}

int cmd_status(int argc, char **argv) {
    shipped_files shipped = {0};
    enum { OPT_JSON = 256, OPT_WATCH, OPT_COUNT, OPT_HISTORY, OPT_COMPAT, OPT_CONNECT_TIMEOUT, OPT_TIMEOUT, OPT_AUTH };
    static const struct option options[] = {
        {"json", no_argument, NULL, OPT_JSON},
        {"watch", no_argument, NULL, OPT_WATCH},
        {"count", required_argument, NULL, OPT_COUNT},
        {"history", required_argument, NULL, OPT_HISTORY},
        {"compat", required_argument, NULL, OPT_COMPAT},
        {"program", required_argument, NULL, 'p'},
        {"input", required_argument, NULL, 'i'},
        {"connect-timeout", required_argument, NULL, OPT_CONNECT_TIMEOUT},
        {"timeout", required_argument, NULL, OPT_TIMEOUT},
        {"auth", required_argument, NULL, OPT_AUTH},
        {"verbose", no_argument, NULL, 'v'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    agent_options opt = {.observe = true, .stop = &cli_stop_requested};
    const char *auth_path = NULL; /* --auth */
    bool json = false, watch = false;
    unsigned long watch_ms = 1000, count = 0, history = 5;
    int status = 2;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, "p:i:vh", options, NULL)) != -1) {
        unsigned long value;
        switch (c) {
        case OPT_JSON: json = true; break;
        case OPT_WATCH:
            watch = true;
            /* an optional MS in the next argument (a URI is never all digits) */
            if (optind < argc && parse_count(argv[optind], &value)) {
                if (value == 0) {
                    fputs("ldgsm status: --watch needs a positive number of milliseconds\n", stderr);
                    goto done;
                }
                watch_ms = value;
                optind++;
            }
            break;
        case OPT_COUNT:
        case OPT_HISTORY:
        case OPT_CONNECT_TIMEOUT:
        case OPT_TIMEOUT:
            if (!parse_count(optarg, &value) || value > 4000000000UL || (value == 0 && c != OPT_HISTORY)) {
                const char *name = c == OPT_COUNT ? "--count" : c == OPT_HISTORY ? "--history"
                                   : c == OPT_TIMEOUT ? "--timeout" : "--connect-timeout";
                fprintf(stderr, "ldgsm status: %s needs a %s number, not '%s'\n", name,
                        c == OPT_HISTORY ? "non-negative" : "positive", optarg);
                goto done;
            }
            if (c == OPT_COUNT)
                count = value;
            else if (c == OPT_HISTORY)
                history = value;
            else if (c == OPT_TIMEOUT)
                opt.timeout_ms = (long)value;
            else
                opt.connect_timeout_ms = (long)value;
            break;
        case OPT_COMPAT:
            if (strcmp(optarg, "authors-draft") != 0) {
                fprintf(stderr, "ldgsm status: --compat takes authors-draft, not '%s'\n", optarg);
                goto done;
            }
            opt.compat_authors_draft = true;
            break;
        case OPT_AUTH: auth_path = optarg; break;
        case 'p': push(&opt.programs, &opt.program_count, optarg); break;
        case 'i': push(&opt.inputs, &opt.input_count, optarg); break;
        case 'v': opt.verbose++; break;
        case 'h': fputs(status_usage, stdout); status = 0; goto done;
        default: fputs(status_usage, stderr); goto done;
        }
    }
    log_sink log = {.write = log_to_stderr, .threshold = opt.verbose ? LOG_DEBUG : LOG_ERROR};
    char error[1024];
    if (auth_path && optind < argc) { /* the tokens go to the URIs' origins, whichever kind each turns out to be */
        agent_options uris = {.instances = argv + optind, .instance_count = optind < argc ? (size_t)(argc - optind) : 0};
        if (!(opt.auth = agent_auth_start(&uris, auth_path, &log, error, sizeof error))) {
            fprintf(stderr, "ldgsm status: %s\n", error);
            status = 1;
            goto done;
        }
    }
    http_auth hook = opt.auth ? oidc_session_hook(opt.auth) : (http_auth){0};
    /* a state machine instance (its document says wsm:instanceOf) is read as `ldgsm run --machine` reads it */
    for (int i = optind; i < argc; i++) {
        if (wsm_status_is_machine(argv[i], opt.connect_timeout_ms, opt.timeout_ms, &hook))
            push(&opt.machines, &opt.machine_count, argv[i]);
        else
            push(&opt.instances, &opt.instance_count, argv[i]);
    }
    if (optind >= argc) {
        fputs("ldgsm status: no instance URI\n\n", stderr);
        fputs(status_usage, stderr);
        goto done;
    }
    if (count && !watch) {
        fputs("ldgsm status: --count needs --watch\n", stderr);
        goto done;
    }
    opt.reads_history = history > 0; /* transitions moved to an archive (--archive-history) are shown too */
    if ((opt.instance_count && shipped_add_gsm(&opt, &shipped, "ldgsm status") != 0) ||
        (opt.machine_count && shipped_add_wsm(&opt, &shipped, "ldgsm status") != 0)) {
        status = 1;
        goto done;
    }
    if (watch)
        cli_catch_stop_signals();
    /* the models and schemas linted as `ldgsm run` lints them, so that a refused one shows as held */
    watchers watchers_of;
    watchers_open(&watchers_of, &opt,
                  &(watchers_options){.gsm_instances = opt.instance_count > 0, .open_ended = true,
                                      .compat_authors_draft = opt.compat_authors_draft, .status_only = true,
                                      .log = &log});
    /* --watch reads again at once when a document read changes, where its server notifies (a change of
     * many documents at once is one read: the burst settles first) */
    opt.notifications = watch;
    opt.settle_ms = 20;
    agent *a = agent_new(&opt, &log, error, sizeof error);
    if (!a) {
        fprintf(stderr, "ldgsm status: %s\n", error);
        status = 1;
        goto unwatch;
    }
    bool terminal = isatty(STDOUT_FILENO);
    buf shown = {0};
    bool first = true;
    status = 0; /* a stop signal before the first read is shown ends with 0 */
    for (unsigned long reads = 0; !cli_stop_requested;) {
        buf now = {0};
        int rc = observe(a, &opt, argv + optind, (size_t)(argc - optind), (unsigned)history, json, &now);
        if (watch && cli_stop_requested) {
            buf_free(&now); /* cut short by the signal: not what the servers hold */
            break;
        }
        status = rc;
        if (first || now.len != shown.len || memcmp(now.data, shown.data, now.len) != 0) {
            if (watch && terminal && !json)
                fputs("\033[H\033[2J", stdout); /* cursor home, clear the screen */
            else if (!first && !json)
                fputs("---\n", stdout);
            fwrite(now.data ? now.data : "", 1, now.len, stdout);
            fflush(stdout);
            buf_free(&shown);
            shown = now;
            first = false;
        } else {
            buf_free(&now);
        }
        if (!watch || (count && ++reads >= count))
            break;
        agent_pause(a, (long)watch_ms);
    }
    buf_free(&shown);
    agent_free(a);
unwatch:
    watchers_free(&watchers_of);
done:
    free(opt.programs);
    free(opt.inputs);
    free(opt.instances);
    free(opt.machines);
    oidc_session_free(opt.auth);
    shipped_files_free(&shipped);
    return status;
}
