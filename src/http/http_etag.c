/* http_etag.c: entity-tag grammar: [ "W/" ] DQUOTE *etagc DQUOTE, etagc = %x21 / %x23-7E / obs-text. */
#include "http/http_etag.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

static bool is_opaque_tag(const char *s) {
    size_t len = strlen(s);
    if (len < 2 || s[0] != '"' || s[len - 1] != '"')
        return false;
    for (size_t i = 1; i + 1 < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c <= 0x20 || c == '"' || c == 0x7f)
            return false;
    }
    return true;
}

enum http_etag_kind http_etag_classify(const char *etag) {
    if (!etag || !*etag)
        return HTTP_ETAG_NONE;
    if (strncmp(etag, "W/", 2) == 0)
        return is_opaque_tag(etag + 2) ? HTTP_ETAG_WEAK : HTTP_ETAG_MALFORMED;
    return is_opaque_tag(etag) ? HTTP_ETAG_STRONG : HTTP_ETAG_MALFORMED;
}
