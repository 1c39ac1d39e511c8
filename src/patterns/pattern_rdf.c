/* pattern_rdf.c: reads a pattern tree from RDF in the pattern vocabulary. */
#include "patterns/pattern_rdf.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patterns/pattern_term.h"
#include "rdf/rdf_list.h"
#include "rdf/vocab_ns.h"

typedef struct {
    terms *t;
    store *st;
    const char *base;
    char *err;
    size_t err_len;
    bool failed;
} rdf_reader;

static void fail(rdf_reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(rdf_reader *r, const char *fmt, ...) {
    if (r->failed)
        return;
    r->failed = true;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err, r->err_len, fmt, ap);
    va_end(ap);
}

static term_id pat(rdf_reader *r, const char *local) {
    return vocab_iri(r->t, NS_PAT, local);
}

/* How a node is named in messages: <iri>, or the blank node's label. */
static const char *shown(rdf_reader *r, term_id node, buf *b) {
    b->len = 0;
    if (terms_kind(r->t, node) == TERM_IRI)
        buf_printf(b, "<%s>", terms_lex(r->t, node, NULL));
    else
        buf_printf(b, "a blank node [%s]", terms_lex(r->t, node, NULL));
    return buf_cstr(b);
}

/* The one object of (node, pat:local); 0 when there is none (an error when required), an error when
 * there are several. */
static term_id one(rdf_reader *r, term_id node, const char *local, bool required) {
    term_id p = pat(r, local);
    store_iter it;
    store_match(r->st, node, p, 0, 0, store_size(r->st), &it);
    const triple *tr;
    uint32_t n;
    term_id found = 0;
    buf b = {0};
    while ((tr = store_next(&it, &n))) {
        if (found && found != tr->o) {
            fail(r, "%s has pat:%s twice", shown(r, node, &b), local);
            buf_free(&b);
            return 0;
        }
        found = tr->o;
    }
    if (!found && required)
        fail(r, "%s has no pat:%s", shown(r, node, &b), local);
    buf_free(&b);
    return found;
}

static long number(rdf_reader *r, term_id node, const char *local) {
    term_id v = one(r, node, local, true);
    if (!v)
        return -1;
    const char *lex = terms_lex(r->t, v, NULL);
    char *end;
    long value = terms_kind(r->t, v) == TERM_LITERAL ? strtol(lex, &end, 10) : -1;
    if (value < 0 || terms_kind(r->t, v) != TERM_LITERAL || *end || end == lex) {
        buf b = {0};
        fail(r, "pat:%s of %s must be a non-negative integer", local, shown(r, node, &b));
        buf_free(&b);
        return -1;
    }
    return value;
}

static char *name_of(rdf_reader *r, term_id node, const char *local) {
    term_id v = one(r, node, local, true);
    if (!v)
        return NULL;
    if (terms_kind(r->t, v) != TERM_IRI) {
        buf b = {0};
        fail(r, "pat:%s of %s must be an IRI (a request, condition or item list of the names)", local,
             shown(r, node, &b));
        buf_free(&b);
        return NULL;
    }
    size_t len;
    const char *lex = terms_lex(r->t, v, &len);
    return xstrndup(lex, len);
}

static bool has_type(rdf_reader *r, term_id node, const char *local) {
    return store_find(r->st, node, terms_iri_cstr(r->t, RDF_type), pat(r, local)) != UINT32_MAX;
}

/* The items of the list at (node, pat:local). */
static const term_id *items(rdf_reader *r, term_id node, const char *local, size_t *n) {
    term_id head = one(r, node, local, true);
    term_id list = head ? rdf_list_read(r->t, r->st, head) : 0;
    if (head && !list) {
        buf b = {0};
        fail(r, "pat:%s of %s must be a list ( ... )", local, shown(r, node, &b));
        buf_free(&b);
    }
    if (!list) {
        *n = 0;
        return NULL;
    }
    return terms_list_items(r->t, list, n);
}

static pattern *node_term(rdf_reader *r, term_id node, int depth);

