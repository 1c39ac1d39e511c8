/* auth_file.h: the credentials file of `--auth FILE` (docs/guide/pod.md): a JSON object, as
 * scripts/css-pod.sh writes it from Community Solid Server's client credentials answer:
 *   {"client_id": "...", "client_secret": "...", "issuer": "https://idp.example/", "webid": "..."}
 * client_id and client_secret are required; issuer is the OpenID provider the token comes from; webid (the
 * agent's WebID) is optional beside it, and without issuer names the provider through its
 * solid:oidcIssuer. No other key is taken (a misspelt one would silently go unused).
 *
 * The file holds a secret: it must be a regular file that only its owner can read or write (mode 0600
 * or 0400), owned by the user running ldgsm, as ssh checks its keys. */
#ifndef LDGSM_HTTP_AUTH_FILE_H
#define LDGSM_HTTP_AUTH_FILE_H

#include <stddef.h>

typedef struct auth_credentials {
    char *client_id, *client_secret;
    char *issuer; /* NULL when only webid is given */
    char *webid;  /* NULL when not given */
} auth_credentials;

/* 0 and *out filled, or -1 and error says what is wrong with the file (never quoting the secret). */
int auth_file_read(const char *path, auth_credentials *out, char *error, size_t error_len);
/* Releases the strings, the secret overwritten first. */
void auth_credentials_free(auth_credentials *c);

#endif
