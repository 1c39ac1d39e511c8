/* agent.h: the ASM4LD polling agent (docs/DESIGN.md §1): each iteration builds a fresh working memory,
 * crawls and derives to a fixpoint, evaluates the sentries, runs the rules that read them, then plans and
 * sends the unsafe requests its rules derived.
 *
 * ITERATION PHASES (agent_iterate in agent.c; docs/DESIGN.md §1.1 gives the file of each function: agent.c
 * is the loop; GET outcomes are get_outcome.h's, call answers answers.h's, the term release release.h's)
 *   0 reset      drop the last iteration's memory, requests and reads;   (clear_iteration, release_terms,
 *                release the terms iterations interned once too many      get_forget_old)
 *   1 assert     the base facts agent_new loaded: rule-file facts, -i    (load_program, load_input,
 *                inputs, ldgsm:instance and ldgsm:machine; with           assert_workflows; revalidate,
 *                --incremental not the instances whose documents a        incremental.h)
 *                conditional GET found unchanged
 *   2 clock      ldgsm:now, ldgsm:defaultTimeout, the answers to earlier  (read_clock, answers_assert,
 *                calls, the containers instances come from                discovery_begin)
 *   3 crawl      derive (stratum 0); take in the sentries and argument   (reasoner_run_from,
 *                queries met; GET what was derived and not yet fetched,   sentry_table_scan, fetch_new,
 *                in parallel (each waited for at most --read-wait);       get_take_result, discovery_scan)
 *                until a round adds nothing
 *   4 instances  the instances of this iteration; the caller may end    (gather_instances, inspect at
 *                the run here (gsm/inspect.h: an instance in the draft     AGENT_CRAWLED)
 *                vocabulary, one that can never complete)
 *   5 sentries   each once per active instance, on the closed memory and (views_begin, sentry_table_evaluate,
 *                in that instance's view; then the argument queries'      arguments_bind)
 *                solutions become evaluated requests
 *   6 later      the rules after the sentries (AFTER_SENTRIES_STRATUM);  (reasoner_run, report_late_gets)
 *                a GET derived now is reported, not made
 *   7 inspect    the caller's look at working memory (ldgsm run: the     (inspect at AGENT_DERIVED,
 *                watchers of gsm/watch.h and wsm/wsm_watch.h)             agent_hold)
 *   8 waits      held:, waiting:, incident: lines; answers taken in      (report_waits, answers_drop_taken)
 *   9 plan       conflicts, turns, updates composed, conditions, hold    (plan_make, plan.h)
 *  10 send       writes in parallel; then the tasks of writes that       (send_plan, answers_record)
 *                returned 2xx; the answers asked for kept for later
 *  11 complete   in agent_run: --until quiescent, --iterations, a stop   (report_stuck, pause_ms; inspect
 *                signal, the stuck line, the pause; the caller's end     at AGENT_ENDED and AGENT_CUT_SHORT:
 *                (gsm/: --until complete)                                 gsm/completion.h)
 * Iterations never overlap; state lives on the servers, so an agent killed at any point and restarted
 * continues from what the servers hold. */
#ifndef LDGSM_AGENT_AGENT_H
#define LDGSM_AGENT_AGENT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "rdf/log.h"
#include "rdf/store.h"

struct agent;
struct iteration_stats;
struct agent_metrics;

/* When agent_options.inspect is called, and what its return does there. AGENT_GO_ON goes on; any other
 * value (>= 0) is the exit status agent_run returns:
 *   AGENT_CRAWLED  phase 4, the crawl closed and the instances known, before the sentries: the iteration
 *                  stops there (nothing evaluated, planned or sent; agent_iterate returns -2)
 *   AGENT_DERIVED  phase 7, working memory derived, before the writes are planned (agent_hold may hold a
 *                  group's writes): the iteration runs to its end, then the run ends
 *   AGENT_ENDED    phase 11, in agent_run after an iteration that ran to its end (stats: that iteration's):
 *                  the run ends
 *   AGENT_CUT_SHORT  phase 11, in agent_run when --iterations ended an --until complete run that nothing
 *                  ended before (stats: the last iteration's; not after a stop signal): the caller says
 *                  what is not complete; AGENT_GO_ON ends it with 6 all the same, as an --until run that
 *                  did not reach its goal
 * Not called for an iteration a cap held (agent_iterate returned -1), except AGENT_CUT_SHORT. */
typedef enum agent_phase { AGENT_CRAWLED, AGENT_DERIVED, AGENT_ENDED, AGENT_CUT_SHORT } agent_phase;
enum { AGENT_GO_ON = -1 };

typedef struct agent_header_option {
    char *origin; /* NULL: the default origins (the --allow-origin ones, else every origin of a GET's start) */
    char *name, *value;
} agent_header_option;