static void read_policy(rdf_reader *r, term_id node, pattern *p) {
    term_id policy = one(r, node, "policy", true);
    if (!policy)
        return;
    if (policy == pat(r, "all")) {
        p->policy = JOIN_ALL;
    } else if (policy == pat(r, "syncMerge")) {
        p->policy = JOIN_SYNC_MERGE;
    } else if (policy == pat(r, "firstComplete")) {
        p->policy = JOIN_FIRST_COMPLETE;
        p->k = 1;
    } else if (has_type(r, policy, "FirstN")) {
        p->policy = JOIN_FIRST_N;
        p->k = number(r, policy, "k");
    } else if (has_type(r, policy, "NOfM")) {
        p->policy = JOIN_N_OF_M;
        p->k = number(r, policy, "k");
        p->m = number(r, policy, "m");
    } else {
        buf b = {0};
        fail(r, "the pat:policy of %s is none of pat:all, pat:syncMerge, pat:firstComplete, a pat:FirstN, a "
                "pat:NOfM",
             shown(r, node, &b));
        buf_free(&b);
    }
}

static void read_parts(rdf_reader *r, term_id node, pattern *p, int depth) {
    size_t n;
    const term_id *parts = items(r, node, p->kind == PAT_SEQ ? "parts" : "branches", &n);
    for (size_t i = 0; i < n && !r->failed; i++) {
        pattern *child = node_term(r, parts[i], depth + 1);
        if (child)
            pattern_add(p, child, NULL);
    }
}

static void read_branches(rdf_reader *r, term_id node, pattern *p, int depth) {
    size_t n;
    const term_id *branches = items(r, node, "branches", &n);
    const char *guard_property = p->kind == PAT_XOR ? "when" : "on";
    for (size_t i = 0; i < n && !r->failed; i++) {
        char *guard = name_of(r, branches[i], guard_property);
        term_id body = guard ? one(r, branches[i], "do", true) : 0;
        pattern *child = body ? node_term(r, body, depth + 1) : NULL;
        if (child)
            pattern_add(p, child, guard);
        free(guard);
    }
    term_id otherwise = p->kind == PAT_XOR && !r->failed ? one(r, node, "else", false) : 0;
    if (otherwise) {
        pattern *child = node_term(r, otherwise, depth + 1);
        if (child)
            pattern_add(p, child, NULL);
    }
}

static void read_body(rdf_reader *r, term_id node, pattern *p, int depth) {
    term_id body = one(r, node, "body", true);
    pattern *child = body ? node_term(r, body, depth + 1) : NULL;
    if (child)
        pattern_add(p, child, NULL);
}

