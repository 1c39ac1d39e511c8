/* auth_file.c: reading and checking the credentials file (auth_file.h): its mode and owner from the
 * open descriptor (no window between the check and the read), its JSON with jansson. */
#include "http/auth_file.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "http/http_url.h"
#include "rdf/buf.h"

static char *take(json_t *obj, const char *key) {
    const char *s = json_string_value(json_object_get(obj, key));
    return s ? xstrndup(s, strlen(s)) : NULL;
}

/* NULL, or what is wrong with the object's keys. */
static const char *key_problem(json_t *obj, char *what, size_t what_len) {
    static const char *const known[] = {"client_id", "client_secret", "issuer", "webid"};
    const char *key;
    json_t *value;
    json_object_foreach(obj, key, value) {
        size_t k = 0;
        while (k < sizeof known / sizeof *known && strcmp(key, known[k]) != 0)
            k++;
        if (k == sizeof known / sizeof *known) {
            snprintf(what, what_len, "unknown key \"%s\" (the keys are client_id, client_secret, issuer, webid)", key);
            return what;
        }
        if (!json_is_string(value) || !*json_string_value(value)) {
            snprintf(what, what_len, "\"%s\" is not a non-empty string", key);
            return what;
        }
    }
    if (!json_object_get(obj, "client_id"))
        return "no \"client_id\"";
    if (!json_object_get(obj, "client_secret"))
        return "no \"client_secret\"";
    if (!json_object_get(obj, "issuer") && !json_object_get(obj, "webid"))
        return "neither \"issuer\" nor \"webid\" (one of them names the OpenID provider)";
    for (const char *const *k = (const char *const[]){"issuer", "webid", NULL}; *k; k++) {
        const char *url = json_string_value(json_object_get(obj, *k));
        char *origin = url ? http_url_origin(url) : NULL;
        if (url && !origin) {
            snprintf(what, what_len, "\"%s\" is not an http or https URL", *k);
            return what;
        }
        free(origin);
    }
    return NULL;
}

int auth_file_read(const char *path, auth_credentials *out, char *error, size_t error_len) {
    *out = (auth_credentials){0};
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        snprintf(error, error_len, "--auth %s: %s", path,
                 errno == ELOOP ? "is a symbolic link (give the file itself)" : strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(error, error_len, "--auth %s: not a regular file", path);
        close(fd);
        return -1;
    }
    if (st.st_mode & 077) {
        snprintf(error, error_len, "--auth %s: mode %04o lets others read or write it; it holds a secret (chmod 600 %s)",
                 path, (unsigned)(st.st_mode & 07777), path);
        close(fd);
        return -1;
    }
    if (st.st_uid != geteuid()) {
        snprintf(error, error_len, "--auth %s: owned by user %u, not by the user running ldgsm (%u)", path,
                 (unsigned)st.st_uid, (unsigned)geteuid());
        close(fd);
        return -1;
    }
    json_error_t jerr;
    json_t *obj = json_loadfd(fd, JSON_REJECT_DUPLICATES, &jerr);
    close(fd);
    if (!obj) {
        /* jansson's text without its "near '...'": what it quotes may be the secret */
        char *near = strstr(jerr.text, " near ");
        if (near)
            *near = '\0';
        snprintf(error, error_len, "--auth %s: not JSON (line %d, column %d: %s)", path, jerr.line, jerr.column,
                 jerr.text);
        return -1;
    }
    char what[160];
    const char *problem = json_is_object(obj) ? key_problem(obj, what, sizeof what) : "not a JSON object";
    if (problem) {
        snprintf(error, error_len, "--auth %s: %s", path, problem);
        json_decref(obj);
        return -1;
    }
    *out = (auth_credentials){.client_id = take(obj, "client_id"), .client_secret = take(obj, "client_secret"),
                              .issuer = take(obj, "issuer"), .webid = take(obj, "webid")};
    /* jansson's copy of the secret goes with the object: overwrite it first */
    const char *secret = json_string_value(json_object_get(obj, "client_secret"));
    explicit_bzero((char *)secret, strlen(secret));
    json_decref(obj);
    return 0;
}

void auth_credentials_free(auth_credentials *c) {
    if (c->client_secret)
        explicit_bzero(c->client_secret, strlen(c->client_secret));
    free(c->client_id);
    free(c->client_secret);
    free(c->issuer);
    free(c->webid);
    *c = (auth_credentials){0};
}
