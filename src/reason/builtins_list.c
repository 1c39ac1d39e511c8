/* builtins_list.c: the list: builtins: those of the N3 builtins report (append, first, in, iterate, last,
 * length, member, memberAt, remove) and the ones EYE adds that N3 programs use (rest, firstRest, notMember,
 * removeAt, reverse, sort, removeDuplicates, unique, select, permutation, intersection, isList,
 * setEqualTo, setNotEqualTo, multisetEqualTo, multisetNotEqualTo). Not here: EYE's list:map, which calls
 * another predicate on each item.
 *
 * NOTES ON THE DESIGN
 *  1. A list argument is a list term or rdf:nil (the engine reads rdf:first/rdf:rest chains of the data as
 *     list terms). A computed empty list is the term the N3 reader makes of `()`; a bound list is compared
 *     by its items, so rdf:nil and () are the same list. Items are compared as terms (1 and 1.0 differ), as EYE unifies.
 *  2. Enumerations emit each solution and stop when emit says so. list:member and list:in emit each
 *     distinct item once; list:iterate and list:select one solution per position; list:permutation every
 *     ordering (n! of them, as EYE).
 *  3. list:append and list:memberAt take open subjects (builtins.h): with a bound object, list:append
 *     emits every cut of it into as many lists as the subject holds, a ground part taking its own items
 *     (`( (1 2) ?what )`, `( ?a ?b ?c ) list:append (1 2 3)`), and with a subject variable alone every cut
 *     in two; `( ?list ?index ) list:memberAt ?x` with ?index unbound enumerates the positions (of ?x,
 *     when bound).
 *  4. Indexes count from 0 and are integers (a simple literal with integer syntax too, as math: reads
 *     numbers); an index out of range or not an integer gives no solution (EYE stops with a type error on
 *     1.0).
 *  5. list:sort orders as EYE does (SWI-Prolog's standard order of EYE's terms), duplicates kept: numbers
 *     by value (an equal value: double, then decimal, then integer), the empty list, IRIs by their text,
 *     blank nodes by label, the booleans false and true, formulas (fewer triples first, then triple by
 *     triple), lists (item by item, a prefix first), then other literals by lexical form (codepoint
 *     order), a language-tagged one before a typed one with the same form. Ties are broken on datatype,
 *     tag and lexical form, so the order is total and the result does not depend on the input order.
 *     Where EYE differs: it sorts some numeric types (xsd:int, xsd:float, a decimal written without a
 *     point) as literals by lexical form, where they sort here by value, as math: reads them; and it sorts
 *     blank nodes as the IRIs it names them with. */
#define _GNU_SOURCE /* qsort_r */
#include "reason/builtin_family.h"

#include <stdlib.h>
#include <string.h>

#include "rdf/buf.h"
#include "rdf/hashmap.h"
#include "reason/numeric.h"

/* ---- shared ---- */

/* True when the list term or rdf:nil `list` has exactly these items (NOTES 1). */
static bool list_equals(const terms *t, term_id list, const term_id *items, size_t n) {
    const term_id *have;
    size_t have_n;
    return list_of(t, list, &have, &have_n) && have_n == n &&
           (n == 0 || memcmp(have, items, n * sizeof *items) == 0);
}

/* A function whose result is the list items[0..n): as emit_result, comparing a bound object by items. */
static void emit_list(terms *t, term_id subject, term_id object, const term_id *items, size_t n,
                      builtin_emit emit, void *user) {
    if (!object)
        emit(user, subject, terms_list(t, items, n));
    else if (list_equals(t, object, items, n))
        emit(user, subject, object);
}

static bool contains(const term_id *items, size_t n, term_id item) {
    for (size_t i = 0; i < n; i++)
        if (items[i] == item)
            return true;
    return false;
}

/* A list index (NOTES 4) below n. */
static bool index_of(const terms *t, term_id id, size_t n, size_t *index) {
    number value = {0};
    bool ok = number_from_term(t, id, &value) && value.kind == NUMBER_INTEGER && value.coeff >= 0 &&
              (uint64_t)value.coeff < n; /* a coefficient beyond 64 bits reads as INT64_MAX here */
    if (ok)
        *index = (size_t)value.coeff;
    number_clear(&value);
    return ok;
}

