/* cmd_serve.c: `ldgsm serve`: runs the embedded LDP server (src/ldp) until SIGINT or SIGTERM.
 *
 * Start-up order: bind the socket (so --port 0 knows its port and the base URL), open the store with
 * that base, seed fixtures, start serving, and only then print the base URL on standard output: a
 * script that has read the first line can use the server. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "agent/body.h"
#include "cli/serve_page.h"
#include "cli/shipped.h"
#include "ldp/ldp_fixtures.h"
#include "ldp/ldp_notify.h"
#include "ldp/ldp_path.h"
#include "ldp/ldp_server.h"
#include "ldp/ldp_store.h"
#include "rdf/log_json.h"
#include "rdf/rdfio.h"

static const char serve_usage[] =
    "usage: ldgsm serve [--host ADDR] [--port N] [--data DIR | --memory] [--fixtures DIR] [options]\n"
    "\n"
    "Runs an LDP server (W3C LDP 1.0 Basic Containers and RDF sources) until SIGINT or SIGTERM.\n"
    "A path ending in '/' is a container: POST creates a member in it (Slug honoured when it is free\n"
    "and safe; 'Link: <http://www.w3.org/ns/ldp#BasicContainer>; rel=\"type\"' creates a container),\n"
    "PUT creates or replaces (missing parent containers are created), DELETE removes (a container only\n"
    "when empty), PATCH applies a Solid N3 Patch (text/n3: solid:InsertDeletePatch; creates when absent;\n"
    "409 when solid:where does not match exactly once or a deletion is absent, 422 when malformed).\n"
    "Bodies are Turtle, N-Triples or RDF/XML; relative IRIs\n"
    "resolve against the resource written (for POST, the new member); a body that does not parse is\n"
    "refused with its line and column. Representations: Turtle (preferred), N-Triples, or 406.\n"
    "ETags are strong (a hash of the stored bytes and the media type); every write honours If-Match\n"
    "and If-None-Match ('If-None-Match: *' is a create-only PUT; a POST's are on the container).\n"
    "Representations carry Last-Modified (kept with --data); GET and HEAD honour If-None-Match, or\n"
    "If-Modified-Since without it (304). A name POST made is never made again, even after a DELETE;\n"
    "without a usable Slug it sorts after every name made before, so members list in arrival order.\n"
    "A write refused for a server constraint links them (rel=ldp#constrainedBy, served read-only at\n"
    "/.well-known/ldgsm-constraints). A request target in absolute form naming this server is served\n"
    "as its path. Path segments beginning with '.' are refused (400): such names are the store's.\n"
    "The server is one Solid storage: the root is typed pim:Storage (Link rel=type), and answers to\n"
    "GET, HEAD and OPTIONS link its description (rel=solid#storageDescription, served read-only at\n"
    "/.well-known/solid in Turtle, N-Triples or RDF/XML).\n"
    "A PUT, POST or DELETE with an Idempotency-Key header (\"KEY\" or a bare token, 1..255 characters;\n"
    "400 otherwise) is executed once: sent again with the same method, path, Content-Type and body it\n"
    "gets the first answer again (status, headers, body; 'Idempotent-Replayed: true') without being\n"
    "executed, even if the resource has changed since; under another request the key gets 422, and\n"
    "409 while the first is still executing. 2xx and 4xx answers are kept, 5xx answers are not (a\n"
    "re-send executes again).\n"
    "Solid Notifications (WebSocketChannel2023, WebhookChannel2023 and StreamingHTTPChannel2023, as\n"
    "Community Solid Server 7.2 offers them): the storage description names the subscription service\n"
    "/.notifications/WebSocketChannel2023/ (notify:subscription; features endAt, rate, startAt, state).\n"
    "POST it an application/ld+json subscription, e.g.\n"
    "{\"@context\":[\"https://www.w3.org/ns/solid/notification/v1\"],\"type\":\n"
    "\"http://www.w3.org/ns/solid/notifications#WebSocketChannel2023\",\"topic\":\"BASE/doc\",\"state\":ETAG}\n"
    "(no token needed; the topic need not exist yet): 200 with the channel's JSON-LD (id, receiveFrom: a\n"
    "ws:// URL on the notifications port, endAt); 415, 413 or 422 (why in the body) for a bad request, 429\n"
    "when a channel bound is reached. A socket connected to receiveFrom gets, at once, an Update (or a\n"
    "Delete) when the given state is not the topic's ETag, then one JSON-LD activity per change of the\n"
    "topic: Create, Update, Delete, or on a container Add and Remove of a member (object the member, target\n"
    "the container), each with the new ETag as state (quotes included) and the time published. DELETE of a\n"
    "channel's id unsubscribes (205). Changes while no socket is connected are not kept.\n"
    "WebhookChannel2023 the same way, at /.notifications/WebhookChannel2023/ (also in the storage\n"
    "description), the subscription with \"sendTo\":\"http://HOST:PORT/PATH\" (http or https): each activity\n"
    "is POSTed there as application/ld+json (first the current state when the given state is stale), one\n"
    "at a time per channel, in write order, with no signature (CSS signs its POSTs; a notification only\n"
    "says what to read again). A receiver answering 404 or 410, or failing 3 times in a row (no\n"
    "connection, another non-2xx, 5 s without an answer; a retry every 0.5 s), loses its channel.\n"
    "StreamingHTTPChannel2023: every resource's answer links (rel\n"
    "\"http://www.w3.org/ns/solid/terms#updatesViaStreamingHttp2023\") /.notifications/\n"
    "StreamingHTTPChannel2023/ENC, ENC the resource's IRI percent-encoded whole; a GET of it streams\n"
    "text/turtle: the current state (an Update, or a Delete), then one Turtle document per activity, until\n"
    "--channel-lifetime passes.\n"
    "GET /.well-known/ldgsm is a read-only HTML console of the workflow instances the server holds: the\n"
    "count in each state (not set up, active, retrying: a call retried after a failure, call exhausted,\n"
    "completed, inactive), a filter by state, model and text (query parameters state, model, text), pages\n"
    "of 50 (page=N), and a row per instance with why it waits (the held:, waiting:, not set up lines of\n"
    "`ldgsm status` and its calls not answered: retries left, deadline, last failure), read from the\n"
    "documents the server holds, sentries not evaluated. ?instance=IRI is the instance's own page: its\n"
    "stages' states, its drawing as `ldgsm draw` makes it (when the server holds its model) and its\n"
    "status with the last 10 transitions. With notifications it updates on every change: its script\n"
    "subscribes to the storage root, the shown instances' containers and documents, then the other\n"
    "containers (at most --page-channels), and fetches the page again after a notification (one fetch\n"
    "for a burst); while a document is not followed (beyond --page-channels, a subscription refused, a\n"
    "socket closed) it also reloads every --page-refresh seconds, and says so. Without notifications it\n"
    "reloads every --page-refresh seconds. The server reads the documents for the page in the background:\n"
    "each once when it starts, then each one written; a page reads at most 16 itself (written since they\n"
    "were read: the page after a write shows it). Until all are read (1-3 ms per 40 KB document after\n"
    "a start) the page shows the instances read so far, says so (\"reading the server's documents: K of N\n"
    "read\") and reloads every --page-refresh seconds; /metrics counts the documents read and left.\n"
    "Other methods on it get 405.\n"
    "GET /metrics answers the server's metrics in the Prometheus text format (requests by method and\n"
    "status, bytes received and sent, open connections, Idempotency-Key answers held, notification\n"
    "channels by type, the instances page's documents read and left to read): with a token (--token-file,\n"
    "LDGSM_TOKEN, --token) only to a request bearing it (401 otherwise); without one only to clients on\n"
    "this machine (loopback addresses; 403 otherwise).\n"
    "No resource /metrics can be written (405).\n"
    "\n"
    "options:\n"
    "  --host ADDR               address to listen on (default 127.0.0.1)\n"
    "  --port N                  port (default 8080); 0 picks a free port\n"
    "  --data DIR                keep resources in DIR, durably: a file per resource, a directory per\n"
    "                            container, each write fsync'd before it is answered (a crash leaves\n"
    "                            every resource old or new, never torn); created if missing; read back\n"
    "                            on start, symbolic links in it skipped (never followed) with a warning\n"
    "  --memory                  keep resources in memory only (the default when --data is not given)\n"
    "  --fixtures DIR            seed from DIR (an ldp-fixtures/NAME folder: a folder is a container, a\n"
    "                            file a Turtle resource) without replacing what --data already holds\n"
    "  --fixtures-overwrite      let --fixtures replace resources --data already holds (default: keep)\n"
    "  --token-file FILE         writes (PUT, POST, PATCH, DELETE) need 'Authorization: Bearer T' (401\n"
    "                            otherwise), T being FILE's first line; reads stay open (default: the\n"
    "                            environment variable LDGSM_TOKEN when set, else no token: anyone may write)\n"
    "  --token T                 the same with T given here, where anyone who can list processes sees it\n"
    "                            (a warning says so); prefer --token-file or LDGSM_TOKEN\n"
    "  --require-conditional     answer 428 to a PUT, PATCH or DELETE of an existing resource that has\n"
    "                            neither If-Match nor If-None-Match (default: off)\n"
    "  --require-conditional=PREFIX\n"
    "                            the same, only for paths beginning with PREFIX (repeatable)\n"
    "  --max-body BYTES          largest request body; larger ones get 413 (default 16777216)\n"
    "  --idempotency-ttl SECONDS\n"
    "                            keep an Idempotency-Key's answer this long (default 86400); with --data\n"
    "                            the answers are kept durably in DIR/.idempotency and read back on start\n"
    "  --idempotency-max N       keep at most N keys' answers, dropping the oldest (default 100000)\n"
    "  --threads N               request threads (default: the CPUs this process may run on)\n"
    "  --max-connections-per-client N\n"
    "                            open connections from one client address; more are closed as soon as\n"
    "                            they are accepted (default 64)\n"
    "  --max-connections N       open connections in all (at least one per thread); more wait in the\n"
    "                            listen queue (default 1000). When a connection opens with fewer than\n"
    "                            N/16 free, the connections waiting longest for a request head (from\n"
    "                            the addresses holding the most first), then the slowest bodies, are\n"
    "                            closed to keep room for new clients\n"
    "  --idle-timeout SECONDS    close a connection idle this long (default 15)\n"
    "  --head-timeout SECONDS    close a connection whose request head (request line and headers) is not\n"
    "                            complete this long after the connection opened, or after the first\n"
    "                            byte of a later request on it (default 10)\n"
    "  --body-min-rate BYTES     close a connection whose request body averages fewer BYTES per second,\n"
    "                            once --body-grace has passed (default 1024)\n"
    "  --body-grace SECONDS      the time a body has before --body-min-rate applies (default 5)\n"
    "  --cors-origin ORIGIN      let scripts of web pages from ORIGIN (e.g. https://app.example) use the\n"
    "                            server (CORS), repeatable; '*' any origin. Default: any origin (as\n"
    "                            Community Solid Server); the origin is echoed, preflights (OPTIONS)\n"
    "                            answer 204 on any path\n"
    "  --no-access-log           leave out the per-request lines on standard error\n"
    "  --log-format F            text (default) or json: every line on standard error, access log included,\n"
    "                            one JSON object (keys time, level, event, message, then the event's own:\n"
    "                            docs/guide/logs-and-metrics.md)\n"
    "  --notifications-port N    port of the notification sockets, on the same address (default 0: any free\n"
    "                            port; receiveFrom names it)\n"
    "  --no-notifications        no notifications: the storage description lists no service, and\n"
    "                            /.notifications/ is not served\n"
    "  --max-channels N          notification channels held at once, a socket each (default 1000, as\n"
    "                            --max-connections); more subscriptions get 429\n"
    "  --max-channels-per-client N\n"
    "                            channels one client address may hold (default 250: a quarter, so one\n"
    "                            client cannot take them all); more get 429\n"
    "  --channel-lifetime SECONDS\n"
    "                            a channel ends this long after its subscription at the latest (a later\n"
    "                            endAt is cut to it), its socket closed (default 3600)\n"
    "  --channel-connect-timeout SECONDS\n"
    "                            a channel whose socket has not connected (or closed and did not\n"
    "                            reconnect) for this long is dropped (default 30)\n"
    "  --page-refresh SECONDS    how often the instances page reloads where notifications do not tell it\n"
    "                            of changes (default 2)\n"
    "  --page-channels N         notification channels one instances page may hold, of the client's\n"
    "                            --max-channels-per-client (default 16)\n"
    "  --max-webhook-channels N  webhook channels held at once (default 10000); each holds no socket,\n"
    "                            only memory: about 430 bytes with a 35-byte topic and a 41-byte\n"
    "                            sendTo. An agent subscribing to 100000 documents needs\n"
    "                            --max-webhook-channels 100000 --max-webhook-channels-per-client 100000\n"
    "                            (about 45 MB). More get 429\n"
    "  --max-webhook-channels-per-client N\n"
    "                            webhook channels one client address may hold (default 2500); more get 429\n"
    "  --max-streams N           streams open at once, a connection each (default a quarter of\n"
    "                            --max-connections); more get 429\n"
    "  --max-streams-per-client N\n"
    "                            streams one client address may hold open (default a quarter of\n"
    "                            --max-connections-per-client); more get 429\n"
    "  --channel-max-queued BYTES\n"
    "                            a channel (of any type) whose undelivered notifications pass this is\n"
    "                            dropped, its socket or stream closed; its subscriber subscribes again\n"
    "                            with its state (default 262144, at least 4096)\n"
    "  -h, --help                this text\n"
    "\n"
    "The first line on standard output is the base URL (e.g. http://127.0.0.1:8080/), printed once the\n"
    "server accepts requests. Standard error has one line per request (the access log): method, path,\n"
    "status, body bytes, microseconds, and for a write with an Idempotency-Key the key and whether the\n"
    "answer was executed or replayed (or in-flight, mismatch, invalid). Connections closed for being\n"
    "slow are summed up in one warning line at most every 5 seconds: each client address with how many\n"
    "were closed and why.\n"
    "\n"
    "exit status: 0 stopped by a signal, 1 cannot start (port, data directory, fixtures), 2 usage error\n";

enum {
    OPT_HOST = 256,
    OPT_PORT,
    OPT_DATA,
    OPT_MEMORY,
    OPT_FIXTURES,
    OPT_FIXTURES_OVERWRITE,
    OPT_TOKEN,
    OPT_REQUIRE_CONDITIONAL,
    OPT_MAX_BODY,
    OPT_THREADS,
    OPT_NO_ACCESS_LOG,
    OPT_IDEMPOTENCY_TTL,
    OPT_IDEMPOTENCY_MAX,
    OPT_TOKEN_FILE,
    OPT_MAX_CONNECTIONS_PER_CLIENT,
    OPT_MAX_CONNECTIONS,
    OPT_IDLE_TIMEOUT,
    OPT_CORS_ORIGIN,
    OPT_HEAD_TIMEOUT,
    OPT_BODY_MIN_RATE,
    OPT_BODY_GRACE,
    OPT_NOTIFICATIONS_PORT,
    OPT_NO_NOTIFICATIONS,
    OPT_MAX_CHANNELS,
    OPT_MAX_CHANNELS_PER_CLIENT,
    OPT_CHANNEL_LIFETIME,
    OPT_CHANNEL_CONNECT_TIMEOUT,
    OPT_PAGE_REFRESH,
    OPT_PAGE_CHANNELS,
    OPT_MAX_WEBHOOK_CHANNELS,
    OPT_MAX_WEBHOOK_CHANNELS_PER_CLIENT,
    OPT_MAX_STREAMS,
    OPT_MAX_STREAMS_PER_CLIENT,
    OPT_CHANNEL_MAX_QUEUED,
    OPT_LOG_FORMAT,
};

typedef struct serve_options {
    ldp_server_config server;
    const char *data_dir;
    bool memory;
    const char *fixtures;
    bool fixtures_overwrite;
    char **prefixes; /* decoded --require-conditional prefixes */
    size_t prefix_count;
    const char *token_file;
    char *token_from_file; /* what server.token points at when --token-file gave it */
    const char **cors_origins;
    size_t cors_origin_count;
    unsigned page_refresh, page_channels; /* gsm_page_config's */
    log_sink log;                         /* the server's diagnostics, start and stop (--log-format) */
} serve_options;

