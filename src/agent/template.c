/* template.c: fills URI templates (RFC 6570 levels 1 to 3), `{var}` header templates and N3 body
 * templates with argument values (template.h). One reader of brace templates serves URI and header
 * expansion and lint's list of variables; bodies are read token by token with the N3 lexer, so the
 * variables found are exactly those a reader of the text would find. */
#include "agent/template.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "n3/n3_lexer.h"
#include "rdf/term_rules.h"

/* Longest piece of a variable name a message quotes. */
enum { NAME_IN_MESSAGE = 64 };

/* ---- messages ---- */

/* Where a template's positions are told from: one-line templates by column, bodies by line:col. */
typedef struct site {
    const char *what; /* "URI template", "header template", "body template" */
    const char *tmpl;
    n3_lexer *lx; /* bodies: the lexer, which counts lines; NULL for one-line templates */
} site;

static int fail(char *error, size_t error_len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *error, size_t error_len, const char *fmt, ...) {
    if (error && error_len) {
        va_list args;
        va_start(args, fmt);
        vsnprintf(error, error_len, fmt, args);
        va_end(args);
    }
    return -1;
}

/* "<what>, column C: <message>" or "<what>:L:C: <message>" for byte offset `at` (columns count characters);
 * returns -1. Positions are worked out only here, on failure, so filling stays linear in the template. */
