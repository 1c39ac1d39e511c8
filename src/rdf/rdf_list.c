/* rdf_list.c: reading an rdf:first/rdf:rest chain from a store as a list term (rdf_list.h). */
#include "rdf/rdf_list.h"

#include <stdlib.h>

#include "rdf/buf.h"
#include "rdf/nesting.h"

/* The object of the only (node, p) triple; 0 when there is none or more than one. */
static term_id only_object(store *st, term_id node, term_id p) {
    store_iter it;
    store_match(st, node, p, 0, 0, store_size(st), &it);
    uint32_t n;
    const triple *first = store_next(&it, &n);
    if (!first)
        return 0;
    term_id o = first->o;
    return store_next(&it, &n) ? 0 : o;
}

static term_id read_list(terms *t, store *st, term_id node, unsigned depth) {
    if (node == T_RDF_NIL)
        return terms_list(t, NULL, 0);
    enum term_kind kind = terms_kind(t, node);
    if ((kind != TERM_IRI && kind != TERM_BNODE) || depth > MAX_NESTING)
        return 0;
    term_id *items = NULL;
    size_t count = 0, cap = 0;
    /* Floyd's cycle check: `slow` advances every other step, so a cycle makes `node` meet it */
    term_id slow = node;
    term_id result = 0;
    for (size_t step = 0;; step++) {
        if (node == T_RDF_NIL) {
            result = terms_list(t, items, count);
            break;
        }
        term_id item = only_object(st, node, T_RDF_FIRST), rest = item ? only_object(st, node, T_RDF_REST) : 0;
        if (!rest)
            break;
        enum term_kind rest_kind = terms_kind(t, rest);
        if (rest != T_RDF_NIL && rest_kind != TERM_IRI && rest_kind != TERM_BNODE)
            break;
        term_id nested = item != T_RDF_NIL && only_object(st, item, T_RDF_FIRST) ? read_list(t, st, item, depth + 1) : 0;
        if (count == cap) {
            cap = cap ? cap * 2 : 8;
            items = xrealloc(items, cap * sizeof *items);
        }
        items[count++] = nested ? nested : item;
        node = rest;
        if (step % 2 == 1)
            slow = only_object(st, slow, T_RDF_REST);
        if (node == slow)
            break;
    }
    free(items);
    return result;
}

term_id rdf_list_read(terms *t, store *st, term_id node) { return read_list(t, st, node, 0); }