/* The text form: the server's own lines as "ldgsm serve: ...", diagnostics as "ldgsm: LEVEL: ...". */
static void log_to_stderr(void *user, enum log_level level, const char *message) {
    if (level == LOG_INFO)
        fprintf(user, "ldgsm serve: %s\n", message);
    else
        fprintf(user, "ldgsm: %s: %s\n", log_level_name(level), message);
}

static bool parse_number(const char *text, unsigned long long max, unsigned long long *out) {
    char *end;
    if (!*text || *text == '-')
        return false;
    unsigned long long value = strtoull(text, &end, 10);
    if (*end || value > max)
        return false;
    *out = value;
    return true;
}

static unsigned available_cpus(void) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return (unsigned)CPU_COUNT(&set);
    return 1;
}

/* Settles the write token: --token-file's first line, else --token (with a warning: it shows in the
 * process list), else LDGSM_TOKEN. Returns 0, or -1 after printing why. */
static int take_token(serve_options *o) {
    if (o->token_file && o->server.token) {
        fputs("ldgsm serve: --token and --token-file exclude each other\n", stderr);
        return -1;
    }
    if (o->token_file) {
        size_t len;
        char *text = read_file(o->token_file, &len);
        if (!text) {
            fprintf(stderr, "ldgsm serve: --token-file %s: %s\n", o->token_file, strerror(errno));
            return -1;
        }
        text[strcspn(text, "\r\n")] = '\0';
        o->token_from_file = text;
        o->server.token = text;
        if (!*text) {
            fprintf(stderr, "ldgsm serve: --token-file %s: the first line is empty\n", o->token_file);
            return -1;
        }
    } else if (o->server.token) {
        fputs("ldgsm serve: warning: --token shows the token in the process list; prefer --token-file or "
              "LDGSM_TOKEN\n",
              stderr);
    } else {
        const char *from_env = getenv("LDGSM_TOKEN");
        if (from_env && *from_env)
            o->server.token = from_env;
    }
    return 0;
}

