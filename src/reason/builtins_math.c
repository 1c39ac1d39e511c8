/* builtins_math.c: the math: builtins of the N3 builtins report (numeric comparisons and functions;
 * numeric.h has the number types), EYE's further ones (integerQuotient, floor, ceiling, logarithm,
 * min, max, atan2, the inverse hyperbolic functions, radians), math:sqrt (which EYE lacks), and the
 * same relations over dateTimes and durations.
 *
 * NOTES ON THE DESIGN
 *  1. The math: comparisons and math:sum, difference, product and quotient take xsd:dateTime and the
 *     duration types as well as numbers (xsd_time.h: values, range, order, arithmetic, output forms):
 *     two dateTimes or two durations compare; (dateTime duration...) and (duration duration...) math:sum;
 *     (dateTime dateTime), (dateTime duration), (duration duration) math:difference; (duration number)
 *     and (number duration) math:product; (duration number) and (duration duration) math:quotient. A
 *     list mixing numbers with times, or a malformed time, has no solution. A computed time equals a
 *     bound object when their values are equal (the same instant in another timezone).
 *  2. Results keep XPath's kinds (numeric.h NOTES 1) with one exception, as EYE and the report's example
 *     have it: math:quotient of two integers that divide exactly is an integer ((6 3) gives 2, not 2.0);
 *     (7 2) gives the decimal 3.5, (1 3) the decimal 0.333333333333333333 (EYE: the double 1/3).
 *  3. As in cwm and EYE, math:integerQuotient is floor(a / b) and math:remainder a - b * floor(a / b),
 *     of b's sign: (-7 2) gives -4 and 1, (7 -2) -4 and -1. math:remainder takes integers only, as the
 *     report says (EYE also takes decimals: (7.5 2) gives 1.5 there, nothing here); integerQuotient takes
 *     any numbers, as EYE does. math:rounded, floor and ceiling give an xsd:integer; math:rounded takes
 *     a half toward positive infinity (-2.5 gives -2), as the report says. A division by zero has no
 *     result (EYE stops with an error).
 *  4. The trigonometric and hyperbolic functions, math:degrees and math:radians are doubles and hold
 *     both ways, as the report's `$s? ... $o?` says: with the object bound alone, the subject is the
 *     inverse's principal value (?x math:sin 1 gives pi/2; ?x math:cosh 1 gives 0). math:negation too,
 *     exactly. A value outside a function's domain (math:asin 2) has no result.
 *  5. The report's `(7 ?x) math:exponentiation 49` (a logarithm) works: math:exponentiation takes an open
 *     subject (builtins.h) and answers the exponent, an integer when an integer power is exactly the
 *     object (2 here; EYE writes 2.0), else a double. */
#include "reason/builtin_family.h"

#include <math.h>

#include "reason/numeric.h"
#include "reason/xsd_time.h"

#define ORDERS(a, b, c) ((1u << (a)) | (1u << (b)) | (1u << (c)))
#define ORDER(a) (1u << (a))

/* A comparison of two numbers or two times holding when the order of subject to object is one of
 * `accepted` (a bit set of enum number_order). NaN, and durations of different kinds, are unordered:
 * only math:notEqualTo holds for them. */
static void math_compare(terms *t, term_id subject, term_id object, unsigned accepted, builtin_emit emit,
                         void *user) {
    number a = {0}, b = {0};
    xsd_time x, y;
    enum number_order order;
    if (!subject || !object)
        return;
    bool numbers = number_from_term(t, subject, &a) && number_from_term(t, object, &b);
    if (numbers)
        order = number_compare(&a, &b);
    number_clear(&a);
    number_clear(&b);
    if (!numbers && (!xsd_time_from_term(t, subject, &x) || !xsd_time_from_term(t, object, &y) ||
                     !xsd_time_compare(&x, &y, &order)))
        return;
    if (accepted & ORDER(order))
        emit(user, subject, object);
}

BUILTIN_VARIANT(math_equal_to, math_compare, ORDER(NUMBER_EQUAL))
BUILTIN_VARIANT(math_not_equal_to, math_compare, ORDERS(NUMBER_LESS, NUMBER_GREATER, NUMBER_UNORDERED))
BUILTIN_VARIANT(math_greater_than, math_compare, ORDER(NUMBER_GREATER))
BUILTIN_VARIANT(math_less_than, math_compare, ORDER(NUMBER_LESS))
BUILTIN_VARIANT(math_not_greater_than, math_compare, ORDER(NUMBER_LESS) | ORDER(NUMBER_EQUAL))
BUILTIN_VARIANT(math_not_less_than, math_compare, ORDER(NUMBER_GREATER) | ORDER(NUMBER_EQUAL))