static term_id index_term(terms *t, size_t index) {
    number value = number_integer((int64_t)index);
    return number_to_term(t, &value);
}

/* The list and the index of a (list index) subject. */
static bool list_and_index(const terms *t, term_id subject, const term_id **items, size_t *n, size_t *index) {
    term_id list, position;
    return pair_of(t, subject, &list, &position) && list_of(t, list, items, n) && index_of(t, position, *n, index);
}

/* ---- membership ---- */

/* The membership relation between a list and its items, from the list's side: with the item bound a
 * test, else each distinct item once. list_is_subject says which side of the builtin the list is on. */
static void list_membership(terms *t, term_id subject, term_id object, bool list_is_subject, builtin_emit emit,
                            void *user) {
    term_id list = list_is_subject ? subject : object, item = list_is_subject ? object : subject;
    const term_id *items;
    size_t n;
    if (!list || !list_of(t, list, &items, &n))
        return;
    if (item) {
        if (contains(items, n, item))
            list_is_subject ? emit(user, list, item) : emit(user, item, list);
        return;
    }
    u64map seen = {0};
    for (size_t i = 0; i < n; i++) {
        bool first_time;
        u64map_put(&seen, items[i], 0, &first_time);
        if (first_time && !(list_is_subject ? emit(user, list, items[i]) : emit(user, items[i], list)))
            break;
    }
    u64map_free(&seen);
}

BUILTIN_VARIANT(list_member, list_membership, true)
BUILTIN_VARIANT(list_in, list_membership, false)

static void list_not_member(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    const term_id *items;
    size_t n;
    if (subject && object && list_of(t, subject, &items, &n) && !contains(items, n, object))
        emit(user, subject, object);
}

/* ---- positions ---- */

/* list:first and list:last: the item at one end of a non-empty list. */
static void list_end(terms *t, term_id subject, term_id object, bool last, builtin_emit emit, void *user) {
    const term_id *items;
    size_t n;
    if (subject && list_of(t, subject, &items, &n) && n > 0)
        emit_result(subject, object, items[last ? n - 1 : 0], emit, user);
}

BUILTIN_VARIANT(list_first, list_end, false)
BUILTIN_VARIANT(list_last, list_end, true)

/* A non-empty list without its first item. */
static void list_rest(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    const term_id *items;
    size_t n;
    if (subject && list_of(t, subject, &items, &n) && n > 0)
        emit_list(t, subject, object, items + 1, n - 1, emit, user);
}

/* list ↔ ( first rest ): taken apart from the subject, or built from the object. */
static void list_first_rest(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    const term_id *items;
    size_t n;
    if (subject) {
        if (!list_of(t, subject, &items, &n) || n == 0)
            return;
        term_id parts[2] = {items[0], terms_list(t, items + 1, n - 1)};
        term_id pair = terms_list(t, parts, 2);
        if (!object || object == pair)
            emit(user, subject, pair);
        else if (pair_of(t, object, &parts[0], &parts[1]) && parts[0] == items[0] &&
                 list_equals(t, parts[1], items + 1, n - 1))
            emit(user, subject, object);
        return;
    }
    term_id first, rest;
    if (!pair_of(t, object, &first, &rest) || !list_of(t, rest, &items, &n))
        return;
    term_id *whole = xmalloc((n + 1) * sizeof *whole);
    whole[0] = first;
    memcpy(whole + 1, items, n * sizeof *items);
    emit(user, terms_list(t, whole, n + 1), object);
    free(whole);
}

static void list_length(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    const term_id *items;
    size_t n;
    if (!subject)
        return;
    if (terms_kind(t, subject) == TERM_FORMULA) /* EYE: a formula's length is its number of triples */
        terms_formula_triples(t, subject, &n);
    else if (!list_of(t, subject, &items, &n))
        return;
    number length = number_integer((int64_t)n);
    emit_number(t, subject, object, &length, emit, user);
}

