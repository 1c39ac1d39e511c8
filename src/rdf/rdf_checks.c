/* rdf_checks.c: what a document must be before raptor2 sees it (UTF-8 without NUL, no language tag too
 * long, no RDF/XML entity or foreign encoding, XML nested no deeper than MAX_NESTING, Turtle and TriG that
 * the recognizer takes and whose names expand within bound), what each statement's terms must be as
 * raptor2 hands them over (no forbidden IRI character, no U+0000, no bad rdf:_ ordinal), and where in the
 * text a refused document is wrong. */
#define _GNU_SOURCE /* memmem */
#include "rdf/rdf_checks.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "rdf/nesting.h"
#include "rdf/term_rules.h"

/* The offset of the first byte that does not begin a well-formed UTF-8 character (RFC 3629: no overlong
 * form, no surrogate, nothing above U+10FFFF), or len when all of s is UTF-8. ASCII is skipped a word
 * at a time: this runs over every document read. */
size_t rdf_utf8_invalid_at(const unsigned char *s, size_t len) {
    size_t i = 0;
    while (i < len) {
        uint64_t word;
        if (len - i >= sizeof word && (memcpy(&word, s + i, sizeof word), !(word & 0x8080808080808080u))) {
            i += sizeof word;
            continue;
        }
        unsigned char c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t continuations;
        unsigned char low = 0x80, high = 0xBF; /* the range of the second byte */
        if (c >= 0xC2 && c <= 0xDF) {
            continuations = 1;
        } else if (c >= 0xE0 && c <= 0xEF) {
            continuations = 2;
            low = c == 0xE0 ? 0xA0 : 0x80;  /* not overlong */
            high = c == 0xED ? 0x9F : 0xBF; /* not a surrogate */
        } else if (c >= 0xF0 && c <= 0xF4) {
            continuations = 3;
            low = c == 0xF0 ? 0x90 : 0x80;  /* not overlong */
            high = c == 0xF4 ? 0x8F : 0xBF; /* not above U+10FFFF */
        } else {
            return i;
        }
        if (len - i <= continuations || s[i + 1] < low || s[i + 1] > high)
            return i;
        for (size_t k = 2; k <= continuations; k++)
            if ((s[i + k] & 0xC0) != 0x80)
                return i;
        i += continuations + 1;
    }
    return len;
}

/* The encoding an XML declaration names (the text after encoding=, up to its quote), or NULL. */
static const char *xml_declared_encoding(const char *data, size_t len, size_t *name_len) {
    size_t start = len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    if (len - start < 5 || memcmp(data + start, "<?xml", 5) != 0)
        return NULL;
    const char *end = memmem(data + start, len - start, "?>", 2);
    const char *at = end ? memmem(data + start, (size_t)(end - data) - start, "encoding", 8) : NULL;
    if (!at)
        return NULL;
    at += 8;
    while (at < end && (*at == ' ' || *at == '\t' || *at == '\r' || *at == '\n' || *at == '='))
        at++;
    if (at == end || (*at != '"' && *at != '\''))
        return NULL;
    const char *close = memchr(at + 1, *at, (size_t)(end - at - 1));
    if (!close)
        return NULL;
    *name_len = (size_t)(close - at - 1);
    return at + 1;
}

static bool xml_encoding_keeps_ascii(const char *name, size_t len) {
    static const char *const names[] = {"UTF-8", "UTF8", "US-ASCII", "ASCII", "ISO-8859-1", "ISO-LATIN-1"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strlen(names[i]) == len && strncasecmp(name, names[i], len) == 0)
            return true;
    return false;
}

/* The line and column (in characters, both from 1) of the byte offset `at`, as the N3 reader counts. */
static void text_position(const char *data, size_t at, int *line, int *col) {
    const char *line_start = data;
    *line = 1;
    for (const char *p = data; (p = memchr(p, '\n', (size_t)(data + at - p))); p++) {
        (*line)++;
        line_start = p + 1;
    }
    *col = 1;
    for (const char *p = line_start; p < data + at; p++)
        *col += (*p & 0xC0) != 0x80;
}

/* Fails a document by what it is, at the byte offset `at`. */
int rdf_refuse_at(const char *data, size_t at, const char *source_name, rdf_error *err, const char *what) {
    text_position(data, at, &err->line, &err->col);
    snprintf(err->message, sizeof err->message, "%s:%d:%d: %s", source_name, err->line, err->col, what);
    return -1;
}

