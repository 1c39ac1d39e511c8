/* ldp_store.h: the LDP server's resources and containers, in memory or durable under a data directory,
 * with the LDP rules for writing them.
 *
 * NOTES ON THE DESIGN
 *  1. The tree of resources lives in memory; with a data directory every write reaches the disk
 *     (ldp_disk.h: atomic, durable) before it is visible in memory, so what a client saw acknowledged
 *     survives kill -9, and a restart reads the same tree back from the directory listing.
 *  2. A resource is stored as Turtle bytes: a Turtle or N-Triples body as sent (relative IRIs and
 *     all), an RDF/XML body re-serialized, an edited resource (N3 Patch) as the edit wrote it, from
 *     checked terms, without parsing it again; the store remembers which bytes an edit wrote, and the
 *     next edit reads those with the N3 reader instead of raptor2 (ldp_patch.h). A container's
 *     representation is generated: its type and one ldp:contains per member, sorted by name, followed
 *     by the container's own triples.
 *  3. Readers get immutable snapshots (ldp_doc.h) and never wait for a disk write: writers are
 *     serialized by their own lock across the disk I/O and take the tree lock only to check and to
 *     publish, so every check (existence, preconditions) and the publication see the same state.
 *  4. Preconditions are evaluated against the state the write replaces, inside the writer lock: two
 *     racing If-Match writers cannot both succeed. A POST's are evaluated against its container.
 *  5. A name is never handed out twice: every deleted path is remembered (with a data directory in
 *     LDP_DISK_DELETED_FILE, written before the deletion) and POST mints neither a live nor a deleted
 *     path, whatever the Slug asks for. The record grows by one line per deletion.
 *  6. Every snapshot carries when its representation last changed (ldp_doc.modified: a write, or for a
 *     container also a member's arrival or departure); with a data directory it is read back from the
 *     files' modification times, so it survives a restart.
 *  7. A write that changed the tree reports its changes once, to the config's on_change, after it has
 *     published them and before the next write starts (under the writer lock), so listeners see writes
 *     in the order they were made, each with the state it left. The changes are Community Solid
 *     Server's activities: Create for every resource or container the write made (missing ancestors
 *     included), Update for one it replaced, Delete for one it removed, and Add or Remove on the
 *     container that existed before the write and gained or lost the member (a container the same
 *     write created gets its Create only). A listener reads the state a change left with ldp_store_get:
 *     the writer lock keeps it this write's, and the store builds no container listing for an Add or a
 *     Remove nobody asks about (a container of n members costs O(n) to list).
 *
 * Paths are decoded store paths (ldp_path.h). Statuses are HTTP status codes. */
#ifndef LDGSM_LDP_STORE_H
#define LDGSM_LDP_STORE_H

#include <stdbool.h>
#include <stddef.h>

#include "ldp/ldp_doc.h"
#include "ldp/ldp_rdf.h"
#include "rdf/log.h"

typedef struct ldp_store ldp_store;

/* Design note 7. */
enum ldp_activity { LDP_ACTIVITY_CREATE, LDP_ACTIVITY_UPDATE, LDP_ACTIVITY_DELETE, LDP_ACTIVITY_ADD,
                    LDP_ACTIVITY_REMOVE };
typedef struct ldp_store_change {
    enum ldp_activity activity;
    const char *path;          /* the resource or container changed */
    const char *object;        /* Add, Remove: the member's path; otherwise NULL */
} ldp_store_change;
/* Called with one write's changes; it must not write to the store. */
typedef void (*ldp_store_change_fn)(void *user, const ldp_store_change *changes, size_t count);

typedef struct ldp_store_config {
    const char *data_dir;  /* NULL keeps everything in memory */
    const char *base_url;  /* "http://host:port", no trailing '/' */
    ldp_variant_free_fn variant_free; /* how snapshots free the server's cached variants */
    const log_sink *log;
    /* The namespaces the Turtle the store writes (RDF/XML bodies, patched resources) abbreviates beyond
     * rdf: and xsd:, as rdf_write_turtle_compact takes them; NULL: none. The server knows no vocabulary:
     * its caller names them, and the table must outlive the store. */
    const char *const *turtle_prefixes;
    ldp_store_change_fn on_change; /* design note 7; NULL: nobody listens */
    void *on_change_user;
} ldp_store_config;

