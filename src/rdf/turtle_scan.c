/* turtle_scan.c: a Turtle and TriG recognizer following raptor2 2.0.15's turtle_lexer.l (longest match,
 * keywords before names) and turtle_parser.y (recursive descent over the same rules), for error positions
 * and for the bytes names gain written in full. See turtle_scan.h. */
#include "rdf/turtle_scan.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "rdf/nesting.h"
#include "rdf/strmap.h"
#include "rdf/term_rules.h"

enum token_kind {
    T_END, T_ERROR, T_DOT, T_COMMA, T_SEMICOLON, T_LEFT_SQUARE, T_RIGHT_SQUARE, T_LEFT_ROUND, T_RIGHT_ROUND,
    T_LEFT_CURLY, T_RIGHT_CURLY, T_HAT, T_A, T_TRUE, T_FALSE, T_PREFIX, T_SPARQL_PREFIX, T_BASE,
    T_SPARQL_BASE, T_STRING, T_LANGTAG, T_NUMBER, T_IRI, T_QNAME, T_BLANK, T_GRAPH_NAME, T_IDENTIFIER
};

/* Character classes of raptor2's lexer (bytes >= 0x80 count as name characters, as there). */
enum { NAME_BASE = 1, NAME_CHAR = 2, IRI_CHAR = 4, DIGIT = 8, HEX = 16, LOCAL_ESCAPE = 32 };

static unsigned char char_class[256];

static void init_classes(void) {
    for (int c = 0; c < 256; c++) {
        unsigned char k = 0;
        bool letter = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c >= 0x80;
        bool digit = c >= '0' && c <= '9';
        if (letter)
            k |= NAME_BASE | NAME_CHAR;
        if (digit)
            k |= DIGIT | NAME_CHAR | HEX;
        if (c == '_' || c == '-')
            k |= NAME_CHAR;
        if ((c >= 'A' && c <= 'F') || (c >= 'a' && c <= 'f'))
            k |= HEX;
        if (c > 0x20 && !strchr("<>\"{}|^`\\", c))
            k |= IRI_CHAR;
        if (c && strchr("-_~.!$&'()*+,;=/?#@%", c))
            k |= LOCAL_ESCAPE;
        char_class[c] = k;
    }
}

static bool is(int c, unsigned k) { return c >= 0 && (char_class[c] & k); }

/* raptor2's white space; line breaks only where line_breaks */
static bool is_space(int c, bool line_breaks) {
    return c == ' ' || c == '\t' || c == '\v' || (line_breaks && (c == '\r' || c == '\n'));
}

