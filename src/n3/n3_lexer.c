/* n3_lexer.c: the N3 tokenizer. One pass over the bytes, no backtracking beyond a token: strings,
 * IRIs and names are decoded into lx->value as they are scanned, so lexing is linear in the input.
 * Every byte that ends up in a term is checked to be UTF-8; every escape is checked to be valid. */
#include "rdf/buf.h"
#include "rdf/term_rules.h"
#include "rdf/utf8.h"
#include "n3/n3_lexer.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { DESCRIBE_MAX_BYTES = 40 };

static const char ESCAPE_HELP[] = "an escape sequence (\\t \\b \\n \\r \\f \\\" \\' \\\\ \\uXXXX \\UXXXXXXXX)";

/* ---- characters ---- */

static int peek(const n3_lexer *lx, size_t i) { return i < lx->len ? (unsigned char)lx->src[i] : -1; }

static bool is_digit(int c) { return c >= '0' && c <= '9'; }
static bool is_alpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/* The character at offset i: its code point in *cp and its length; 0 at the end or on invalid UTF-8. */
static size_t char_at(const n3_lexer *lx, size_t i, uint32_t *cp) {
    if (i >= lx->len)
        return 0;
    return utf8_decode(lx->src + i, lx->len - i, cp);
}

/* Turtle's PN_CHARS_BASE, PN_CHARS_U and PN_CHARS. */
static bool is_pn_chars_base(uint32_t c) {
    return (c < 0x80 && is_alpha((int)c)) || (c >= 0xC0 && c <= 0xD6) || (c >= 0xD8 && c <= 0xF6) ||
           (c >= 0xF8 && c <= 0x2FF) || (c >= 0x370 && c <= 0x37D) || (c >= 0x37F && c <= 0x1FFF) ||
           (c >= 0x200C && c <= 0x200D) || (c >= 0x2070 && c <= 0x218F) || (c >= 0x2C00 && c <= 0x2FEF) ||
           (c >= 0x3001 && c <= 0xD7FF) || (c >= 0xF900 && c <= 0xFDCF) || (c >= 0xFDF0 && c <= 0xFFFD) ||
           (c >= 0x10000 && c <= 0xEFFFF);
}

static bool is_pn_chars_u(uint32_t c) { return c == '_' || is_pn_chars_base(c); }

static bool is_pn_chars(uint32_t c) {
    return is_pn_chars_u(c) || c == '-' || (c >= '0' && c <= '9') || c == 0xB7 || (c >= 0x300 && c <= 0x36F) ||
           (c >= 0x203F && c <= 0x2040);
}

/* Characters an IRIREF cannot hold, raw or escaped. */
static bool iri_forbidden(uint32_t c) {
    return c <= 0x20 || c == '<' || c == '>' || c == '"' || c == '{' || c == '}' || c == '|' || c == '^' ||
           c == '`' || c == '\\';
}

/* ---- positions and messages ---- */