typedef bool number_op(const number *a, const number *b, number *out);
typedef bool number_fn(const number *a, number *out);

/* op folded left over a list of numbers of any length, starting from `identity`. */
static void math_fold(terms *t, term_id subject, term_id object, int64_t identity, number_op *op,
                      builtin_emit emit, void *user) {
    const term_id *items;
    size_t n;
    if (!subject || !list_of(t, subject, &items, &n))
        return;
    number acc = number_integer(identity);
    for (size_t i = 0; i < n; i++) {
        number item = {0}, next = {0};
        bool ok = number_from_term(t, items[i], &item) && op(&acc, &item, &next);
        number_clear(&item);
        number_clear(&acc);
        if (!ok)
            return;
        acc = next;
    }
    emit_number(t, subject, object, &acc, emit, user);
    number_clear(&acc);
}

/* op on a two-number list. */
static void math_binary(terms *t, term_id subject, term_id object, number_op *op, builtin_emit emit, void *user) {
    term_id first, second;
    number a = {0}, b = {0}, result = {0};
    if (pair_of(t, subject, &first, &second) && number_from_term(t, first, &a) && number_from_term(t, second, &b) &&
        op(&a, &b, &result))
        emit_number(t, subject, object, &result, emit, user);
    number_clear(&a);
    number_clear(&b);
    number_clear(&result);
}

/* fn of the subject, a number. */
static void math_unary(terms *t, term_id subject, term_id object, number_fn *fn, builtin_emit emit, void *user) {
    number a = {0}, result = {0};
    if (subject && number_from_term(t, subject, &a) && fn(&a, &result))
        emit_number(t, subject, object, &result, emit, user);
    number_clear(&a);
    number_clear(&result);
}

/* A relation object = forward(subject) that also runs backwards: subject = inverse(object) when only
 * the object is bound (NOTES 4). */
