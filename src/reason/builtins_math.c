/* builtins_math.c: the math: builtins: numeric comparisons and functions (numeric.h has the number
 * types), and the same relations over dateTimes and durations.
 *
 * NOTES ON THE DESIGN
 *  1. The math: comparisons and math:sum, difference, product and quotient take xsd:dateTime and the
 *     duration types as well as numbers (xsd_time.h: values, range, order, arithmetic, output forms):
 *     two dateTimes or two durations compare; (dateTime duration...) and (duration duration...) math:sum;
 *     (dateTime dateTime), (dateTime duration), (duration duration) math:difference; (duration number)
 *     and (number duration) math:product; (duration number) and (duration duration) math:quotient. A
 *     list mixing numbers with times, or a malformed time, has no solution. A computed time equals a
 *     bound object when their values are equal (the same instant in another timezone). */
#include "reason/builtin_family.h"

#include <stdlib.h>

#include "reason/numeric.h"
#include "reason/xsd_time.h"

#define ORDERS(a, b, c) ((1u << (a)) | (1u << (b)) | (1u << (c)))
#define ORDER(a) (1u << (a))

/* A comparison of two numbers or two times holding when the order of subject to object is one of
 * `accepted` (a bit set of enum number_order). NaN, and durations of different kinds, are unordered:
 * only math:notEqualTo holds for them. */
static void math_compare(terms *t, term_id subject, term_id object, unsigned accepted, builtin_emit emit,
                         void *user) {
    number a, b;
    xsd_time x, y;
    enum number_order order;
    if (!subject || !object)
        return;
    if (number_from_term(t, subject, &a) && number_from_term(t, object, &b))
        order = number_compare(&a, &b);
    else if (!xsd_time_from_term(t, subject, &x) || !xsd_time_from_term(t, object, &y) ||
             !xsd_time_compare(&x, &y, &order))
        return;
    if (accepted & ORDER(order))
        emit(user, subject, object);
}

static void math_equal_to(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    math_compare(t, subject, object, ORDER(NUMBER_EQUAL), emit, user);
}

static void math_not_equal_to(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    math_compare(t, subject, object, ORDERS(NUMBER_LESS, NUMBER_GREATER, NUMBER_UNORDERED), emit, user);
}

static void math_greater_than(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    math_compare(t, subject, object, ORDER(NUMBER_GREATER), emit, user);
}

static void math_less_than(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    math_compare(t, subject, object, ORDER(NUMBER_LESS), emit, user);
}

static void math_not_greater_than(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    math_compare(t, subject, object, ORDER(NUMBER_LESS) | ORDER(NUMBER_EQUAL), emit, user);
}

static void math_not_less_than(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    math_compare(t, subject, object, ORDER(NUMBER_GREATER) | ORDER(NUMBER_EQUAL), emit, user);
}

typedef bool number_op(const number *a, const number *b, number *out);

/* op folded left over a list of numbers of any length, starting from `identity`. */
static void math_fold(terms *t, term_id subject, term_id object, int64_t identity, number_op *op,
                      builtin_emit emit, void *user) {
    const term_id *items;
    size_t n;
    if (!subject || !list_of(t, subject, &items, &n))
        return;
    number acc = number_integer(identity);
    for (size_t i = 0; i < n; i++) {
        number item, next;
        if (!number_from_term(t, items[i], &item) || !op(&acc, &item, &next))
            return;
        acc = next;
    }
    emit_number(t, subject, object, &acc, emit, user);
}

/* op on a two-number list. */
static void math_binary(terms *t, term_id subject, term_id object, number_op *op, builtin_emit emit, void *user) {
    const term_id *items;
    size_t n;
    number a, b, result;
    if (subject && list_of(t, subject, &items, &n) && n == 2 && number_from_term(t, items[0], &a) &&
        number_from_term(t, items[1], &b) && op(&a, &b, &result))
        emit_number(t, subject, object, &result, emit, user);
}

typedef bool time_op(const xsd_time *a, const xsd_time *b, xsd_time *out);

