/* dpop.c: DPoP proofs (dpop.h): the key pair, the JWS compact form, the claims. JSON with jansson,
 * base64url, SHA-256 and ECDSA with nettle, the URL's parts with libcurl; nothing here is hand-made
 * cryptography. */
#include "http/dpop.h"

#include <curl/curl.h>
#include <gmp.h>
#include <jansson.h>
#include <nettle/base64.h>
#include <nettle/bignum.h>
#include <nettle/ecc-curve.h>
#include <nettle/ecc.h>
#include <nettle/ecdsa.h>
#include <nettle/sha2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "rdf/buf.h"

enum { COORD = 32 }; /* bytes of a P-256 coordinate or scalar */

struct dpop_key {
    struct ecc_scalar private_key;
    char *jwk_x, *jwk_y; /* the public key's coordinates, base64url */
};

/* nettle's randomness callback: the kernel's generator (getrandom blocks only before it is seeded). */
static void system_random(void *ctx, size_t len, uint8_t *dst) {
    (void)ctx;
    while (len) {
        ssize_t got = getrandom(dst, len, 0);
        if (got <= 0)
            abort(); /* a key or nonce without entropy would be worse than no signature */
        dst += got;
        len -= (size_t)got;
    }
}

char *dpop_base64url(const uint8_t *data, size_t len) {
    struct base64_encode_ctx ctx;
    base64url_encode_init(&ctx);
    char *out = xmalloc(BASE64_ENCODE_LENGTH(len) + BASE64_ENCODE_FINAL_LENGTH + 1);
    size_t n = base64_encode_update(&ctx, out, len, data);
    n += base64_encode_final(&ctx, out + n);
    while (n && out[n - 1] == '=')
        n--;
    out[n] = '\0';
    return out;
}

static char *coordinate(const mpz_t v) {
    uint8_t bytes[COORD];
    nettle_mpz_get_str_256(COORD, bytes, v);
    return dpop_base64url(bytes, COORD);
}

dpop_key *dpop_key_new(void) {
    const struct ecc_curve *curve = nettle_get_secp_256r1();
    dpop_key *k = xcalloc(1, sizeof *k);
    struct ecc_point pub;
    ecc_point_init(&pub, curve);
    ecc_scalar_init(&k->private_key, curve);
    ecdsa_generate_keypair(&pub, &k->private_key, NULL, system_random);
    mpz_t x, y;
    mpz_inits(x, y, NULL);
    ecc_point_get(&pub, x, y);
    k->jwk_x = coordinate(x);
    k->jwk_y = coordinate(y);
    mpz_clears(x, y, NULL);
    ecc_point_clear(&pub);
    return k;
}

void dpop_key_free(dpop_key *k) {
    if (!k)
        return;
    ecc_scalar_clear(&k->private_key);
    free(k->jwk_x);
    free(k->jwk_y);
    free(k);
}

/* The JSON of obj, compact, base64url'd; obj is released. */
static char *encoded_json(json_t *obj) {
    char *text = json_dumps(obj, JSON_COMPACT);
    json_decref(obj);
    if (!text)
        abort(); /* jansson fails only without memory */
    char *out = dpop_base64url((const uint8_t *)text, strlen(text));
    free(text);
    return out;
}

/* url without its query and fragment (RFC 9449 4.2: htu), or NULL when it does not parse. */
static char *target_uri(const char *url) {
    CURLU *u = curl_url();
    char *out = NULL, *got = NULL;
    if (u && curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
        curl_url_set(u, CURLUPART_QUERY, NULL, 0) == CURLUE_OK &&
        curl_url_set(u, CURLUPART_FRAGMENT, NULL, 0) == CURLUE_OK && curl_url_get(u, CURLUPART_URL, &got, 0) == CURLUE_OK)
        out = xstrndup(got, strlen(got));
    curl_free(got);
    curl_url_cleanup(u);
    return out;
}

char *dpop_proof(const dpop_key *k, const char *method, const char *url, const char *access_token) {
    char *htu = target_uri(url);
    if (!htu)
        return NULL;
    uint8_t nonce[16];
    system_random(NULL, sizeof nonce, nonce);
    char *jti = dpop_base64url(nonce, sizeof nonce);
    json_t *claims = json_pack("{s:s, s:s, s:s, s:I}", "jti", jti, "htm", method, "htu", htu, "iat",
                               (json_int_t)time(NULL));
    free(jti);
    free(htu);
    if (access_token) {
        uint8_t digest[SHA256_DIGEST_SIZE];
        struct sha256_ctx sha;
        sha256_init(&sha);
        sha256_update(&sha, strlen(access_token), (const uint8_t *)access_token);
        sha256_digest(&sha, sizeof digest, digest);
        char *ath = dpop_base64url(digest, sizeof digest);
        json_object_set_new(claims, "ath", json_string(ath));
        free(ath);
    }
    json_t *header = json_pack("{s:s, s:s, s:{s:s, s:s, s:s, s:s}}", "typ", "dpop+jwt", "alg", "ES256", "jwk", "kty",
                               "EC", "crv", "P-256", "x", k->jwk_x, "y", k->jwk_y);
    if (!claims || !header)
        abort(); /* json_pack fails only without memory (its formats are fixed here) */
    buf jws = {0};
    char *part = encoded_json(header);
    buf_printf(&jws, "%s.", part);
    free(part);
    part = encoded_json(claims);
    buf_puts(&jws, part);
    free(part);

    uint8_t digest[SHA256_DIGEST_SIZE];
    struct sha256_ctx sha;
    sha256_init(&sha);
    sha256_update(&sha, jws.len, (const uint8_t *)jws.data);
    sha256_digest(&sha, sizeof digest, digest);
    struct dsa_signature sig;
    dsa_signature_init(&sig);
    ecdsa_sign(&k->private_key, NULL, system_random, sizeof digest, digest, &sig);
    uint8_t rs[2 * COORD];
    nettle_mpz_get_str_256(COORD, rs, sig.r);
    nettle_mpz_get_str_256(COORD, rs + COORD, sig.s);
    dsa_signature_clear(&sig);
    part = dpop_base64url(rs, sizeof rs);
    buf_printf(&jws, ".%s", part);
    free(part);
    return buf_cstr(&jws);
}
