/* dep_expr.c: the event table, the expression arena, constant-folding constructors and the printer of
 * the dependency algebra (dep_expr.h). */
#include "deps/dep_expr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARENA_CHUNK 1024

struct dep_arena {
    struct dep_arena *next;
    size_t used;
    dep_expr nodes[ARENA_CHUNK];
};

static const dep_expr zero_node = {.kind = DEP_ZERO};
static const dep_expr top_node = {.kind = DEP_TOP};

void dep_events_init(dep_events *ev) { memset(ev, 0, sizeof *ev); }

void dep_events_free(dep_events *ev) {
    for (size_t i = 0; i < ev->count; i++)
        free(ev->names[i]);
    free(ev->names);
    free(ev->slots);
    for (dep_arena *a = ev->arena, *next; a; a = next) {
        next = a->next;
        free(a);
    }
    memset(ev, 0, sizeof *ev);
}

static size_t name_hash(const char *name, size_t len) {
    size_t h = 1469598103934665603u; /* FNV-1a */
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)name[i]) * 1099511628211u;
    return h;
}

/* The slot of name (len bytes) in the open-addressed table: its symbol's, or the empty one it would take. */
static size_t slot_of(const dep_events *ev, const char *name, size_t len) {
    size_t mask = ev->slot_count - 1, at = name_hash(name, len) & mask;
    while (ev->slots[at] >= 0) {
        const char *known = ev->names[ev->slots[at]];
        if (strncmp(known, name, len) == 0 && known[len] == '\0')
            return at;
        at = (at + 1) & mask;
    }
    return at;
}

int dep_events_find(const dep_events *ev, const char *name) {
    if (!ev->slot_count)
        return -1;
    return ev->slots[slot_of(ev, name, strlen(name))];
}

/* Doubles the table (kept at most half full). */
static int grow_slots(dep_events *ev) {
    size_t count = ev->slot_count ? 2 * ev->slot_count : 64;
    int *slots = malloc(count * sizeof *slots);
    if (!slots)
        return -1;
    memset(slots, 0xff, count * sizeof *slots); /* -1: empty */
    free(ev->slots);
    ev->slots = slots;
    ev->slot_count = count;
    for (size_t i = 0; i < ev->count; i++)
        ev->slots[slot_of(ev, ev->names[i], strlen(ev->names[i]))] = (int)i;
    return 0;
}

int dep_events_symbol(dep_events *ev, const char *name, size_t len) {
    if (2 * (ev->count + 1) > ev->slot_count && grow_slots(ev) != 0)
        return -1;
    size_t at = slot_of(ev, name, len);
    if (ev->slots[at] >= 0)
        return ev->slots[at];
    if (ev->count == ev->capacity) {
        size_t cap = ev->capacity ? ev->capacity * 2 : 16;
        char **names = realloc(ev->names, cap * sizeof *names);
        if (!names)
            return -1;
        ev->names = names;
        ev->capacity = cap;
    }
    char *copy = malloc(len + 1);
    if (!copy)
        return -1;
    memcpy(copy, name, len);
    copy[len] = '\0';
    ev->names[ev->count] = copy;
    ev->slots[at] = (int)ev->count;
    return (int)ev->count++;
}

static dep_expr *node(dep_events *ev, dep_kind kind) {
    if (!ev->arena || ev->arena->used == ARENA_CHUNK) {
        dep_arena *a = malloc(sizeof *a);
        if (!a)
            return NULL;
        a->next = ev->arena;
        a->used = 0;
        ev->arena = a;
    }
    dep_expr *n = &ev->arena->nodes[ev->arena->used++];
    memset(n, 0, sizeof *n);
    n->kind = kind;
    return n;
}

const dep_expr *dep_zero(void) { return &zero_node; }
const dep_expr *dep_top(void) { return &top_node; }

const dep_expr *dep_lit(dep_events *ev, int lit) {
    dep_expr *n = node(ev, DEP_LIT);
    if (n)
        n->lit = lit;
    return n;
}

static const dep_expr *binary(dep_events *ev, dep_kind kind, const dep_expr *a, const dep_expr *b) {
    if (!a || !b)
        return NULL;
    dep_expr *n = node(ev, kind);
    if (n) {
        n->a = a;
        n->b = b;
    }
    return n;
}

const dep_expr *dep_seq(dep_events *ev, const dep_expr *a, const dep_expr *b) {
    if (!a || !b)
        return NULL;
    /* an empty interval holds no event: 0 anywhere in a sequence makes it 0; T is not a unit of the
     * sequence (e . T needs nothing after e, but the split still exists), so it stays */
    if (a->kind == DEP_ZERO || b->kind == DEP_ZERO)
        return dep_zero();
    return binary(ev, DEP_SEQ, a, b);
}

const dep_expr *dep_and(dep_events *ev, const dep_expr *a, const dep_expr *b) {
    if (!a || !b)
        return NULL;
    if (a->kind == DEP_ZERO || b->kind == DEP_ZERO)
        return dep_zero();
    if (a->kind == DEP_TOP)
        return b;
    if (b->kind == DEP_TOP)
        return a;
    return binary(ev, DEP_AND, a, b);
}

const dep_expr *dep_or(dep_events *ev, const dep_expr *a, const dep_expr *b) {
    if (!a || !b)
        return NULL;
    if (a->kind == DEP_TOP || b->kind == DEP_TOP)
        return dep_top();
    if (a->kind == DEP_ZERO)
        return b;
    if (b->kind == DEP_ZERO)
        return a;
    return binary(ev, DEP_OR, a, b);
}

