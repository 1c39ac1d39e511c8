/* plan.h: turns the unsafe requests an iteration derived into the writes and tasks it sends
 * (docs/DESIGN.md §2.2), deciding everything before anything is sent.
 *
 * INVARIANTS (each holds for the plan returned, whatever the requests):
 *  1. No write on a partial view: under the `hold` policy an unsafe request whose group asked for a GET
 *     that failed, or every unsafe request when a GET no group asked for failed, is withheld.
 *  2. Two different as-written PUT/DELETE/PATCH requests to one resource are both withheld (conflict);
 *     POSTs never conflict. An as-written write and an update to one document conflict. Different
 *     instances' (groups') writes, each instance's alike, take turns instead: one instance's go, the
 *     others' are withheld until a later iteration, the instance that waited most going first.
 *  3. All updates to one document become one PUT built from the document as read in this iteration:
 *     triples of replaced (subject, predicate) slots go, body and ldgsm:add triples come, every other
 *     triple stays. A slot given two value sets is resolved by ldgsm:priority (the loser's ldgsm:key is
 *     dropped everywhere: "yielded") or, with equal priorities, withholds the whole composed write and the
 *     tasks waiting on it. A composed PUT equal to what was read is not sent. A PUT that changes slots
 *     appends their history entries (history.h), keeping the newest history_limit.
 *  4. Conditional headers: If-Match with a strong ETag read, If-None-Match: * for a 404; a document
 *     written by updates without a strong ETag is held unless allowed. POST is never conditional.
 *  5. A task (ldgsm:after <doc>) is only planned behind the composed write to doc; a task withheld for
 *     its own reasons withholds that write too, so the activation is retried next iteration.
 * GSM-1 and GSM-2 (docs/DESIGN.md §5.4) rest on 3 and 4: a GSM step is one write of one document, decided
 * from one read and conditional on it, so it lands whole or not at all. */
#ifndef LDGSM_AGENT_PLAN_H
#define LDGSM_AGENT_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "agent/request.h"
#include "http/http_client.h"
#include "rdf/hashmap.h"
#include "rdf/rdfio.h"
#include "rdf/strmap.h"

/* What the iteration learnt about one document it tried to GET. */
typedef struct doc_state {
    char *resource; /* identity (fragment-free, normalized) */
    term_id graph;  /* the source graph its triples carry in working memory */
    bool read;      /* answered: 2xx, 304, 404 or 410 */
    bool found;     /* 2xx or 304 */
    bool failed;    /* failed (the hold policy's sense) */
    bool unparsable; /* answered with RDF that does not parse */
    bool vouched;   /* taken from the document cache on a notifications channel's word, without a GET */
    char *parse_error; /* then the reader's message, for status */
    bool strict;    /* some request that asked for it is not lenient (an unparsable body fails it) */
    long status;
    enum http_failure failure; /* why there was no answer (HTTP_FAIL_NONE: answered) */
    char *etag;
    enum http_etag_kind etag_kind;
    bool takes_n3_patch; /* its answer's Accept-Patch names N3 Patch (and no PATCH to it was refused) */
    char *storage_description; /* --notifications: the description of its storage its answer linked (or NULL) */
    term_id *groups; /* the ldgsm:group of every request that asked for the GET */
    size_t group_count;
    u64map group_set; /* groups as a set: a model read by every instance is asked for by each of them */
    term_id *group_sources; /* (subject, property) pairs of the askers' ldgsm:groupsOf, flat */
    size_t group_source_count;
    bool asked_ungrouped; /* some request without a group asked for it */
    const char *asked_by; /* the first rule that asked for it (for -v) */
} doc_state;

enum outcome { OUTCOME_SEND, OUTCOME_DUPLICATE, OUTCOME_WITHHELD, OUTCOME_CONFLICT, OUTCOME_YIELDED,
               OUTCOME_REFUSED, OUTCOME_UNCHANGED };

typedef struct planned_write {
    char *method, *url;
    http_header *headers; /* owned strings */
    size_t header_count;
    buf body;
    char *doc;            /* the document it writes (identity) */
    bool composed;        /* a composed update */
    triple *document;     /* composed: the triples the document holds once written (triples_canonical) */
    size_t document_count;
    bool is_task;
    bool repeatable;      /* a write the plan made conditional on what it read: a second copy fails */
    char *after;          /* tasks: the document whose write must return 2xx first */
    size_t archive_first; /* a composed write that drops history entries: 1 + the index in plan.archives
                             of the archive (archive.h) whose PATCH must return 2xx first (0: none) */
    term_id key;          /* the ldgsm:key */
    term_id report_to;    /* ldgsm:reportTo: the answer is reported to the rules under this node (0: not) */
    term_id called_at;    /* ldgsm:calledAt: the attempt the answer belongs to (0: none) */
    term_id results;      /* ldgsm:results: what the answer binds (0: nothing) */
    long timeout_ms;      /* ldgsm:requestTimeout, when it bounds the request below --timeout (0: none) */
    char *why;            /* the rules that asked, for logs */
    size_t *sources;      /* the requests it was made from (indexes into plan_input's requests) */
    size_t source_count;
} planned_write;

typedef struct plan {
    planned_write *archives; /* --archive-history: the archives' PATCHes, sent before everything (archive.h) */
    size_t archive_count;
    planned_write *writes; /* writes and as-written requests, sent next */
    size_t write_count;
    planned_write *tasks;  /* sent after their write returned 2xx */
    size_t task_count;
    enum outcome *outcomes; /* per request given */
    const char **reasons;   /* per request given: why it is not sent, as logged (NULL when it is) */
    unsigned unsafe; /* distinct unsafe requests derived, not counting updates that change nothing */
    unsigned withheld, conflicts, yielded, refused;
    strmap withheld_reasons; /* "group\treason" -> requests withheld for it, said once at the end */
} plan;

typedef struct plan_input {
    const char *hold_all; /* non-NULL: every unsafe request is withheld, for this reason */
    terms *t;
    store *wm;
    rdfio *io;
    const agent_vocab *v;
    request *requests;
    size_t request_count;
    const doc_state *docs;
    size_t doc_count;
    const strmap *doc_index;        /* resource -> index in docs */
    bool hold;                      /* failure policy hold (else proceed) */
    bool allow_unconditional_status;
    char **allow_origins;           /* normalized; empty: every origin */
    size_t allow_origin_count;
    strmap *warned_origins;         /* origins already warned about missing strong ETags (kept across iterations) */
    strmap *turns;                  /* "resource\tgroup IRI" -> iterations its writes to the resource waited
                                     * for another's (kept across iterations; NULL: the first IRI always goes
                                     * first) */
    term_id clock;                  /* the iteration's ldgsm:now: the time of history entries */
    unsigned history_limit;         /* history entries a composed write keeps in its document (0: none) */
    const u64map *history_properties; /* predicates declared ldgsm:HistoryProperty in working memory */
    const strmap *archived;         /* --archive-history: the documents whose entries move to their archive
                                     * (the run's instances'; NULL: none) */
    const log_sink *log;
} plan_input;

void plan_make(const plan_input *in, plan *out);
void plan_free(plan *p);
const char *outcome_name(enum outcome o);

#endif