/* The offset of the first token on a line (its first byte that is not a space or tab), len past the end. */
static size_t line_first_token(const char *data, size_t len, int line) {
    size_t at = 0;
    for (int l = 1; l < line && at < len; l++) {
        const char *eol = memchr(data + at, '\n', len - at);
        at = eol ? (size_t)(eol - data) + 1 : len;
    }
    while (at < len && (data[at] == ' ' || data[at] == '\t' || data[at] == '\v'))
        at++;
    return at;
}

/* Completes where a Turtle or TriG error is. raptor2 reports a grammar error with the line of the token it
 * could not take and no column, and an undeclared prefix with no position at all. The recognizer
 * (turtle_scan.h) follows the same lexer and grammar, so its first error is that token: it is taken when
 * raptor2 names no line or a line the token spans; otherwise (an error only raptor2 sees) raptor2's line
 * and its first token. raptor2's own words are kept: they say what it expected there. */
void rdf_locate_error(const char *data, size_t len, const turtle_scan *scan, const rdf_error *raptor_err,
                      const char *raptor_text, const char *source_name, rdf_error *err) {
    int line = raptor_err->line, col = raptor_err->col;
    if (line && col)
        return;
    size_t at = SIZE_MAX;
    if (scan->error_at != SIZE_MAX) {
        int first, last, unused;
        text_position(data, scan->error_at, &first, &unused);
        text_position(data, scan->error_end, &last, &unused);
        if (!line || (line >= first && line <= last))
            at = scan->error_at;
    }
    if (at == SIZE_MAX)
        at = line ? line_first_token(data, len, line) : 0;
    text_position(data, at, &err->line, &err->col);
    snprintf(err->message, sizeof err->message, "%s:%d:%d: %s", source_name, err->line, err->col,
             raptor_text[0] ? raptor_text : "syntax error");
}

/* Refuses a Turtle or TriG text at the recognizer's first error, in its words.
 * raptor2 never sees such a text: 2.0.15 leaks the tokens it holds when its grammar refuses one (a
 * string, an IRI, a prefixed name: each as long as the body may be, so bad bodies sent again and again
 * would exhaust the server's memory), and the recognizer refuses what raptor2 refuses (every Turtle and
 * TriG file of the W3C test suite alike). */
static int refuse_scanned(const char *data, size_t len, const turtle_scan *scan, const char *source_name,
                          rdf_error *err) {
    return rdf_refuse_at(data, scan->error_at < len ? scan->error_at : len, source_name, err, scan->error_what);
}

int rdf_check_turtle(const char *data, size_t len, bool trig, const char *base, size_t limit, turtle_scan *scan,
                     const char *source_name, rdf_error *err) {
    turtle_scan_text(data, len, trig, strlen(base ? base : "file:///"), limit, scan);
    if (scan->limit_passed_at != SIZE_MAX) {
        char what[200];
        snprintf(what, sizeof what,
                 "names written in full would add more than %zu bytes to the document (%d times its size "
                 "and %d MiB): a namespace or base too long for how often it is used",
                 limit, RDF_EXPANSION_FACTOR, RDF_EXPANSION_SLACK >> 20);
        return rdf_refuse_at(data, scan->limit_passed_at, source_name, err, what);
    }
    if (scan->error_at != SIZE_MAX)
        return refuse_scanned(data, len, scan, source_name, err);
    return 0;
}

/* RDF_EXPANSION_FACTOR times len plus RDF_EXPANSION_SLACK, saturating. */
size_t rdf_expansion_limit(size_t len) {
    if (len > (SIZE_MAX - RDF_EXPANSION_SLACK) / RDF_EXPANSION_FACTOR)
        return SIZE_MAX;
    return len * RDF_EXPANSION_FACTOR + RDF_EXPANSION_SLACK;
}

/* The offset of a language tag longer than RDF_MAX_LANGTAG in an N-Triples, N-Quads or RDF/XML text, or
 * len (Turtle's are the recognizer's). Looked for in the bytes, so it may also find one in a comment:
 * `"@` followed by tag characters (N-Triples escapes every quote inside a string), or an xml:lang value
 * (RDF/XML may not declare entities, so its bytes are the value or longer). */
/* The next mark at or after p: memmem for RDF/XML's `xml:lang`; for the other syntaxes, whose mark `"@`
 * is two bytes, the next '@' preceded by '"', which memchr finds far faster (the scan passes over every
 * byte of every document read: memmem was 2.5% of reading a large N-Triples file). */
static const char *next_mark(const char *p, const char *end, const char *data, bool xml, const char *mark,
                             size_t mark_len) {
    if (xml)
        return memmem(p, (size_t)(end - p), mark, mark_len);
    for (const char *at = p + 1; at < end && (at = memchr(at, '@', (size_t)(end - at))); at++)
        if (at - 1 >= data && at[-1] == '"')
            return at - 1;
    return NULL;
}

