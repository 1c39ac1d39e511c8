/* test_dpop.c: DPoP proofs (http/dpop.h) and the credentials file (http/auth_file.h). A proof is taken
 * apart with jansson and nettle, not with dpop.c's own code: its header and claims, htu without query and
 * fragment, a jti per proof, ath the SHA-256 of the token, and its signature verified by nettle's
 * ecdsa_verify with the public key the header carries. The credentials file: its mode, owner, keys and
 * JSON, each refusal saying why and never quoting the secret. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <gmp.h>
#include <jansson.h>
#include <nettle/base64.h>
#include <nettle/bignum.h>
#include <nettle/ecc-curve.h>
#include <nettle/ecc.h>
#include <nettle/ecdsa.h>
#include <nettle/sha2.h>

#include "http/auth_file.h"
#include "http/dpop.h"
#include "rdf/buf.h"

/* ---- a proof taken apart ---- */

typedef struct proof_parts {
    char *signing_input; /* "header.claims" */
    json_t *header, *claims;
    uint8_t signature[64];
    size_t signature_len;
} proof_parts;

/* JWS drops base64url's padding (RFC 7515 2), which nettle's decoder wants back. */
static size_t b64url_decode(const char *text, size_t len, uint8_t *out, size_t cap) {
    buf padded = {0};
    buf_append(&padded, text, len);
    while (padded.len % 4)
        buf_putc(&padded, '=');
    struct base64_decode_ctx ctx;
    base64url_decode_init(&ctx);
    size_t n = BASE64_DECODE_LENGTH(padded.len);
    uint8_t *decoded = xmalloc(n);
    assert_int_equal(base64_decode_update(&ctx, &n, decoded, padded.len, padded.data), 1);
    assert_int_equal(base64_decode_final(&ctx), 1);
    assert_true(n <= cap);
    memcpy(out, decoded, n);
    free(decoded);
    buf_free(&padded);
    return n;
}

static json_t *json_part(const char *text, size_t len) {
    uint8_t raw[1024];
    size_t n = b64url_decode(text, len, raw, sizeof raw);
    json_t *j = json_loadb((const char *)raw, n, 0, NULL);
    assert_non_null(j);
    return j;
}

static proof_parts split(const char *proof) {
    const char *dot1 = strchr(proof, '.');
    assert_non_null(dot1);
    const char *dot2 = strchr(dot1 + 1, '.');
    assert_non_null(dot2);
    assert_null(strchr(dot2 + 1, '.'));
    proof_parts p = {.signing_input = xstrndup(proof, (size_t)(dot2 - proof))};
    p.header = json_part(proof, (size_t)(dot1 - proof));
    p.claims = json_part(dot1 + 1, (size_t)(dot2 - dot1 - 1));
    p.signature_len = b64url_decode(dot2 + 1, strlen(dot2 + 1), p.signature, sizeof p.signature);
    return p;
}

static void parts_free(proof_parts *p) {
    free(p->signing_input);
    json_decref(p->header);
    json_decref(p->claims);
}

static const char *claim(const proof_parts *p, const char *name) {
    return json_string_value(json_object_get(p->claims, name));
}

/* nettle's verdict on the proof's signature, with the key in its header, over message (NULL: its own). */
static bool signature_verifies(const proof_parts *p, const char *message) {
    json_t *jwk = json_object_get(p->header, "jwk");
    uint8_t x[32], y[32];
    const char *xs = json_string_value(json_object_get(jwk, "x")), *ys = json_string_value(json_object_get(jwk, "y"));
    assert_int_equal(b64url_decode(xs, strlen(xs), x, sizeof x), 32);
    assert_int_equal(b64url_decode(ys, strlen(ys), y, sizeof y), 32);
    mpz_t mx, my;
    mpz_inits(mx, my, NULL);
    nettle_mpz_set_str_256_u(mx, 32, x);
    nettle_mpz_set_str_256_u(my, 32, y);
    struct ecc_point pub;
    ecc_point_init(&pub, nettle_get_secp_256r1());
    assert_int_equal(ecc_point_set(&pub, mx, my), 1);
    struct dsa_signature sig;
    dsa_signature_init(&sig);
    assert_int_equal(p->signature_len, 64);
    nettle_mpz_set_str_256_u(sig.r, 32, p->signature);
    nettle_mpz_set_str_256_u(sig.s, 32, p->signature + 32);
    const char *m = message ? message : p->signing_input;
    uint8_t digest[SHA256_DIGEST_SIZE];
    struct sha256_ctx sha;
    sha256_init(&sha);
    sha256_update(&sha, strlen(m), (const uint8_t *)m);
    sha256_digest(&sha, sizeof digest, digest);
    bool ok = ecdsa_verify(&pub, sizeof digest, digest, &sig);
    dsa_signature_clear(&sig);
    ecc_point_clear(&pub);
    mpz_clears(mx, my, NULL);
    return ok;
}

