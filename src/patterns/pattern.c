/* pattern.c: the pattern term tree: building, freeing, and writing it back as term text. */
#include "patterns/pattern.h"

#include <stdlib.h>
#include <string.h>

pattern *pattern_new(enum pattern_kind kind, int line, int col) {
    pattern *p = xcalloc(1, sizeof *p);
    p->kind = kind;
    p->line = line;
    p->col = col;
    return p;
}

void pattern_add(pattern *p, pattern *child, const char *guard) {
    p->children = xrealloc(p->children, (p->n + 1) * sizeof *p->children);
    p->guards = xrealloc(p->guards, (p->n + 1) * sizeof *p->guards);
    p->children[p->n] = child;
    p->guards[p->n] = guard ? xstrndup(guard, strlen(guard)) : NULL;
    p->n++;
}

void pattern_free(pattern *p) {
    if (!p)
        return;
    for (size_t i = 0; i < p->n; i++) {
        pattern_free(p->children[i]);
        free(p->guards[i]);
    }
    free(p->children);
    free(p->guards);
    free(p->name);
    free(p);
}

const char *pattern_kind_name(enum pattern_kind kind) {
    static const char *const names[] = {"task", "seq", "join", "xor", "loop", "defer", "cancel", "mi"};
    return names[kind];
}

static void put_name(const char *iri, const char *base, buf *out) {
    size_t base_len = base ? strlen(base) : 0;
    if (base_len && strncmp(iri, base, base_len) == 0 && iri[base_len] == '#')
        buf_puts(out, iri + base_len + 1);
    else
        buf_printf(out, "<%s>", iri);
}

static void put_policy(const pattern *p, buf *out) {
    switch (p->policy) {
    case JOIN_ALL: buf_puts(out, "all"); break;
    case JOIN_SYNC_MERGE: buf_puts(out, "sync_merge"); break;
    case JOIN_FIRST_COMPLETE: buf_puts(out, "first_complete"); break;
    case JOIN_FIRST_N: buf_printf(out, "first_n(%ld)", p->k); break;
    case JOIN_N_OF_M: buf_printf(out, "n_of_m(%ld, %ld)", p->k, p->m); break;
    }
}

static void format(const pattern *p, const char *base, buf *out, size_t limit) {
    if (out->len > limit)
        return;
    buf_printf(out, "%s(", p->kind == PAT_JOIN && p->written_as_par ? "par" : pattern_kind_name(p->kind));
    switch (p->kind) {
    case PAT_TASK: put_name(p->name, base, out); break;
    case PAT_SEQ:
    case PAT_JOIN:
        if (p->kind == PAT_JOIN && !p->written_as_par) {
            put_policy(p, out);
            buf_puts(out, ", ");
        }
        for (size_t i = 0; i < p->n && out->len <= limit; i++) {
            if (i)
                buf_puts(out, ", ");
            format(p->children[i], base, out, limit);
        }
        break;
    case PAT_XOR:
    case PAT_DEFER:
        for (size_t i = 0; i < p->n && out->len <= limit; i++) {
            if (i)
                buf_puts(out, ", ");
            if (p->guards[i]) {
                buf_puts(out, p->kind == PAT_XOR ? "when(" : "on(");
                put_name(p->guards[i], base, out);
                buf_puts(out, ", ");
            } else {
                buf_puts(out, "else(");
            }
            format(p->children[i], base, out, limit);
            buf_putc(out, ')');
        }
        break;
    case PAT_LOOP:
        if (p->loop == LOOP_COUNT) {
            buf_printf(out, "count(%ld)", p->count);
        } else {
            buf_puts(out, p->loop == LOOP_WHILE ? "while(" : "until(");
            put_name(p->name, base, out);
            buf_putc(out, ')');
        }
        buf_puts(out, ", ");
        format(p->children[0], base, out, limit);
        break;
    case PAT_CANCEL: {
        static const char *const scopes[] = {"activity(", "region(", "case("};
        buf_puts(out, scopes[p->scope]);
        put_name(p->name, base, out);
        buf_puts(out, "), ");
        format(p->children[0], base, out, limit);
        break;
    }
    case PAT_MI:
        if (p->mi_dynamic) {
            buf_puts(out, "dynamic(");
            put_name(p->name, base, out);
            buf_printf(out, ", %ld, %ld)", p->min, p->max);
        } else {
            buf_printf(out, "fixed(%ld)", p->count);
        }
        buf_puts(out, ", ");
        put_policy(p, out);
        buf_puts(out, ", ");
        format(p->children[0], base, out, limit);
        break;
    }
    buf_putc(out, ')');
}

void pattern_format(const pattern *p, const char *base, size_t max_len, buf *out) {
    size_t start = out->len;
    format(p, base, out, max_len ? start + max_len : (size_t)-1);
    if (max_len && out->len - start > max_len) {
        out->len = start + max_len;
        /* never cut inside a UTF-8 sequence */
        while (out->len > start && ((unsigned char)out->data[out->len] & 0xC0) == 0x80)
            out->len--;
        buf_puts(out, "...");
    }
}
