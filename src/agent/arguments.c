/* arguments.c: the evaluated requests of arguments.h, from the solutions of argument queries and the
 * templates of the requests that name them. */
#include "agent/arguments.h"

#include <nettle/sha1.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/sentries.h"
#include "agent/template.h"
#include "n3/iri_resolve.h"
#include "rdf/buf.h"
#include "rdf/rdf_list.h"

typedef struct solution {
    term_id ctx, request, head;
} solution;

struct argument_solutions {
    solution *items;
    size_t count, cap;
};

argument_solutions *arguments_new(void) { return xcalloc(1, sizeof(argument_solutions)); }

void arguments_free(argument_solutions *a) {
    if (!a)
        return;
    free(a->items);
    free(a);
}

void arguments_begin(argument_solutions *a) { a->count = 0; }

void arguments_take(argument_solutions *a, const terms *t, const agent_vocab *v, term_id head) {
    size_t n;
    const triple *ts = terms_formula_triples(t, head, &n);
    solution s = {.head = head};
    for (size_t i = 0; i < n; i++) {
        if (ts[i].p == v->solution_for)
            s.ctx = ts[i].o;
        else if (ts[i].p == v->solution_request)
            s.request = ts[i].o;
    }
    if (!s.ctx || !s.request)
        return;
    if (a->count == a->cap) {
        a->cap = a->cap ? a->cap * 2 : 64;
        a->items = xrealloc(a->items, a->cap * sizeof *a->items);
    }
    a->items[a->count++] = s;
}

static int solution_cmp(const void *x, const void *y) {
    const solution *a = x, *b = y;
    if (a->ctx != b->ctx)
        return a->ctx < b->ctx ? -1 : 1;
    if (a->request != b->request)
        return a->request < b->request ? -1 : 1;
    return a->head < b->head ? -1 : a->head > b->head;
}

