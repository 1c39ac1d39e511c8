/* ldp_doc.h: immutable, reference-counted snapshots of what the LDP server serves.
 *
 * A snapshot (ldp_doc) is one state of one resource or container: its Turtle representation and the
 * ETag of every variant. The store makes a new snapshot for every change and never modifies one, so
 * a request thread holding a reference serves a consistent state while writers move on. The server
 * caches its ready-made responses in the snapshot's variant slots; they die with the snapshot.
 *
 * ldp_bytes is a reference-counted byte string, so the stored bytes, the snapshot and an HTTP
 * response in flight share one copy. */
#ifndef LDGSM_LDP_DOC_H
#define LDGSM_LDP_DOC_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "ldp/ldp_etag.h"
#include "ldp/ldp_media.h"

typedef struct ldp_bytes {
    atomic_uint refs;
    size_t len;
    char data[]; /* NUL-terminated, the NUL not counted in len */
} ldp_bytes;

/* A copy of data with one reference. */
ldp_bytes *ldp_bytes_new(const char *data, size_t len);
ldp_bytes *ldp_bytes_retain(ldp_bytes *bytes);
void ldp_bytes_release(ldp_bytes *bytes);

/* Frees what the server cached in a variant slot. */
typedef void (*ldp_variant_free_fn)(void *variant);

typedef struct ldp_doc {
    atomic_uint refs;
    bool is_container;
    char *path;         /* decoded, the store's key */
    char *uri;          /* absolute: base URL + encoded path */
    ldp_bytes *turtle;  /* the Turtle representation */
    char etag[LDP_MEDIA_COUNT][LDP_ETAG_SIZE];
    time_t modified;    /* Last-Modified: when this state was written (set by the store; 0 unknown) */
    _Atomic(void *) variant[LDP_MEDIA_COUNT];
    ldp_variant_free_fn variant_free;
} ldp_doc;

/* Takes over the caller's reference to turtle; base_url has no trailing '/'. */
ldp_doc *ldp_doc_new(const char *path, const char *base_url, bool is_container, ldp_bytes *turtle,
                     ldp_variant_free_fn variant_free);
ldp_doc *ldp_doc_retain(ldp_doc *doc);
void ldp_doc_release(ldp_doc *doc);

/* Installs a variant unless another thread installed one first; returns the one in the slot (the
 * loser's variant is freed). */
void *ldp_doc_install_variant(ldp_doc *doc, enum ldp_media media, void *variant);

/* True when the If-Match / If-None-Match list names the ETag of one of the snapshot's variants. */
bool ldp_doc_etag_listed(const ldp_doc *doc, const char *header);

#endif