static size_t text_start(const n3_lexer *lx) {
    return lx->len >= 3 && memcmp(lx->src, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0; /* a UTF-8 byte order mark */
}

void n3_lexer_init(n3_lexer *lx, const char *src, size_t len, const char *source_name, n3_error *err) {
    memset(lx, 0, sizeof *lx);
    lx->src = src ? src : "";
    lx->len = src ? len : 0;
    lx->source_name = source_name ? source_name : "<input>";
    lx->err = err;
    lx->pos = lx->cursor_offset = text_start(lx);
    lx->cursor_line = lx->cursor_col = 1;
}

void n3_lexer_free(n3_lexer *lx) { buf_free(&lx->value); }

void n3_lexer_position(n3_lexer *lx, size_t offset, unsigned *line, unsigned *col) {
    size_t start = text_start(lx);
    if (offset > lx->len)
        offset = lx->len;
    if (offset < start)
        offset = start;
    if (offset < lx->cursor_offset) {
        lx->cursor_offset = start;
        lx->cursor_line = lx->cursor_col = 1;
    }
    for (size_t i = lx->cursor_offset; i < offset; i++) {
        unsigned char c = (unsigned char)lx->src[i];
        if (c == '\n') {
            lx->cursor_line++;
            lx->cursor_col = 1;
        } else if ((c & 0xC0) != 0x80) {
            lx->cursor_col++;
        }
    }
    lx->cursor_offset = offset;
    *line = lx->cursor_line;
    *col = lx->cursor_col;
}

void n3_lexer_fail(n3_lexer *lx, size_t offset, const char *fmt, ...) {
    if (lx->failed)
        return;
    lx->failed = true;
    unsigned line, col;
    n3_lexer_position(lx, offset, &line, &col);
    char what[400];
    va_list args;
    va_start(args, fmt);
    vsnprintf(what, sizeof what, fmt, args);
    va_end(args);
    lx->err->line = line;
    lx->err->col = col;
    snprintf(lx->err->message, sizeof lx->err->message, "%.80s:%u:%u: %s", lx->source_name, line, col, what);
}

/* Renders source bytes for a message: at most DESCRIBE_MAX_BYTES, cut at a character boundary,
 * control characters escaped, "..." when cut. out must hold 2 * DESCRIBE_MAX_BYTES + 4 bytes. */
static void render_source(const char *s, size_t n, char *out) {
    size_t limit = n < DESCRIBE_MAX_BYTES ? n : DESCRIBE_MAX_BYTES;
    while (limit < n && limit > 0 && ((unsigned char)s[limit] & 0xC0) == 0x80)
        limit--;
    size_t o = 0;
    for (size_t i = 0; i < limit; i++) {
        unsigned char c = (unsigned char)s[i];
        char escaped = c == '\n' ? 'n' : c == '\t' ? 't' : c == '\r' ? 'r' : 0;
        if (escaped) {
            out[o++] = '\\';
            out[o++] = escaped;
        } else {
            out[o++] = c < 0x20 || c == 0x7F ? '?' : (char)c;
        }
    }
    if (limit < n) {
        memcpy(out + o, "...", 3);
        o += 3;
    }
    out[o] = '\0';
}

/* "'<the n source bytes at offset>'", or "end of input" past the end. */
static void describe_source(const n3_lexer *lx, size_t offset, size_t n, char *out, size_t cap) {
    if (offset >= lx->len) {
        snprintf(out, cap, "end of input");
        return;
    }
    if (n > lx->len - offset)
        n = lx->len - offset;
    char text[2 * DESCRIBE_MAX_BYTES + 4];
    render_source(lx->src + offset, n, text);
    snprintf(out, cap, "'%s'", text);
}

void n3_lexer_describe(const n3_lexer *lx, const n3_token *tok, char *out, size_t cap) {
    if (tok->kind == N3_TOK_EOF || tok->start >= lx->len) {
        snprintf(out, cap, "end of input");
        return;
    }
    const char *text = lx->src + tok->start;
    size_t n = tok->end > tok->start ? tok->end - tok->start : 1;
    bool literal = tok->kind == N3_TOK_STRING || tok->kind == N3_TOK_INTEGER || tok->kind == N3_TOK_DECIMAL ||
                   tok->kind == N3_TOK_DOUBLE ||
                   (tok->kind == N3_TOK_WORD && ((n == 4 && memcmp(text, "true", 4) == 0) ||
                                                 (n == 5 && memcmp(text, "false", 5) == 0)));
    char rendered[2 * DESCRIBE_MAX_BYTES + 4];
    render_source(text, n, rendered);
    snprintf(out, cap, literal ? "literal %s" : "'%s'", rendered);
}

/* Reports the character at offset i as unexpected after "expected <what>". */
static void fail_char(n3_lexer *lx, size_t i, const char *what) {
    uint32_t cp;
    size_t n = char_at(lx, i, &cp);
    if (!n && i < lx->len) {
        n3_lexer_fail(lx, i, "expected UTF-8 text, found byte 0x%02X", (unsigned)(unsigned char)lx->src[i]);
        return;
    }
    char found[2 * DESCRIBE_MAX_BYTES + 16];
    describe_source(lx, i, n, found, sizeof found);
    n3_lexer_fail(lx, i, "expected %s, found %s", what, found);
}

/* ---- tokens ---- */

static enum n3_token_kind finish(n3_lexer *lx, n3_token *tok, enum n3_token_kind kind) {
    tok->kind = kind;
    tok->end = lx->pos;
    buf_cstr(&lx->value);
    return kind;
}

static enum n3_token_kind fail_token(n3_token *tok) {
    tok->kind = N3_TOK_ERROR;
    tok->end = tok->start;
    return N3_TOK_ERROR;
}

static enum n3_token_kind punctuation(n3_lexer *lx, n3_token *tok, enum n3_token_kind kind, size_t len) {
    lx->pos += len;
    return finish(lx, tok, kind);
}

/* Decodes the escape whose backslash is at offset i into *cp; strings also accept ECHAR.
 * Returns its length, or 0 after reporting a bad escape. */
static size_t lex_escape(n3_lexer *lx, size_t i, bool in_string, uint32_t *cp) {
    int c = peek(lx, i + 1);
    size_t digits = c == 'u' ? 4 : c == 'U' ? 8 : 0;
    const char *expected = in_string ? ESCAPE_HELP : "an escape \\uXXXX or \\UXXXXXXXX in the IRI";
    char found[2 * DESCRIBE_MAX_BYTES + 16];
    if (digits) {
        uint32_t v = 0;
        for (size_t k = 0; k < digits; k++) {
            int h = hex_digit_value(peek(lx, i + 2 + k));
            if (h < 0) {
                describe_source(lx, i, 2 + k + 1, found, sizeof found);
                n3_lexer_fail(lx, i, "expected %s, found %s", expected, found);
                return 0;
            }
            v = v << 4 | (uint32_t)h;
        }
        if (v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) {
            describe_source(lx, i, 2 + digits, found, sizeof found);
            n3_lexer_fail(lx, i, "expected a Unicode code point in the escape, found %s", found);
            return 0;
        }
        *cp = v;
        return 2 + digits;
    }
    if (in_string) {
        static const char from[] = "tbnrf\"'\\", to[] = "\t\b\n\r\f\"'\\";
        const char *hit = c > 0 ? strchr(from, c) : NULL;
        if (hit) {
            *cp = (unsigned char)to[hit - from];
            return 2;
        }
    }
    uint32_t next;
    size_t next_len = char_at(lx, i + 1, &next);
    describe_source(lx, i, 1 + (next_len ? next_len : 1), found, sizeof found);
    n3_lexer_fail(lx, i, "expected %s, found %s", expected, found);
    return 0;
}

/* Appends the UTF-8 character at offset i to the value; returns its length or 0 after an error. */
static size_t take_utf8(n3_lexer *lx, size_t i) {
    uint32_t cp;
    size_t n = char_at(lx, i, &cp);
    if (!n) {
        fail_char(lx, i, "UTF-8 text");
        return 0;
    }
    buf_append(&lx->value, lx->src + i, n);
    return n;
}

static enum n3_token_kind lex_string(n3_lexer *lx, n3_token *tok) {
    size_t start = lx->pos;
    int quote = peek(lx, start);
    bool long_form = peek(lx, start + 1) == quote && peek(lx, start + 2) == quote;
    const char *closer = quote == '"' ? (long_form ? "'\"\"\"'" : "'\"'") : (long_form ? "\"'''\"" : "\"'\"");
    size_t i = start + (long_form ? 3 : 1);
    for (;;) {
        size_t run = i;
        while (i < lx->len) {
            unsigned char c = (unsigned char)lx->src[i];
            if (c == quote || c == '\\' || c >= 0x80 || c == 0 || (!long_form && (c == '\n' || c == '\r')))
                break;
            i++;
        }
        buf_append(&lx->value, lx->src + run, i - run);
        if (i >= lx->len) {
            n3_lexer_fail(lx, start, "expected %s to close the string, found end of input", closer);
            return fail_token(tok);
        }
        int c = (unsigned char)lx->src[i];
        if (c == quote) {
            if (!long_form) {
                i++;
                break;
            }
            if (peek(lx, i + 1) == quote && peek(lx, i + 2) == quote) {
                i += 3;
                break;
            }
            buf_putc(&lx->value, (char)c);
            i++;
        } else if (c == '\\') {
            uint32_t cp;
            size_t n = lex_escape(lx, i, true, &cp);
            if (!n)
                return fail_token(tok);
            if (cp == 0) {
                n3_lexer_fail(lx, i, "%s", RDF_NUL_LITERAL_ERROR);
                return fail_token(tok);
            }
            utf8_append(&lx->value, cp);
            i += n;
        } else if (c == '\n' || c == '\r') {
            n3_lexer_fail(lx, start, "expected %s to close the string on its line, found end of line", closer);
            return fail_token(tok);
        } else if (c == 0) {
            n3_lexer_fail(lx, i, "%s", RDF_NUL_LITERAL_ERROR);
            return fail_token(tok);
        } else {
            size_t n = take_utf8(lx, i);
            if (!n)
                return fail_token(tok);
            i += n;
        }
    }
    lx->pos = i;
    return finish(lx, tok, N3_TOK_STRING);
}

/* True when a '>' closes an IRI starting at offset i before any character an IRI cannot hold. */
static bool iri_closes(const n3_lexer *lx, size_t i) {
    for (; i < lx->len; i++) {
        unsigned char c = (unsigned char)lx->src[i];
        if (c == '>')
            return true;
        if (c != '\\' && iri_forbidden(c))
            return false;
    }
    return false;
}

static enum n3_token_kind lex_iri(n3_lexer *lx, n3_token *tok) {
    size_t start = lx->pos;
    int next = peek(lx, start + 1);
    if ((next == '=' || next == '-') && !iri_closes(lx, start + 1))
        return punctuation(lx, tok, next == '=' ? N3_TOK_IMPLIED_BY : N3_TOK_INVERSE, 2);
    size_t i = start + 1;
    for (;;) {
        size_t run = i;
        while (i < lx->len) {
            unsigned char c = (unsigned char)lx->src[i];
            if (c >= 0x80 || iri_forbidden(c))
                break;
            i++;
        }
        buf_append(&lx->value, lx->src + run, i - run);
        if (i >= lx->len) {
            n3_lexer_fail(lx, start, "expected '>' to close the IRI, found end of input");
            return fail_token(tok);
        }
        unsigned char c = (unsigned char)lx->src[i];
        if (c == '>') {
            i++;
            break;
        }
        if (c == '\\') {
            uint32_t cp;
            size_t n = lex_escape(lx, i, false, &cp);
            if (!n)
                return fail_token(tok);
            if (iri_forbidden(cp)) {
                char found[2 * DESCRIBE_MAX_BYTES + 16];
                describe_source(lx, i, n, found, sizeof found);
                n3_lexer_fail(lx, i, "expected a character allowed in IRIs, found %s", found);
                return fail_token(tok);
            }
            utf8_append(&lx->value, cp);
            i += n;
        } else if (c >= 0x80) {
            size_t n = take_utf8(lx, i);
            if (!n)
                return fail_token(tok);
            i += n;
        } else {
            fail_char(lx, i, "'>' or a character allowed in IRIs");
            return fail_token(tok);
        }
    }
    lx->pos = i;
    return finish(lx, tok, N3_TOK_IRI);
}

/* PN_LOCAL after the ':' of a prefixed name, decoded ('\-' becomes '-', %XX stays as written);
 * a trailing '.' is not part of the name. */
static enum n3_token_kind lex_local(n3_lexer *lx, n3_token *tok) {
    size_t i = lx->pos, good = i, good_len = lx->value.len;
    bool first = true;
    for (;;) {
        int c = peek(lx, i);
        if (c == '%') {
            if (hex_digit_value(peek(lx, i + 1)) < 0 || hex_digit_value(peek(lx, i + 2)) < 0) {
                char found[2 * DESCRIBE_MAX_BYTES + 16];
                describe_source(lx, i, 3, found, sizeof found);
                n3_lexer_fail(lx, i, "expected two hex digits after '%%' in a prefixed name, found %s", found);
                return fail_token(tok);
            }
            buf_append(&lx->value, lx->src + i, 3);
            i += 3;
        } else if (c == '\\') {
            int escaped = peek(lx, i + 1);
            if (escaped <= 0 || !strchr("_~.-!$&'()*+,;=/?#@%", escaped)) {
                uint32_t next;
                size_t next_len = char_at(lx, i + 1, &next);
                char found[2 * DESCRIBE_MAX_BYTES + 16];
                describe_source(lx, i, 1 + (next_len ? next_len : 1), found, sizeof found);
                n3_lexer_fail(lx, i, "expected an escaped punctuation character in a prefixed name, found %s",
                              found);
                return fail_token(tok);
            }
            buf_putc(&lx->value, (char)escaped);
            i += 2;
        } else if (c == ':' || is_digit(c)) {
            buf_putc(&lx->value, (char)c);
            i++;
        } else if (c == '.' && !first) {
            buf_putc(&lx->value, '.');
            i++;
            continue; /* not an end: a name does not end with '.' */
        } else {
            uint32_t cp;
            size_t n = char_at(lx, i, &cp);
            if (!n || !(first ? is_pn_chars_u(cp) : is_pn_chars(cp)))
                break;
            buf_append(&lx->value, lx->src + i, n);
            i += n;
        }
        first = false;
        good = i;
        good_len = lx->value.len;
    }
    lx->pos = good;
    lx->value.len = good_len;
    return finish(lx, tok, N3_TOK_PNAME);
}

/* A prefixed name (PN_PREFIX ':' PN_LOCAL) or a bare word (a, true, PREFIX, ...). */
static enum n3_token_kind lex_name(n3_lexer *lx, n3_token *tok) {
    size_t start = lx->pos, i = start, good = start;
    uint32_t cp;
    size_t n;
    if (peek(lx, start) != ':') {
        while ((n = char_at(lx, i, &cp)) && (is_pn_chars(cp) || cp == '.')) {
            i += n;
            if (cp != '.')
                good = i;
        }
    }
    buf_append(&lx->value, lx->src + start, good - start);
    if (peek(lx, good) == ':') {
        tok->prefix_len = good - start;
        buf_putc(&lx->value, ':');
        lx->pos = good + 1;
        return lex_local(lx, tok);
    }
    lx->pos = good;
    return finish(lx, tok, N3_TOK_WORD);
}

/* A blank node label after "_:" or a variable name after '?': a first character (PN_CHARS_U or a
 * digit), then PN_CHARS (and, in labels, inner dots). */
static enum n3_token_kind lex_label(n3_lexer *lx, n3_token *tok, size_t sigil_len, bool dots,
                                    enum n3_token_kind kind) {
    size_t i = lx->pos + sigil_len, good;
    uint32_t cp;
    size_t n = char_at(lx, i, &cp);
    if (!n || !(is_pn_chars_u(cp) || (cp >= '0' && cp <= '9'))) {
        fail_char(lx, i, kind == N3_TOK_VAR ? "a variable name after '?'" : "a blank node label after '_:'");
        return fail_token(tok);
    }
    i += n;
    good = i;
    while ((n = char_at(lx, i, &cp)) && (is_pn_chars(cp) || (dots && cp == '.'))) {
        i += n;
        if (cp != '.')
            good = i;
    }
    buf_append(&lx->value, lx->src + lx->pos + sigil_len, good - lx->pos - sigil_len);
    lx->pos = good;
    return finish(lx, tok, kind);
}

/* '@' [a-zA-Z]+ ('-' [a-zA-Z0-9]+)*: a language tag or a directive keyword. */
static enum n3_token_kind lex_at_word(n3_lexer *lx, n3_token *tok) {
    size_t i = lx->pos + 1;
    if (!is_alpha(peek(lx, i))) {
        fail_char(lx, i, "a language tag or a directive after '@'");
        return fail_token(tok);
    }
    while (is_alpha(peek(lx, i)))
        i++;
    while (peek(lx, i) == '-' && (is_alpha(peek(lx, i + 1)) || is_digit(peek(lx, i + 1)))) {
        i++;
        while (is_alpha(peek(lx, i)) || is_digit(peek(lx, i)))
            i++;
    }
    buf_append(&lx->value, lx->src + lx->pos + 1, i - lx->pos - 1);
    lx->pos = i;
    return finish(lx, tok, N3_TOK_AT_WORD);
}

static size_t digits_at(const n3_lexer *lx, size_t i) {
    size_t n = 0;
    while (is_digit(peek(lx, i + n)))
        n++;
    return n;
}

/* Length of an exponent [eE][+-]?[0-9]+ at offset i, or 0. */
static size_t exponent_at(const n3_lexer *lx, size_t i) {
    int c = peek(lx, i);
    if (c != 'e' && c != 'E')
        return 0;
    size_t sign = peek(lx, i + 1) == '+' || peek(lx, i + 1) == '-';
    size_t digits = digits_at(lx, i + 1 + sign);
    return digits ? 1 + sign + digits : 0;
}

/* INTEGER, DECIMAL or DOUBLE as in Turtle: "1." is the integer 1 followed by '.'. */
static enum n3_token_kind lex_number(n3_lexer *lx, n3_token *tok) {
    size_t i = lx->pos;
    if (peek(lx, i) == '+' || peek(lx, i) == '-')
        i++;
    size_t whole = digits_at(lx, i);
    i += whole;
    bool fraction = false;
    if (peek(lx, i) == '.') {
        size_t decimals = digits_at(lx, i + 1);
        if (decimals) {
            i += 1 + decimals;
            fraction = true;
        } else if (whole && exponent_at(lx, i + 1)) {
            i += 1;
            fraction = true;
        }
    }
    if (!whole && !fraction) {
        fail_char(lx, lx->pos, "a term or punctuation");
        return fail_token(tok);
    }
    size_t exponent = exponent_at(lx, i);
    i += exponent;
    lx->pos = i;
    return finish(lx, tok, exponent ? N3_TOK_DOUBLE : fraction ? N3_TOK_DECIMAL : N3_TOK_INTEGER);
}

static void skip_blanks_and_comments(n3_lexer *lx) {
    while (lx->pos < lx->len) {
        char c = lx->src[lx->pos];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
            lx->pos++;
        } else if (c == '#') {
            const char *eol = memchr(lx->src + lx->pos, '\n', lx->len - lx->pos);
            lx->pos = eol ? (size_t)(eol - lx->src) : lx->len;
        } else {
            break;
        }
    }
}