/* The first solution of (ctx, request) in the sorted, de-duplicated items, and how many there are. */
static const solution *solutions_of(const argument_solutions *a, term_id ctx, term_id request, size_t *count) {
    size_t lo = 0, hi = a->count;
    const solution key = {ctx, request, 0};
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (solution_cmp(&a->items[mid], &key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t end = lo;
    while (end < a->count && a->items[end].ctx == ctx && a->items[end].request == request)
        end++;
    *count = end - lo;
    return &a->items[lo];
}

/* The variable bindings of a solution head. */
static size_t bindings_of(const terms *t, term_id head, template_binding **out) {
    size_t n, prefix = strlen(ARGUMENT_VARIABLE_NS), count = 0;
    const triple *ts = terms_formula_triples(t, head, &n);
    *out = xcalloc(n ? n : 1, sizeof **out);
    for (size_t i = 0; i < n; i++) {
        const char *p = terms_lex(t, ts[i].p, NULL);
        if (terms_kind(t, ts[i].p) == TERM_IRI && strncmp(p, ARGUMENT_VARIABLE_NS, prefix) == 0)
            (*out)[count++] = (template_binding){.name = p + prefix, .value = ts[i].o};
    }
    return count;
}

/* How a message names the request: its IRI, or the document a blank one is written in. */
static void name_request(const terms *t, store *wm, const agent_vocab *v, term_id request, buf *out) {
    if (terms_kind(t, request) == TERM_IRI) {
        buf_printf(out, "<%s>", terms_lex(t, request, NULL));
        return;
    }
    uint32_t n = store_find(wm, request, v->mthd, store_first_object(wm, request, v->mthd));
    term_id graph = n != UINT32_MAX ? store_first_graph(wm, n) : 0;
    buf_printf(out, "a request in <%s>", graph ? terms_lex(t, graph, NULL) : "?");
}

/* The start of the request's query text, up to its WHERE, on one line: what a reader recognises it by. */
static void name_query(const terms *t, store *wm, const agent_vocab *v, term_id request, buf *out) {
    term_id query = store_first_object(wm, request, v->arguments);
    term_id text = query ? store_first_object(wm, query, v->sp_text) : 0;
    const char *q = text && terms_kind(t, text) == TERM_LITERAL ? terms_lex(t, text, NULL) : "";
    const char *select = strstr(q, "SELECT");
    if (!select)
        select = strstr(q, "select");
    if (!select) {
        buf_puts(out, "its query");
        return;
    }
    size_t len = 0;
    while (select[len] && select[len] != '{' && len < 120)
        len++;
    while (len && (select[len - 1] == ' ' || select[len - 1] == '\n' || select[len - 1] == '\t'))
        len--;
    buf_putc(out, '`');
    for (size_t i = 0; i < len; i++)
        buf_putc(out, select[i] == '\n' || select[i] == '\t' ? ' ' : select[i]);
    buf_putc(out, '`');
}

/* `ctx gx:argumentsProblem [ gx:ofRequest request ; gx:why "what" ]`, the node named by its ordinal. */
static void problem(terms *t, const agent_vocab *v, store *wm, term_id ctx, term_id request, const char *what,
                    bool waits, size_t *ordinal) {
    char name[48];
    snprintf(name, sizeof name, "urn:ldgsm:problem:%zu", (*ordinal)++);
    term_id p = terms_iri_cstr(t, name), g = v->derived_graph;
    store_add(wm, ctx, v->arguments_problem, p, g);
    store_add(wm, p, v->of_request, request, g);
    store_add(wm, p, v->why, terms_string(t, what), g);
    if (waits) /* data not there yet (no solution), not a model that cannot work */
        store_add(wm, p, v->waits, T_TRUE, g);
}

/* The text of a literal the request gives for predicate p (0: it gives none); *graph is the graph its
 * triple came from. */
static term_id request_value(store *wm, term_id request, term_id p, term_id *graph) {
    term_id o = store_first_object(wm, request, p);
    if (o && graph) {
        uint32_t n = store_find(wm, request, p, o);
        *graph = n != UINT32_MAX ? store_first_graph(wm, n) : 0;
    }
    return o;
}

static void sha1_hex(const buf *text, char out[2 * SHA1_DIGEST_SIZE + 1]) {
    struct sha1_ctx ctx;
    uint8_t digest[SHA1_DIGEST_SIZE];
    sha1_init(&ctx);
    sha1_update(&ctx, text->len, (const uint8_t *)text->data);
    sha1_digest(&ctx, sizeof digest, digest);
    for (size_t i = 0; i < sizeof digest; i++)
        snprintf(out + 2 * i, 3, "%02x", digest[i]);
}

/* Fills the request's templates with one solution's bindings and asserts the evaluated request; a template
 * that cannot be filled is the context's problem. */
static bool evaluate(terms *t, const agent_vocab *v, store *wm, rdfio *io, term_id ctx, term_id request,
                     const template_binding *b, size_t n, size_t ordinal, size_t *problems) {
    char error[512];
    buf what = {0}, uri = {0}, block = {0}, body = {0}, value = {0}, hashed = {0};
    bool ok = false;
    term_id graph = 0, method = request_value(wm, request, v->mthd, NULL);
    term_id uri_term = request_value(wm, request, v->request_uri, &graph);
    const char *base = graph ? terms_lex(t, graph, NULL) : NULL;
    name_request(t, wm, v, request, &what);
    if (!method || terms_kind(t, method) != TERM_IRI || !uri_term) {
        buf_puts(&what, " has no http:mthd IRI or no http:requestURI");
        goto done;
    }
    if (terms_kind(t, uri_term) == TERM_LITERAL) {
        buf filled = {0};
        if (template_uri(t, terms_lex(t, uri_term, NULL), b, n, &filled, error, sizeof error) != 0) {
            buf_printf(&what, ": http:requestURI: %s", error);
            buf_free(&filled);
            goto done;
        }
        if (!base) {
            buf_append(&uri, filled.data, filled.len);
        } else {
            iri_resolve(base, strlen(base), filled.data ? filled.data : "", filled.len, &uri);
        }
        buf_free(&filled);
    } else if (terms_kind(t, uri_term) == TERM_IRI) {
        buf_puts(&uri, terms_lex(t, uri_term, NULL));
    } else {
        buf_puts(&what, ": http:requestURI is neither an IRI nor a URI template literal");
        goto done;
    }
    term_id headers = store_first_object(wm, request, v->headers);
    if (headers) {
        term_id list = rdf_list_read(t, wm, headers);
        if (!list) {
            buf_puts(&what, ": http:headers is not a list");
            goto done;
        }
        size_t count;
        const term_id *items = terms_list_items(t, list, &count);
        for (size_t i = 0; i < count; i++) {
            term_id name = store_first_object(wm, items[i], v->field_name);
            term_id field = store_first_object(wm, items[i], v->field_value);
            if (!name || !field || terms_kind(t, name) != TERM_LITERAL || terms_kind(t, field) != TERM_LITERAL) {
                buf_printf(&what, ": header %zu lacks a literal http:fieldName or http:fieldValue", i + 1);
                goto done;
            }
            value.len = 0;
            if (template_header(t, terms_lex(t, field, NULL), b, n, &value, error, sizeof error) != 0) {
                buf_printf(&what, ": header %s: %s", terms_lex(t, name, NULL), error);
                goto done;
            }
            buf_printf(&block, "%s: %.*s\n", terms_lex(t, name, NULL), (int)value.len, value.data ? value.data : "");
        }
    }
    term_id body_term = store_first_object(wm, request, v->body);
    if (body_term) {
        if (terms_kind(t, body_term) != TERM_LITERAL) {
            buf_puts(&what, ": with ldgsm:arguments, http:body must be a literal (an N3 template)");
            goto done;
        }
        if (template_body(t, io, terms_lex(t, body_term, NULL), buf_cstr(&uri), b, n, &body, error, sizeof error) !=
            0) {
            buf_printf(&what, ": http:body: %s", error);
            goto done;
        }
    }
    buf_printf(&hashed, "%s\n%s\n%.*s\n%.*s", terms_lex(t, method, NULL), buf_cstr(&uri), (int)block.len,
               block.data ? block.data : "", (int)body.len, body.data ? body.data : "");
    char hash[2 * SHA1_DIGEST_SIZE + 1];
    sha1_hex(&hashed, hash);
    char name[48];
    snprintf(name, sizeof name, "urn:ldgsm:evaluated:%zu", ordinal);
    term_id e = terms_iri_cstr(t, name), g = v->derived_graph;
    store_add(wm, ctx, v->evaluated, e, g);
    store_add(wm, e, v->of_request, request, g);
    store_add(wm, e, v->eval_method, method, g);
    store_add(wm, e, v->eval_uri, terms_iri(t, uri.data, uri.len), g);
    store_add(wm, e, v->eval_headers, terms_literal(t, block.data ? block.data : "", block.len, 0, NULL, 0), g);
    store_add(wm, e, v->eval_body, terms_literal(t, body.data ? body.data : "", body.len, 0, NULL, 0), g);
    store_add(wm, e, v->eval_hash, terms_string(t, hash), g);
    ok = true;
done:
    if (!ok)
        problem(t, v, wm, ctx, request, buf_cstr(&what), false, problems);
    buf_free(&what);
    buf_free(&uri);
    buf_free(&block);
    buf_free(&body);
    buf_free(&value);
    buf_free(&hashed);
    return ok;
}

size_t arguments_bind(argument_solutions *a, terms *t, const agent_vocab *v, store *wm, rdfio *io) {
    if (a->count > 1) {
        qsort(a->items, a->count, sizeof *a->items, solution_cmp);
        size_t kept = 1;
        for (size_t i = 1; i < a->count; i++)
            if (solution_cmp(&a->items[i], &a->items[kept - 1]) != 0)
                a->items[kept++] = a->items[i];
        a->count = kept;
    }
    size_t evaluated = 0, problems = 0;
    store_iter it;
    store_match(wm, 0, v->evaluates, 0, 0, store_size(wm), &it);
    /* the contexts are read first: asserting adds triples the iterator would see */
    triple *pairs = NULL;
    size_t pair_count = 0;
    uint32_t n;
    for (const triple *tr; (tr = store_next(&it, &n));) {
        pairs = xrealloc(pairs, (pair_count + 1) * sizeof *pairs);
        pairs[pair_count++] = *tr;
    }
    for (size_t i = 0; i < pair_count; i++) {
        term_id ctx = pairs[i].s, request = pairs[i].o;
        size_t count;
        const solution *first = solutions_of(a, ctx, request, &count);
        if (count == 1) {
            template_binding *b;
            size_t bound = bindings_of(t, first->head, &b);
            evaluated += evaluate(t, v, wm, io, ctx, request, b, bound, evaluated, &problems);
            free(b);
            continue;
        }
        buf what = {0};
        buf_puts(&what, "the arguments ");
        name_query(t, wm, v, request, &what);
        buf_puts(&what, " of ");
        name_request(t, wm, v, request, &what);
        if (count == 0)
            buf_puts(&what, " have no solution");
        else
            buf_printf(&what, " have %zu solutions; exactly one is needed", count);
        problem(t, v, wm, ctx, request, buf_cstr(&what), count == 0, &problems);
        buf_free(&what);
    }
    free(pairs);
    return evaluated;
}