static bool is_langtag_char(int c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

typedef struct scanner {
    const char *s;
    size_t len, pos;
    bool trig;
    bool after_prefix_keyword; /* raptor2's PREF state: the next token is a prefix name */
    enum token_kind kind;      /* the current token */
    size_t start, end;         /* its bytes */
    size_t name_at, name_len;  /* an IRI's text between < and >, a prefixed name's prefix (before ':') */
    size_t base_len;
    strmap namespaces; /* prefix -> length of its namespace IRI */
    size_t limit;
    bool failed; /* a grammar error was found: only tokens are read from then on */
    unsigned depth; /* open '[' and '(' */
    const char *lexer_error; /* why the current T_ERROR token is one */
    enum token_kind expected; /* what the grammar wanted when it met the current token (T_ERROR: no one thing) */
    turtle_scan *out;
} scanner;

static int at(const scanner *sc, size_t i) { return i < sc->len ? (unsigned char)sc->s[i] : -1; }

/* The end of a run of name characters (and dots, when dots) from i, without trailing dots. */
static size_t name_run(const scanner *sc, size_t i, bool local) {
    size_t last_good = i;
    while (i < sc->len) {
        int c = at(sc, i);
        if (is(c, NAME_CHAR) || (local && c == ':')) {
            i++;
            last_good = i;
        } else if (c == '.') {
            i++;
        } else if (local && c == '%' && is(at(sc, i + 1), HEX) && is(at(sc, i + 2), HEX)) {
            i += 3;
            last_good = i;
        } else if (local && c == '\\' && is(at(sc, i + 1), LOCAL_ESCAPE)) {
            i += 2;
            last_good = i;
        } else {
            break;
        }
    }
    return last_good;
}

/* A prefixed name at i (PN_PREFIX? ':' PN_LOCAL?): its end, or 0 when there is none. */
static size_t qname_end(const scanner *sc, size_t i, size_t *colon) {
    size_t p = i;
    if (is(at(sc, p), NAME_BASE))
        p = name_run(sc, p, false);
    if (at(sc, p) != ':')
        return 0;
    *colon = p;
    p++;
    int c = at(sc, p);
    if (is(c, NAME_BASE) || c == '_' || is(c, DIGIT) || c == ':' ||
        (c == '%' && is(at(sc, p + 1), HEX) && is(at(sc, p + 2), HEX)) ||
        (c == '\\' && is(at(sc, p + 1), LOCAL_ESCAPE)))
        p = name_run(sc, p, true);
    return p;
}

static void fail_at(scanner *sc, size_t start, size_t end);

/* The code point of the \u or \U escape at p when its hex digits are all there (one above U+10FFFF
 * when past it), else UINT32_MAX. */
static uint32_t escaped_code_point(const scanner *sc, size_t p) {
    size_t digits = at(sc, p + 1) == 'u' ? 4 : 8;
    uint32_t code = 0;
    for (size_t k = 0; k < digits; k++) {
        int h = at(sc, p + 2 + k);
        if (!is(h, HEX))
            return UINT32_MAX;
        if (code <= 0x10FFFF) /* past it, it stays past it (and below UINT32_MAX) */
            code = code * 16 + (uint32_t)(h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
    }
    return code;
}

/* The end of an IRI at i ('<' ... '>'), or 0 when the text there is not one. An escape of a character an
 * IRI cannot hold is an error raptor2 parses on after. */
static size_t iri_end(scanner *sc, size_t i) {
    size_t p = i + 1;
    for (;;) {
        int c = at(sc, p);
        if (c == '>')
            return p + 1;
        if (is(c, IRI_CHAR)) {
            p++;
        } else if (c == '\\' && (at(sc, p + 1) == 'u' || at(sc, p + 1) == 'U')) {
            uint32_t code = escaped_code_point(sc, p);
            if (code == UINT32_MAX)
                return 0;
            size_t escape_len = at(sc, p + 1) == 'u' ? 6 : 10;
            if (code == ' ' || code == '<' || code == '>' || code > 0x10FFFF) {
                sc->lexer_error = "an escape of a character no IRI holds";
                fail_at(sc, p, p + escape_len);
            }
            p += escape_len;
        } else {
            return 0;
        }
    }
}

/* After an IRI or a prefixed name: whitespace, an optional '=', whitespace and '{' make it a graph name
 * (one token in raptor2's lexer). Returns the end of the '{', or 0. */
static size_t graph_curly_end(const scanner *sc, size_t p) {
    while (is_space(at(sc, p), true))
        p++;
    if (at(sc, p) == '=')
        p++;
    while (is_space(at(sc, p), true))
        p++;
    return at(sc, p) == '{' ? p + 1 : 0;
}

/* A string's escape after its backslash at p is one raptor2 takes; returns its length, 0 when not. */
static size_t string_escape(const scanner *sc, size_t p) {
    int c = at(sc, p + 1);
    if (c == 'u' || c == 'U') {
        uint32_t code = escaped_code_point(sc, p);
        return code > 0x10FFFF ? 0 : c == 'u' ? 6 : 10;
    }
    return c > 0 && (strchr("nrtbf\\\"", c) || is(c, LOCAL_ESCAPE)) ? 2 : 0;
}

/* A string token from i (its quote); T_ERROR when it does not end (raptor2's lexer stops there). An escape
 * raptor2 does not take is an error it parses on after. */
static enum token_kind lex_string(scanner *sc, size_t i) {
    char q = sc->s[i];
    bool long_form = at(sc, i + 1) == q && at(sc, i + 2) == q;
    size_t p = i + (long_form ? 3 : 1);
    for (;;) {
        int c = at(sc, p);
        if (c < 0 || (!long_form && (c == '\n' || c == '\r'))) {
            sc->end = long_form ? sc->len : i + 1;
            sc->lexer_error = "a string that does not end";
            return T_ERROR; /* not ended: raptor2 fails at the opening quote (or at the end, long) */
        }
        if (c == '\\') {
            size_t escape = string_escape(sc, p);
            if (!escape) {
                sc->lexer_error = "an escape Turtle strings do not have";
                fail_at(sc, p, p + 2 <= sc->len ? p + 2 : sc->len);
                escape = at(sc, p + 1) < 0 ? 1 : 2;
            } else if (escape > 2 && escaped_code_point(sc, p) == 0) { /* raptor2 would cut the literal there */
                sc->lexer_error = RDF_NUL_LITERAL_ERROR;
                fail_at(sc, p, p + escape);
            }
            p += escape;
        } else if (c == q && (!long_form || (at(sc, p + 1) == q && at(sc, p + 2) == q))) {
            sc->end = p + (long_form ? 3 : 1);
            return T_STRING;
        } else {
            p++;
        }
    }
}

/* The longest of the keywords at i that raptor2's lexer tries before names (0 when none). */
static size_t keyword_at(const scanner *sc, size_t i, enum token_kind *kind) {
    static const struct {
        const char *word;
        enum token_kind kind;
        bool any_case;
    } keywords[] = {{"prefix", T_SPARQL_PREFIX, true}, {"false", T_FALSE, false}, {"base", T_SPARQL_BASE, true},
                    {"true", T_TRUE, false},           {"a", T_A, false}};
    for (size_t k = 0; k < sizeof keywords / sizeof *keywords; k++) {
        size_t n = strlen(keywords[k].word);
        if (sc->len - i >= n && (keywords[k].any_case ? strncasecmp(sc->s + i, keywords[k].word, n) == 0
                                                      : memcmp(sc->s + i, keywords[k].word, n) == 0)) {
            *kind = keywords[k].kind;
            return n;
        }
    }
    return 0;
}

/* A number at i (INTEGER, DECIMAL or DOUBLE, the longest): its end, or 0. */
static size_t number_end(const scanner *sc, size_t i) {
    size_t p = i;
    if (at(sc, p) == '+' || at(sc, p) == '-')
        p++;
    size_t digits_start = p;
    while (is(at(sc, p), DIGIT))
        p++;
    size_t integer_end = p > digits_start ? p : 0;
    size_t number = integer_end;
    if (at(sc, p) == '.') {
        size_t q = p + 1;
        while (is(at(sc, q), DIGIT))
            q++;
        if (q > p + 1)
            number = q; /* DECIMAL */
        if (q > p + 1 || integer_end)
            p = q;
        else
            return number;
    }
    if (number && (at(sc, p) == 'e' || at(sc, p) == 'E')) {
        size_t q = p + 1;
        if (at(sc, q) == '+' || at(sc, q) == '-')
            q++;
        size_t exponent_digits = q;
        while (is(at(sc, q), DIGIT))
            q++;
        if (q > exponent_digits)
            number = q; /* DOUBLE */
    }
    return number;
}

/* Adds what a name gains written in full; false when that passes the limit (the scan then ends). */
static bool gain(scanner *sc, size_t expanded, size_t written) {
    if (expanded <= written)
        return true;
    sc->out->gained += expanded - written;
    if (sc->out->gained <= sc->limit)
        return true;
    sc->out->limit_passed_at = sc->start;
    return false;
}

static bool has_scheme(const char *s, size_t len) {
    if (!len || !is(s[0], NAME_BASE) || (unsigned char)s[0] >= 0x80)
        return false;
    for (size_t i = 1; i < len; i++) {
        char c = s[i];
        if (c == ':')
            return true;
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' ||
              c == '-' || c == '.'))
            return false;
    }
    return false;
}

