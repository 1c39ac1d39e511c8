/* utf8.c: single UTF-8 characters in and out (utf8.h). */
#include "rdf/utf8.h"

size_t utf8_decode(const char *text, size_t avail, uint32_t *cp) {
    const unsigned char *s = (const unsigned char *)text;
    if (!avail)
        return 0;
    if (s[0] < 0x80) {
        *cp = s[0];
        return 1;
    }
    size_t n;
    uint32_t v, min;
    if ((s[0] & 0xE0) == 0xC0) {
        n = 2, v = s[0] & 0x1F, min = 0x80;
    } else if ((s[0] & 0xF0) == 0xE0) {
        n = 3, v = s[0] & 0x0F, min = 0x800;
    } else if ((s[0] & 0xF8) == 0xF0) {
        n = 4, v = s[0] & 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if (avail < n)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        v = v << 6 | (s[i] & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
        return 0;
    *cp = v;
    return n;
}

void utf8_append(buf *b, uint32_t cp) {
    char out[4];
    size_t n;
    if (cp < 0x80) {
        out[0] = (char)cp, n = 1;
    } else if (cp < 0x800) {
        out[0] = (char)(0xC0 | cp >> 6), out[1] = (char)(0x80 | (cp & 0x3F)), n = 2;
    } else if (cp < 0x10000) {
        out[0] = (char)(0xE0 | cp >> 12), out[1] = (char)(0x80 | (cp >> 6 & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F)), n = 3;
    } else {
        out[0] = (char)(0xF0 | cp >> 18), out[1] = (char)(0x80 | (cp >> 12 & 0x3F));
        out[2] = (char)(0x80 | (cp >> 6 & 0x3F)), out[3] = (char)(0x80 | (cp & 0x3F)), n = 4;
    }
    buf_append(b, out, n);
}

size_t utf8_length(const char *s, size_t len) {
    size_t count = 0;
    for (size_t at = 0; at < len; count++) {
        uint32_t cp;
        size_t n = utf8_decode(s + at, len - at, &cp);
        if (!n)
            return SIZE_MAX;
        at += n;
    }
    return count;
}
