/* ldp_doc.c: reference counting of byte strings and snapshots, and the snapshot's variant slots. */
#include "ldp/ldp_doc.h"

#include <stdlib.h>
#include <string.h>

#include "ldp/ldp_path.h"
#include "rdf/buf.h"

ldp_bytes *ldp_bytes_new(const char *data, size_t len) {
    ldp_bytes *bytes = xmalloc(sizeof *bytes + len + 1);
    atomic_init(&bytes->refs, 1);
    bytes->len = len;
    if (len)
        memcpy(bytes->data, data, len);
    bytes->data[len] = '\0';
    return bytes;
}

ldp_bytes *ldp_bytes_retain(ldp_bytes *bytes) {
    atomic_fetch_add_explicit(&bytes->refs, 1, memory_order_relaxed);
    return bytes;
}

void ldp_bytes_release(ldp_bytes *bytes) {
    if (bytes && atomic_fetch_sub_explicit(&bytes->refs, 1, memory_order_acq_rel) == 1)
        free(bytes);
}

ldp_doc *ldp_doc_new(const char *path, const char *base_url, bool is_container, ldp_bytes *turtle,
                     ldp_variant_free_fn variant_free) {
    ldp_doc *doc = xcalloc(1, sizeof *doc);
    atomic_init(&doc->refs, 1);
    doc->is_container = is_container;
    doc->path = xstrndup(path, strlen(path));
    buf uri = {0};
    buf_puts(&uri, base_url);
    ldp_path_encode(path, strlen(path), &uri);
    doc->uri = buf_cstr(&uri);
    doc->turtle = turtle;
    doc->variant_free = variant_free;
    const char *types[LDP_MEDIA_COUNT], *bases[LDP_MEDIA_COUNT];
    for (int m = 0; m < LDP_MEDIA_COUNT; m++) {
        /* The Turtle variant is the stored bytes themselves; the others are derived using the base. */
        types[m] = ldp_media_type(m);
        bases[m] = m == LDP_MEDIA_TURTLE ? NULL : base_url;
        atomic_init(&doc->variant[m], NULL);
    }
    ldp_etag_compute_each(turtle->data, turtle->len, LDP_MEDIA_COUNT, types, bases, doc->etag);
    return doc;
}

ldp_doc *ldp_doc_retain(ldp_doc *doc) {
    atomic_fetch_add_explicit(&doc->refs, 1, memory_order_relaxed);
    return doc;
}

void ldp_doc_release(ldp_doc *doc) {
    if (!doc || atomic_fetch_sub_explicit(&doc->refs, 1, memory_order_acq_rel) != 1)
        return;
    for (int m = 0; m < LDP_MEDIA_COUNT; m++) {
        void *variant = atomic_load(&doc->variant[m]);
        if (variant)
            doc->variant_free(variant);
    }
    ldp_bytes_release(doc->turtle);
    free(doc->path);
    free(doc->uri);
    free(doc);
}

void *ldp_doc_install_variant(ldp_doc *doc, enum ldp_media media, void *variant) {
    void *expected = NULL;
    if (atomic_compare_exchange_strong(&doc->variant[media], &expected, variant))
        return variant;
    doc->variant_free(variant);
    return expected;
}

bool ldp_doc_etag_listed(const ldp_doc *doc, const char *header) {
    for (int m = 0; m < LDP_MEDIA_COUNT; m++)
        if (ldp_etag_list_has(header, doc->etag[m]))
            return true;
    return false;
}