static pattern *node_term(rdf_reader *r, term_id node, int depth) {
    if (r->failed)
        return NULL;
    buf b = {0};
    if (depth > PATTERN_MAX_DEPTH) {
        fail(r, "terms %s at %s (a cycle?)", NESTING_ERROR, shown(r, node, &b));
        buf_free(&b);
        return NULL;
    }
    static const struct {
        const char *type;
        enum pattern_kind kind;
    } kinds[] = {{"Task", PAT_TASK}, {"Seq", PAT_SEQ},     {"Par", PAT_JOIN},       {"Join", PAT_JOIN}, {"Xor", PAT_XOR},
                 {"Loop", PAT_LOOP}, {"Defer", PAT_DEFER}, {"Cancel", PAT_CANCEL}, {"MI", PAT_MI}};
    size_t which = 0;
    while (which < sizeof kinds / sizeof kinds[0] && !has_type(r, node, kinds[which].type))
        which++;
    if (which == sizeof kinds / sizeof kinds[0]) {
        fail(r, "%s is no pattern term (a pat:Task, Seq, Par, Join, Xor, Loop, Defer, Cancel or MI)",
             shown(r, node, &b));
        buf_free(&b);
        return NULL;
    }
    buf_free(&b);
    pattern *p = pattern_new(kinds[which].kind, 0, 0);
    switch (p->kind) {
    case PAT_TASK: p->name = name_of(r, node, "task"); break;
    case PAT_SEQ: read_parts(r, node, p, depth); break;
    case PAT_JOIN:
        if (has_type(r, node, "Par")) {
            if (one(r, node, "policy", false)) {
                fail(r, "%s is a pat:Par, which joins all branches: give a pat:Join for a pat:policy",
                     shown(r, node, &b));
                buf_free(&b);
                break;
            }
            p->written_as_par = 1;
            p->policy = JOIN_ALL;
        } else {
            read_policy(r, node, p);
        }
        read_parts(r, node, p, depth);
        break;
    case PAT_XOR:
    case PAT_DEFER:
        if (p->kind == PAT_DEFER && one(r, node, "else", false)) {
            fail(r, "%s is a pat:Defer, which waits for an event: it has no pat:else", shown(r, node, &b));
            buf_free(&b);
            break;
        }
        read_branches(r, node, p, depth);
        break;
    case PAT_LOOP:
        if (!!one(r, node, "count", false) + !!one(r, node, "until", false) + !!one(r, node, "while", false) > 1) {
            fail(r, "%s gives more than one of pat:count, pat:until and pat:while", shown(r, node, &b));
            buf_free(&b);
            break;
        }
        if (one(r, node, "count", false)) {
            p->loop = LOOP_COUNT;
            p->count = number(r, node, "count");
        } else if (one(r, node, "until", false)) {
            p->loop = LOOP_UNTIL;
            p->name = name_of(r, node, "until");
        } else {
            p->loop = LOOP_WHILE;
            p->name = name_of(r, node, "while");
        }
        read_body(r, node, p, depth);
        break;
    case PAT_CANCEL: {
        static const char *const scopes[] = {"activity", "region", "case"};
        size_t s = 0, given = 0;
        for (size_t i = 0; i < 3; i++)
            given += one(r, node, scopes[i], false) != 0;
        while (s < 3 && !one(r, node, scopes[s], false))
            s++;
        if (given > 1) {
            fail(r, "%s gives more than one of pat:activity, pat:region and pat:case", shown(r, node, &b));
            buf_free(&b);
            break;
        }
        if (s == 3) {
            fail(r, "%s gives no pat:activity, pat:region or pat:case (the event that cancels)", shown(r, node, &b));
            buf_free(&b);
            break;
        }
        p->scope = (enum cancel_scope)s;
        p->name = name_of(r, node, scopes[s]);
        read_body(r, node, p, depth);
        break;
    }
    case PAT_MI:
        if (one(r, node, "items", false) && one(r, node, "instances", false)) {
            fail(r, "%s gives both pat:items and pat:instances", shown(r, node, &b));
            buf_free(&b);
            break;
        }
        if (one(r, node, "items", false)) {
            p->mi_dynamic = 1;
            p->name = name_of(r, node, "items");
            p->min = number(r, node, "min");
            p->max = number(r, node, "max");
        } else {
            p->count = number(r, node, "instances");
        }
        read_policy(r, node, p);
        read_body(r, node, p, depth);
        break;
    }
    if (r->failed) {
        pattern_free(p);
        return NULL;
    }
    return p;
}

pattern *pattern_read_rdf(terms *t, store *st, const char *base, char *err, size_t err_len) {
    rdf_reader r = {.t = t, .st = st, .base = base, .err = err, .err_len = err_len};
    term_id type = terms_iri_cstr(t, RDF_type);
    store_iter it;
    store_match(st, 0, type, pat(&r, "Workflow"), 0, store_size(st), &it);
    const triple *tr;
    uint32_t n;
    term_id workflow = 0;
    while ((tr = store_next(&it, &n))) {
        if (workflow && workflow != tr->s) {
            snprintf(err, err_len, "the document describes more than one pat:Workflow");
            return NULL;
        }
        workflow = tr->s;
    }
    if (!workflow) {
        snprintf(err, err_len, "the document describes no pat:Workflow (give the term with --term)");
        return NULL;
    }
    pattern *p = NULL;
    term_id text = one(&r, workflow, "term", false);
    if (text && terms_kind(t, text) == TERM_LITERAL) {
        size_t len;
        const char *lex = terms_lex(t, text, &len);
        char why[400];
        p = pattern_parse_term(lex, len, base, why, sizeof why);
        if (!p)
            snprintf(err, err_len, "pat:term: %s", why);
        return p;
    }
    term_id body = r.failed ? 0 : one(&r, workflow, "body", true);
    if (body)
        p = node_term(&r, body, 0);
    if (p && pattern_check(p, err, err_len) != 0) {
        pattern_free(p);
        return NULL;
    }
    return p;
}
