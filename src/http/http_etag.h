/* http_etag.h: what kind of entity tag a response carried (RFC 9110 8.8.3). Only a strong tag may be
 * sent back in If-Match for a write; a weak one, or one that is not a quoted tag at all, gives no
 * condition. */
#ifndef LDGSM_HTTP_ETAG_H
#define LDGSM_HTTP_ETAG_H

enum http_etag_kind {
    HTTP_ETAG_NONE,      /* no ETag header (NULL or empty) */
    HTTP_ETAG_STRONG,    /* "opaque" */
    HTTP_ETAG_WEAK,      /* W/"opaque" */
    HTTP_ETAG_MALFORMED, /* anything else, e.g. an unquoted tag */
};

enum http_etag_kind http_etag_classify(const char *etag);

#endif
