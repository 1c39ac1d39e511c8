/* dep_parse.c: reads the text syntax of dep_parse.h by recursive descent, one statement per line, with
 * the line and column of the first thing that is wrong. */
#include "deps/dep_parse.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    dep_events *ev;
    const char *text;
    size_t len;
    size_t at;
    int line;
    size_t line_start;
    int depth; /* open parentheses: newlines are spaces inside them */
    char *err;
    size_t err_len;
    const char *path; /* NULL: errors give the column only */
    bool failed;
} reader;

static void fail(reader *r, const char *fmt, const char *what) {
    if (r->failed)
        return;
    r->failed = true;
    char message[256];
    snprintf(message, sizeof message, fmt, what);
    int col = (int)(r->at - r->line_start) + 1;
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

static const dep_expr *parse_unary(reader *r) {
    skip(r, true);
    if (take(r, "!") || take(r, "\xc2\xac")) {
        const dep_expr *a = parse_unary(r);
        return a ? dep_unary(r->ev, DEP_NOT, a) : NULL;
    }
    if (take(r, "(")) {
        r->depth++;
        const dep_expr *e = parse_or(r);
        if (!e)
            return NULL;
        skip(r, true);
        if (!take(r, ")")) {
            fail(r, "%s", "expected ')'");
            return NULL;
        }
        r->depth--;
        return e;
    }
    bool complement = take(r, "~");
    size_t n = name_length(r);
    if (n == 0) {
        if (!complement && (take(r, "0")))
            return dep_zero();
        if (!complement && (take(r, "\xe2\x8a\xa4")))
            return dep_top();
        fail(r, "%s", complement ? "expected an event name after '~'" : "expected an event, 0, T or '('");
        return NULL;
    }
    if (!complement && n == 1 && r->text[r->at] == 'T') {
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
    return take(r, ascii) || (sign && take(r, sign));
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
    if (take(r, "[]") || take(r, "\xe2\x96\xa1"))
        kind = DEP_BOX;
    else if (take(r, "<>") || take(r, "\xe2\x97\x87"))
        kind = DEP_DIA;
    else
        return parse_seq(r);
    const dep_expr *a = parse_modal(r);
    return a ? dep_unary(r->ev, kind, a) : NULL;
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
    for (size_t i = 0; i < set->count; i++)
        free(set->deps[i].name);
    free(set->deps);
    free(set->attributes);
    dep_events_free(&set->ev);
    memset(set, 0, sizeof *set);
}

unsigned dep_attributes(const dep_set *set, int lit) {
    return (size_t)lit < set->attributes_len ? set->attributes[lit] : 0;
}

int dep_set_attribute(dep_set *set, int lit, unsigned attribute) {
    if ((size_t)lit >= set->attributes_len) {
        size_t len = 2 * set->ev.count > (size_t)lit + 1 ? 2 * set->ev.count : (size_t)lit + 1;
        unsigned char *grown = realloc(set->attributes, len);
        if (!grown)
            return -1;
        memset(grown + set->attributes_len, 0, len - set->attributes_len);
        set->attributes = grown;
        set->attributes_len = len;
    }
    set->attributes[lit] |= (unsigned char)attribute;
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
            if (symbol < 0 || dep_set_attribute(set, 2 * symbol + complement, attribute_words[w].attribute) != 0) {
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
    if (memchr(text, '\0', len)) {
        snprintf(err, err_len, "%s: a NUL byte: not a text file", path);
        return -1;
    }
    for (;;) {
        skip(&r, true);
        if (r.at == r.len)
            break;
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
        const dep_expr *e = parse_or(&r);
        if (!e) {
            if (!r.failed)
                fail(&r, "%s", "out of memory");
            return -1;
        }
        if (!dep_is_dependency(e)) {
            r.at = name_at;
            fail(&r, "%s", "a dependency is an expression of events (no [], <> or !: those are for guards)");
            return -1;
        }
        if (!statement_end(&r)) {
            fail(&r, "%s", "expected an operator or the end of the line");
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
        set->deps[set->count++] = (dep_dependency){name, e, line};
    }
    return 0;
}
