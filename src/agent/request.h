/* request.h: requests as rule heads describe them (docs/DESIGN.md §2.1), extracted from an instantiated
 * head formula, and their identity.
 *
 * A head may hold several request nodes (each a node with http:mthd). Every property the agent reads
 * is taken from the head itself, never from working memory: what a request is cannot depend on data
 * that merely looks like a request. */
#ifndef LDGSM_AGENT_REQUEST_H
#define LDGSM_AGENT_REQUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "agent/vocab.h"
#include "rdf/buf.h"
#include "rdf/strmap.h"
#include "rdf/store.h"
#include "reason/rule.h"

enum request_kind { REQUEST_SAFE, REQUEST_AS_WRITTEN, REQUEST_UPDATE };

typedef struct request_header {
    char *name, *value;
} request_header;

/* What a request the crawl does not read (a write, an update, a task) has beyond what every request has. */
typedef struct request_detail {
    term_id body;          /* a formula, a literal sent raw, or 0 */
    term_id add;           /* ldgsm:add formula of an update, or 0 */
    term_id key, after;
    term_id report_to;     /* ldgsm:reportTo: the node its answer is reported under (a call record) */
    term_id called_at;     /* ldgsm:calledAt: the attempt, copied into the answer */
    term_id timeout;       /* ldgsm:requestTimeout: a duration bounding this request below --timeout */
    term_id results;       /* ldgsm:results: what its answer binds (docs/DESIGN.md §8.4), reported with the answer */
    bool has_priority;
    long priority;
    request_header *headers;
    size_t header_count;
    char *identity;        /* equal strings <=> the same request (docs/DESIGN.md §2.1) */
    char *effect;          /* the identity without the Idempotency-Key (NULL: it has none, the identity is
                              it): equal for two writes that do the same to their resource (no conflict) */
} request_detail;

/* A crawl asks for tens of GETs per instance in every iteration, so a request holds only what the crawl
 * reads, and owns none of it: its method, URI and resource are borrowed (a static name, the text of a
 * head's term, the identity cache's text), valid while the head's terms are, which is for the iteration
 * (the agent frees its requests before it releases terms or empties the cache). 64 bytes, not 136. */
typedef struct request {
    const char *method;    /* "GET", "PUT", ..., or "UPDATE" for ldgsm:UPDATE */
    const char *url;       /* the request URI as written (may have a fragment) */
    const char *resource;  /* its identity: fragment-free, normalized */
    const rule *rule;      /* the rule whose head asked for it */
    request_detail *detail; /* NULL for a safe request (REQUEST_SAFE): the crawl's GETs have none */
    enum request_kind kind;
    term_id uri_term;
    term_id group;
    term_id groups_of;     /* ldgsm:groupsOf (S P) of a GET: every object of S P is a group that asked, or 0 */
    bool lenient;          /* GET with `ldgsm:lenient true`: a body that does not parse adds nothing, fails nothing */
} request;

/* Resource identities already worked out, by request URI: the crawl asks for the same documents every
 * iteration, and parsing a URL was the costliest step of extracting a request (13-17% of an agent's
 * instructions). Keyed by text, so that it outlives the agent's release of its terms (the agent empties
 * it when it has grown large). */
typedef struct identity_cache {
    strmap slot_of; /* URI -> 1 + index in texts */
    char **texts;   /* http_url_identity of the URI (NULL when it has none) */
    size_t count;
} identity_cache;
void identity_cache_free(identity_cache *c);

/* Appends to *out every request node of head[0..n) (an instantiated request-rule head, as the reasoner's
 * request_sink is given it). A node that cannot be a request (no URI, a URI that is not an IRI, a method
 * that is not a method) is reported through log and skipped. wm (may be NULL) supplies a header list the
 * head names but does not spell out. Returns the number appended. */
size_t request_extract(terms *t, const agent_vocab *v, store *wm, const triple *ts, size_t n, const rule *origin,
                       const log_sink *log, identity_cache *identities, request **out, size_t *count,
                       size_t *cap);
void request_free(request *r);
/* True when the rule's head holds a request node (some triple with predicate http:mthd). */
bool request_rule_head(const terms *t, const agent_vocab *v, term_id head);

#endif