/* Opens the store, reading the data directory back when there is one. NULL with message on failure. */
ldp_store *ldp_store_open(const ldp_store_config *config, char *message, size_t size);
void ldp_store_free(ldp_store *store);
/* The data directory the store was opened with, or NULL when it keeps everything in memory. */
const char *ldp_store_data_dir(const ldp_store *store);
/* The config's turtle_prefixes. */
const char *const *ldp_store_turtle_prefixes(const ldp_store *store);

/* The current snapshot of path, retained for the caller (ldp_doc_release); NULL when absent. */
ldp_doc *ldp_store_get(ldp_store *store, const char *path);
/* How many bodies the store has parsed to check them: one per PUT and POST, and one per edit of a
 * container (an edited resource is stored as the edit wrote it). */
size_t ldp_store_bodies_parsed(ldp_store *store);
/* How many container listings the store has built: one per container snapshot made after a change and
 * asked for (a GET, a view, a listener reading the state), none for changes nobody reads. */
size_t ldp_store_listings_built(ldp_store *store);

/* A read-only view of the whole store at one moment: every resource's and container's snapshot,
 * retained, in path order. It is taken under the tree lock, where writes are published, so a write is
 * wholly in it or not at all, and it stays valid (and unchanged) while writers go on. */
typedef struct ldp_store_view {
    ldp_doc **docs;
    size_t count;
} ldp_store_view;

void ldp_store_view_take(ldp_store *store, ldp_store_view *view);
void ldp_store_view_release(ldp_store_view *view);

typedef struct ldp_body {
    const char *data;
    size_t len;
    enum ldp_media media;
    const char *source_name; /* how parse errors name the body */
} ldp_body;

typedef struct ldp_conditions {
    const char *if_match;      /* header values, NULL when absent */
    const char *if_none_match;
    bool required;             /* --require-conditional applies to this path: 428 when neither is given */
} ldp_conditions;

typedef struct ldp_outcome {
    int status;                /* 201, 204, or an error: 400, 404, 405, 409, 412, 428, 500 */
    char *path;                /* the resource written (POST: the new member); caller frees */
    char etag[LDP_ETAG_SIZE];  /* its Turtle ETag after a successful write */
    char message[600];         /* why, for an error; a 500's names host paths (log it, never answer it) */
} ldp_outcome;

void ldp_outcome_clear(ldp_outcome *outcome);

/* Creates or replaces path (a container when it ends in '/': its own triples), creating missing
 * parent containers. 201 or 204. */
void ldp_store_put(ldp_store *store, const char *path, const ldp_body *body, const ldp_conditions *conditions,
                   ldp_outcome *outcome);
/* Computes a resource's new Turtle from its stored one (turtle: a resource's Turtle, a container's own
 * triples; NULL with len 0 when absent; own_writing: the stored Turtle is what an edit wrote, not a body
 * as a client sent it; base: its URI). Returns 0 with the Turtle in *out, or an HTTP status with
 * message. The Turtle must need no check (written by rdf_write_turtle_compact from terms the
 * edit checked as a body's would be): a resource's is stored as it is, and only a container's is parsed
 * again, for the ldp:contains triples the server manages. */
typedef int (*ldp_store_edit_fn)(void *user, const char *turtle, size_t len, bool own_writing, const char *base,
                                 buf *out, char *message, size_t size);
/* Rewrites path with edit, creating it (and missing parent containers) when absent; conditions as for
 * PUT. The read, the edit and the write run under the writer lock (design note 4), so no other write
 * comes between them and none is lost. 201, 204, edit's status, or as PUT. */
void ldp_store_edit(ldp_store *store, const char *path, const ldp_conditions *conditions, ldp_store_edit_fn edit,
                    void *user, ldp_outcome *outcome);
/* Creates a member of container: named slug when it is given, safe and free (never used before: design
 * note 5), otherwise a fresh name; a container when make_container. conditions (may be NULL) apply to
 * the container. The body's relative IRIs resolve against the new member. 201. */
void ldp_store_post(ldp_store *store, const char *container, const char *slug, bool make_container,
                    const ldp_body *body, const ldp_conditions *conditions, ldp_outcome *outcome);
/* Removes a resource or an empty container (409 when it has members; 405 for the root). 204. */
void ldp_store_delete(ldp_store *store, const char *path, const ldp_conditions *conditions,
                      ldp_outcome *outcome);

#endif