/* Returns 0, or 2 after printing a usage error. */
static int parse_options(int argc, char **argv, serve_options *o) {
    static const struct option long_options[] = {
        {"host", required_argument, NULL, OPT_HOST},
        {"port", required_argument, NULL, OPT_PORT},
        {"data", required_argument, NULL, OPT_DATA},
        {"memory", no_argument, NULL, OPT_MEMORY},
        {"fixtures", required_argument, NULL, OPT_FIXTURES},
        {"fixtures-overwrite", no_argument, NULL, OPT_FIXTURES_OVERWRITE},
        {"token", required_argument, NULL, OPT_TOKEN},
        {"require-conditional", optional_argument, NULL, OPT_REQUIRE_CONDITIONAL},
        {"max-body", required_argument, NULL, OPT_MAX_BODY},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"no-access-log", no_argument, NULL, OPT_NO_ACCESS_LOG},
        {"idempotency-ttl", required_argument, NULL, OPT_IDEMPOTENCY_TTL},
        {"idempotency-max", required_argument, NULL, OPT_IDEMPOTENCY_MAX},
        {"token-file", required_argument, NULL, OPT_TOKEN_FILE},
        {"max-connections-per-client", required_argument, NULL, OPT_MAX_CONNECTIONS_PER_CLIENT},
        {"max-connections", required_argument, NULL, OPT_MAX_CONNECTIONS},
        {"idle-timeout", required_argument, NULL, OPT_IDLE_TIMEOUT},
        {"cors-origin", required_argument, NULL, OPT_CORS_ORIGIN},
        {"head-timeout", required_argument, NULL, OPT_HEAD_TIMEOUT},
        {"body-min-rate", required_argument, NULL, OPT_BODY_MIN_RATE},
        {"body-grace", required_argument, NULL, OPT_BODY_GRACE},
        {"notifications-port", required_argument, NULL, OPT_NOTIFICATIONS_PORT},
        {"no-notifications", no_argument, NULL, OPT_NO_NOTIFICATIONS},
        {"max-channels", required_argument, NULL, OPT_MAX_CHANNELS},
        {"max-channels-per-client", required_argument, NULL, OPT_MAX_CHANNELS_PER_CLIENT},
        {"channel-lifetime", required_argument, NULL, OPT_CHANNEL_LIFETIME},
        {"channel-connect-timeout", required_argument, NULL, OPT_CHANNEL_CONNECT_TIMEOUT},
        {"page-refresh", required_argument, NULL, OPT_PAGE_REFRESH},
        {"page-channels", required_argument, NULL, OPT_PAGE_CHANNELS},
        {"max-webhook-channels", required_argument, NULL, OPT_MAX_WEBHOOK_CHANNELS},
        {"max-webhook-channels-per-client", required_argument, NULL, OPT_MAX_WEBHOOK_CHANNELS_PER_CLIENT},
        {"max-streams", required_argument, NULL, OPT_MAX_STREAMS},
        {"max-streams-per-client", required_argument, NULL, OPT_MAX_STREAMS_PER_CLIENT},
        {"channel-max-queued", required_argument, NULL, OPT_CHANNEL_MAX_QUEUED},
        {"log-format", required_argument, NULL, OPT_LOG_FORMAT},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    o->server.host = "127.0.0.1";
    o->server.port = 8080;
    o->server.max_body = 16u << 20;
    o->server.threads = available_cpus();
    o->server.access_log = stderr;
    o->server.metrics = true;
    o->log = (log_sink){.write = log_to_stderr, .user = stderr, .threshold = LOG_INFO};
    o->server.log = &o->log;
    optind = 1;
    int opt;
    unsigned long long n;
    while ((opt = getopt_long(argc, argv, "h", long_options, NULL)) != -1) {
        switch (opt) {
        case OPT_HOST: o->server.host = optarg; break;
        case OPT_PORT:
            if (!parse_number(optarg, 65535, &n)) {
                fprintf(stderr, "ldgsm serve: --port wants 0..65535, not '%s'\n", optarg);
                return 2;
            }
            o->server.port = (unsigned)n;
            break;
        case OPT_NOTIFICATIONS_PORT:
            if (!parse_number(optarg, 65535, &n)) {
                fprintf(stderr, "ldgsm serve: --notifications-port wants 0..65535, not '%s'\n", optarg);
                return 2;
            }
            o->server.notifications_port = (unsigned)n;
            break;
        case OPT_NO_NOTIFICATIONS: o->server.no_notifications = true; break;
        case OPT_DATA: o->data_dir = optarg; break;
        case OPT_MEMORY: o->memory = true; break;
        case OPT_NO_ACCESS_LOG: o->server.access_log = NULL; break;
        case OPT_LOG_FORMAT:
            if (strcmp(optarg, "text") != 0 && strcmp(optarg, "json") != 0) {
                fprintf(stderr, "ldgsm serve: --log-format takes text or json, not '%s'\n", optarg);
                return 2;
            }
            o->server.access_log_json = strcmp(optarg, "json") == 0;
            o->log.write_record = o->server.access_log_json ? log_json_to_stream : NULL;
            break;
        case OPT_FIXTURES: o->fixtures = optarg; break;
        case OPT_FIXTURES_OVERWRITE: o->fixtures_overwrite = true; break;
        case OPT_TOKEN:
            if (!*optarg) {
                fputs("ldgsm serve: --token must not be empty\n", stderr);
                return 2;
            }
            o->server.token = optarg;
            break;
        case OPT_TOKEN_FILE: o->token_file = optarg; break;
        case OPT_CORS_ORIGIN:
            if (!*optarg) {
                fputs("ldgsm serve: --cors-origin wants an origin such as https://app.example or '*'\n", stderr);
                return 2;
            }
            o->cors_origins = xrealloc(o->cors_origins, (o->cors_origin_count + 1) * sizeof *o->cors_origins);
            o->cors_origins[o->cors_origin_count++] = optarg;
            break;
        case OPT_MAX_CONNECTIONS_PER_CLIENT:
        case OPT_MAX_CONNECTIONS:
        case OPT_IDLE_TIMEOUT:
        case OPT_HEAD_TIMEOUT:
        case OPT_BODY_MIN_RATE:
        case OPT_BODY_GRACE:
        case OPT_MAX_CHANNELS:
        case OPT_MAX_CHANNELS_PER_CLIENT:
        case OPT_CHANNEL_LIFETIME:
        case OPT_CHANNEL_CONNECT_TIMEOUT:
        case OPT_PAGE_REFRESH:
        case OPT_PAGE_CHANNELS:
        case OPT_MAX_WEBHOOK_CHANNELS:
        case OPT_MAX_WEBHOOK_CHANNELS_PER_CLIENT:
        case OPT_MAX_STREAMS:
        case OPT_MAX_STREAMS_PER_CLIENT: {
            struct {
                int opt;
                const char *name;
                unsigned *value;
            } const counts[] = {
                {OPT_MAX_CONNECTIONS_PER_CLIENT, "max-connections-per-client",
                 &o->server.max_connections_per_client},
                {OPT_MAX_CONNECTIONS, "max-connections", &o->server.max_connections},
                {OPT_IDLE_TIMEOUT, "idle-timeout", &o->server.idle_timeout},
                {OPT_HEAD_TIMEOUT, "head-timeout", &o->server.head_timeout},
                {OPT_BODY_MIN_RATE, "body-min-rate", &o->server.body_min_rate},
                {OPT_BODY_GRACE, "body-grace", &o->server.body_grace},
                {OPT_MAX_CHANNELS, "max-channels", &o->server.max_channels},
                {OPT_MAX_CHANNELS_PER_CLIENT, "max-channels-per-client", &o->server.max_channels_per_client},
                {OPT_CHANNEL_LIFETIME, "channel-lifetime", &o->server.channel_lifetime},
                {OPT_CHANNEL_CONNECT_TIMEOUT, "channel-connect-timeout", &o->server.channel_connect_timeout},
                {OPT_PAGE_REFRESH, "page-refresh", &o->page_refresh},
                {OPT_PAGE_CHANNELS, "page-channels", &o->page_channels},
                {OPT_MAX_WEBHOOK_CHANNELS, "max-webhook-channels", &o->server.max_webhook_channels},
                {OPT_MAX_WEBHOOK_CHANNELS_PER_CLIENT, "max-webhook-channels-per-client",
                 &o->server.max_webhook_channels_per_client},
                {OPT_MAX_STREAMS, "max-streams", &o->server.max_streams},
                {OPT_MAX_STREAMS_PER_CLIENT, "max-streams-per-client", &o->server.max_streams_per_client},
            };
            size_t i = 0;
            while (counts[i].opt != opt)
                i++;
            if (!parse_number(optarg, UINT32_MAX, &n) || n == 0) {
                fprintf(stderr, "ldgsm serve: --%s wants a positive number, not '%s'\n", counts[i].name, optarg);
                return 2;
            }
            *counts[i].value = (unsigned)n;
            break;
        }
        case OPT_CHANNEL_MAX_QUEUED:
            if (!parse_number(optarg, SIZE_MAX, &n) || n < LDP_NOTIFY_MIN_QUEUED) {
                fprintf(stderr, "ldgsm serve: --channel-max-queued wants a number of bytes, at least %d, not '%s'\n",
                        LDP_NOTIFY_MIN_QUEUED, optarg);
                return 2;
            }
            o->server.channel_max_queued = (size_t)n;
            break;
        case OPT_REQUIRE_CONDITIONAL:
            o->server.require_conditional = true;
            if (optarg) {
                char *prefix;
                const char *why;
                if (ldp_path_decode(optarg, &prefix, &why) != 0) {
                    fprintf(stderr, "ldgsm serve: --require-conditional=%s: %s\n", optarg, why);
                    return 2;
                }
                o->prefixes = xrealloc(o->prefixes, (o->prefix_count + 1) * sizeof *o->prefixes);
                o->prefixes[o->prefix_count++] = prefix;
            }
            break;
        case OPT_MAX_BODY:
            if (!parse_number(optarg, SIZE_MAX, &n) || n == 0) {
                fprintf(stderr, "ldgsm serve: --max-body wants a positive byte count, not '%s'\n", optarg);
                return 2;
            }
            o->server.max_body = (size_t)n;
            break;
        case OPT_THREADS:
            if (!parse_number(optarg, 1024, &n) || n == 0) {
                fprintf(stderr, "ldgsm serve: --threads wants 1..1024, not '%s'\n", optarg);
                return 2;
            }
            o->server.threads = (unsigned)n;
            break;
        case OPT_IDEMPOTENCY_TTL:
            if (!parse_number(optarg, UINT32_MAX, &n) || n == 0) {
                fprintf(stderr, "ldgsm serve: --idempotency-ttl wants a positive number of seconds, not '%s'\n",
                        optarg);
                return 2;
            }
            o->server.idempotency_ttl = (unsigned long)n;
            break;
        case OPT_IDEMPOTENCY_MAX:
            if (!parse_number(optarg, UINT32_MAX, &n) || n == 0) {
                fprintf(stderr, "ldgsm serve: --idempotency-max wants a positive number of keys, not '%s'\n", optarg);
                return 2;
            }
            o->server.idempotency_max_keys = (size_t)n;
            break;
        case 'h': fputs(serve_usage, stdout); exit(0);
        default: fputs(serve_usage, stderr); return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "ldgsm serve: unexpected argument '%s'\n\n%s", argv[optind], serve_usage);
        return 2;
    }
    if (o->data_dir && o->memory) {
        fputs("ldgsm serve: --data and --memory exclude each other\n", stderr);
        return 2;
    }
    if (o->fixtures_overwrite && !o->fixtures) {
        fputs("ldgsm serve: --fixtures-overwrite needs --fixtures\n", stderr);
        return 2;
    }
    if (take_token(o) != 0)
        return 2;
    o->server.conditional_prefixes = (const char *const *)o->prefixes;
    o->server.conditional_prefix_count = o->prefix_count;
    o->server.cors_origins = o->cors_origins;
    o->server.cors_origin_count = o->cors_origin_count;
    return 0;
}