enum n3_token_kind n3_lexer_next(n3_lexer *lx, n3_token *tok) {
    lx->value.len = 0;
    tok->prefix_len = 0;
    if (lx->failed) {
        tok->start = lx->pos;
        return fail_token(tok);
    }
    skip_blanks_and_comments(lx);
    tok->start = lx->pos;
    int c = peek(lx, lx->pos), next = peek(lx, lx->pos + 1);
    if (is_digit(c) || c == '+' || c == '-' || (c == '.' && is_digit(next)))
        return lex_number(lx, tok);
    switch (c) {
    case -1: return finish(lx, tok, N3_TOK_EOF);
    case '.': return punctuation(lx, tok, N3_TOK_DOT, 1);
    case ';': return punctuation(lx, tok, N3_TOK_SEMICOLON, 1);
    case ',': return punctuation(lx, tok, N3_TOK_COMMA, 1);
    case '[': return punctuation(lx, tok, N3_TOK_LBRACKET, 1);
    case ']': return punctuation(lx, tok, N3_TOK_RBRACKET, 1);
    case '(': return punctuation(lx, tok, N3_TOK_LPAREN, 1);
    case ')': return punctuation(lx, tok, N3_TOK_RPAREN, 1);
    case '{': return punctuation(lx, tok, N3_TOK_LBRACE, 1);
    case '}': return punctuation(lx, tok, N3_TOK_RBRACE, 1);
    case '=': return next == '>' ? punctuation(lx, tok, N3_TOK_IMPLIES, 2) : punctuation(lx, tok, N3_TOK_EQUALS, 1);
    case '^': return next == '^' ? punctuation(lx, tok, N3_TOK_CARETS, 2) : punctuation(lx, tok, N3_TOK_CARET, 1);
    case '!': return punctuation(lx, tok, N3_TOK_BANG, 1);
    case '<': return lex_iri(lx, tok);
    case '"':
    case '\'': return lex_string(lx, tok);
    case '?': return lex_label(lx, tok, 1, false, N3_TOK_VAR);
    case '@': return lex_at_word(lx, tok);
    case ':': return lex_name(lx, tok);
    case '_':
        if (next == ':')
            return lex_label(lx, tok, 2, true, N3_TOK_BNODE);
        break;
    default: {
        uint32_t cp;
        if (char_at(lx, lx->pos, &cp) && is_pn_chars_base(cp))
            return lex_name(lx, tok);
        break;
    }
    }
    fail_char(lx, lx->pos, "a term or punctuation");
    return fail_token(tok);
}