/* list ↔ ( index item ) for each position: a test when the object is bound, else every pair (the engine
 * matches a partly bound pattern such as ( ?i "cat" ) against them). */
static void list_iterate(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    const term_id *items;
    size_t n, index;
    if (!subject || !list_of(t, subject, &items, &n))
        return;
    if (object) {
        term_id position, item;
        if (pair_of(t, object, &position, &item) && index_of(t, position, n, &index) && items[index] == item)
            emit(user, subject, object);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        term_id pair[2] = {index_term(t, i), items[i]};
        if (!emit(user, subject, terms_list(t, pair, 2)))
            return;
    }
}

/* ( list index ) → the item at index; with the index an unbound variable (an open subject), each
 * ( list index ) whose item is the object, or every one when the object is unbound. */
static void list_member_at(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    const term_id *items;
    size_t n, index;
    term_id list, position;
    if (pair_of(t, subject, &list, &position) && terms_kind(t, position) == TERM_VAR && list_of(t, list, &items, &n)) {
        for (size_t i = 0; i < n; i++) {
            term_id pair[2] = {list, index_term(t, i)};
            if ((!object || items[i] == object) && !emit(user, terms_list(t, pair, 2), items[i]))
                return;
        }
        return;
    }
    if (list_and_index(t, subject, &items, &n, &index))
        emit_result(subject, object, items[index], emit, user);
}

/* ---- lists made from lists ---- */

/* ( list ... ) → their concatenation; with the subject unbound and the object bound, each split of the
 * object into ( prefix suffix ) (NOTES 3). */
/* The cuts of items[0..n) into as many consecutive lists as parts[0..k) holds, in order, a ground part
 * taking exactly its own items: chosen[part] is set for the parts before `part`, `at` items are used.
 * Each cut is emitted as its list of lists; false when emit said stop. */
static bool emit_cuts(terms *t, const term_id *parts, size_t k, const term_id *items, size_t n, size_t part,
                      size_t at, term_id *chosen, term_id object, builtin_emit emit, void *user) {
    if (part == k)
        return at < n || emit(user, terms_list(t, chosen, k), object);
    const term_id *own;
    size_t own_n;
    if (terms_is_ground(t, parts[part]) && list_of(t, parts[part], &own, &own_n)) {
        if (own_n > n - at || (own_n && memcmp(own, items + at, own_n * sizeof *own) != 0))
            return true;
        chosen[part] = parts[part];
        return emit_cuts(t, parts, k, items, n, part + 1, at + own_n, chosen, object, emit, user);
    }
    /* an open part takes any number of the items left (the last one all of them) */
    for (size_t len = part + 1 == k ? n - at : 0; at + len <= n; len++) {
        chosen[part] = terms_list(t, items + at, len);
        if (!emit_cuts(t, parts, k, items, n, part + 1, at + len, chosen, object, emit, user))
            return false;
    }
    return true;
}

static void list_append(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    const term_id *lists, *items;
    size_t count, n;
    if (subject && object && !terms_is_ground(t, subject) && list_of(t, subject, &lists, &count) &&
        list_of(t, object, &items, &n)) {
        term_id *chosen = xmalloc((count ? count : 1) * sizeof *chosen);
        emit_cuts(t, lists, count, items, n, 0, 0, chosen, object, emit, user);
        free(chosen);
        return;
    }
    if (!subject) {
        if (!list_of(t, object, &items, &n))
            return;
        for (size_t cut = 0; cut <= n; cut++) {
            term_id parts[2] = {terms_list(t, items, cut), terms_list(t, items + cut, n - cut)};
            if (!emit(user, terms_list(t, parts, 2), object))
                return;
        }
        return;
    }
    if (!list_of(t, subject, &lists, &count))
        return;
    size_t total = 0;
    for (size_t i = 0; i < count; i++) {
        if (!list_of(t, lists[i], &items, &n))
            return;
        total += n;
    }
    term_id *joined = xmalloc((total ? total : 1) * sizeof *joined);
    size_t at = 0;
    for (size_t i = 0; i < count; i++) {
        list_of(t, lists[i], &items, &n);
        memcpy(joined + at, items, n * sizeof *items);
        at += n;
    }
    emit_list(t, subject, object, joined, total, emit, user);
    free(joined);
}