static void free_options(serve_options *o) {
    for (size_t i = 0; i < o->prefix_count; i++)
        free(o->prefixes[i]);
    free(o->prefixes);
    free(o->cors_origins);
    free(o->token_from_file);
}

/* Serves until SIGINT or SIGTERM (blocked in every thread, taken here by sigwait). */
static int serve(serve_options *o, const sigset_t *stop_signals) {
    char message[1024];
    ldp_server *server = ldp_server_bind(&o->server, message, sizeof message);
    if (!server) {
        fprintf(stderr, "ldgsm serve: %s\n", message);
        return 1;
    }
    rdfio_prepare_libxml(); /* before the server's threads parse (rdfio.h) */
    char *compat_rules = shipped_path("rules/compat-authors-draft.n3");
    gsm_page_config page_config = {.compat_rules = compat_rules, .refresh = o->page_refresh,
                                   .notifications = ldp_server_notifications_base(server),
                                   .subscription = LDP_NOTIFY_WS_PATH, .max_channels = o->page_channels};
    ldp_store_config store_config = {o->data_dir, ldp_server_base_url(server), ldp_server_variant_free(),
                                     o->server.log, body_prefixes, NULL, NULL};
    ldp_server_hook_store(server, &store_config);
    serve_page *page = serve_page_new(server, &page_config, &store_config);
    free(compat_rules);
    ldp_store *store = ldp_store_open(&store_config, message, sizeof message);
    int rc = 0;
    if (!store) {
        fprintf(stderr, "ldgsm serve: %s\n", message);
        rc = 1;
    }
    if (rc == 0 && o->fixtures) {
        ldp_fixtures_counts counts;
        if (ldp_fixtures_seed(store, o->fixtures, o->fixtures_overwrite, o->server.log, &counts, message,
                              sizeof message) != 0) {
            fprintf(stderr, "ldgsm serve: %s\n", message);
            rc = 1;
        } else {
            log_event(&o->log, LOG_INFO, "fixtures", NULL,
                      LOG_FIELDS(LOG_TEXT("fixtures", o->fixtures), LOG_NUMBER("written", counts.written),
                                 LOG_NUMBER("kept", counts.kept)),
                      "fixtures %s: %zu written, %zu already held and kept", o->fixtures, counts.written, counts.kept);
        }
    }
    if (rc == 0)
        serve_page_start(page, store);
    if (rc == 0 && ldp_server_start(server, store, message, sizeof message) != 0) {
        fprintf(stderr, "ldgsm serve: %s\n", message);
        rc = 1;
    }
    if (rc == 0) {
        printf("%s/\n", ldp_server_base_url(server));
        fflush(stdout);
        const char *notifications = ldp_server_notifications_base(server);
        log_event(&o->log, LOG_INFO, "start", NULL,
                  LOG_FIELDS(LOG_NUMBER("pid", getpid()), LOG_TEXT("base", ldp_server_base_url(server)),
                             LOG_TEXT("data", o->data_dir ? o->data_dir : "memory"),
                             LOG_TEXT("notifications", notifications)),
                  "serving %s/ from %s", ldp_server_base_url(server), o->data_dir ? o->data_dir : "memory");
        if (notifications)
            log_event(&o->log, LOG_INFO, "notification_sockets", NULL, LOG_FIELDS(LOG_TEXT("url", notifications)),
                      "notification sockets on %s/", notifications);
        int sig = 0;
        sigwait(stop_signals, &sig);
        const char *name = sig == SIGINT ? "SIGINT" : "SIGTERM";
        log_event(&o->log, LOG_INFO, "stop", NULL, LOG_FIELDS(LOG_TEXT("signal", name)), "%s received, stopping",
                  name);
    }
    ldp_server_free(server);
    serve_page_free(page); /* its reader reads the store */
    ldp_store_free(store);
    return rc;
}

int cmd_serve(int argc, char **argv) {
    serve_options o = {0};
    int rc = parse_options(argc, argv, &o);
    if (rc == 0) {
        /* Blocked before any thread starts, so every server thread inherits the mask. */
        sigset_t stop_signals;
        sigemptyset(&stop_signals);
        sigaddset(&stop_signals, SIGINT);
        sigaddset(&stop_signals, SIGTERM);
        pthread_sigmask(SIG_BLOCK, &stop_signals, NULL);
        signal(SIGPIPE, SIG_IGN);
        rc = serve(&o, &stop_signals);
    }
    free_options(&o);
    return rc;
}