static size_t long_language_tag_at(enum rdf_syntax syntax, const char *data, size_t len) {
    bool xml = syntax == RDF_RDFXML;
    const char *mark = xml ? "xml:lang" : "\"@";
    size_t mark_len = strlen(mark);
    const char *end = data + len;
    for (const char *p = data; (p = next_mark(p, end, data, xml, mark, mark_len)); p++) {
        const char *tag = p + mark_len;
        if (xml) { /* the text ends anywhere: no NUL to stop strspn */
            while (tag < end && *tag && strchr(" \t\r\n", *tag))
                tag++;
            if (tag >= end || *tag != '=')
                continue;
            for (tag++; tag < end && *tag && strchr(" \t\r\n", *tag);)
                tag++;
            if (tag >= end || (*tag != '"' && *tag != '\''))
                continue;
            const char *close = memchr(tag + 1, *tag, (size_t)(end - tag - 1));
            if ((close ? (size_t)(close - tag - 1) : (size_t)(end - tag - 1)) > RDF_MAX_LANGTAG)
                return (size_t)(p - data);
        } else {
            size_t run = 0;
            while (tag + run < end && (isalnum((unsigned char)tag[run]) || tag[run] == '-'))
                run++;
            if (run > RDF_MAX_LANGTAG)
                return (size_t)(p + 1 - data);
        }
    }
    return len;
}

/* The end of what starts at p and ends with the first `close` after it, or end. */
static const char *past(const char *p, const char *end, const char *close) {
    const char *hit = memmem(p, (size_t)(end - p), close, strlen(close));
    return hit ? hit + strlen(close) : end;
}

/* The offset of the start tag that opens an element deeper than MAX_NESTING in an XML text, or len.
 * raptor2's RDF/XML parser looks up xml:base through every open element for each new one, quadratic in
 * the depth (10,000 unclosed elements 0.5 s, 40,000 22 s), and libxml2's push parser sets no bound, so
 * the depth is bounded here first. Comments, CDATA, processing instructions, the document type and quoted
 * attribute values are skipped; malformed XML may be counted deeper than it is, never shallower. */
static size_t xml_too_deep_at(const char *data, size_t len) {
    const char *p = data, *end = data + len;
    unsigned depth = 0;
    while ((p = memchr(p, '<', (size_t)(end - p)))) {
        const char *tag = p;
        size_t left = (size_t)(end - p);
        if (left >= 4 && memcmp(p, "<!--", 4) == 0) {
            p = past(p + 4, end, "-->");
        } else if (left >= 9 && memcmp(p, "<![CDATA[", 9) == 0) {
            p = past(p + 9, end, "]]>");
        } else if (left >= 2 && p[1] == '?') {
            p = past(p + 2, end, "?>");
        } else if (left >= 2 && p[1] == '!') { /* <!DOCTYPE ... [ internal subset ]>: quoted literals skipped */
            char quote = 0;
            bool subset = false;
            for (p += 2; p < end && (quote || subset || *p != '>'); p++) {
                if (quote ? *p == quote : (*p == '"' || *p == '\''))
                    quote = quote ? 0 : *p;
                else if (!quote && (*p == '[' || *p == ']'))
                    subset = *p == '[';
            }
        } else if (left >= 2 && p[1] == '/') {
            depth -= depth > 0;
            p += 2;
        } else {
            char quote = 0;
            for (p++; p < end && (quote || *p != '>'); p++)
                if (quote ? *p == quote : (*p == '"' || *p == '\''))
                    quote = quote ? 0 : *p;
            if (p < end && p[-1] == '/')
                continue; /* an empty element */
            if (++depth > MAX_NESTING)
                return (size_t)(tag - data);
        }
    }
    return len;
}

/* What every document must be before a parser sees it. RDF text is UTF-8 without NUL (raptor2 takes a
 * NUL for the end of the text and passes other bytes into terms unchecked), with no language tag raptor2
 * cannot hold (long_language_tag_at). RDF/XML may not declare entities:
 * raptor2 2.0.15 expands internal ones in full on a libxml2 2.9 context it does not expose, whose only
 * check is the density of references (one 20 KB entity referenced 500 times passed it: 21 KB of body, a
 * 10 MB literal, 900 MB of memory), so no cap can be set; refusing them is the bound. The declaration is
 * looked for in the bytes, so the document must also not name an encoding that spells ASCII otherwise:
 * libxml2 decodes a document declared UTF-7 (through iconv), where "+ADwAIQ-ENTITY" is "<!ENTITY". */
