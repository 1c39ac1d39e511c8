/* http_url.c: fragment-free form, resource identity and origin of a URL, through curl_url(). */
#include "http/http_url.h"

#include <curl/curl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "rdf/buf.h"

static char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c; }

static char *copy_curl_string(char *s) {
    char *copy = xstrndup(s, strlen(s));
    curl_free(s);
    return copy;
}

/* NULL when libcurl does not parse uri as scheme://authority... */
static CURLU *url_parse(const char *uri, unsigned flags) {
    CURLU *u = curl_url();
    if (u && curl_url_set(u, CURLUPART_URL, uri, flags) == CURLUE_OK)
        return u;
    curl_url_cleanup(u);
    return NULL;
}

/* The host lower-cased (ASCII only: a host's case-insensitivity is ASCII's), or NULL when u has none. */
static char *url_lower_host(CURLU *u) {
    char *host = NULL;
    if (curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK || !*host) {
        curl_free(host);
        return NULL;
    }
    char *lowered = copy_curl_string(host);
    for (char *p = lowered; *p; p++)
        *p = ascii_lower(*p);
    return lowered;
}

char *http_url_without_fragment(const char *uri) { return xstrndup(uri, strcspn(uri, "#")); }

/* The fallback for what libcurl does not parse: fragment dropped, a well-formed scheme lower-cased. */
static char *identity_unparsed(const char *uri) {
    char *identity = http_url_without_fragment(uri);
    size_t scheme_len = strspn(identity, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-.");
    bool scheme_starts_alpha = ascii_lower(identity[0]) >= 'a' && ascii_lower(identity[0]) <= 'z';
    if (scheme_len > 0 && identity[scheme_len] == ':' && scheme_starts_alpha)
        for (size_t i = 0; i < scheme_len; i++)
            identity[i] = ascii_lower(identity[i]);
    return identity;
}

char *http_url_identity(const char *uri) {
    CURLU *u = url_parse(uri, CURLU_NON_SUPPORT_SCHEME);
    if (!u)
        return identity_unparsed(uri);
    char *host = url_lower_host(u);
    char *normalized = NULL;
    bool ok = (!host || curl_url_set(u, CURLUPART_HOST, host, 0) == CURLUE_OK) &&
              curl_url_set(u, CURLUPART_FRAGMENT, NULL, 0) == CURLUE_OK &&
              curl_url_get(u, CURLUPART_URL, &normalized, CURLU_NO_DEFAULT_PORT) == CURLUE_OK;
    free(host);
    curl_url_cleanup(u);
    if (!ok) {
        curl_free(normalized);
        return identity_unparsed(uri);
    }
    return copy_curl_string(normalized);
}

char *http_url_resolve(const char *base, const char *reference) {
    if (!*reference || *reference == '#') { /* the base itself (RFC 3986 5.2.2), which libcurl leaves out */
        CURLU *whole = url_parse(base, CURLU_NON_SUPPORT_SCHEME);
        curl_url_cleanup(whole);
        if (!whole)
            return NULL;
        buf b = {0};
        buf_printf(&b, "%.*s%s", (int)strcspn(base, "#"), base, reference);
        return buf_cstr(&b);
    }
    CURLU *u = url_parse(base, CURLU_NON_SUPPORT_SCHEME);
    char *resolved = NULL;
    /* a URL set on a handle that holds one is resolved against it, as a redirect's Location is */
    bool ok = u && curl_url_set(u, CURLUPART_URL, reference, CURLU_NON_SUPPORT_SCHEME) == CURLUE_OK &&
              curl_url_get(u, CURLUPART_URL, &resolved, 0) == CURLUE_OK;
    curl_url_cleanup(u);
    return ok ? copy_curl_string(resolved) : NULL;
}

/* "scheme://host[:port]" of an http(s) URL, or NULL. */
static char *url_origin(CURLU *u) {
    char *scheme = NULL, *port = NULL, *origin = NULL;
    char *host = url_lower_host(u);
    if (host && curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) == CURLUE_OK &&
        (strcmp(scheme, "http") == 0 || strcmp(scheme, "https") == 0)) {
        buf b = {0};
        buf_printf(&b, "%s://%s", scheme, host);
        if (curl_url_get(u, CURLUPART_PORT, &port, CURLU_NO_DEFAULT_PORT) == CURLUE_OK)
            buf_printf(&b, ":%s", port);
        origin = buf_cstr(&b);
    }
    curl_free(scheme);
    curl_free(port);
    free(host);
    return origin;
}

char *http_url_origin(const char *url) {
    CURLU *u = url_parse(url, 0);
    char *origin = u ? url_origin(u) : NULL;
    curl_url_cleanup(u);
    return origin;
}

/* True when u's part is absent (libcurl reports a missing part as an error). */
static bool url_lacks(CURLU *u, CURLUPart part) {
    char *value = NULL;
    CURLUcode code = curl_url_get(u, part, &value, 0);
    curl_free(value);
    return code != CURLUE_OK;
}

char *http_url_as_origin(const char *text) {
    CURLU *u = url_parse(text, 0);
    if (!u)
        return NULL;
    char *path = NULL;
    bool bare = curl_url_get(u, CURLUPART_PATH, &path, 0) == CURLUE_OK && strcmp(path, "/") == 0 &&
                url_lacks(u, CURLUPART_QUERY) && url_lacks(u, CURLUPART_FRAGMENT) && url_lacks(u, CURLUPART_USER);
    curl_free(path);
    char *origin = bare ? url_origin(u) : NULL;
    curl_url_cleanup(u);
    return origin;
}