typedef struct agent_options {
    char **programs;
    size_t program_count;
    char **inputs;
    size_t input_count;
    char **instances;          /* workflow instances (--instance): asserted as <urn:ldgsm:agent> ldgsm:instance <i> */
    size_t instance_count;
    char **instance_containers; /* LDP containers whose members' workflow instances are run too
                                  (--instances-from, agent/discover.h) */
    size_t instance_container_count;
    unsigned shard_index, shard_count; /* --shard: the containers' members this agent takes (0: all) */
    char **machines;           /* state machine instances (--machine): <urn:ldgsm:agent> ldgsm:machine <i> */
    size_t machine_count;
    bool until_complete;       /* stop when every instance's root stage is completed */
    bool compat_authors_draft; /* models may use the authors' draft vocabulary; instances may not */
    long interval_ms;          /* pause between iterations (default 1000) */
    unsigned long iterations;  /* 0: unbounded */
    bool until_quiescent;
    bool dry_run;
    bool observe;              /* read only (ldgsm status): crawl, evaluate, derive; plan and send nothing */
    bool step;                 /* wait for a line on standard input before each iteration (EOF ends) */
    bool proceed_on_incomplete; /* failure policy proceed; default hold */
    bool allow_unconditional_status;
    bool patch;                /* composed updates as N3 Patch where the server takes them (else PUT) */
    char **allow_origins;
    size_t allow_origin_count;
    agent_header_option *headers;
    size_t header_count;
    struct oidc_session *auth; /* --auth: the caller's Solid-OIDC session (agent_auth_start), outliving the agent */
    size_t max_body;           /* 0: 16 MiB */
    long connect_timeout_ms;   /* 0: 2000 */
    long timeout_ms;           /* per request, redirects included; 0: 10000 */
    long read_wait_ms;         /* how long a crawl round waits for a GET's answer (0: to its end); one
                                  unanswered by then fails for this iteration and goes on in the
                                  background, and its document's later reads are not waited for until
                                  one answers (http_client.h, guarantee 7) */
    unsigned max_fresh_nodes;  /* per iteration; 0: the reasoner's default (1,000,000) */
    unsigned max_derived;      /* per iteration; 0: the reasoner's default */
    long history;              /* history entries a status document keeps (--history): 0 the default (100),
                                  negative none */
    bool archive_history;      /* --archive-history: the entries move from the status documents to their
                                  archives (agent/archive.h) */
    bool reads_history;        /* ldgsm status: the crawl reads the archives too (<urn:ldgsm:agent>
                                  ldgsm:readsHistory true, rules/ldp-crawl.n3) */
    unsigned long remind_iterations; /* a wait or incident lasting this long is said again, a GET failure
                                      * gone this long is said when it comes back (0: 100) */
    unsigned long release_terms; /* release the terms iterations interned once more than this piled up
                                    (0: the default, agent.c) */
    bool incremental;          /* leave out the instances whose documents did not change (agent/incremental.h) */
    long safety_poll_ms;       /* --incremental: the longest an instance is left out (0: 60000) */
    bool notifications;        /* Solid Notifications channels for the documents read (agent/notifications.h): a
                                  change ends a pause at once; with incremental, a live channel stands in for
                                  a revalidation, and the agent waits for them */
    const char *webhook;       /* --webhook ADDR:PORT: receive WebhookChannel2023 notifications there, and
                                  subscribe with them where offered (implies notifications) */
    long settle_ms;            /* --settle: after a notification, how long to wait for the rest of a burst */
    bool own_programs;         /* programs of the user's beside the shipped rules: their rules may join any
                                  documents, so --incremental counts every document read as every instance's */
    int verbose;
    struct agent_metrics *metrics; /* --metrics: counted as the run goes (agent/agent_metrics.h), or NULL */
    FILE *out;                 /* log lines and --dry-run output (default stderr / stdout) */
    const char *trace_path;    /* --trace: JSON Lines of every iteration and request (agent/trace.h); "-": stdout */
    const volatile sig_atomic_t *stop; /* set by a signal handler: finish this iteration, then exit */
    /* The caller's look at working memory, at the moments agent_phase names (AGENT_CRAWLED, AGENT_DERIVED,
     * AGENT_ENDED, AGENT_CUT_SHORT); returns AGENT_GO_ON, or the exit status the run ends with (see agent_phase). It reads
     * through agent_terms, agent_memory, agent_instances and agent_read_outcome and writes only through
     * agent_hold. `ldgsm run` installs the GSM layer's (gsm/inspect.h: the watcher and --until complete)
     * and the state machines' watcher (wsm/wsm_watch.h). */
    int (*inspect)(void *user, struct agent *a, enum agent_phase phase, const struct iteration_stats *stats);
    void *inspect_user;
} agent_options;

