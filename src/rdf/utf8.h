/* utf8.h: decoding and encoding single UTF-8 characters, for code that works on characters rather
 * than bytes (the string: builtins' lengths, substrings and case mapping). */
#ifndef LDGSM_RDF_UTF8_H
#define LDGSM_RDF_UTF8_H

#include <stddef.h>
#include <stdint.h>

#include "rdf/buf.h"

/* Decodes the character at s[0..avail): returns its length in bytes and its code point in *cp, or 0
 * when the bytes there are not UTF-8 (a stray or missing continuation byte, an overlong form, a
 * surrogate, a code point above U+10FFFF) or avail is 0. */
size_t utf8_decode(const char *s, size_t avail, uint32_t *cp);
/* Appends code point cp (at most U+10FFFF, not a surrogate) encoded as UTF-8. */
void utf8_append(buf *b, uint32_t cp);
/* The number of characters in s[0..len), or SIZE_MAX when it is not UTF-8 throughout. */
size_t utf8_length(const char *s, size_t len);

#endif
