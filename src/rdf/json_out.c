/* json_out.c: JSON values and compact lines over jansson (json_out.h). */
#include "rdf/json_out.h"

#include <string.h>

#include "rdf/utf8.h"

json_t *json_out_string(const char *s) {
    if (!s)
        return json_null();
    json_t *v = json_string(s);
    if (v)
        return v;
    buf text = {0};
    size_t len = strlen(s);
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        size_t n = utf8_decode(s + i, len - i, &cp);
        if (n) {
            buf_append(&text, s + i, n);
            i += n;
        } else {
            utf8_append(&text, 0xFFFD);
            i++;
        }
    }
    v = json_stringn(text.data, text.len);
    buf_free(&text);
    return v;
}

json_t *json_out_count(long value) {
    return value >= 0 ? json_integer(value) : json_null();
}

json_t *json_out_strings(char *const *values, size_t n) {
    json_t *array = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(array, json_out_string(values[i]));
    return array;
}

void json_out_line(json_t *v, buf *out) {
    /* insertion order is jansson's own since 2.8; the flag keeps it with any version */
    size_t flags = JSON_COMPACT | JSON_PRESERVE_ORDER;
    size_t size = json_dumpb(v, NULL, 0, flags);
    buf_reserve(out, size);
    out->len += json_dumpb(v, out->data + out->len, size, flags);
    buf_putc(out, '\n');
    json_decref(v);
}
