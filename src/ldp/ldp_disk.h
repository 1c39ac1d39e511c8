/* ldp_disk.h: the durable half of the LDP store: one file per resource, one directory per container,
 * under a data directory.
 *
 * NOTES ON THE DESIGN
 *  1. A resource is never torn. Its bytes are written to a temporary file in the same directory,
 *     fsync'd, renamed over the resource's name and the directory fsync'd, so after a crash at any
 *     moment the name holds the old bytes or the new ones.
 *  2. A container appears and disappears whole. It is built under a temporary name (with its own
 *     triples, the file LDP_DISK_CONTAINER_FILE, inside), renamed into place, and on deletion renamed
 *     away before its contents are removed.
 *  3. Membership is the directory listing; there is no index to get out of step with the files.
 *  4. Every name the store does not own begins with '.'; temporary names begin with LDP_DISK_TMP_PREFIX
 *     and whatever a crash leaves of them is removed when the data directory is next walked. The root's
 *     LDP_DISK_IDEMPOTENCY_DIR holds the server's Idempotency-Key records (ldp_idempotency.h) and
 *     LDP_DISK_DELETED_FILE the store's deleted paths; the walk passes over both.
 *  5. No symbolic link in a data directory (or a fixtures folder) is followed: one planted there
 *     would make the server read, and serve to anyone, whatever it points at. The walk skips links
 *     (naming them to the visitor) and files are read through ldp_disk_read_file.
 * Paths passed here are decoded store paths ("/c/x", "/c/d/"), checked by ldp_path_decode. */
#ifndef LDGSM_LDP_DISK_H
#define LDGSM_LDP_DISK_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#define LDP_DISK_CONTAINER_FILE ".container.ttl"
#define LDP_DISK_TMP_PREFIX ".tmp."
#define LDP_DISK_IDEMPOTENCY_DIR ".idempotency"
#define LDP_DISK_DELETED_FILE ".ldgsm-deleted" /* the root's record of deleted paths (ldp_store.h note 5) */

/* Each returns 0, or -1 with message (size bytes) naming the file and the error. */

/* Replaces (or creates) file, in directory dir, with data as design note 1 says (for the server's own
 * files; resources go through ldp_disk_write_resource). */
int ldp_disk_replace_file(const char *dir, const char *file, const char *data, size_t len, char *message,
                          size_t size);
/* Replaces (or creates) the resource at path with data, atomically and durably. */
int ldp_disk_write_resource(const char *root, const char *path, const char *data, size_t len, char *message,
                            size_t size);
/* Replaces a container's own triples (an empty body removes the file). */
int ldp_disk_write_container_triples(const char *root, const char *path, const char *data, size_t len,
                                     char *message, size_t size);
/* Creates the container at path (ending in '/') with its own triples (len may be 0), atomically. */
int ldp_disk_make_container(const char *root, const char *path, const char *data, size_t len, char *message,
                            size_t size);
/* Removes a resource, or an empty container with its own triples, durably. */
int ldp_disk_remove(const char *root, const char *path, char *message, size_t size);

/* When the resource or container at path last changed (for a container: its own triples or its
 * membership, so never earlier than the last change); 0 when it cannot be told. */
time_t ldp_disk_modified(const char *root, const char *path);

/* Reads a whole regular file into memory (NUL-terminated), refusing a symbolic link (design note 5).
 * NULL with errno on failure: ELOOP for a link, EINVAL for anything else not a regular file. */
char *ldp_disk_read_file(const char *file, size_t *len);

/* What ldp_disk_walk finds, in directory order; returning non-zero stops the walk. */
typedef struct ldp_disk_visitor {
    int (*container)(void *user, const char *path, const char *own, size_t own_len);
    int (*resource)(void *user, const char *path, const char *data, size_t len);
    void (*skipped)(void *user, const char *file, const char *why);
    void *user;
} ldp_disk_visitor;

/* Walks the tree under root, each container before its members. When owned (root is the server's data
 * directory) root is created if missing and leftover temporary names are removed; otherwise (a
 * fixtures folder) nothing is changed. Returns 0, a visitor's non-zero result, or -1 with message. */
int ldp_disk_walk(const char *root, bool owned, const ldp_disk_visitor *visitor, char *message, size_t size);

#endif