/* The length of an IRI's text written in full: relative ones take the base (at most). */
static size_t iri_full_length(const scanner *sc) {
    return has_scheme(sc->s + sc->name_at, sc->name_len) ? sc->name_len : sc->base_len + sc->name_len;
}

/* Reads the next token into sc. T_ERROR stops raptor2's lexer (and the scan); so does a name passing the
 * limit (T_END, with limit_passed_at set). */
static void next(scanner *sc) {
    size_t i = sc->pos;
    for (;;) {
        while (is_space(at(sc, i), true))
            i++;
        if (at(sc, i) != '#')
            break;
        while (i < sc->len && sc->s[i] != '\n' && sc->s[i] != '\r')
            i++;
    }
    sc->start = sc->end = i;
    sc->lexer_error = NULL;
    if (sc->after_prefix_keyword) { /* raptor2's PREF state: spaces, then "name:" or ":" */
        sc->after_prefix_keyword = false;
        size_t p = sc->pos;
        while (is_space(at(sc, p), false))
            p++;
        size_t colon = p;
        if (is(at(sc, p), NAME_BASE))
            colon = name_run(sc, p, false);
        sc->start = p;
        if (at(sc, colon) == ':') {
            sc->kind = T_IDENTIFIER;
            sc->name_at = p;
            sc->name_len = colon - p;
            sc->pos = sc->end = colon + 1;
        } else {
            sc->kind = T_ERROR;
            sc->end = p < sc->len ? p + 1 : p;
        }
        return;
    }
    int c = at(sc, i);
    enum token_kind kind = T_ERROR;
    size_t end = i + 1, colon = 0;
    if (c < 0) {
        kind = T_END;
        end = i;
    } else if (c == '<') {
        size_t e = iri_end(sc, i);
        if (e) {
            sc->name_at = i + 1;
            sc->name_len = e - i - 2;
            size_t curly = graph_curly_end(sc, e);
            kind = curly ? T_GRAPH_NAME : T_IRI;
            end = curly ? curly : e;
            sc->start = i;
            if (!gain(sc, iri_full_length(sc), e - i)) {
                sc->kind = T_END;
                return;
            }
        }
    } else if (c == '"' || c == '\'') {
        sc->start = i;
        kind = lex_string(sc, i);
        if (kind == T_ERROR) {
            sc->kind = T_ERROR;
            return;
        }
        end = sc->end;
    } else if (c == '@') {
        size_t p = i + 1;
        size_t tag_end = p;
        if ((at(sc, p) >= 'A' && at(sc, p) <= 'Z') || (at(sc, p) >= 'a' && at(sc, p) <= 'z'))
            while (is_langtag_char(at(sc, tag_end)))
                tag_end++;
        /* the longest match; "@prefix" and "@base" win a tie with a language tag */
        if (tag_end - p == 6 && memcmp(sc->s + p, "prefix", 6) == 0)
            kind = T_PREFIX, end = tag_end;
        else if (tag_end - p == 4 && memcmp(sc->s + p, "base", 4) == 0)
            kind = T_BASE, end = tag_end;
        else if (tag_end - p > RDF_MAX_LANGTAG)
            sc->lexer_error = "a language tag longer than " RDF_MAX_LANGTAG_TEXT " characters";
        else if (tag_end > p)
            kind = T_LANGTAG, end = tag_end;
    } else if (c == '_' && at(sc, i + 1) == ':') {
        int first = at(sc, i + 2);
        if (is(first, NAME_BASE) || first == '_' || is(first, DIGIT))
            kind = T_BLANK, end = name_run(sc, i + 2, false);
    } else if (c == '^') {
        if (at(sc, i + 1) == '^')
            kind = T_HAT, end = i + 2;
    } else if (c && strchr(".,;[](){}", c) && !(c == '.' && is(at(sc, i + 1), DIGIT))) {
        static const char punctuation[] = ".,;[](){}";
        static const enum token_kind kinds[] = {T_DOT, T_COMMA, T_SEMICOLON, T_LEFT_SQUARE, T_RIGHT_SQUARE,
                                                T_LEFT_ROUND, T_RIGHT_ROUND, T_LEFT_CURLY, T_RIGHT_CURLY};
        kind = kinds[strchr(punctuation, c) - punctuation];
    } else {
        enum token_kind keyword = T_ERROR;
        size_t keyword_len = keyword_at(sc, i, &keyword);
        size_t qname = qname_end(sc, i, &colon);
        size_t number = number_end(sc, i);
        if (qname && qname - i > keyword_len && qname - i > number) {
            uint32_t *ns = strmap_get_n(&sc->namespaces, sc->s + i, colon - i);
            sc->start = i;
            if (!ns) {
                sc->kind = T_ERROR; /* raptor2's lexer stops at a prefix not declared */
                sc->lexer_error = "a prefix that is not declared";
                sc->end = qname;
                return;
            }
            size_t curly = graph_curly_end(sc, qname);
            kind = curly ? T_GRAPH_NAME : T_QNAME;
            end = curly ? curly : qname;
            if (!gain(sc, *ns + (qname - colon - 1), qname - i)) {
                sc->kind = T_END;
                return;
            }
        } else if (number && number >= keyword_len) {
            kind = T_NUMBER, end = number;
        } else if (keyword_len) {
            kind = keyword, end = i + keyword_len;
            if (kind == T_SPARQL_PREFIX)
                sc->after_prefix_keyword = true;
        }
    }
    if (kind == T_PREFIX)
        sc->after_prefix_keyword = true;
    sc->kind = kind;
    sc->start = i;
    sc->end = kind == T_ERROR && c >= 0 ? i + 1 : end;
    if (kind != T_ERROR)
        sc->pos = end;
}