static void math_invertible(terms *t, term_id subject, term_id object, number_fn *forward, number_fn *inverse,
                            builtin_emit emit, void *user) {
    number given = {0}, result = {0};
    if (subject) {
        math_unary(t, subject, object, forward, emit, user);
    } else if (object && number_from_term(t, object, &given) && inverse(&given, &result)) {
        emit(user, number_to_term(t, &result), object);
    }
    number_clear(&given);
    number_clear(&result);
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

/* (duration number) scaled, or with `either_order` also (number duration). */
static void time_scale(terms *t, term_id subject, term_id object, bool divide, bool either_order,
                       builtin_emit emit, void *user) {
    term_id first, second;
    xsd_time duration, result;
    number factor = {0};
    if (!pair_of(t, subject, &first, &second))
        return;
    bool found = xsd_time_from_term(t, first, &duration) && number_from_term(t, second, &factor);
    if (!found && either_order)
        found = number_from_term(t, first, &factor) && xsd_time_from_term(t, second, &duration);
    if (found && xsd_duration_scale(&duration, &factor, divide, &result))
        emit_time(t, subject, object, &result, emit, user);
    number_clear(&factor);
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

/* a / b, an integer when both are integers and b divides a (NOTES 2). */
static bool quotient(const number *a, const number *b, number *out) {
    if (a->kind == NUMBER_INTEGER && b->kind == NUMBER_INTEGER) {
        number rest = {0};
        bool exact = number_modulo(a, b, &rest) && number_sign(&rest) == 0;
        number_clear(&rest);
        if (exact)
            return number_floor_divide(a, b, out);
    }
    return number_divide(a, b, out);
}

/* (duration duration) math:quotient is the ratio of two durations of one kind. */
static void math_quotient(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    term_id first, second;
    xsd_time a, b;
    number ratio = {0};
    math_binary(t, subject, object, quotient, emit, user);
    time_scale(t, subject, object, true, false, emit, user);
    if (pair_of(t, subject, &first, &second) && xsd_time_from_term(t, first, &a) &&
        xsd_time_from_term(t, second, &b) && xsd_duration_ratio(&a, &b, &ratio))
        emit_number(t, subject, object, &ratio, emit, user);
    number_clear(&ratio);
}

BUILTIN_VARIANT(math_integer_quotient, math_binary, number_floor_divide)

static bool integer_remainder(const number *a, const number *b, number *out) {
    return a->kind == NUMBER_INTEGER && b->kind == NUMBER_INTEGER && number_modulo(a, b, out);
}

BUILTIN_VARIANT(math_remainder, math_binary, integer_remainder)

/* ( base ?exponent ) math:exponentiation x (an open subject): the exponent, an integer when base to an
 * integer power is exactly x, else log(x) / log(base) as a double. */
static void exponent_of(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    term_id base_term, exponent_term;
    number base, x;
    if (!object || !pair_of(t, subject, &base_term, &exponent_term) || terms_kind(t, exponent_term) != TERM_VAR ||
        !number_from_term(t, base_term, &base))
        return;
    if (!number_from_term(t, object, &x)) {
        number_clear(&base);
        return;
    }
    double b = number_to_double(&base), v = number_to_double(&x), e = log(v) / log(b);
    number exponent = number_double(e), power;
    if (b > 0 && b != 1 && v > 0 && isfinite(e)) {
        number whole = number_integer((int64_t)llround(e));
        if (fabs(e - llround(e)) < 1e-9 && number_power(&base, &whole, &power)) {
            if (number_compare(&power, &x) == NUMBER_EQUAL) {
                number_clear(&exponent);
                exponent = whole;
            }
            number_clear(&power);
        }
        term_id pair[2] = {base_term, number_to_term(t, &exponent)};
        emit(user, terms_list(t, pair, 2), object);
    }
    number_clear(&exponent);
    number_clear(&base);
    number_clear(&x);
}

static void math_exponentiation(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    if (subject && !terms_is_ground(t, subject))
        exponent_of(t, subject, object, emit, user);
    else
        math_binary(t, subject, object, number_power, emit, user);
}

/* log(x) / log(base) for x > 0 and a positive base other than 1, a double. */
static bool logarithm(const number *x, const number *base, number *out) {
    double v = number_to_double(x), b = number_to_double(base);
    if (!(v > 0) || !(b > 0) || b == 1)
        return false;
    *out = number_double(log(v) / log(b));
    return true;
}

BUILTIN_VARIANT(math_logarithm, math_binary, logarithm)

/* (y x) math:atan2: the angle of the point (x, y), a double. */
static bool angle_of_point(const number *y, const number *x, number *out) {
    *out = number_double(atan2(number_to_double(y), number_to_double(x)));
    return true;
}

BUILTIN_VARIANT(math_atan2, math_binary, angle_of_point)

static bool is_nan(const number *n) { return n->kind == NUMBER_DOUBLE && isnan(n->real); }

/* The least (`wanted` NUMBER_LESS) or greatest item of a non-empty list of numbers, the first of equal
 * ones; NaN when an item is NaN, as XPath's fn:min and fn:max. */
static void math_extreme(terms *t, term_id subject, term_id object, enum number_order wanted, builtin_emit emit,
                         void *user) {
    const term_id *items;
    size_t n;
    if (!subject || !list_of(t, subject, &items, &n) || n == 0)
        return;
    number best = {0};
    for (size_t i = 0; i < n; i++) {
        number item = {0};
        if (!number_from_term(t, items[i], &item)) {
            number_clear(&best);
            return;
        }
        if (i == 0 || (!is_nan(&best) && (is_nan(&item) || number_compare(&item, &best) == wanted))) {
            number_clear(&best);
            best = item;
        } else {
            number_clear(&item);
        }
    }
    emit_number(t, subject, object, &best, emit, user);
    number_clear(&best);
}

BUILTIN_VARIANT(math_min, math_extreme, NUMBER_LESS)
BUILTIN_VARIANT(math_max, math_extreme, NUMBER_GREATER)
BUILTIN_VARIANT(math_sqrt, math_unary, number_sqrt)
BUILTIN_VARIANT(math_absolute_value, math_unary, number_absolute)
BUILTIN_VARIANT(math_rounded, math_unary, number_round)
BUILTIN_VARIANT(math_floor, math_unary, number_floor)
BUILTIN_VARIANT(math_ceiling, math_unary, number_ceiling)
BUILTIN_VARIANT(math_negation, math_invertible, number_negate, number_negate)

/* A double function of a double, as a number_fn: none outside its domain (a NaN from a non-NaN). */
static bool real_function(double (*f)(double), const number *a, number *out) {
    double x = number_to_double(a), y = f(x);
    if (isnan(y) && !isnan(x))
        return false;
    *out = number_double(y);
    return true;
}

static double to_degrees(double radians) { return radians * (180 / M_PI); }
static double to_radians(double degrees) { return degrees * (M_PI / 180); }

/* The builtin `name` relating subject and object as object = f(subject), subject = g(object). */
#define REAL_RELATION(name, f, g)                                                                            \
    static bool name##_forward(const number *a, number *out) { return real_function(f, a, out); }            \
    static bool name##_inverse(const number *a, number *out) { return real_function(g, a, out); }            \
    BUILTIN_VARIANT(name, math_invertible, name##_forward, name##_inverse)

REAL_RELATION(math_sin, sin, asin)
REAL_RELATION(math_cos, cos, acos)
REAL_RELATION(math_tan, tan, atan)
REAL_RELATION(math_asin, asin, sin)
REAL_RELATION(math_acos, acos, cos)
REAL_RELATION(math_atan, atan, tan)
REAL_RELATION(math_sinh, sinh, asinh)
REAL_RELATION(math_cosh, cosh, acosh)
REAL_RELATION(math_tanh, tanh, atanh)
REAL_RELATION(math_asinh, asinh, sinh)
REAL_RELATION(math_acosh, acosh, cosh)
REAL_RELATION(math_atanh, atanh, tanh)
REAL_RELATION(math_degrees, to_degrees, to_radians)
REAL_RELATION(math_radians, to_radians, to_degrees)

const builtin builtins_math[] = {
    {NS_MATH "equalTo", BUILTIN_BOTH_IN, math_equal_to, false},
    {NS_MATH "notEqualTo", BUILTIN_BOTH_IN, math_not_equal_to, false},
    {NS_MATH "greaterThan", BUILTIN_BOTH_IN, math_greater_than, false},
    {NS_MATH "lessThan", BUILTIN_BOTH_IN, math_less_than, false},
    {NS_MATH "notGreaterThan", BUILTIN_BOTH_IN, math_not_greater_than, false},
    {NS_MATH "notLessThan", BUILTIN_BOTH_IN, math_not_less_than, false},
    {NS_MATH "sum", BUILTIN_SUBJECT_IN, math_sum, false},
    {NS_MATH "product", BUILTIN_SUBJECT_IN, math_product, false},
    {NS_MATH "difference", BUILTIN_SUBJECT_IN, math_difference, false},
    {NS_MATH "quotient", BUILTIN_SUBJECT_IN, math_quotient, false},
    {NS_MATH "integerQuotient", BUILTIN_SUBJECT_IN, math_integer_quotient, false},
    {NS_MATH "remainder", BUILTIN_SUBJECT_IN, math_remainder, false},
    {NS_MATH "exponentiation", BUILTIN_SUBJECT_IN, math_exponentiation, true},
    {NS_MATH "logarithm", BUILTIN_SUBJECT_IN, math_logarithm, false},
    {NS_MATH "min", BUILTIN_SUBJECT_IN, math_min, false},
    {NS_MATH "max", BUILTIN_SUBJECT_IN, math_max, false},
    {NS_MATH "sqrt", BUILTIN_SUBJECT_IN, math_sqrt, false},
    {NS_MATH "absoluteValue", BUILTIN_SUBJECT_IN, math_absolute_value, false},
    {NS_MATH "rounded", BUILTIN_SUBJECT_IN, math_rounded, false},
    {NS_MATH "floor", BUILTIN_SUBJECT_IN, math_floor, false},
    {NS_MATH "ceiling", BUILTIN_SUBJECT_IN, math_ceiling, false},
    {NS_MATH "negation", BUILTIN_EITHER_IN, math_negation, false},
    {NS_MATH "sin", BUILTIN_EITHER_IN, math_sin, false},
    {NS_MATH "cos", BUILTIN_EITHER_IN, math_cos, false},
    {NS_MATH "tan", BUILTIN_EITHER_IN, math_tan, false},
    {NS_MATH "asin", BUILTIN_EITHER_IN, math_asin, false},
    {NS_MATH "acos", BUILTIN_EITHER_IN, math_acos, false},
    {NS_MATH "atan", BUILTIN_EITHER_IN, math_atan, false},
    {NS_MATH "atan2", BUILTIN_SUBJECT_IN, math_atan2, false},
    {NS_MATH "sinh", BUILTIN_EITHER_IN, math_sinh, false},
    {NS_MATH "cosh", BUILTIN_EITHER_IN, math_cosh, false},
    {NS_MATH "tanh", BUILTIN_EITHER_IN, math_tanh, false},
    {NS_MATH "asinh", BUILTIN_EITHER_IN, math_asinh, false},
    {NS_MATH "acosh", BUILTIN_EITHER_IN, math_acosh, false},
    {NS_MATH "atanh", BUILTIN_EITHER_IN, math_atanh, false},
    {NS_MATH "degrees", BUILTIN_EITHER_IN, math_degrees, false},
    {NS_MATH "radians", BUILTIN_EITHER_IN, math_radians, false},
};
const size_t builtins_math_count = sizeof builtins_math / sizeof builtins_math[0];