/* ---- proofs ---- */

static void header_and_claims(void **state) {
    (void)state;
    dpop_key *k = dpop_key_new();
    assert_non_null(k);
    char *proof = dpop_proof(k, "PUT", "https://pod.example:8443/a/b?view=full&x=1#frag", "the-token");
    assert_non_null(proof);
    proof_parts p = split(proof);
    assert_string_equal(json_string_value(json_object_get(p.header, "typ")), "dpop+jwt");
    assert_string_equal(json_string_value(json_object_get(p.header, "alg")), "ES256");
    json_t *jwk = json_object_get(p.header, "jwk");
    assert_string_equal(json_string_value(json_object_get(jwk, "kty")), "EC");
    assert_string_equal(json_string_value(json_object_get(jwk, "crv")), "P-256");
    assert_null(json_object_get(jwk, "d")); /* the public key only */
    assert_int_equal(json_object_size(p.header), 3);
    assert_string_equal(claim(&p, "htm"), "PUT");
    assert_string_equal(claim(&p, "htu"), "https://pod.example:8443/a/b"); /* no query, no fragment */
    json_int_t iat = json_integer_value(json_object_get(p.claims, "iat"));
    assert_true(llabs((long long)(iat - time(NULL))) <= 2);
    assert_true(strlen(claim(&p, "jti")) >= 22); /* 16 random bytes */
    parts_free(&p);
    free(proof);
    /* a URL without a path: htu has "/" */
    proof = dpop_proof(k, "GET", "http://127.0.0.1:3000?q", NULL);
    p = split(proof);
    assert_string_equal(claim(&p, "htu"), "http://127.0.0.1:3000/");
    parts_free(&p);
    free(proof);
    assert_null(dpop_proof(k, "GET", "not a url", NULL));
    dpop_key_free(k);
}

static void ath_is_the_tokens_hash(void **state) {
    (void)state;
    dpop_key *k = dpop_key_new();
    /* SHA-256("abc") = ba7816bf 8f01cfea ... f20015ad (FIPS 180-2 B.1), in base64url */
    char *proof = dpop_proof(k, "GET", "http://ex.org/r", "abc");
    proof_parts p = split(proof);
    assert_string_equal(claim(&p, "ath"), "ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0");
    parts_free(&p);
    free(proof);
    /* the token request carries no token, so no ath */
    proof = dpop_proof(k, "POST", "http://ex.org/token", NULL);
    p = split(proof);
    assert_null(json_object_get(p.claims, "ath"));
    parts_free(&p);
    free(proof);
    dpop_key_free(k);
}

static void jti_unique(void **state) {
    (void)state;
    dpop_key *k = dpop_key_new();
    enum { PROOFS = 200 };
    char *jtis[PROOFS];
    for (int i = 0; i < PROOFS; i++) {
        char *proof = dpop_proof(k, "GET", "http://ex.org/same", "t");
        proof_parts p = split(proof);
        jtis[i] = xstrndup(claim(&p, "jti"), strlen(claim(&p, "jti")));
        for (int j = 0; j < i; j++)
            assert_string_not_equal(jtis[i], jtis[j]);
        parts_free(&p);
        free(proof);
    }
    for (int i = 0; i < PROOFS; i++)
        free(jtis[i]);
    dpop_key_free(k);
}

static void signature_verified_by_nettle(void **state) {
    (void)state;
    dpop_key *k = dpop_key_new(), *other = dpop_key_new();
    char *proof = dpop_proof(k, "DELETE", "http://ex.org/r", "tok");
    proof_parts p = split(proof);
    assert_true(signature_verifies(&p, NULL));
    /* another message does not verify with that signature */
    char *changed = xstrndup(p.signing_input, strlen(p.signing_input));
    changed[strlen(changed) - 1] ^= 1;
    assert_false(signature_verifies(&p, changed));
    free(changed);
    /* one key per dpop_key: another key's proof carries another jwk */
    char *proof2 = dpop_proof(other, "DELETE", "http://ex.org/r", "tok");
    proof_parts p2 = split(proof2);
    assert_true(signature_verifies(&p2, NULL));
    assert_string_not_equal(json_string_value(json_object_get(json_object_get(p.header, "jwk"), "x")),
                            json_string_value(json_object_get(json_object_get(p2.header, "jwk"), "x")));
    parts_free(&p2);
    free(proof2);
    parts_free(&p);
    free(proof);
    dpop_key_free(k);
    dpop_key_free(other);
}

static void base64url_form(void **state) {
    (void)state;
    char *s = dpop_base64url((const uint8_t *)"\xfb\xff", 2); /* "+/8=" in base64 */
    assert_string_equal(s, "-_8");
    free(s);
}

/* ---- the credentials file ---- */

static char *write_file(const char *text, mode_t mode) {
    char *path = xstrndup("/tmp/ldgsm-test-auth.XXXXXX", 27);
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    assert_int_equal(chmod(path, mode), 0);
    return path;
}