/* The first error raptor2 parses on after (the grammar's, or a string's escape); from then on only tokens
 * are read. */
static const char *token_name(enum token_kind kind) {
    static const char *const names[] = {
        [T_END] = "the end of the text", [T_ERROR] = "no token", [T_DOT] = "'.'", [T_COMMA] = "','",
        [T_SEMICOLON] = "';'", [T_LEFT_SQUARE] = "'['", [T_RIGHT_SQUARE] = "']'", [T_LEFT_ROUND] = "'('",
        [T_RIGHT_ROUND] = "')'", [T_LEFT_CURLY] = "'{'", [T_RIGHT_CURLY] = "'}'", [T_HAT] = "'^^'", [T_A] = "'a'",
        [T_TRUE] = "a boolean", [T_FALSE] = "a boolean", [T_PREFIX] = "@prefix", [T_SPARQL_PREFIX] = "PREFIX",
        [T_BASE] = "@base", [T_SPARQL_BASE] = "BASE", [T_STRING] = "a string", [T_LANGTAG] = "a language tag",
        [T_NUMBER] = "a number", [T_IRI] = "an IRI", [T_QNAME] = "a prefixed name", [T_BLANK] = "a blank node",
        [T_GRAPH_NAME] = "a graph name and '{'", [T_IDENTIFIER] = "a prefix name"};
    return names[kind];
}

