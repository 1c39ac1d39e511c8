/* get_outcome.h: what a GET's answer means, read by read (docs/DESIGN.md §2.6), and what the rules and the
 * plan learn of it:
 *
 *   2xx, 304      data: the body parsed into the document's graph, `<doc> ldgsm:httpStatus 200`; or the
 *                 triples held for its strong ETag (doc_cache.h), a 304 then being that representation
 *   404, 410      an answer with no data: `<doc> ldgsm:httpStatus 404`
 *   406, 415, a media type raptor2 does not parse      nothing (said once)
 *   other statuses, no connection, timeout, redirect limit, body too large, RDF that does not parse for a
 *   strict asker  a failure: doc_state.failed, which holds back the writes of every group that asked
 *   no answer within --read-wait   a failure of this iteration only; later reads of the document are not
 *                 waited for until one answers (http_client.h, guarantee 7)
 *
 * Every outcome but data is said once while it recurs (again after --remind iterations without it), so a
 * dead sensor is not a line per poll. */
#ifndef LDGSM_AGENT_GET_OUTCOME_H
#define LDGSM_AGENT_GET_OUTCOME_H

#include <stdbool.h>

#include "agent/agent.h"
#include "agent/doc_cache.h"
#include "agent/plan.h"
#include "agent/request.h"
#include "agent/vocab.h"
#include "http/http_client.h"
#include "rdf/rdfio.h"
#include "rdf/strmap.h"

/* What outlives an iteration: what was said when, and which reads hang. */
typedef struct get_outcomes {
    strmap reported;      /* "resource outcome" -> the iteration it was last met in (get_report_once) */
    strmap unanswered;    /* GET identities whose read went unanswered past --read-wait -> the iteration
                             that last met them so (0: answered since) */
    unsigned long remind; /* --remind: iterations after which an outcome is said again */
    const log_sink *log;
} get_outcomes;

/* What classifying one iteration's reads writes to and reads from. */
typedef struct get_env {
    terms *t;
    const agent_vocab *v;
    store *wm;                   /* the iteration's working memory: what the reads bring goes there */
    rdfio *io;
    doc_cache *cache;            /* documents parsed per strong ETag (doc_cache.h) */
    unsigned long iteration;
    long read_wait_ms;           /* --read-wait (for the message) */
    bool patch;                  /* --patch: note the servers that take N3 Patch */
    const strmap *patch_refused; /* documents whose server refused one */
} get_env;

void get_outcomes_free(get_outcomes *g);
/* True when the last read of resource went unanswered: it is not waited for again. */
bool get_unanswered(const get_outcomes *g, const char *resource);
/* Says `GET resource: what: detail` once while it recurs. */
void get_report_once(get_outcomes *g, unsigned long iteration, const char *resource, const char *what,
                     const char *detail);
/* Every --remind iterations, forgets what it would say again anyway. */
void get_forget_old(get_outcomes *g, unsigned long iteration);
/* Classifies one GET result into doc and adds what it brought to working memory (stats: bytes, triples). */
void get_take_result(get_outcomes *g, const get_env *e, doc_state *doc, const http_result *res,
                     iteration_stats *stats);
/* Records r as an asker of doc (its group or its ldgsm:groupsOf, and its strictness); true when this asker
 * makes an unparsable body a failure. */
bool get_note_asker(const terms *t, doc_state *doc, const request *r);
/* Adds to doc's groups every object of its askers' ldgsm:groupsOf (subject, property) in wm: called once the
 * crawl is done, when the relation is whole. */
void get_expand_group_sources(store *wm, doc_state *doc);
/* `<X> ldgsm:readFailure "what"` for the IRI X r asked to GET when doc brought no data. */
void get_assert_read_failure(const get_env *e, const request *r, const doc_state *doc);

#endif
