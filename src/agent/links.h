/* links.h: reading through links (docs/DESIGN.md §8.2): which documents a sentry or an argument query needs
 * beyond the constants it names. A pattern `X p ?v` with a constant predicate, where X is the instance
 * (gsm:thisArtifactInstance, wsm:thisInstance), a constant IRI or a variable reached so, and where ?v is
 * the subject of another pattern, is a hop: the crawl GETs the document of every IRI ?v takes for the
 * instance, up to max_depth hops from where the chain starts. The sentry table asserts the hops as data
 * and rules/ldp-crawl.n3 follows them:
 *   ?query gx:link ?step . ?step gx:via ?p ; gx:linkFrom gx:thisInstance | <constant> | ?earlier-step . */
#ifndef LDGSM_AGENT_LINKS_H
#define LDGSM_AGENT_LINKS_H

#include <stddef.h>

#include "agent/vocab.h"
#include "reason/sentry_ast.h"

enum { LINK_DEFAULT_DEPTH = 3, LINK_MAX_DEPTH = 16 };

typedef struct link_step {
    term_id variable; /* the variable it reaches */
    term_id via;      /* the predicate followed */
    long from;        /* index of the step it continues, or -1: it starts at root */
    term_id root;     /* from -1: the instance's constant (v->this_artifact) or a constant IRI */
    unsigned depth;   /* hops from its root, 1 for the first */
} link_step;

/* The hops of tree, at most max_depth deep, breadth first (a variable reached by several chains is
 * followed from its shortest); *out is malloc'ed. Returns how many. */
size_t link_steps(const terms *t, const agent_vocab *v, const sq_node *tree, unsigned max_depth, link_step **out);

/* The first subject variable of tree that no hop, and no pattern whose subject is the instance or a
 * constant, binds (nothing the crawl reads gives it a value unless a container is read whole); 0 when
 * there is none. For lint's warning. */
term_id link_unreached_subject(const terms *t, const agent_vocab *v, const sq_node *tree);

#endif