/* The token's text for a message: up to 40 bytes of its first line, cut between characters. */
static void quote_token(const scanner *sc, size_t start, size_t end, char *out, size_t size) {
    size_t shown = end > start ? end - start : 1;
    if (start >= sc->len)
        shown = 0;
    else if (shown > sc->len - start)
        shown = sc->len - start;
    for (size_t i = 0; i < shown; i++)
        if (sc->s[start + i] == '\n' || sc->s[start + i] == '\r')
            shown = i;
    bool cut = shown > 40;
    if (cut)
        shown = 40;
    /* whole characters: back from a cut inside one, on to the end of one begun */
    while (cut && shown > 0 && ((unsigned char)sc->s[start + shown] & 0xC0) == 0x80)
        shown--;
    while (!cut && start + shown < sc->len && ((unsigned char)sc->s[start + shown] & 0xC0) == 0x80)
        shown++;
    if (shown)
        snprintf(out, size, ": %.*s%s", (int)shown, sc->s + start, cut ? "..." : "");
}

/* What is wrong at the error, in words (sc->out->error_what, which lives in the scan's result). */
static void say_what(scanner *sc, size_t start, size_t end) {
    char *what = sc->out->what_text;
    size_t size = sizeof sc->out->what_text;
    char token[64] = "";
    bool punctuation = sc->kind >= T_DOT && sc->kind <= T_A;
    if (!punctuation && sc->kind != T_END)
        quote_token(sc, start, end, token, sizeof token);
    if (sc->lexer_error)
        snprintf(what, size, "%s%s", sc->lexer_error, token);
    else if (sc->kind == T_ERROR && start >= sc->len)
        snprintf(what, size, "the text ends inside a statement");
    else if (sc->kind == T_ERROR)
        snprintf(what, size, "no Turtle token begins here%s", token);
    else if (!sc->trig && (sc->kind == T_GRAPH_NAME || sc->kind == T_LEFT_CURLY || sc->kind == T_RIGHT_CURLY))
        snprintf(what, size, "braces are not Turtle (a TriG graph, or an N3 formula?)%s", token);
    else if (sc->expected != T_ERROR)
        snprintf(what, size, "expecting %s, found %s%s", token_name(sc->expected), token_name(sc->kind), token);
    else if (sc->kind == T_END)
        snprintf(what, size, "the text ends inside a statement");
    else
        snprintf(what, size, "%s cannot stand here%s", token_name(sc->kind), token);
    sc->out->error_what = what;
}