/* A function whose result is the items of items[0..n) that are (keep_members) or are not among
 * members[0..m), in their order. */
static void emit_filtered(terms *t, term_id subject, term_id object, const term_id *items, size_t n,
                          const term_id *members, size_t m, bool keep_members, builtin_emit emit, void *user) {
    term_id *kept = xmalloc((n ? n : 1) * sizeof *kept);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (contains(members, m, items[i]) == keep_members)
            kept[k++] = items[i];
    emit_list(t, subject, object, kept, k, emit, user);
    free(kept);
}

/* ( list item ) → the list without any occurrence of item. */
static void list_remove(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    const term_id *items;
    size_t n;
    term_id list, item;
    if (pair_of(t, subject, &list, &item) && list_of(t, list, &items, &n))
        emit_filtered(t, subject, object, items, n, &item, 1, false, emit, user);
}

/* ( a b ) → the items of a that are in b, in a's order, repeats kept (EYE's list:intersection). */
static void list_intersection(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    term_id first, second;
    const term_id *a, *b;
    size_t a_n, b_n;
    if (pair_of(t, subject, &first, &second) && list_of(t, first, &a, &a_n) && list_of(t, second, &b, &b_n))
        emit_filtered(t, subject, object, a, a_n, b, b_n, true, emit, user);
}

/* ( list index ) → the list without the item at index. */
static void list_remove_at(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    const term_id *items;
    size_t n, index;
    if (!list_and_index(t, subject, &items, &n, &index))
        return;
    term_id *rest = xmalloc(n * sizeof *rest);
    memcpy(rest, items, index * sizeof *items);
    memcpy(rest + index, items + index + 1, (n - 1 - index) * sizeof *items);
    emit_list(t, subject, object, rest, n - 1, emit, user);
    free(rest);
}

/* The list with each item's repeats after its first occurrence dropped (list:removeDuplicates and
 * list:unique, one relation under two names in EYE). */
static void list_remove_duplicates(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    const term_id *items;
    size_t n;
    if (!subject || !list_of(t, subject, &items, &n))
        return;
    term_id *kept = xmalloc((n ? n : 1) * sizeof *kept);
    size_t k = 0;
    u64map seen = {0};
    for (size_t i = 0; i < n; i++) {
        bool first_time;
        u64map_put(&seen, items[i], 0, &first_time);
        if (first_time)
            kept[k++] = items[i];
    }
    u64map_free(&seen);
    emit_list(t, subject, object, kept, k, emit, user);
    free(kept);
}

static void list_reverse(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    const term_id *items;
    size_t n;
    if (!subject || !list_of(t, subject, &items, &n))
        return;
    term_id *reversed = xmalloc((n ? n : 1) * sizeof *reversed);
    for (size_t i = 0; i < n; i++)
        reversed[i] = items[n - 1 - i];
    emit_list(t, subject, object, reversed, n, emit, user);
    free(reversed);
}

/* list → ( item rest ) for each position: the item taken out and the list without it. */
static void list_select(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    const term_id *items;
    size_t n;
    if (!subject || !list_of(t, subject, &items, &n) || n == 0)
        return;
    term_id *rest = xmalloc(n * sizeof *rest);
    for (size_t i = 0; i < n; i++) {
        memcpy(rest, items, i * sizeof *items);
        memcpy(rest + i, items + i + 1, (n - 1 - i) * sizeof *items);
        term_id pair[2] = {items[i], terms_list(t, rest, n - 1)};
        term_id solution = terms_list(t, pair, 2);
        if (object == solution) {
            emit(user, subject, object);
            break;
        }
        if (!object && !emit(user, subject, solution))
            break;
    }
    free(rest);
}

/* "true" or "false": whether the subject is a list. */
static void list_is_list(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    const term_id *items;
    size_t n;
    if (subject)
        emit_result(subject, object, list_of(t, subject, &items, &n) ? T_TRUE : T_FALSE, emit, user);
}

/* ---- order (NOTES 5) ---- */

