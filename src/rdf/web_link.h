/* web_link.h: the links of an HTTP Link header field value (RFC 8288 section 3): each link's target and
 * whether its rel parameter names a relation type. Both sides read them: the server the interaction model
 * a client asks for (ldp/ldp_link.h), the agent the storage description a resource names (Solid Protocol
 * section 4.1). */
#ifndef LDGSM_RDF_WEB_LINK_H
#define LDGSM_RDF_WEB_LINK_H

#include <stdbool.h>
#include <stddef.h>

typedef struct web_link {
    const char *target; /* the URI reference between < and >, not resolved, target_len bytes */
    size_t target_len;
    const char *params, *params_end; /* its parameters: from after '>' to the ',' that ends the link */
} web_link;

/* Reads the next link of the value at *cursor into *link and moves *cursor past it; false when no link
 * is left (or what is left is not one: a '<' without its '>'). */
bool web_link_next(const char **cursor, web_link *link);

/* True when link's rel parameter (a space-separated list) holds relation, compared without regard to
 * case as RFC 8288 section 2.1 says. */
bool web_link_has_rel(const web_link *link, const char *relation);

#endif
