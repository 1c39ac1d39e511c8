/* ldp_etag.h: strong entity tags of the LDP server and the matching of If-Match / If-None-Match.
 *
 * An ETag is the first 128 bits of SHA-256 over the representation's source bytes and its media type
 * (and, for a type other than the stored Turtle, the server's base URL, which absolute IRIs in a
 * converted representation depend on). So it is strong, the same after a restart, and changes with
 * every change of content: a resource written A, B, A again carries A's tag, and the bytes are A's. */
#ifndef LDGSM_LDP_ETAG_H
#define LDGSM_LDP_ETAG_H

#include <stdbool.h>
#include <stddef.h>

enum { LDP_ETAG_SIZE = 35 }; /* '"', 32 hex digits, '"', NUL */

/* base may be NULL. Writes the quoted tag into etag. */
void ldp_etag_compute(const char *bytes, size_t len, const char *media_type, const char *base,
                      char etag[LDP_ETAG_SIZE]);
/* ldp_etag_compute for count (media_types[k], bases[k]) pairs of the same bytes, into etags[k]: the bytes
 * are hashed once (a snapshot's tags, one per media type, were a third of its hashing each). */
void ldp_etag_compute_each(const char *bytes, size_t len, size_t count, const char *const *media_types,
                           const char *const *bases, char (*etags)[LDP_ETAG_SIZE]);

/* True when the header value (a comma-separated list of entity tags, or "*") lists etag, by strong
 * comparison (a weak tag W/"..." never matches). "*" is not handled here: the caller decides it. */
bool ldp_etag_list_has(const char *header, const char *etag);

/* True when the header value is "*" (surrounding spaces allowed). */
bool ldp_etag_is_any(const char *header);

#endif