static int fail_at(const site *s, size_t at, char *error, size_t error_len, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int fail_at(const site *s, size_t at, char *error, size_t error_len, const char *fmt, ...) {
    char message[400];
    va_list args;
    va_start(args, fmt);
    vsnprintf(message, sizeof message, fmt, args);
    va_end(args);
    if (s->lx) {
        unsigned line, col;
        n3_lexer_position(s->lx, at, &line, &col);
        return fail(error, error_len, "%s:%u:%u: %s", s->what, line, col, message);
    }
    size_t col = 1;
    for (size_t i = 0; i < at; i++)
        col += ((unsigned char)s->tmpl[i] & 0xC0) != 0x80;
    return fail(error, error_len, "%s, column %zu: %s", s->what, col, message);
}

/* How a message shows a variable: "{name}" or "?name", a long name cut at a character boundary. */
static void show_variable(const char *name, size_t len, bool braces, char *out, size_t cap) {
    size_t shown = len;
    if (shown > NAME_IN_MESSAGE) {
        shown = NAME_IN_MESSAGE;
        while (shown && ((unsigned char)name[shown] & 0xC0) == 0x80)
            shown--;
    }
    snprintf(out, cap, "%s%.*s%s%s", braces ? "{" : "?", (int)shown, name, shown < len ? "..." : "",
             braces ? "}" : "");
}

/* ---- values ---- */

/* The term bound to the variable name[0..len) standing at offset `at`: an IRI or a literal. -1 with a
 * message when no binding gives it one, or gives a blank node (a request cannot name it), a formula, a
 * list or a variable. */
static int bound_term(const terms *t, const template_binding *b, size_t n, const site *s, size_t at,
                      const char *name, size_t len, term_id *value, char *error, size_t error_len) {
    char shown[NAME_IN_MESSAGE + 8];
    show_variable(name, len, !s->lx, shown, sizeof shown);
    for (size_t i = 0; i < n; i++) {
        if (strlen(b[i].name) != len || memcmp(b[i].name, name, len) != 0)
            continue;
        switch (terms_kind(t, b[i].value)) {
        case TERM_IRI:
        case TERM_LITERAL: *value = b[i].value; return 0;
        case TERM_NONE: break;
        case TERM_BNODE:
            return fail_at(s, at, error, error_len, "%s is a blank node, which a request cannot name", shown);
        default:
            return fail_at(s, at, error, error_len, "%s is a formula, a list or a variable, not an IRI or a literal",
                           shown);
        }
        break;
    }
    return fail_at(s, at, error, error_len, "no argument gives %s a value", shown);
}

/* ---- brace templates: URI (RFC 6570) and header values ---- */

/* RFC 6570's expression operators (section 3.2.1; appendix A's table). */
typedef struct uri_operator {
    char op;              /* 0 for simple string expansion */
    char first, sep;      /* what precedes the first value and what separates the others (0: nothing) */
    bool named;           /* name=value pairs */
    bool equals_if_empty; /* an empty value still gets its '=' (form-style) */
    bool allow_reserved;  /* reserved characters and pct-encoded triplets are kept */
} uri_operator;

static const uri_operator uri_operators[] = {
    {0, 0, ',', false, false, false},     {'+', 0, ',', false, false, true},    {'#', '#', ',', false, false, true},
    {'.', '.', '.', false, false, false}, {'/', '/', '/', false, false, false}, {';', ';', ';', true, false, false},
    {'?', '?', '&', true, true, false},   {'&', '&', '&', true, true, false},
};

static bool is_ascii_alnum(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static bool is_unreserved(unsigned char c) { return is_ascii_alnum(c) || c == '-' || c == '.' || c == '_' || c == '~'; }

static bool is_reserved(unsigned char c) { return c && strchr(":/?#[]@!$&'()*+,;=", c); }

static bool is_pct_triplet(const char *s, size_t i, size_t len) {
    return s[i] == '%' && i + 2 < len && hex_digit_value((unsigned char)s[i + 1]) >= 0 &&
           hex_digit_value((unsigned char)s[i + 2]) >= 0;
}

/* Appends s[0..len) percent-encoded byte by byte (UTF-8 text thus as its octets), keeping unreserved
 * characters, and with allow_reserved reserved characters and pct-encoded triplets too (RFC 6570 3.2.1;
 * a template's literal text is copied by the same rule, section 3.1). */
static void pct_encode(const char *s, size_t len, bool allow_reserved, buf *out) {
    static const char hex[] = "0123456789ABCDEF";
    buf_reserve(out, len);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (is_unreserved(c) || (allow_reserved && (is_reserved(c) || is_pct_triplet(s, i, len)))) {
            buf_putc(out, (char)c);
        } else {
            char triplet[3] = {'%', hex[c >> 4], hex[c & 15]};
            buf_append(out, triplet, 3);
        }
    }
}

/* varchar = ALPHA / DIGIT / "_" / pct-encoded: its length at s[i], or 0. */
static size_t varchar_at(const char *s, size_t i) {
    unsigned char c = (unsigned char)s[i];
    if (is_ascii_alnum(c) || c == '_')
        return 1;
    return c == '%' && hex_digit_value((unsigned char)s[i + 1]) >= 0 && hex_digit_value((unsigned char)s[i + 2]) >= 0
               ? 3
               : 0;
}

/* The end of varname = varchar *( ["."] varchar ) starting at s[i] (i itself when none starts there). */
static size_t varname_end(const char *s, size_t i) {
    size_t n = varchar_at(s, i);
    if (!n)
        return i;
    for (i += n;;) {
        size_t dot = s[i] == '.';
        n = varchar_at(s, i + dot);
        if (!n)
            return i;
        i += dot + n;
    }
}

/* The byte at s[i] as a message shows it. */
static void show_byte(unsigned char c, char *out, size_t cap) {
    if (c > 0x20 && c < 0x7F)
        snprintf(out, cap, "'%c'", c);
    else
        snprintf(out, cap, "byte 0x%02X", c);
}

/* An expression `{...}`: its operator and the comma-separated names in tmpl[names..close). */
typedef struct expression {
    const uri_operator *op;
    size_t names, close;
} expression;

/* Reads the expression whose '{' is at tmpl[open]. Header templates (uri false) take `{var}` alone. */
static int read_expression(const site *s, size_t open, bool uri, expression *e, char *error, size_t error_len) {
    const char *tmpl = s->tmpl;
    size_t i = open + 1;
    char shown[16];
    e->op = &uri_operators[0];
    if (tmpl[i] && strchr("+#./;?&=,!@|", tmpl[i])) {
        if (!uri)
            return fail_at(s, i, error, error_len, "operator '%c': a header template takes {var} only", tmpl[i]);
        if (strchr("=,!@|", tmpl[i]))
            return fail_at(s, i, error, error_len, "operator '%c' is reserved by RFC 6570", tmpl[i]);
        for (size_t k = 1; k < sizeof uri_operators / sizeof *uri_operators; k++)
            if (uri_operators[k].op == tmpl[i])
                e->op = &uri_operators[k];
        i++;
    }
    e->names = i;
    for (;;) {
        size_t end = varname_end(tmpl, i);
        if (end == i) {
            if (!tmpl[i])
                return fail_at(s, open, error, error_len, "'{' is not closed");
            if (tmpl[i] == '}' && i == e->names)
                return fail_at(s, open, error, error_len, "empty expression");
            if (tmpl[i] == '}' || tmpl[i] == ',')
                return fail_at(s, i, error, error_len, "empty variable name");
            show_byte((unsigned char)tmpl[i], shown, sizeof shown);
            return fail_at(s, i, error, error_len,
                           "%s cannot be in a variable name (letters, digits, '_', %%XX, inner '.')", shown);
        }
        i = end;
        switch (tmpl[i]) {
        case '}': e->close = i; return 0;
        case ',':
            if (!uri)
                return fail_at(s, i, error, error_len, "a header template takes one variable per {...}");
            i++;
            break;
        case ':':
            return fail_at(s, i, error, error_len, "prefix modifier ':' (RFC 6570 level 4) is not supported");
        case '*':
            return fail_at(s, i, error, error_len, "explode modifier '*' (RFC 6570 level 4) is not supported");
        case '\0': return fail_at(s, open, error, error_len, "'{' is not closed");
        default:
            show_byte((unsigned char)tmpl[i], shown, sizeof shown);
            return fail_at(s, i, error, error_len,
                           "%s cannot be in a variable name (letters, digits, '_', %%XX, inner '.')", shown);
        }
    }
}

/* A header value's text s[0..len) from template offset `at` (a literal run, or the variable named in
 * `variable`): it may hold no control character but TAB (a CR or LF would end the header and start
 * another), and may not open the value with whitespace, which HTTP strips. */
static int check_header_text(const site *s, size_t at, const char *variable, const char *text, size_t len,
                             bool opens_value, char *error, size_t error_len) {
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        if ((c < 0x20 && c != '\t') || c == 0x7F) {
            if (variable)
                return fail_at(s, at, error, error_len,
                               "the value of %s holds control character U+%04X, which a header value cannot carry",
                               variable, c);
            return fail_at(s, at + i, error, error_len,
                           "control character U+%04X, which a header value cannot carry", c);
        }
    }
    if (opens_value && len && (text[0] == ' ' || text[0] == '\t')) {
        if (variable)
            return fail_at(s, at, error, error_len,
                           "the value of %s would begin the header value with whitespace, which HTTP strips",
                           variable);
        return fail_at(s, at, error, error_len, "the header value begins with whitespace, which HTTP strips");
    }
    return 0;
}

