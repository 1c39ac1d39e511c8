/* ldp_etag.c: entity tags as truncated SHA-256 (nettle), and entity-tag list matching. */
#include "ldp/ldp_etag.h"

#include <nettle/sha2.h>
#include <string.h>

void ldp_etag_compute_each(const char *bytes, size_t len, size_t count, const char *const *media_types,
                           const char *const *bases, char (*etags)[LDP_ETAG_SIZE]) {
    struct sha256_ctx of_bytes;
    sha256_init(&of_bytes);
    sha256_update(&of_bytes, len, (const uint8_t *)bytes);
    for (size_t k = 0; k < count; k++) {
        struct sha256_ctx ctx = of_bytes; /* the bytes' state, copied: the rest differs per type */
        /* NUL separators keep (bytes, type, base) unambiguous: none of them holds a NUL the server accepts
         * in the type or base, and the byte count is fixed by the stored representation. */
        sha256_update(&ctx, 1, (const uint8_t *)"");
        sha256_update(&ctx, strlen(media_types[k]), (const uint8_t *)media_types[k]);
        if (bases[k]) {
            sha256_update(&ctx, 1, (const uint8_t *)"");
            sha256_update(&ctx, strlen(bases[k]), (const uint8_t *)bases[k]);
        }
        uint8_t digest[SHA256_DIGEST_SIZE];
        sha256_digest(&ctx, sizeof digest, digest);
        static const char hex[] = "0123456789abcdef";
        char *etag = etags[k];
        etag[0] = '"';
        for (int i = 0; i < 16; i++) {
            etag[1 + 2 * i] = hex[digest[i] >> 4];
            etag[2 + 2 * i] = hex[digest[i] & 15];
        }
        etag[33] = '"';
        etag[34] = '\0';
    }
}

void ldp_etag_compute(const char *bytes, size_t len, const char *media_type, const char *base,
                      char etag[LDP_ETAG_SIZE]) {
    ldp_etag_compute_each(bytes, len, 1, &media_type, &base, (char (*)[LDP_ETAG_SIZE])etag);
}

static const char *skip_list_space(const char *p) {
    while (*p == ' ' || *p == '\t' || *p == ',')
        p++;
    return p;
}

bool ldp_etag_list_has(const char *header, const char *etag) {
    size_t etag_len = strlen(etag);
    const char *p = skip_list_space(header);
    while (*p) {
        bool weak = p[0] == 'W' && p[1] == '/';
        if (weak)
            p += 2;
        if (*p != '"')
            return false; /* not an entity-tag list */
        const char *close = strchr(p + 1, '"');
        if (!close)
            return false;
        size_t len = (size_t)(close - p) + 1;
        if (!weak && len == etag_len && memcmp(p, etag, len) == 0)
            return true;
        p = skip_list_space(close + 1);
    }
    return false;
}

bool ldp_etag_is_any(const char *header) {
    while (*header == ' ' || *header == '\t')
        header++;
    if (*header++ != '*')
        return false;
    while (*header == ' ' || *header == '\t')
        header++;
    return *header == '\0';
}