enum order_class {
    ORDER_NUMBER,
    ORDER_EMPTY_LIST,
    ORDER_IRI,
    ORDER_BNODE,
    ORDER_BOOLEAN,
    ORDER_FORMULA,
    ORDER_LIST,
    ORDER_LITERAL
};

static enum order_class order_class_of(const terms *t, term_id id, number *value) {
    const term_id *items;
    size_t n;
    if (list_of(t, id, &items, &n))
        return n == 0 ? ORDER_EMPTY_LIST : ORDER_LIST;
    switch (terms_kind(t, id)) {
    case TERM_IRI: return ORDER_IRI;
    case TERM_BNODE:
    case TERM_VAR: return ORDER_BNODE;
    case TERM_FORMULA: return ORDER_FORMULA;
    default: break;
    }
    if (id == T_TRUE || id == T_FALSE)
        return ORDER_BOOLEAN;
    term_id datatype = terms_datatype(t, id);
    /* a simple literal with number syntax is a string here */
    if (datatype && datatype != T_RDF_LANGSTRING && number_from_term(t, id, value))
        return ORDER_NUMBER;
    return ORDER_LITERAL;
}

static int compare_bytes(const char *a, size_t a_len, const char *b, size_t b_len) {
    int order = memcmp(a, b, a_len < b_len ? a_len : b_len);
    if (order != 0)
        return order;
    return (a_len > b_len) - (a_len < b_len);
}

static int compare_lex(const terms *t, term_id a, term_id b) {
    size_t a_len, b_len;
    const char *a_text = terms_lex(t, a, &a_len), *b_text = terms_lex(t, b, &b_len);
    return compare_bytes(a_text, a_len, b_text, b_len);
}

/* A language-tagged literal first, then by tag, then by datatype IRI. */
static int compare_literal_tail(const terms *t, term_id a, term_id b) {
    const char *a_lang = terms_lang(t, a), *b_lang = terms_lang(t, b);
    if (a_lang || b_lang) {
        if (!a_lang || !b_lang)
            return a_lang ? -1 : 1;
        return strcmp(a_lang, b_lang);
    }
    term_id a_type = terms_datatype(t, a), b_type = terms_datatype(t, b);
    if (a_type == b_type)
        return 0;
    if (!a_type || !b_type)
        return a_type ? 1 : -1;
    return compare_lex(t, a_type, b_type);
}

static int term_order(const terms *t, term_id a, term_id b);

static int compare_items(const terms *t, const term_id *a, size_t a_n, const term_id *b, size_t b_n) {
    for (size_t i = 0; i < a_n && i < b_n; i++) {
        int order = term_order(t, a[i], b[i]);
        if (order != 0)
            return order;
    }
    return (a_n > b_n) - (a_n < b_n);
}

static int compare_numbers(const terms *t, term_id a, const number *a_value, term_id b, const number *b_value) {
    switch (number_compare(a_value, b_value)) {
    case NUMBER_LESS: return -1;
    case NUMBER_GREATER: return 1;
    case NUMBER_UNORDERED: { /* a NaN first */
        bool a_nan = a_value->kind == NUMBER_DOUBLE && a_value->real != a_value->real;
        bool b_nan = b_value->kind == NUMBER_DOUBLE && b_value->real != b_value->real;
        if (a_nan != b_nan)
            return a_nan ? -1 : 1;
        break;
    }
    case NUMBER_EQUAL: break;
    }
    if (a_value->kind != b_value->kind) /* double, decimal, integer: enum order reversed */
        return a_value->kind > b_value->kind ? -1 : 1;
    int order = compare_literal_tail(t, a, b);
    return order != 0 ? order : compare_lex(t, a, b);
}