int rdf_check_text(enum rdf_syntax syntax, const char *data, size_t len, const char *source_name, rdf_error *err) {
    const char *nul = memchr(data, '\0', len);
    if (nul)
        return rdf_refuse_at(data, (size_t)(nul - data), source_name, err, "a NUL byte: RDF text holds none");
    size_t invalid = rdf_utf8_invalid_at((const unsigned char *)data, len);
    if (invalid < len) {
        char what[64];
        snprintf(what, sizeof what, "byte 0x%02X is not UTF-8: RDF text is UTF-8", (unsigned char)data[invalid]);
        return rdf_refuse_at(data, invalid, source_name, err, what);
    }
    size_t long_tag = syntax == RDF_TURTLE || syntax == RDF_TRIG ? len : long_language_tag_at(syntax, data, len);
    if (long_tag < len)
        return rdf_refuse_at(data, long_tag, source_name, err, "a language tag longer than " RDF_MAX_LANGTAG_TEXT " characters");
    size_t nul_escape = syntax == RDF_NTRIPLES || syntax == RDF_NQUADS ? rdf_nt_nul_escape_at(data, len) : len;
    if (nul_escape < len)
        return rdf_refuse_at(data, nul_escape, source_name, err, RDF_NUL_LITERAL_ERROR);
    if (syntax != RDF_RDFXML)
        return 0;
    size_t encoding_len;
    const char *encoding = xml_declared_encoding(data, len, &encoding_len);
    if (encoding && !xml_encoding_keeps_ascii(encoding, encoding_len))
        return rdf_refuse_at(data, (size_t)(encoding - data), source_name, err,
                         "RDF/XML is accepted in UTF-8, US-ASCII or ISO-8859-1 only; this document declares "
                         "another encoding");
    const char *entity = memmem(data, len, "<!ENTITY", 8);
    if (entity)
        return rdf_refuse_at(data, (size_t)(entity - data), source_name, err,
                         "RDF/XML with entity declarations is not accepted");
    size_t too_deep = xml_too_deep_at(data, len);
    if (too_deep < len)
        return rdf_refuse_at(data, too_deep, source_name, err, "elements " NESTING_ERROR);
    return 0;
}

/* ---- each statement's terms, as raptor2 hands them over ---------------------------------------------- */

/* The first character of an IRI that RDF 1.1 forbids in one (controls, space, <>"{}|^`\\), or NULL.
 * raptor2's N-Triples parser lets them through; Turtle, where a stored N-Triples body is read back, and
 * every N-Triples reader downstream refuse them. */
static const unsigned char *forbidden_in_iri(const raptor_term *rt) {
    size_t len = 0;
    const unsigned char *s = NULL;
    if (rt->type == RAPTOR_TERM_TYPE_URI)
        s = raptor_uri_as_counted_string(rt->value.uri, &len);
    else if (rt->type == RAPTOR_TERM_TYPE_LITERAL && rt->value.literal.datatype)
        s = raptor_uri_as_counted_string(rt->value.literal.datatype, &len);
    size_t at = s ? rdf_iri_forbidden_at((const char *)s, len) : len;
    return at < len ? s + at : NULL;
}

/* Whether a literal holds U+0000 (from an escape: the text itself holds no NUL byte). Refused in every
 * reader: N-Triples, RDF/XML and C strings cannot carry it, so keeping it in one place would let two
 * readers of the same resource disagree. */
static bool literal_holds_nul(const raptor_term *rt) {
    return rt->type == RAPTOR_TERM_TYPE_LITERAL && memchr(rt->value.literal.string, '\0', rt->value.literal.string_len);
}

static bool bad_ordinal(const raptor_term *rt) {
    size_t len;
    const unsigned char *s = rt->type == RAPTOR_TERM_TYPE_URI ? raptor_uri_as_counted_string(rt->value.uri, &len) : NULL;
    return s && rdf_iri_bad_ordinal((const char *)s, len);
}

const char *rdf_term_refusal(const raptor_term *rt, char *text, size_t size) {
    const unsigned char *bad = forbidden_in_iri(rt);
    if (bad) {
        snprintf(text, size, "an IRI cannot contain the character 0x%02X", *bad);
        return text;
    }
    if (literal_holds_nul(rt))
        return RDF_NUL_LITERAL_ERROR;
    if (bad_ordinal(rt))
        return RDF_BAD_ORDINAL_ERROR;
    return NULL;
}
