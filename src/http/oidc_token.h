/* oidc_token.h: a Solid-OIDC client session (docs/DESIGN.md §10): the client credentials grant of
 * Community Solid Server and other Solid OpenID providers, with DPoP-bound access tokens (dpop.h).
 *
 * GUARANTEES
 *  1. The token endpoint is discovered from the issuer's /.well-known/openid-configuration (the issuer is
 *     the credentials file's, or the solid:oidcIssuer of its WebID); it must be on the issuer's origin.
 *  2. The client secret goes only to the token endpoint (HTTP Basic, RFC 6749 2.3.1); access tokens and
 *     proofs only to the session's origins (http_client's hook, below). Neither is ever logged: errors
 *     name the endpoint, the status and the provider's OAuth error code, never a secret or a token.
 *  3. A token is renewed before it expires (when a quarter of its life or 60 s, whichever is less, is
 *     left), and once after a 401 to a request that carried it (http_client sends that request again);
 *     a renewal before expiry that fails keeps the old token while it lasts; one after a 401 fails the
 *     request (the old token is known to be refused).
 *  4. After a failed token request, requests needing a token fail at once with its error (not sent) for
 *     one second, so a batch of requests does not send one token request each. */
#ifndef LDGSM_HTTP_OIDC_TOKEN_H
#define LDGSM_HTTP_OIDC_TOKEN_H

#include <stddef.h>

#include "http/auth_file.h"
#include "http/http_client.h"

typedef struct oidc_session oidc_session;

/* A session for credentials (taken: the caller's struct is emptied) whose tokens go to origins (each
 * "scheme://host[:port]"; copied). http gives the token requests' timeouts and log. Discovery and the
 * first token: NULL and error says why (the credentials are released then too). */
oidc_session *oidc_session_new(auth_credentials *credentials, const char *const *origins, size_t origin_count,
                               const http_options *http, char *error, size_t error_len);
void oidc_session_free(oidc_session *s);

/* The hook for http_client_set_auth; s must outlive the client. */
http_auth oidc_session_hook(oidc_session *s);

/* Tokens obtained so far. */
unsigned oidc_session_tokens(const oidc_session *s);

#endif
