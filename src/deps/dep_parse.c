/* dep_parse.c: reads the text syntax of dep_parse.h by recursive descent, one statement per line, with
 * the line and column of the first thing that is wrong. */
#include "deps/dep_parse.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deps/dep_guard.h"
#include "rdf/nesting.h"

/* A statement nests at most this deep and has at most this many events and operators: the algebra
 * recurses over its trees. */
#define NODES_MAX 2000

/* A place in the text, for messages. */
typedef struct {
    size_t at;
    int line;
    size_t line_start;
} place;

typedef struct {
    dep_events *ev;
    const char *text;
    size_t len;
    size_t at;
    int line;
    size_t line_start;
    int depth;    /* open parentheses: newlines are spaces inside them */
    int nesting;  /* parentheses and prefix operators around the current point */
    size_t nodes; /* events and operators of the current statement */
    place operator_end; /* just after the last binary operator: where a missing operand is */
    place first_guard_sign; /* the statement's first [], <> or ! (at == len: none) */
    char *err;
    size_t err_len;
    const char *path; /* NULL: errors give the column only */
    bool failed;
} reader;

static place here(const reader *r) { return (place){r->at, r->line, r->line_start}; }
static void go(reader *r, place p) {
    r->at = p.at;
    r->line = p.line;
    r->line_start = p.line_start;
}

/* The column of a place, in characters (the paper's signs are several bytes of UTF-8). */
static int column(const char *text, place p) {
    int col = 1;
    for (size_t i = p.line_start; i < p.at; i++)
        col += ((unsigned char)text[i] & 0xc0) != 0x80;
    return col;
}

static void fail(reader *r, const char *fmt, const char *what) {
    if (r->failed)
        return;
    r->failed = true;
    char message[256];
    snprintf(message, sizeof message, fmt, what);
    int col = column(r->text, here(r));
    if (r->path)
        snprintf(r->err, r->err_len, "%s:%d:%d: %s", r->path, r->line, col, message);
    else
        snprintf(r->err, r->err_len, "%d: %s", col, message);
}

/* Skips blanks and comments; newlines too when newlines is true or a parenthesis is open. */
static void skip(reader *r, bool newlines) {
    while (r->at < r->len) {
        char c = r->text[r->at];
        if (c == '#') {
            while (r->at < r->len && r->text[r->at] != '\n')
                r->at++;
        } else if (c == '\n') {
            if (!newlines && r->depth == 0)
                return;
            r->at++;
            r->line++;
            r->line_start = r->at;
        } else if (c == ' ' || c == '\t' || c == '\r') {
            r->at++;
        } else {
            return;
        }
    }
}

/* Consumes token (ASCII or one of the paper's signs) when it comes next. */
static bool take(reader *r, const char *token) {
    size_t n = strlen(token);
    if (r->len - r->at >= n && memcmp(r->text + r->at, token, n) == 0) {
        r->at += n;
        return true;
    }
    return false;
}

static bool name_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
static bool name_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

static size_t name_length(const reader *r) {
    size_t n = 0;
    if (r->at < r->len && name_start(r->text[r->at]))
        while (r->at + n < r->len && name_char(r->text[r->at + n]))
            n++;
    return n;
}

static const dep_expr *parse_or(reader *r);

static const dep_expr *oom(reader *r) {
    fail(r, "%s", "out of memory");
    return NULL;
}

/* Counts a node of the statement, and refuses one too many. */
static bool count_node(reader *r) {
    if (++r->nodes <= NODES_MAX)
        return true;
    char limit[32];
    snprintf(limit, sizeof limit, "%d", NODES_MAX);
    fail(r, "more than %s events and operators in one statement", limit);
    return false;
}

static bool guard_sign(reader *r, const char *ascii, const char *sign) {
    place before = here(r);
    if (!take(r, ascii) && !take(r, sign))
        return false;
    if (r->first_guard_sign.at == r->len)
        r->first_guard_sign = before;
    return true;
}

static const dep_expr *parse_unary_nested(reader *r);

/* One level deeper: false (with the message) past MAX_NESTING; the caller leaves the level after. */
static bool enter_level(reader *r) {
    if (++r->nesting <= MAX_NESTING)
        return true;
    fail(r, "%s", NESTING_ERROR);
    return false;
}

static const dep_expr *parse_unary(reader *r) {
    const dep_expr *e = enter_level(r) ? parse_unary_nested(r) : NULL;
    r->nesting--;
    return e;
}

