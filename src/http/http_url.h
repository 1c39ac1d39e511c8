/* http_url.h: the URL forms the agent keys on, parsed with libcurl's URL API.
 *
 * - fragment-free form: the URI up to its first '#', otherwise unchanged (the source graph of a
 *   document's triples);
 * - resource identity: fragment-free, scheme and host lower-cased, a default port dropped, dot segments
 *   removed, an empty path written "/" (GET de-duplication, ETags, the conflict check);
 * - origin: "scheme://host[:port]" of an http or https URL, normalized as the identity is (the scope of
 *   credentials and of --allow-origin).
 * Every function returns a string the caller frees with free(). */
#ifndef LDGSM_HTTP_URL_H
#define LDGSM_HTTP_URL_H

/* Any string: the part before the first '#'. */
char *http_url_without_fragment(const char *uri);

/* Any string: a URI with an authority (scheme://...) that libcurl parses gets the full normalization;
 * any other (urn:, mailto:, a malformed URL) only loses its fragment and gets its scheme lower-cased. */
char *http_url_identity(const char *uri);

/* reference (a URI reference, e.g. a Link header's target) resolved against base (RFC 3986 section 5),
 * or NULL when libcurl parses neither as a URL. */
char *http_url_resolve(const char *base, const char *reference);

/* NULL when url is not an absolute http or https URL with a host. */
char *http_url_origin(const char *url);

/* The normalized origin when text is one: "scheme://host[:port]", a trailing '/' allowed, scheme http
 * or https, no user, path, query or fragment (for origins given on the command line); else NULL. */
char *http_url_as_origin(const char *text);

#endif
