/* builtins_crypto.c: the crypto: builtins: lower-case hex digests of a string's UTF-8 bytes (nettle). */
#include "reason/builtin_family.h"

#include <nettle/base16.h>
#include <nettle/nettle-meta.h>
#include <stdlib.h>

#include "rdf/buf.h"

/* The lower-case hex digest of a string's UTF-8 bytes. */
static void crypto_digest(terms *t, term_id subject, term_id object, const struct nettle_hash *hash,
                          builtin_emit emit, void *user) {
    const char *text;
    size_t len;
    if (!subject || !string_of(t, subject, &text, &len))
        return;
    void *ctx = xmalloc(hash->context_size);
    uint8_t *digest = xmalloc(hash->digest_size);
    char *hex = xmalloc(BASE16_ENCODE_LENGTH(hash->digest_size));
    hash->init(ctx);
    hash->update(ctx, len, (const uint8_t *)text);
    hash->digest(ctx, hash->digest_size, digest);
    base16_encode_update(hex, hash->digest_size, digest);
    emit_result(subject, object, simple_literal(t, hex, BASE16_ENCODE_LENGTH(hash->digest_size)), emit, user);
    free(hex);
    free(digest);
    free(ctx);
}

BUILTIN_VARIANT(crypto_sha, crypto_digest, &nettle_sha1)
BUILTIN_VARIANT(crypto_sha256, crypto_digest, &nettle_sha256)
BUILTIN_VARIANT(crypto_sha512, crypto_digest, &nettle_sha512)
BUILTIN_VARIANT(crypto_md5, crypto_digest, &nettle_md5)

const builtin builtins_crypto[] = {
    {NS_CRYPTO "sha", BUILTIN_SUBJECT_IN, crypto_sha, false},
    {NS_CRYPTO "sha256", BUILTIN_SUBJECT_IN, crypto_sha256, false},
    {NS_CRYPTO "sha512", BUILTIN_SUBJECT_IN, crypto_sha512, false},
    {NS_CRYPTO "md5", BUILTIN_SUBJECT_IN, crypto_md5, false},
};
const size_t builtins_crypto_count = sizeof builtins_crypto / sizeof builtins_crypto[0];