/* The generic brace template: a URI template (uri) or a header value template. With out, it is filled from
 * the bindings; with names instead, only its variables are collected (lint). */
static int fill_braces(const terms *t, const char *tmpl, bool uri, const template_binding *b, size_t n, buf *out,
                       strmap *names, char *error, size_t error_len) {
    site s = {uri ? "URI template" : "header template", tmpl, NULL};
    size_t from = out ? out->len : 0;
    /* the last piece written to a header value, to name it when the value ends with whitespace */
    size_t last_at = 0;
    char last_variable[NAME_IN_MESSAGE + 8] = "";
    for (size_t i = 0; tmpl[i];) {
        if (tmpl[i] == '}') {
            fail_at(&s, i, error, error_len, "'}' without '{'");
            goto failed;
        }
        if (tmpl[i] != '{') {
            size_t run = i;
            while (tmpl[i] && tmpl[i] != '{' && tmpl[i] != '}')
                i++;
            if (!out)
                continue;
            if (uri) {
                pct_encode(tmpl + run, i - run, true, out);
                continue;
            }
            if (check_header_text(&s, run, NULL, tmpl + run, i - run, out->len == from, error, error_len) != 0)
                goto failed;
            buf_append(out, tmpl + run, i - run);
            last_at = i - 1;
            last_variable[0] = '\0';
            continue;
        }
        expression e;
        if (read_expression(&s, i, uri, &e, error, error_len) != 0)
            goto failed;
        for (size_t k = e.names, first = 1; k < e.close; first = 0) {
            size_t end = k;
            while (end < e.close && tmpl[end] != ',')
                end++;
            const char *name = tmpl + k;
            size_t name_len = end - k, at = k;
            k = end + 1;
            if (!out) {
                strmap_put_n(names, name, name_len, (uint32_t)at, NULL);
                continue;
            }
            term_id value;
            if (bound_term(t, b, n, &s, at, name, name_len, &value, error, error_len) != 0)
                goto failed;
            size_t len;
            const char *text = terms_lex(t, value, &len);
            if (!uri) {
                char shown[sizeof last_variable];
                show_variable(name, name_len, true, shown, sizeof shown);
                if (check_header_text(&s, at, shown, text, len, out->len == from, error, error_len) != 0)
                    goto failed;
                buf_append(out, text, len);
                if (len) {
                    last_at = at;
                    memcpy(last_variable, shown, sizeof shown);
                }
                continue;
            }
            const uri_operator *op = e.op;
            if (first ? op->first : op->sep)
                buf_putc(out, first ? op->first : op->sep);
            if (op->named) {
                buf_append(out, name, name_len);
                if (len || op->equals_if_empty)
                    buf_putc(out, '=');
            }
            pct_encode(text, len, op->allow_reserved, out);
        }
        i = e.close + 1;
    }
    if (out && !uri && out->len > from && (out->data[out->len - 1] == ' ' || out->data[out->len - 1] == '\t')) {
        if (last_variable[0])
            fail_at(&s, last_at, error, error_len,
                    "the value of %s would end the header value with whitespace, which HTTP strips", last_variable);
        else
            fail_at(&s, last_at, error, error_len, "the header value ends with whitespace, which HTTP strips");
        goto failed;
    }
    return 0;
failed:
    if (out)
        out->len = from;
    return -1;
}