/* The order of two terms of one class; a number's value was read by order_class_of. */
static int compare_in_class(const terms *t, enum order_class class, term_id a, const number *a_value, term_id b,
                            const number *b_value) {
    switch (class) {
    case ORDER_NUMBER: return compare_numbers(t, a, a_value, b, b_value);
    case ORDER_FORMULA: {
        size_t a_n, b_n;
        const triple *a_ts = terms_formula_triples(t, a, &a_n), *b_ts = terms_formula_triples(t, b, &b_n);
        if (a_n != b_n)
            return a_n < b_n ? -1 : 1;
        return compare_items(t, (const term_id *)a_ts, a_n * 3, (const term_id *)b_ts, b_n * 3);
    }
    case ORDER_LIST: {
        const term_id *a_items, *b_items;
        size_t a_n, b_n;
        list_of(t, a, &a_items, &a_n);
        list_of(t, b, &b_items, &b_n);
        return compare_items(t, a_items, a_n, b_items, b_n);
    }
    case ORDER_EMPTY_LIST: return 0; /* rdf:nil and () */
    case ORDER_LITERAL:
    case ORDER_BOOLEAN: {
        int order = compare_lex(t, a, b);
        return order != 0 ? order : compare_literal_tail(t, a, b);
    }
    default: return compare_lex(t, a, b);
    }
}

/* <0, 0 or >0 as a sorts before, with or after b; 0 only for the same term (or rdf:nil and ()). */
static int term_order(const terms *t, term_id a, term_id b) {
    if (a == b)
        return 0;
    number a_value = {0}, b_value = {0};
    enum order_class a_class = order_class_of(t, a, &a_value), b_class = order_class_of(t, b, &b_value);
    int order = a_class != b_class ? (a_class < b_class ? -1 : 1)
                                   : compare_in_class(t, a_class, a, &a_value, b, &b_value);
    number_clear(&a_value);
    number_clear(&b_value);
    return order;
}

static int sort_compare(const void *a, const void *b, void *t) {
    return term_order(t, *(const term_id *)a, *(const term_id *)b);
}

static void list_sort(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    const term_id *items;
    size_t n;
    if (!subject || !list_of(t, subject, &items, &n))
        return;
    term_id *sorted = xmalloc((n ? n : 1) * sizeof *sorted);
    if (n)
        memcpy(sorted, items, n * sizeof *items);
    qsort_r(sorted, n, sizeof *sorted, sort_compare, t);
    emit_list(t, subject, object, sorted, n, emit, user);
    free(sorted);
}

/* ---- set and multiset equality ---- */

static int id_compare(const void *a, const void *b) {
    term_id x = *(const term_id *)a, y = *(const term_id *)b;
    return (x > y) - (x < y);
}

/* The items of a list, sorted by id and, with distinct, without repeats; false when not a list. */
static bool canonical_items(const terms *t, term_id list, bool distinct, term_id **out, size_t *out_n) {
    const term_id *items;
    size_t n;
    if (!list || !list_of(t, list, &items, &n))
        return false;
    term_id *copy = xmalloc((n ? n : 1) * sizeof *copy);
    if (n)
        memcpy(copy, items, n * sizeof *items);
    qsort(copy, n, sizeof *copy, id_compare);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!distinct || k == 0 || copy[k - 1] != copy[i])
            copy[k++] = copy[i];
    *out = copy;
    *out_n = k;
    return true;
}

/* Whether two lists have the same items (as sets, or with their repeats as multisets) is `want`. */
static void list_collection_test(terms *t, term_id subject, term_id object, bool distinct, bool want,
                                 builtin_emit emit, void *user) {
    term_id *a = NULL, *b = NULL;
    size_t a_n, b_n;
    if (canonical_items(t, subject, distinct, &a, &a_n) && canonical_items(t, object, distinct, &b, &b_n)) {
        bool equal = a_n == b_n && (a_n == 0 || memcmp(a, b, a_n * sizeof *a) == 0);
        if (equal == want)
            emit(user, subject, object);
    }
    free(a);
    free(b);
}

BUILTIN_VARIANT(list_set_equal_to, list_collection_test, true, true)
BUILTIN_VARIANT(list_set_not_equal_to, list_collection_test, true, false)
BUILTIN_VARIANT(list_multiset_equal_to, list_collection_test, false, true)
BUILTIN_VARIANT(list_multiset_not_equal_to, list_collection_test, false, false)

/* ---- permutations ---- */

