/* ldp_path.h: request paths of the LDP server: checking and decoding what a client sends, encoding
 * stored names back into IRIs, and turning a Slug header into a member name.
 *
 * A decoded path is the key of a resource everywhere in the server (memory, disk, logs): it starts
 * with '/', a container's path ends with '/', and every segment is a file name the store can use as
 * is: non-empty, at most LDP_NAME_MAX bytes, no '/', no NUL or other control character, and not
 * beginning with '.' (those names are the store's own: temporary files, container metadata), which
 * also rules out "." and "..". */
#ifndef LDGSM_LDP_PATH_H
#define LDGSM_LDP_PATH_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#include "rdf/buf.h"

enum { LDP_NAME_MAX = 255, LDP_PATH_MAX = 2048 };

/* Decodes the raw request path (percent-escapes as sent, no query) into *decoded (caller frees).
 * Returns 0, or -1 with *why saying what is wrong (a static string): an encoded slash, a control
 * character, a "." or ".." segment, an empty segment, a bad escape, a name or path too long. */
int ldp_path_decode(const char *raw, char **decoded, const char **why);

static inline bool ldp_path_is_container(const char *decoded, size_t len) {
    return len > 0 && decoded[len - 1] == '/';
}

/* Appends the decoded path (or name) as an IRI path: bytes outside RFC 3986's pchar set and '/' are
 * percent-encoded, so the output is ASCII and reads back to the same decoded path. */
void ldp_path_encode(const char *decoded, size_t len, buf *out);

/* Appends the reference of a member relative to its container: the encoded name, '/' for a
 * container, and "./" in front when the name holds ':' (so it does not read as a scheme). */
void ldp_member_ref(const char *name, size_t len, bool container, buf *out);

/* The member name a Slug header asks for, when it is safe: percent-decoded, one trailing '/'
 * dropped, 1..128 characters of [A-Za-z0-9._~-], not beginning with '.'. Writes it to name (at
 * least 129 bytes) and returns true; false when the slug is unsafe (the caller generates a name). */
bool ldp_slug_name(const char *slug, char *name, size_t size);

/* Appends a fresh random name: 16 lower-case hex digits (for members without a usable Slug and for
 * the store's temporary files). */
void ldp_path_random_name(buf *out);

/* Appends a fresh member name that sorts after every name it gave before through the same *last:
 * 12 hex digits of a millisecond clock (at least *last + 1, then stored in *last) and 4 random ones, 16
 * in all. Members POSTed without a Slug thus list in the order they arrived, which is the order a state
 * machine takes the events of its inbox (rules/wsm.n3). */
void ldp_path_ordered_name(buf *out, uint64_t *last);

#endif
