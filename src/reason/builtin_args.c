/* builtin_args.c: what every builtin family uses: reading list and string arguments, and emitting a
 * function's result as builtin_family.h describes. */
#include "reason/builtin_family.h"

#include <string.h>

#include "reason/numeric.h"
#include "reason/xsd_time.h"

bool list_of(const terms *t, term_id id, const term_id **items, size_t *n) {
    static const term_id no_items[1]; /* not NULL: memcpy and hashing may be handed it with n 0 */
    if (id == T_RDF_NIL) {
        *items = no_items;
        *n = 0;
        return true;
    }
    if (terms_kind(t, id) != TERM_LIST)
        return false;
    *items = terms_list_items(t, id, n);
    return true;
}

bool pair_of(const terms *t, term_id list, term_id *first, term_id *second) {
    const term_id *items;
    size_t n;
    if (!list || !list_of(t, list, &items, &n) || n != 2)
        return false;
    *first = items[0];
    *second = items[1];
    return true;
}

bool string_of(const terms *t, term_id id, const char **text, size_t *len) {
    if (terms_kind(t, id) != TERM_LITERAL)
        return false;
    *text = terms_lex(t, id, len);
    return true;
}

bool c_string_of(const terms *t, term_id id, const char **text, size_t *len) {
    return string_of(t, id, text, len) && strlen(*text) == *len;
}

term_id simple_literal(terms *t, const char *text, size_t len) {
    return terms_literal(t, text, len, 0, NULL, 0);
}

void emit_result(term_id subject, term_id object, term_id result, builtin_emit emit, void *user) {
    if (!object)
        emit(user, subject, result);
    else if (object == result)
        emit(user, subject, object);
}

void emit_number(terms *t, term_id subject, term_id object, const number *result, builtin_emit emit,
                 void *user) {
    number expected = {0};
    if (!object)
        emit(user, subject, number_to_term(t, result));
    else if (number_from_term(t, object, &expected) && number_compare(result, &expected) == NUMBER_EQUAL)
        emit(user, subject, object);
    number_clear(&expected);
}

void emit_time(terms *t, term_id subject, term_id object, const xsd_time *result, builtin_emit emit,
               void *user) {
    xsd_time expected;
    enum number_order order;
    if (!object)
        emit(user, subject, xsd_time_to_term(t, result));
    else if (xsd_time_from_term(t, object, &expected) && xsd_time_compare(result, &expected, &order) &&
             order == NUMBER_EQUAL)
        emit(user, subject, object);
}