int template_uri(const terms *t, const char *tmpl, const template_binding *b, size_t n, buf *out, char *error,
                 size_t error_len) {
    return fill_braces(t, tmpl, true, b, n, out, NULL, error, error_len);
}

int template_header(const terms *t, const char *tmpl, const template_binding *b, size_t n, buf *out, char *error,
                    size_t error_len) {
    return fill_braces(t, tmpl, false, b, n, out, NULL, error, error_len);
}

/* ---- body templates ---- */

/* The offset of the first CR that is not followed by LF inside a comment of s[from..to) (the blanks and
 * comments between two tokens), or SIZE_MAX. raptor2 ends a comment there and the N3 lexer does not, so
 * the two would read the rest of the line differently: `?x` a variable for one and text of a string for the
 * other, where a value's quote could end that string. */
static size_t lone_cr_in_comment(const char *s, size_t from, size_t to) {
    bool comment = false;
    for (size_t i = from; i < to; i++) {
        if (s[i] == '#')
            comment = true;
        else if (s[i] == '\n')
            comment = false;
        else if (s[i] == '\r' && comment && s[i + 1] != '\n')
            return i;
    }
    return SIZE_MAX;
}

/* The generic body template: filled from the bindings into out and checked with io, or, with names
 * instead, only its variables collected (lint). */