/* op folded left over a non-empty list of times (an empty list is math_fold's). */
static void time_fold(terms *t, term_id subject, term_id object, time_op *op, builtin_emit emit, void *user) {
    const term_id *items;
    size_t n;
    xsd_time acc;
    if (!subject || !list_of(t, subject, &items, &n) || n == 0 || !xsd_time_from_term(t, items[0], &acc))
        return;
    for (size_t i = 1; i < n; i++) {
        xsd_time item;
        if (!xsd_time_from_term(t, items[i], &item) || !op(&acc, &item, &acc))
            return;
    }
    emit_time(t, subject, object, &acc, emit, user);
}

/* The two items of a two-item list. */
static bool pair_of(const terms *t, term_id subject, term_id *first, term_id *second) {
    const term_id *items;
    size_t n;
    if (!subject || !list_of(t, subject, &items, &n) || n != 2)
        return false;
    *first = items[0];
    *second = items[1];
    return true;
}

/* (duration number) scaled, or with `either_order` also (number duration). */
static void time_scale(terms *t, term_id subject, term_id object, bool divide, bool either_order,
                       builtin_emit emit, void *user) {
    term_id first, second;
    xsd_time duration, result;
    number factor;
    if (!pair_of(t, subject, &first, &second))
        return;
    bool found = xsd_time_from_term(t, first, &duration) && number_from_term(t, second, &factor);
    if (!found && either_order)
        found = number_from_term(t, first, &factor) && xsd_time_from_term(t, second, &duration);
    if (found && xsd_duration_scale(&duration, &factor, divide, &result))
        emit_time(t, subject, object, &result, emit, user);
}

/* The number and the time versions each reject the other's values, so at most one of them emits. */
static void math_sum(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    math_fold(t, subject, object, 0, number_add, emit, user);
    time_fold(t, subject, object, xsd_time_add, emit, user);
}

static void math_product(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    math_fold(t, subject, object, 1, number_multiply, emit, user);
    time_scale(t, subject, object, false, true, emit, user);
}

static void math_difference(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    const term_id *items;
    size_t n;
    math_binary(t, subject, object, number_subtract, emit, user);
    if (subject && list_of(t, subject, &items, &n) && n == 2)
        time_fold(t, subject, object, xsd_time_subtract, emit, user);
}

/* (duration duration) math:quotient is the ratio of two durations of one kind. */
static void math_quotient(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    term_id first, second;
    xsd_time a, b;
    number ratio;
    math_binary(t, subject, object, number_divide, emit, user);
    time_scale(t, subject, object, true, false, emit, user);
    if (pair_of(t, subject, &first, &second) && xsd_time_from_term(t, first, &a) &&
        xsd_time_from_term(t, second, &b) && xsd_duration_ratio(&a, &b, &ratio))
        emit_number(t, subject, object, &ratio, emit, user);
}

static void math_exponentiation(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    math_binary(t, subject, object, number_power, emit, user);
}

static void math_sqrt(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    number a, result;
    if (subject && number_from_term(t, subject, &a) && number_sqrt(&a, &result))
        emit_number(t, subject, object, &result, emit, user);
}

const builtin builtins_math[] = {
    {NS_MATH "equalTo", BUILTIN_BOTH_IN, math_equal_to},
    {NS_MATH "notEqualTo", BUILTIN_BOTH_IN, math_not_equal_to},
    {NS_MATH "greaterThan", BUILTIN_BOTH_IN, math_greater_than},
    {NS_MATH "lessThan", BUILTIN_BOTH_IN, math_less_than},
    {NS_MATH "notGreaterThan", BUILTIN_BOTH_IN, math_not_greater_than},
    {NS_MATH "notLessThan", BUILTIN_BOTH_IN, math_not_less_than},
    {NS_MATH "sum", BUILTIN_SUBJECT_IN, math_sum},
    {NS_MATH "product", BUILTIN_SUBJECT_IN, math_product},
    {NS_MATH "difference", BUILTIN_SUBJECT_IN, math_difference},
    {NS_MATH "quotient", BUILTIN_SUBJECT_IN, math_quotient},
    {NS_MATH "exponentiation", BUILTIN_SUBJECT_IN, math_exponentiation},
    {NS_MATH "sqrt", BUILTIN_SUBJECT_IN, math_sqrt},
};
const size_t builtins_math_count = sizeof builtins_math / sizeof builtins_math[0];
