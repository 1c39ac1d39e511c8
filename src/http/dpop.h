/* dpop.h: DPoP proofs (RFC 9449), the proof of possession Solid-OIDC binds its access tokens to: one
 * ES256 key pair (ECDSA over P-256, nettle) per run, and for each request a JWS in compact form whose
 * header carries the public key (jwk) and whose claims name the request.
 *
 * GUARANTEES
 *  1. A proof's header is {"typ": "dpop+jwt", "alg": "ES256", "jwk": {"kty": "EC", "crv": "P-256", "x", "y"}};
 *     its claims are jti (16 random bytes, base64url: unique per proof), htm (the method), htu (the URL
 *     without its query and fragment), iat (now, in seconds), and ath (base64url of the SHA-256 of the
 *     access token) when a token is given.
 *  2. The signature is r || s, 32 bytes each, big-endian (RFC 7518 3.4), over the SHA-256 of
 *     "header.claims". The private key never leaves the dpop_key. */
#ifndef LDGSM_HTTP_DPOP_H
#define LDGSM_HTTP_DPOP_H

#include <stddef.h>
#include <stdint.h>

typedef struct dpop_key dpop_key;

/* A fresh key pair from the system's random source; NULL when it gives none (then errno says why). */
dpop_key *dpop_key_new(void);
void dpop_key_free(dpop_key *key);

/* The proof for method on url (absolute), binding access_token when it is not NULL; NULL when url does
 * not parse. The caller frees it. */
char *dpop_proof(const dpop_key *key, const char *method, const char *url, const char *access_token);

/* data as base64url without padding (RFC 7515 2); the caller frees it. */
char *dpop_base64url(const uint8_t *data, size_t len);

#endif