typedef struct iteration_stats {
    double elapsed_ms;
    double crawl_ms, sentries_ms, later_rules_ms, plan_ms, send_ms; /* the phases of agent.h's list */
    unsigned gets, gets_failed;
    unsigned gets_held; /* answered with the triples held for their strong ETag: no parse (doc_cache.h) */
    unsigned long long bytes;
    unsigned triples_read, derived;
    unsigned unsafe, sent, withheld, conflicts, yielded, refused, failed;
    unsigned calling; /* call records in the status documents read that wait for an answer or a deadline */
} iteration_stats;

typedef struct agent agent;

/* --auth FILE (docs/DESIGN.md §10): the Solid-OIDC session for a run with these options, its credentials
 * read from path (http/auth_file.h) and its first token obtained now, so that wrong credentials end a run
 * before it starts. Its tokens go to options->allow_origins, or without any to the origins of the
 * instances, machines and instance containers (none of them: an error); its token requests log to log. The
 * process dumps no core from then on (RLIMIT_CORE's soft limit 0: a core would hold the secret). NULL and
 * error says why. Freed with oidc_session_free. */
struct oidc_session *agent_auth_start(const agent_options *options, const char *path, const log_sink *log,
                                     char *error, size_t error_len);

/* Loads the programs and inputs; NULL with a message in error on bad input (file:line:col). */
agent *agent_new(const agent_options *options, const log_sink *log, char *error, size_t error_len);
void agent_free(agent *a);
/* Runs one iteration. Returns 0, -1 when the iteration could not run to its end (a cap hit), or -2 when
 * the run cannot go on (an instance document in the authors' draft vocabulary). */
int agent_iterate(agent *a, iteration_stats *stats);
/* Waits ms milliseconds, or less when a stop is requested or (with notifications) a document read
 * changed. */
void agent_pause(agent *a, long ms);

/* The loop of iterations until --iterations, quiescence, completion or a stop signal; returns the exit
 * status (0; 3 when the run ended with withheld requests; 4 when it ended with a call still calling; 5
 * when --until complete found the instances not complete failed, with nothing more to do; 6 when an
 * --until run ended by itself with an instance held or waiting, as its held:/waiting: line says). */
int agent_run(agent *a);

/* The iterations begun so far. */
unsigned long agent_iterations(const agent *a);

/* What the last iteration left, for a reader of its state (ldgsm status); valid until the next
 * agent_iterate or agent_free, which may release the iteration's terms (their ids and text). The working
 * memory holds what was read and derived, the sentries' results (`<sentry> ldgsm:holdsFor <instance>`)
 * included. */
terms *agent_terms(agent *a);
/* False for an instance of agent_instances the last iteration left out (--incremental, incremental.h):
 * nothing of it is in working memory, and what it was last evaluated to still holds. */
bool agent_instance_evaluated(agent *a, const char *instance);
store *agent_memory(agent *a);

/* The workflow instances of the run: the --instance ones, then those the containers list now. Valid until
 * the next agent_iterate or agent_free. */
const char *const *agent_instances(agent *a, size_t *count);
/* The instances of agent_instances the iteration evaluates: every one, but those --incremental left out
 * (each at most once unless listed twice), for the inspect hook (valid until its AGENT_DERIVED call returns).
 * What reads only what an iteration evaluated costs in proportion to it, not to the instances of the run. */
const char *const *agent_evaluated_instances(agent *a, size_t *count);

/* The one write into the agent's working memory from outside the agent, for the inspect hook at
 * AGENT_DERIVED: `<group> ldgsm:heldBecause "why"` (in the graph <urn:ldgsm:watch>), which holds the
 * group's writes in this iteration's plan (docs/DESIGN.md §2.6) and is said as a held: line. group is a
 * term of agent_terms. */
void agent_hold(agent *a, term_id group, const char *why);

/* How the last iteration's GET of a document went. */
typedef struct agent_read {
    long status;         /* the answer's status code; 0 when there was no answer */
    const char *failure; /* no answer: its kind (http_failure_name: "timeout", "connect failure", ...); else NULL */
    bool unparsable;     /* answered with RDF that does not parse */
    const char *parse_error; /* then the reader's message ("doc:1:9: what"), or NULL */
    const char *etag;    /* the answer's ETag, or NULL */
    term_id graph;       /* the source graph of what it brought into working memory */
} agent_read;

/* The outcome of the GET of iri's document (its identity, without the fragment) in the last iteration;
 * false when the iteration did not GET it. */
bool agent_read_outcome(agent *a, const char *iri, agent_read *out);
/* The ETag the last iteration's GET of iri's document brought, or NULL; agent is the agent (the shape of
 * gsm/lint_read.h's watch_etag_fn). */
const char *agent_read_etag(void *agent, const char *iri);

#endif