static void fail_at(scanner *sc, size_t start, size_t end) {
    if (sc->failed)
        return;
    sc->failed = true;
    sc->out->error_at = start;
    sc->out->error_end = end;
    say_what(sc, start, end);
}

/* A grammar error at the current token. */
static void fail(scanner *sc) { fail_at(sc, sc->start, sc->end); }

static bool ok(const scanner *sc) { return !sc->failed && sc->kind != T_ERROR; }

static void expect(scanner *sc, enum token_kind kind) {
    if (sc->kind == kind) {
        next(sc);
    } else {
        sc->expected = kind;
        fail(sc);
    }
}

static bool starts_verb(enum token_kind k) { return k == T_IRI || k == T_QNAME || k == T_A; }

static void object(scanner *sc);

static void predicate_object_list(scanner *sc) {
    do {
        if (!starts_verb(sc->kind))
            return fail(sc);
        next(sc);
        object(sc);
        while (ok(sc) && sc->kind == T_COMMA) {
            next(sc);
            object(sc);
        }
        if (!ok(sc) || sc->kind != T_SEMICOLON)
            return;
        while (sc->kind == T_SEMICOLON)
            next(sc);
    } while (starts_verb(sc->kind));
}

/* Enters a '[' or '(' at the current token; false past MAX_NESTING (the scan has failed there). */
static bool enter(scanner *sc) {
    if (sc->depth >= MAX_NESTING) {
        sc->lexer_error = NESTING_ERROR;
        fail(sc);
        return false;
    }
    sc->depth++;
    return true;
}

static void blank_node_property_list(scanner *sc) {
    if (!enter(sc))
        return;
    next(sc);
    if (starts_verb(sc->kind))
        predicate_object_list(sc);
    if (ok(sc))
        expect(sc, T_RIGHT_SQUARE);
    sc->depth--;
}

static void collection(scanner *sc) {
    if (!enter(sc))
        return;
    next(sc);
    while (ok(sc) && sc->kind != T_RIGHT_ROUND)
        object(sc);
    if (ok(sc))
        next(sc);
    sc->depth--;
}

static void object(scanner *sc) {
    switch (sc->kind) {
    case T_IRI: case T_QNAME: case T_BLANK: case T_NUMBER: case T_TRUE: case T_FALSE:
        return next(sc);
    case T_LEFT_ROUND:
        return collection(sc);
    case T_LEFT_SQUARE:
        return blank_node_property_list(sc);
    case T_STRING:
        next(sc);
        if (sc->kind == T_LANGTAG) {
            next(sc);
            if (sc->kind == T_HAT) /* raptor2: "Language not allowed with datatyped literal" */
                return fail(sc);
        }
        if (sc->kind == T_HAT) {
            next(sc);
            if (sc->kind == T_IRI || sc->kind == T_QNAME)
                next(sc);
            else
                fail(sc);
        }
        return;
    default:
        return fail(sc);
    }
}

static void triples(scanner *sc) {
    switch (sc->kind) {
    case T_LEFT_SQUARE:
        blank_node_property_list(sc);
        if (ok(sc) && starts_verb(sc->kind))
            predicate_object_list(sc);
        return;
    case T_IRI: case T_QNAME: case T_BLANK:
        next(sc);
        break;
    case T_LEFT_ROUND:
        collection(sc);
        break;
    default:
        return fail(sc);
    }
    if (ok(sc))
        predicate_object_list(sc);
}