static int fill_body(const terms *t, rdfio *io, const char *tmpl, const char *base, const template_binding *b,
                     size_t n, buf *out, strmap *names, char *error, size_t error_len) {
    size_t len = strlen(tmpl), from = out ? out->len : 0, copied = 0, gap = 0;
    n3_error lex_error = {0};
    n3_lexer lx;
    n3_lexer_init(&lx, tmpl, len, "body template", &lex_error);
    site s = {"body template", tmpl, &lx};
    int rc = 0;
    size_t variable_at = SIZE_MAX, variable_end = 0; /* the previous token, when it was a variable */
    n3_token tok;
    for (;;) {
        enum n3_token_kind kind = n3_lexer_next(&lx, &tok);
        if (kind == N3_TOK_ERROR) {
            rc = fail(error, error_len, "%s", lex_error.message);
            break;
        }
        size_t cr = lone_cr_in_comment(tmpl, gap, tok.start);
        if (cr != SIZE_MAX) {
            rc = fail_at(&s, cr, error, error_len, "a CR without LF in a comment (readers disagree where it ends)");
            break;
        }
        gap = tok.end;
        if (variable_at != SIZE_MAX && (kind == N3_TOK_AT_WORD || kind == N3_TOK_CARETS)) {
            /* `?x@en` would make a plain value a tagged one, or a tagged value a syntax error */
            char shown[NAME_IN_MESSAGE + 8];
            show_variable(tmpl + variable_at + 1, variable_end - variable_at - 1, false, shown, sizeof shown);
            rc = fail_at(&s, variable_at, error, error_len,
                         "%s stands for a whole term: it cannot take a language tag or a datatype", shown);
            break;
        }
        if (kind == N3_TOK_EOF)
            break;
        variable_at = kind == N3_TOK_VAR ? tok.start : SIZE_MAX;
        variable_end = tok.end;
        if (kind != N3_TOK_VAR)
            continue;
        /* a variable's name is its source text after '?' (names have no escapes) */
        const char *name = tmpl + tok.start + 1;
        size_t name_len = tok.end - tok.start - 1;
        if (!out) {
            strmap_put_n(names, name, name_len, (uint32_t)tok.start, NULL);
            continue;
        }
        term_id value;
        if (bound_term(t, b, n, &s, tok.start, name, name_len, &value, error, error_len) != 0) {
            rc = -1;
            break;
        }
        size_t lex_len;
        const char *lex = terms_lex(t, value, &lex_len);
        size_t bad = terms_kind(t, value) == TERM_IRI ? rdf_iri_forbidden_at(lex, lex_len) : lex_len;
        if (bad < lex_len) {
            char shown[NAME_IN_MESSAGE + 8];
            show_variable(name, name_len, false, shown, sizeof shown);
            rc = fail_at(&s, tok.start, error, error_len,
                         "%s is an IRI holding U+%04X, which no IRI in a Turtle body may hold", shown,
                         (unsigned char)lex[bad]);
            break;
        }
        buf_append(out, tmpl + copied, tok.start - copied);
        /* a literal written against a '"' (of the template or of the value before) would make `""` + `"v"`
         * the opening of a long string: a space keeps the two tokens apart */
        if (out->len > from && out->data[out->len - 1] == '"' && terms_kind(t, value) == TERM_LITERAL)
            buf_putc(out, ' ');
        rdf_write_term_nt(t, value, out);
        if (out->data[out->len - 1] == '"' && tmpl[tok.end] == '"')
            buf_putc(out, ' ');
        copied = tok.end;
    }
    if (rc == 0 && out) {
        buf_append(out, tmpl + copied, len - copied);
        triple *ts;
        size_t count;
        rdf_error parse_error;
        if (rdf_parse_triples(io, RDF_TURTLE, buf_cstr(out) + from, out->len - from, base, "filled body", &ts, &count,
                              &parse_error) != 0)
            rc = fail(error, error_len, "body template: the filled body is not Turtle: %s", parse_error.message);
        free(ts);
    }
    if (rc != 0 && out)
        out->len = from;
    n3_lexer_free(&lx);
    return rc;
}

int template_body(terms *t, rdfio *io, const char *tmpl, const char *base, const template_binding *b, size_t n,
                  buf *out, char *error, size_t error_len) {
    return fill_body(t, io, tmpl, base, b, n, out, NULL, error, error_len);
}

int template_variables(const char *tmpl, enum template_kind kind, strmap *names, char *error, size_t error_len) {
    if (kind == TEMPLATE_BODY)
        return fill_body(NULL, NULL, tmpl, NULL, NULL, 0, NULL, names, error, error_len);
    return fill_braces(NULL, tmpl, kind == TEMPLATE_URI, NULL, 0, NULL, names, error, error_len);
}