/* Rearranges order[0..n) into the next permutation in lexicographic order; false after the last. */
static bool next_permutation(size_t *order, size_t n) {
    size_t i = n > 1 ? n - 1 : 0;
    while (i > 0 && order[i - 1] >= order[i])
        i--;
    if (i == 0)
        return false;
    size_t j = n - 1;
    while (order[j] <= order[i - 1])
        j--;
    size_t swap = order[i - 1];
    order[i - 1] = order[j];
    order[j] = swap;
    for (size_t lo = i, hi = n - 1; lo < hi; lo++, hi--) {
        swap = order[lo];
        order[lo] = order[hi];
        order[hi] = swap;
    }
    return true;
}

/* list → each ordering of its items, positions permuted in lexicographic order as Prolog's permutation/2
 * does (a list of n items has n! of them: they are enumerated until emit stops, as EYE does); with the
 * object bound, whether it holds the same items. */
static void list_permutation(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    const term_id *items;
    size_t n;
    if (!subject || !list_of(t, subject, &items, &n))
        return;
    if (object) {
        list_multiset_equal_to(t, subject, object, emit, user);
        return;
    }
    size_t *order = xmalloc((n ? n : 1) * sizeof *order);
    term_id *permuted = xmalloc((n ? n : 1) * sizeof *permuted);
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    do {
        for (size_t i = 0; i < n; i++)
            permuted[i] = items[order[i]];
    } while (emit(user, subject, terms_list(t, permuted, n)) && next_permutation(order, n));
    free(permuted);
    free(order);
}

const builtin builtins_list[] = {
    {NS_LIST "append", BUILTIN_EITHER_IN, list_append, true},
    {NS_LIST "first", BUILTIN_SUBJECT_IN, list_first, false},
    {NS_LIST "firstRest", BUILTIN_EITHER_IN, list_first_rest, false},
    {NS_LIST "in", BUILTIN_OBJECT_IN, list_in, false},
    {NS_LIST "intersection", BUILTIN_SUBJECT_IN, list_intersection, false},
    {NS_LIST "isList", BUILTIN_SUBJECT_IN, list_is_list, false},
    {NS_LIST "iterate", BUILTIN_SUBJECT_IN, list_iterate, false},
    {NS_LIST "last", BUILTIN_SUBJECT_IN, list_last, false},
    {NS_LIST "length", BUILTIN_SUBJECT_IN, list_length, false},
    {NS_LIST "member", BUILTIN_SUBJECT_IN, list_member, false},
    {NS_LIST "memberAt", BUILTIN_SUBJECT_IN, list_member_at, true},
    {NS_LIST "multisetEqualTo", BUILTIN_BOTH_IN, list_multiset_equal_to, false},
    {NS_LIST "multisetNotEqualTo", BUILTIN_BOTH_IN, list_multiset_not_equal_to, false},
    {NS_LIST "notMember", BUILTIN_BOTH_IN, list_not_member, false},
    {NS_LIST "permutation", BUILTIN_SUBJECT_IN, list_permutation, false},
    {NS_LIST "remove", BUILTIN_SUBJECT_IN, list_remove, false},
    {NS_LIST "removeAt", BUILTIN_SUBJECT_IN, list_remove_at, false},
    {NS_LIST "removeDuplicates", BUILTIN_SUBJECT_IN, list_remove_duplicates, false},
    {NS_LIST "rest", BUILTIN_SUBJECT_IN, list_rest, false},
    {NS_LIST "reverse", BUILTIN_SUBJECT_IN, list_reverse, false},
    {NS_LIST "select", BUILTIN_SUBJECT_IN, list_select, false},
    {NS_LIST "setEqualTo", BUILTIN_BOTH_IN, list_set_equal_to, false},
    {NS_LIST "setNotEqualTo", BUILTIN_BOTH_IN, list_set_not_equal_to, false},
    {NS_LIST "sort", BUILTIN_SUBJECT_IN, list_sort, false},
    {NS_LIST "unique", BUILTIN_SUBJECT_IN, list_remove_duplicates, false},
};
const size_t builtins_list_count = sizeof builtins_list / sizeof builtins_list[0];