static const dep_expr *parse_unary_nested(reader *r) {
    skip(r, true);
    if (r->at == r->len && r->operator_end.at != r->len)
        go(r, r->operator_end); /* a missing operand: say so where it is missing, not at the end */
    if (guard_sign(r, "!", "\xc2\xac")) {
        const dep_expr *a = parse_unary(r);
        return a && count_node(r) ? dep_unary(r->ev, DEP_NOT, a) : NULL;
    }
    place open = here(r);
    if (take(r, "(")) {
        r->depth++;
        const dep_expr *e = parse_or(r);
        if (!e)
            return NULL;
        skip(r, true);
        if (!take(r, ")")) {
            char message[96];
            snprintf(message, sizeof message, "expected ')' to close the '(' at %d:%d", open.line,
                     column(r->text, open));
            fail(r, "%s", message);
            return NULL;
        }
        r->depth--;
        return e;
    }
    if (!count_node(r))
        return NULL;
    bool complement = take(r, "~");
    size_t n = name_length(r);
    bool top = n == 1 && r->text[r->at] == 'T';
    if (n == 0 || (complement && top)) {
        if (!complement && (take(r, "0")))
            return dep_zero();
        if (!complement && (take(r, "\xe2\x8a\xa4")))
            return dep_top();
        fail(r, "%s", complement ? "expected an event name after '~' (T and 0 are constants, not events)"
                                 : "expected an event, 0, T or '('");
        return NULL;
    }
    if (top) {
        r->at++;
        return dep_top();
    }
    int symbol = dep_events_symbol(r->ev, r->text + r->at, n);
    if (symbol < 0)
        return oom(r);
    r->at += n;
    const dep_expr *e = dep_lit(r->ev, 2 * symbol + (complement ? 1 : 0));
    return e ? e : oom(r);
}

/* After an operand: is a binary operator next on this statement? (newlines end it at depth 0) */
static bool next_operator(reader *r, const char *ascii, const char *sign) {
    skip(r, false);
    if (!take(r, ascii) && !(sign && take(r, sign)))
        return false;
    r->operator_end = here(r);
    return count_node(r);
}

static const dep_expr *parse_seq(reader *r) {
    const dep_expr *e = parse_unary(r);
    while (e && next_operator(r, ".", "\xc2\xb7")) {
        const dep_expr *b = parse_unary(r);
        e = b ? dep_seq(r->ev, e, b) : NULL;
    }
    if (!e && !r->failed)
        return oom(r);
    return e;
}

static const dep_expr *parse_modal(reader *r) {
    skip(r, true);
    dep_kind kind;
    if (guard_sign(r, "[]", "\xe2\x96\xa1"))
        kind = DEP_BOX;
    else if (guard_sign(r, "<>", "\xe2\x97\x87"))
        kind = DEP_DIA;
    else
        return parse_seq(r);
    const dep_expr *a = enter_level(r) ? parse_modal(r) : NULL;
    r->nesting--;
    return a && count_node(r) ? dep_unary(r->ev, kind, a) : NULL;
}

static const dep_expr *parse_and(reader *r) {
    const dep_expr *e = parse_modal(r);
    while (e && next_operator(r, "&", "\xe2\x88\xa7")) {
        const dep_expr *b = parse_modal(r);
        e = b ? dep_and(r->ev, e, b) : NULL;
    }
    return e;
}

static const dep_expr *parse_or(reader *r) {
    const dep_expr *e = parse_and(r);
    while (e && next_operator(r, "|", "\xe2\x88\xa8")) {
        const dep_expr *b = parse_and(r);
        e = b ? dep_or(r->ev, e, b) : NULL;
    }
    return e;
}

/* The end of a statement: its line's end (or the text's). */
static bool statement_end(reader *r) {
    skip(r, false);
    if (r->at == r->len)
        return true;
    if (r->text[r->at] == '\n') {
        r->at++;
        r->line++;
        r->line_start = r->at;
        return true;
    }
    return false;
}

const dep_expr *dep_parse_expr(dep_events *ev, const char *text, char *err, size_t err_len) {
    reader r = {.ev = ev, .text = text, .len = strlen(text), .line = 1, .err = err, .err_len = err_len};
    r.operator_end.at = r.first_guard_sign.at = r.len;
    const dep_expr *e = parse_or(&r);
    skip(&r, true);
    if (e && r.at != r.len)
        fail(&r, "%s", "unexpected text after the expression");
    return r.failed ? NULL : e;
}