static void graph(scanner *sc) {
    if (!sc->trig) { /* raptor2: "{ ... } is not allowed in Turtle", at the '{' */
        sc->start = sc->end - 1;
        return fail(sc);
    }
    next(sc);
    if (sc->kind != T_RIGHT_CURLY) {
        triples(sc);
        while (ok(sc) && sc->kind == T_DOT) {
            next(sc);
            if (sc->kind == T_RIGHT_CURLY)
                break;
            triples(sc);
        }
    }
    if (ok(sc))
        expect(sc, T_RIGHT_CURLY);
}

/* The namespaces raptor2 knows; set before the token after the IRI is read, as raptor2 declares a
 * SPARQL-style PREFIX (no '.') before it reads on. */
static void declare(scanner *sc, size_t name_at, size_t name_len) {
    bool inserted;
    size_t full = iri_full_length(sc);
    *strmap_put_n(&sc->namespaces, sc->s + name_at, name_len, 0, &inserted) =
        full > UINT32_MAX ? UINT32_MAX : (uint32_t)full;
}

static void prefix_directive(scanner *sc) {
    bool dotted = sc->kind == T_PREFIX;
    next(sc);
    if (sc->kind != T_IDENTIFIER)
        return fail(sc);
    size_t name_at = sc->name_at, name_len = sc->name_len;
    next(sc);
    if (sc->kind != T_IRI)
        return fail(sc);
    declare(sc, name_at, name_len);
    next(sc);
    if (dotted && ok(sc))
        expect(sc, T_DOT);
}

static void base_directive(scanner *sc) {
    bool dotted = sc->kind == T_BASE;
    next(sc);
    if (sc->kind != T_IRI)
        return fail(sc);
    sc->base_len = iri_full_length(sc);
    next(sc);
    if (dotted && ok(sc))
        expect(sc, T_DOT);
}

static void statement(scanner *sc) {
    switch (sc->kind) {
    case T_PREFIX: case T_SPARQL_PREFIX:
        return prefix_directive(sc);
    case T_BASE: case T_SPARQL_BASE:
        return base_directive(sc);
    case T_GRAPH_NAME: case T_LEFT_CURLY:
        return graph(sc);
    default:
        triples(sc);
        if (ok(sc))
            expect(sc, T_DOT);
    }
}

/* After a grammar error raptor2 skips to the next '.' and parses on, so names are still expanded and
 * directives still declare: read on token by token, following directives, until the lexer stops. */
static void read_on(scanner *sc) {
    while (sc->kind != T_END && sc->kind != T_ERROR) {
        if (sc->kind == T_PREFIX || sc->kind == T_SPARQL_PREFIX) {
            next(sc);
            if (sc->kind != T_IDENTIFIER)
                continue;
            size_t name_at = sc->name_at, name_len = sc->name_len;
            next(sc);
            if (sc->kind == T_IRI)
                declare(sc, name_at, name_len);
        } else if (sc->kind == T_BASE || sc->kind == T_SPARQL_BASE) {
            next(sc);
            if (sc->kind == T_IRI)
                sc->base_len = iri_full_length(sc);
        } else {
            next(sc);
        }
    }
}

void turtle_scan_text(const char *data, size_t len, bool trig, size_t base_len, size_t limit, turtle_scan *out) {
    static pthread_once_t classes_ready = PTHREAD_ONCE_INIT;
    pthread_once(&classes_ready, init_classes);
    *out = (turtle_scan){.error_at = SIZE_MAX, .error_end = SIZE_MAX, .limit_passed_at = SIZE_MAX};
    scanner sc = {.s = data, .len = len, .trig = trig, .base_len = base_len, .limit = limit, .out = out,
                  .expected = T_ERROR};
    next(&sc);
    while (ok(&sc) && sc.kind != T_END)
        statement(&sc);
    if (sc.kind == T_ERROR)
        fail(&sc);
    else if (sc.failed)
        read_on(&sc);
    strmap_free(&sc.namespaces);
}