const dep_expr *dep_unary(dep_events *ev, dep_kind kind, const dep_expr *a) {
    if (!a)
        return NULL;
    if (a->kind == DEP_ZERO || a->kind == DEP_TOP) {
        bool holds = a->kind == DEP_TOP;
        if (kind == DEP_NOT)
            holds = !holds;
        return holds ? dep_top() : dep_zero();
    }
    dep_expr *n = node(ev, kind);
    if (n)
        n->a = a;
    return n;
}

static void collect_symbols(const dep_expr *e, int *out, size_t max, size_t *count) {
    switch (e->kind) {
    case DEP_ZERO:
    case DEP_TOP:
        return;
    case DEP_LIT: {
        int s = DEP_SYMBOL(e->lit);
        size_t at = 0;
        size_t known = *count < max ? *count : max;
        while (at < known && out[at] < s)
            at++;
        if (at < known && out[at] == s)
            return;
        if (*count < max) {
            memmove(out + at + 1, out + at, (*count - at) * sizeof *out);
            out[at] = s;
        }
        (*count)++;
        return;
    }
    default:
        collect_symbols(e->a, out, max, count);
        if (e->b)
            collect_symbols(e->b, out, max, count);
    }
}

size_t dep_symbols(const dep_expr *e, int *out, size_t max) {
    size_t count = 0;
    collect_symbols(e, out, max, &count);
    return count;
}

bool dep_expr_equal(const dep_expr *a, const dep_expr *b) {
    if (a == b)
        return true;
    if (a->kind != b->kind)
        return false;
    switch (a->kind) {
    case DEP_ZERO:
    case DEP_TOP:
        return true;
    case DEP_LIT:
        return a->lit == b->lit;
    case DEP_BOX:
    case DEP_DIA:
    case DEP_NOT:
        return dep_expr_equal(a->a, b->a);
    default:
        return dep_expr_equal(a->a, b->a) && dep_expr_equal(a->b, b->b);
    }
}

/* --- printing: precedence levels, loosest first, as dep_parse reads them --- */

enum { LEVEL_OR = 1, LEVEL_AND, LEVEL_MODAL, LEVEL_SEQ, LEVEL_UNARY };

static int level(const dep_expr *e) {
    switch (e->kind) {
    case DEP_OR:
        return LEVEL_OR;
    case DEP_AND:
        return LEVEL_AND;
    case DEP_BOX:
    case DEP_DIA:
        return LEVEL_MODAL;
    case DEP_SEQ:
        return LEVEL_SEQ;
    default:
        return LEVEL_UNARY;
    }
}

typedef struct {
    char *out;
    size_t len;
    size_t need;
} sink;

static void put(sink *s, const char *text) {
    size_t n = strlen(text);
    if (s->need < s->len) {
        size_t room = s->len - s->need - 1;
        memcpy(s->out + s->need, text, n < room ? n : room);
        s->out[s->need + (n < room ? n : room)] = '\0';
    }
    s->need += n;
}

static void print_expr(sink *s, const dep_events *ev, const dep_expr *e, int at_least) {
    bool parens = level(e) < at_least;
    if (parens)
        put(s, "(");
    switch (e->kind) {
    case DEP_ZERO:
        put(s, "0");
        break;
    case DEP_TOP:
        put(s, "T");
        break;
    case DEP_LIT:
        if (DEP_NEGATED(e->lit))
            put(s, "~");
        put(s, ev->names[DEP_SYMBOL(e->lit)]);
        break;
    case DEP_OR:
        print_expr(s, ev, e->a, LEVEL_OR);
        put(s, " | ");
        print_expr(s, ev, e->b, LEVEL_OR);
        break;
    case DEP_AND:
        print_expr(s, ev, e->a, LEVEL_AND);
        put(s, " & ");
        print_expr(s, ev, e->b, LEVEL_AND);
        break;
    case DEP_SEQ:
        print_expr(s, ev, e->a, LEVEL_SEQ);
        put(s, ".");
        /* the sequence is associative, but the reader groups to the left: a right-nested one keeps
         * its parentheses so that the text reads back as the same tree */
        print_expr(s, ev, e->b, LEVEL_UNARY);
        break;
    case DEP_BOX:
    case DEP_DIA:
        put(s, e->kind == DEP_BOX ? "[]" : "<>");
        print_expr(s, ev, e->a, LEVEL_MODAL);
        break;
    case DEP_NOT:
        put(s, "!");
        print_expr(s, ev, e->a, LEVEL_UNARY);
        break;
    }
    if (parens)
        put(s, ")");
}

size_t dep_print(const dep_events *ev, const dep_expr *e, char *out, size_t len) {
    sink s = {out, len, 0};
    if (len)
        out[0] = '\0';
    print_expr(&s, ev, e, LEVEL_OR);
    return s.need;
}

char *dep_to_string(const dep_events *ev, const dep_expr *e) {
    size_t need = dep_print(ev, e, NULL, 0);
    char *text = malloc(need + 1);
    if (text)
        dep_print(ev, e, text, need + 1);
    return text;
}

size_t dep_print_lit(const dep_events *ev, int lit, char *out, size_t len) {
    return (size_t)snprintf(out, len, "%s%s", DEP_NEGATED(lit) ? "~" : "", ev->names[DEP_SYMBOL(lit)]);
}