int dep_parse_lit(const dep_events *ev, const char *text) {
    bool complement = text[0] == '~';
    int symbol = dep_events_find(ev, text + complement);
    return symbol < 0 ? -1 : 2 * symbol + complement;
}

void dep_set_init(dep_set *set) {
    memset(set, 0, sizeof *set);
    dep_events_init(&set->ev);
}

void dep_set_free(dep_set *set) {
    for (size_t i = 0; i < set->count; i++) {
        free(set->deps[i].name);
        free(set->deps[i].path);
    }
    free(set->deps);
    for (size_t l = 0; l < set->attributes_len; l++)
        free(set->attribute_places[l].path);
    free(set->attributes);
    free(set->attribute_places);
    dep_events_free(&set->ev);
    memset(set, 0, sizeof *set);
}

unsigned dep_attributes(const dep_set *set, int lit) {
    return (size_t)lit < set->attributes_len ? set->attributes[lit] : 0;
}

/* Gives lit the attribute, remembering where it first got one. -1 on out of memory. */
static int set_attribute(dep_set *set, int lit, unsigned attribute, const char *path, int line, int col) {
    if ((size_t)lit >= set->attributes_len) {
        size_t len = 2 * set->ev.count > (size_t)lit + 1 ? 2 * set->ev.count : (size_t)lit + 1;
        unsigned char *grown = realloc(set->attributes, len);
        if (!grown)
            return -1;
        set->attributes = grown;
        dep_place *places = realloc(set->attribute_places, len * sizeof *places);
        if (!places)
            return -1;
        set->attribute_places = places;
        memset(grown + set->attributes_len, 0, len - set->attributes_len);
        memset(places + set->attributes_len, 0, (len - set->attributes_len) * sizeof *places);
        set->attributes_len = len;
    }
    if (!set->attribute_places[lit].path) {
        if (!(set->attribute_places[lit].path = strdup(path ? path : "")))
            return -1;
        set->attribute_places[lit].line = line;
        set->attribute_places[lit].col = col;
    }
    set->attributes[lit] |= (unsigned char)attribute;
    return 0;
}

int dep_set_check(const dep_set *set, char *err, size_t err_len) {
    for (size_t lit = 0; lit < set->attributes_len; lit++) {
        if (!set->attribute_places[lit].path)
            continue;
        int symbol = DEP_SYMBOL((int)lit), mentioned[DEP_SYMBOLS_MAX];
        bool found = false;
        for (size_t d = 0; d < set->count && !found; d++) {
            size_t k = dep_symbols(set->deps[d].expr, mentioned, DEP_SYMBOLS_MAX);
            for (size_t i = 0; i < k && !found; i++)
                found = mentioned[i] == symbol;
        }
        if (found)
            continue;
        const dep_place *at = &set->attribute_places[lit];
        snprintf(err, err_len, "%s:%d:%d: %s%s has an attribute but no dependency mentions it (a misspelt name?)",
                 at->path, at->line, at->col, lit % 2 ? "~" : "", set->ev.names[symbol]);
        return -1;
    }
    return 0;
}

static const struct {
    const char *word;
    unsigned attribute;
} attribute_words[] = {{"normal", 0}, {"inevitable", DEP_INEVITABLE}, {"immediate", DEP_IMMEDIATE},
                       {"triggerable", DEP_TRIGGERABLE}};

/* `WORD LIT...` to the end of the line; true when the line is one. */
static bool attribute_statement(reader *r, dep_set *set) {
    size_t n = name_length(r);
    for (size_t w = 0; w < sizeof attribute_words / sizeof *attribute_words; w++) {
        const char *word = attribute_words[w].word;
        if (n != strlen(word) || memcmp(r->text + r->at, word, n) != 0)
            continue;
        /* a dependency may be named like an attribute: `inevitable: ...` */
        size_t after = r->at + n;
        while (after < r->len && (r->text[after] == ' ' || r->text[after] == '\t'))
            after++;
        if (after < r->len && r->text[after] == ':')
            return false;
        r->at += n;
        int literals = 0;
        for (;;) {
            reader before = *r;
            if (statement_end(r)) {
                if (literals == 0) {
                    *r = before; /* point at the end of the line that lacks them */
                    skip(r, false);
                    fail(r, "expected events after '%s'", word);
                }
                return true;
            }
            bool complement = take(r, "~");
            size_t len = name_length(r);
            if (len == 0) {
                fail(r, "expected an event after '%s'", word);
                return true;
            }
            int symbol = dep_events_symbol(r->ev, r->text + r->at, len);
            place name_at = here(r);
            name_at.at -= complement;
            if (symbol < 0 || set_attribute(set, 2 * symbol + complement, attribute_words[w].attribute, r->path,
                                            r->line, column(r->text, name_at)) != 0) {
                fail(r, "%s", "out of memory");
                return true;
            }
            unsigned has = dep_attributes(set, 2 * symbol + complement);
            if ((has & DEP_INEVITABLE) && (has & DEP_IMMEDIATE)) {
                fail(r, "%s", "an event is inevitable or immediate, not both (immediate is already nonrejectable)");
                return true;
            }
            r->at += len;
            literals++;
        }
    }
    return false;
}