/* auth_file_read's error on text written with mode (NULL when it reads); the secret "s3cr3t" never in it */
static char *read_error(const char *text, mode_t mode, auth_credentials *out) {
    char *path = write_file(text, mode);
    char error[512] = "";
    auth_credentials c;
    int rc = auth_file_read(path, &c, error, sizeof error);
    unlink(path);
    free(path);
    assert_null(strstr(error, "s3cr3t"));
    if (rc == 0) {
        assert_string_equal(error, "");
        if (out)
            *out = c;
        else
            auth_credentials_free(&c);
        return NULL;
    }
    assert_null(c.client_secret);
    return xstrndup(error, strlen(error));
}

static void expect_error(const char *text, mode_t mode, const char *part) {
    char *error = read_error(text, mode, NULL);
    assert_non_null(error);
    if (!strstr(error, part))
        fail_msg("error \"%s\" does not say \"%s\"", error, part);
    free(error);
}

static void credentials_file(void **state) {
    (void)state;
    auth_credentials c;
    assert_null(read_error("{\"client_id\": \"id\", \"client_secret\": \"s3cr3t\", \"issuer\": \"http://localhost:3000/\"}",
                           0600, &c));
    assert_string_equal(c.client_id, "id");
    assert_string_equal(c.client_secret, "s3cr3t");
    assert_string_equal(c.issuer, "http://localhost:3000/");
    assert_null(c.webid);
    auth_credentials_free(&c);
    assert_null(c.client_secret);
    /* read-only for its owner is fine; a WebID instead of the issuer too */
    assert_null(read_error("{\"client_id\": \"id\", \"client_secret\": \"s3cr3t\", \"webid\": \"https://me.example/card#me\"}",
                           0400, &c));
    assert_null(c.issuer);
    assert_string_equal(c.webid, "https://me.example/card#me");
    auth_credentials_free(&c);
    const char *good = "{\"client_id\": \"id\", \"client_secret\": \"s3cr3t\", \"issuer\": \"http://localhost:3000/\"}";
    expect_error(good, 0640, "mode 0640 lets others read or write it");
    expect_error(good, 0604, "mode 0604");
    expect_error(good, 0620, "mode 0620");
    expect_error("{\"client_id\": \"id\", \"issuer\": \"http://i/\"}", 0600, "no \"client_secret\"");
    expect_error("{\"client_secret\": \"s3cr3t\", \"issuer\": \"http://i/\"}", 0600, "no \"client_id\"");
    expect_error("{\"client_id\": \"id\", \"client_secret\": \"s3cr3t\"}", 0600, "neither \"issuer\" nor \"webid\"");
    expect_error("{\"client_id\": \"id\", \"client_secret\": \"s3cr3t\", \"issuer\": \"ftp://i/\"}", 0600,
                 "\"issuer\" is not an http or https URL");
    expect_error("{\"client_id\": \"id\", \"client_secret\": \"s3cr3t\", \"issuer\": \"http://i/\", \"secret\": \"x\"}", 0600,
                 "unknown key \"secret\"");
    expect_error("{\"client_id\": 7, \"client_secret\": \"s3cr3t\", \"issuer\": \"http://i/\"}", 0600,
                 "\"client_id\" is not a non-empty string");
    expect_error("{\"client_id\": \"id\", \"client_secret\": s3cr3t}", 0600, "not JSON (line 1");
    /* jansson quotes what it stopped at: here the secret's start, which the error must not show */
    expect_error("{\"client_id\": \"id\", \"client_secret\": \"s3cr3t\n\"}", 0600, "not JSON (line 1");
    expect_error("{\"client_id\": \"id\", \"client_id\": \"id2\"}", 0600, "not JSON");
    expect_error("[\"s3cr3t\"]", 0600, "not a JSON object");
    char error[256];
    auth_credentials none;
    assert_int_equal(auth_file_read("/nonexistent/ldgsm-auth.json", &none, error, sizeof error), -1);
    assert_non_null(strstr(error, "No such file"));
    /* a symbolic link is not followed (whoever can write the directory could point it elsewhere) */
    char *target = write_file(good, 0600);
    char link_path[] = "/tmp/ldgsm-test-auth-link.XXXXXX";
    int fd = mkstemp(link_path);
    close(fd);
    unlink(link_path);
    assert_int_equal(symlink(target, link_path), 0);
    assert_int_equal(auth_file_read(link_path, &none, error, sizeof error), -1);
    assert_non_null(strstr(error, "symbolic link"));
    unlink(link_path);
    unlink(target);
    free(target);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(header_and_claims),
        cmocka_unit_test(ath_is_the_tokens_hash),
        cmocka_unit_test(jti_unique),
        cmocka_unit_test(signature_verified_by_nettle),
        cmocka_unit_test(base64url_form),
        cmocka_unit_test(credentials_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