int dep_set_read(dep_set *set, const char *path, const char *text, size_t len, char *err, size_t err_len) {
    reader r = {.ev = &set->ev, .text = text, .len = len, .line = 1, .err = err, .err_len = err_len, .path = path};
    r.operator_end.at = r.first_guard_sign.at = r.len;
    const char *nul = memchr(text, '\0', len);
    if (nul) {
        for (; r.at < (size_t)(nul - text); r.at++)
            if (text[r.at] == '\n') {
                r.line++;
                r.line_start = r.at + 1;
            }
        fail(&r, "%s", "a NUL byte: not a text file");
        return -1;
    }
    for (bool any = false;; any = true) {
        skip(&r, true);
        if (r.at == r.len) {
            if (!any) {
                fail(&r, "%s", "no dependency or attribute: the file is empty or only comments");
                return -1;
            }
            break;
        }
        if (attribute_statement(&r, set)) {
            if (r.failed)
                return -1;
            continue;
        }
        size_t name_at = r.at;
        int line = r.line;
        while (r.at < r.len && r.text[r.at] != ':' && !isspace((unsigned char)r.text[r.at]))
            r.at++;
        size_t name_len = r.at - name_at;
        skip(&r, false);
        if (name_len == 0 || !take(&r, ":")) {
            if (name_len == 0)
                fail(&r, "%s", "expected a dependency's name and ':' or an attribute (inevitable, immediate, triggerable)");
            else
                fail(&r, "%s", "expected ':' after the dependency's name");
            return -1;
        }
        for (size_t i = 0; i < set->count; i++)
            if (strlen(set->deps[i].name) == name_len && memcmp(set->deps[i].name, text + name_at, name_len) == 0) {
                r.at = name_at;
                fail(&r, "a second dependency named %s", set->deps[i].name);
                return -1;
            }
        r.nodes = 0;
        r.operator_end.at = r.first_guard_sign.at = r.len;
        const dep_expr *e = parse_or(&r);
        if (!e) {
            if (!r.failed)
                fail(&r, "%s", "out of memory");
            return -1;
        }
        if (r.first_guard_sign.at != r.len) {
            go(&r, r.first_guard_sign);
            fail(&r, "%s", "a dependency is an expression of events (no [], <> or !: those are for guards)");
            return -1;
        }
        if (!statement_end(&r)) {
            fail(&r, "%s", "expected an operator or the end of the line");
            return -1;
        }
        int symbols[DEP_SYMBOLS_MAX + 1];
        size_t events = dep_symbols(e, symbols, DEP_SYMBOLS_MAX + 1);
        if (events > DEP_SYMBOLS_MAX) {
            snprintf(err, err_len,
                     "%s:%d:1: %.*s relates %zu events; a dependency relates at most %d (its paths are n! 2^n "
                     "traces): split it",
                     path, line, (int)name_len, text + name_at, events, DEP_SYMBOLS_MAX);
            return -1;
        }
        if (set->count == set->capacity) {
            size_t cap = set->capacity ? 2 * set->capacity : 8;
            dep_dependency *grown = realloc(set->deps, cap * sizeof *grown);
            if (!grown) {
                fail(&r, "%s", "out of memory");
                return -1;
            }
            set->deps = grown;
            set->capacity = cap;
        }
        char *name = malloc(name_len + 1);
        if (!name) {
            fail(&r, "%s", "out of memory");
            return -1;
        }
        memcpy(name, text + name_at, name_len);
        name[name_len] = '\0';
        char *own_path = strdup(path);
        if (!own_path) {
            free(name);
            snprintf(err, err_len, "%s: out of memory", path);
            return -1;
        }
        set->deps[set->count++] = (dep_dependency){name, e, line, own_path};
    }
    return 0;
}
