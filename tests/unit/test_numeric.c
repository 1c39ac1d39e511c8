/* test_numeric.c: numeric.h on its own: integers beyond 64 bits read, written, compared and computed on
 * exactly (2^64 + 1 is not 2^64, 2^63 stays an integer, 2^200 is written in full), decimals with
 * unbounded coefficients and at most 18 fraction digits, the 64-bit fast path and the GMP path agreeing
 * at their border, floor division and remainder signs, rounding to integers, the derived integer types'
 * ranges past 64 bits, durations scaled by big factors, and the size cap on exact results. Every expected
 * value is worked out by hand (or with Python's unbounded integers). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "rdf/term.h"
#include "reason/numeric.h"

#define TWO_64 "18446744073709551616"
#define TWO_64_PLUS_1 "18446744073709551617"
#define TWO_63 "9223372036854775808"
#define TWO_200 "1606938044258990275541962092341162602522202993782792835301376"

static int setup(void **state) {
    *state = terms_new();
    return 0;
}

static int teardown(void **state) {
    terms_free(*state);
    return 0;
}

/* The number of a literal that must read as one. */
static number read_typed(terms *t, const char *lex, term_id datatype) {
    number n = {0};
    assert_true(number_from_term(t, terms_literal(t, lex, strlen(lex), datatype, NULL, 0), &n));
    return n;
}

static number integer(terms *t, const char *lex) { return read_typed(t, lex, T_XSD_INTEGER); }
static number decimal(terms *t, const char *lex) { return read_typed(t, lex, T_XSD_DECIMAL); }
static number dbl(terms *t, const char *lex) { return read_typed(t, lex, T_XSD_DOUBLE); }

static bool reads_as(terms *t, const char *lex, const char *datatype_iri) {
    number n = {0};
    bool ok = number_from_term(t, terms_literal(t, lex, strlen(lex), terms_iri_cstr(t, datatype_iri), NULL, 0), &n);
    number_clear(&n);
    return ok;
}

/* n's canonical form and datatype; n is cleared. */
static void assert_number(terms *t, number *n, const char *lex, term_id datatype) {
    term_id id = number_to_term(t, n);
    assert_string_equal(terms_lex(t, id, NULL), lex);
    assert_int_equal(terms_datatype(t, id), datatype);
    number_clear(n);
}

/* a op b (both cleared), then its canonical form. */
typedef bool number_op(const number *a, const number *b, number *out);
static void assert_op(terms *t, number_op *op, number a, number b, const char *lex, term_id datatype) {
    number r = {0};
    assert_true(op(&a, &b, &r));
    number_clear(&a);
    number_clear(&b);
    assert_number(t, &r, lex, datatype);
}

static void assert_no_result(number_op *op, number a, number b) {
    number r = {0};
    assert_false(op(&a, &b, &r));
    number_clear(&a);
    number_clear(&b);
}

typedef bool number_fn(const number *a, number *out);
static void assert_fn(terms *t, number_fn *fn, number a, const char *lex, term_id datatype) {
    number r = {0};
    assert_true(fn(&a, &r));
    number_clear(&a);
    assert_number(t, &r, lex, datatype);
}

static enum number_order order_of(number a, number b) {
    enum number_order order = number_compare(&a, &b);
    number_clear(&a);
    number_clear(&b);
    return order;
}

/* ---- reading and writing ---- */

static void big_integers_read_and_write_exactly(void **state) {
    terms *t = *state;
    number n = integer(t, TWO_64_PLUS_1);
    assert_int_equal(n.kind, NUMBER_INTEGER);
    assert_non_null(n.big);
    assert_true(n.coeff == INT64_MAX); /* the sign of a big coefficient */
    assert_number(t, &n, TWO_64_PLUS_1, T_XSD_INTEGER);
    n = integer(t, TWO_63); /* one past INT64_MAX: an integer, not a double */
    assert_int_equal(n.kind, NUMBER_INTEGER);
    assert_number(t, &n, TWO_63, T_XSD_INTEGER);
    n = integer(t, "-" TWO_63); /* INT64_MIN itself fits 64 bits */
    assert_null(n.big);
    assert_true(n.coeff == INT64_MIN);
    assert_number(t, &n, "-" TWO_63, T_XSD_INTEGER);
    n = integer(t, "-9223372036854775809");
    assert_non_null(n.big);
    assert_true(n.coeff == INT64_MIN);
    assert_number(t, &n, "-9223372036854775809", T_XSD_INTEGER);
    /* 30 digits, with a sign and leading zeros */
    n = integer(t, "+000123456789012345678901234567890");
    assert_number(t, &n, "123456789012345678901234567890", T_XSD_INTEGER);
    n = integer(t, "-987654321098765432109876543210");
    assert_number(t, &n, "-987654321098765432109876543210", T_XSD_INTEGER);
    /* a simple literal with integer syntax, as EYE reads "10" */
    n = read_typed(t, TWO_200, 0);
    assert_int_equal(n.kind, NUMBER_INTEGER);
    assert_number(t, &n, TWO_200, T_XSD_INTEGER);
    /* as a double: the nearest one */
    n = integer(t, TWO_64_PLUS_1);
    assert_true(number_to_double(&n) == 18446744073709551616.0);
    number_clear(&n);
    n = integer(t, "-1" "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
                      "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
                      "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
                      "000000000000000000000000000000000000000000000000000000000000000000000000000000000");
    assert_true(number_to_double(&n) < -1e308 && number_to_double(&n) * 0.5 == number_to_double(&n)); /* -INF */
    number_clear(&n);
}

static void big_decimals_keep_every_integer_digit(void **state) {
    terms *t = *state;
    number n = decimal(t, "12345678901234567890.123456789012345678");
    assert_int_equal(n.kind, NUMBER_DECIMAL);
    assert_int_equal(n.scale, 18);
    assert_number(t, &n, "12345678901234567890.123456789012345678", T_XSD_DECIMAL);
    /* the 19th fraction digit rounds half away from zero, in one step */
    n = decimal(t, "1234567890123456789012.1234567890123456785");
    assert_number(t, &n, "1234567890123456789012.123456789012345679", T_XSD_DECIMAL);
    n = decimal(t, "-1234567890123456789012.1234567890123456784999");
    assert_number(t, &n, "-1234567890123456789012.123456789012345678", T_XSD_DECIMAL);
    /* trailing zeros dropped; a big whole decimal keeps its ".0" */
    n = decimal(t, "100000000000000000000.000");
    assert_number(t, &n, "100000000000000000000.0", T_XSD_DECIMAL);
    n = decimal(t, "-0.000000000000000000000000001"); /* below the 18th digit: zero, without a sign */
    assert_number(t, &n, "0.0", T_XSD_DECIMAL);
    /* a coefficient past 64 bits with a short integer part: "0." and leading fraction zeros */
    n = decimal(t, "0.012345678901234567");
    assert_number(t, &n, "0.012345678901234567", T_XSD_DECIMAL);
    n = read_typed(t, "99999999999999999999.5", 0);
    assert_int_equal(n.kind, NUMBER_DECIMAL);
    assert_number(t, &n, "99999999999999999999.5", T_XSD_DECIMAL);
}

static void derived_integer_types_past_64_bits(void **state) {
    terms *t = *state;
    assert_true(reads_as(t, "18446744073709551615", NS_XSD "unsignedLong"));
    assert_false(reads_as(t, TWO_64, NS_XSD "unsignedLong"));
    assert_false(reads_as(t, "-1", NS_XSD "unsignedLong"));
    assert_true(reads_as(t, "9223372036854775807", NS_XSD "long"));
    assert_false(reads_as(t, TWO_63, NS_XSD "long"));
    assert_true(reads_as(t, "-" TWO_63, NS_XSD "long"));
    assert_false(reads_as(t, "-9223372036854775809", NS_XSD "long"));
    assert_true(reads_as(t, "-" TWO_200, NS_XSD "negativeInteger"));
    assert_false(reads_as(t, TWO_200, NS_XSD "negativeInteger"));
    assert_true(reads_as(t, TWO_200, NS_XSD "positiveInteger"));
    assert_false(reads_as(t, "-" TWO_200, NS_XSD "nonNegativeInteger"));
    assert_true(reads_as(t, "-" TWO_200, NS_XSD "nonPositiveInteger"));
    assert_false(reads_as(t, "1", NS_XSD "nonPositiveInteger"));
    assert_false(reads_as(t, TWO_64, NS_XSD "int"));
    assert_false(reads_as(t, "4294967296", NS_XSD "unsignedInt"));
    assert_true(reads_as(t, "4294967295", NS_XSD "unsignedInt"));
}

/* ---- comparison ---- */

static void big_comparisons_are_exact(void **state) {
    terms *t = *state;
    assert_int_equal(order_of(integer(t, TWO_64_PLUS_1), integer(t, TWO_64)), NUMBER_GREATER);
    assert_int_equal(order_of(integer(t, TWO_64), integer(t, TWO_64_PLUS_1)), NUMBER_LESS);
    assert_int_equal(order_of(integer(t, "+0" TWO_64), integer(t, TWO_64)), NUMBER_EQUAL);
    assert_int_equal(order_of(integer(t, "-" TWO_64_PLUS_1), integer(t, "-" TWO_64)), NUMBER_LESS);
    assert_int_equal(order_of(integer(t, "-" TWO_64), integer(t, "9223372036854775807")), NUMBER_LESS);
    assert_int_equal(order_of(integer(t, TWO_64), decimal(t, "18446744073709551616.000000000000000001")),
                     NUMBER_LESS);
    assert_int_equal(order_of(integer(t, TWO_64), decimal(t, "18446744073709551616.0")), NUMBER_EQUAL);
    assert_int_equal(order_of(decimal(t, "0.5"), decimal(t, "0.50")), NUMBER_EQUAL);
    /* with a double, promoted to a double (XPath): 2^64 + 1 becomes 2^64 */
    assert_int_equal(order_of(integer(t, TWO_64_PLUS_1), dbl(t, "1.8446744073709552E19")), NUMBER_EQUAL);
    assert_int_equal(order_of(integer(t, TWO_200), dbl(t, "INF")), NUMBER_LESS);
    assert_int_equal(order_of(integer(t, TWO_200), dbl(t, "NaN")), NUMBER_UNORDERED);
    number n = integer(t, "-" TWO_200);
    assert_int_equal(number_sign(&n), -1);
    number_clear(&n);
    number_clear(&n); /* clearing twice is harmless */
    n = dbl(t, "NaN");
    assert_int_equal(number_sign(&n), 0);
}

/* ---- arithmetic ---- */

static void arithmetic_crosses_64_bits_both_ways(void **state) {
    terms *t = *state;
    assert_op(t, number_add, integer(t, "9223372036854775807"), integer(t, "1"), TWO_63, T_XSD_INTEGER);
    assert_op(t, number_subtract, integer(t, "-" TWO_63), integer(t, "1"), "-9223372036854775809", T_XSD_INTEGER);
    assert_op(t, number_add, integer(t, TWO_64), integer(t, "1"), TWO_64_PLUS_1, T_XSD_INTEGER);
    assert_op(t, number_multiply, integer(t, "-" TWO_63), integer(t, "-1"), TWO_63, T_XSD_INTEGER);
    assert_op(t, number_multiply, integer(t, "4294967296"), integer(t, "4294967296"), TWO_64, T_XSD_INTEGER);
    assert_op(t, number_multiply, integer(t, "123456789012345678901234567890"), integer(t, "3"),
              "370370367037037036703703703670", T_XSD_INTEGER);
    /* back within 64 bits: the fast representation again */
    number a = integer(t, TWO_64_PLUS_1), b = integer(t, TWO_64), r = {0};
    assert_true(number_subtract(&a, &b, &r));
    assert_null(r.big);
    assert_true(r.coeff == 1);
    number_clear(&a);
    number_clear(&b);
    /* decimals: exact integer digits, 18 fraction digits */
    assert_op(t, number_add, decimal(t, "99999999999999999999.999999999999999999"), decimal(t, "0.000000000000000001"),
              "100000000000000000000.0", T_XSD_DECIMAL);
    assert_op(t, number_multiply, decimal(t, "12345678901234567890.5"), decimal(t, "2"), "24691357802469135781.0",
              T_XSD_DECIMAL);
    assert_op(t, number_multiply, decimal(t, "0.0000000005"), decimal(t, "-0.000000001"), "-0.000000000000000001",
              T_XSD_DECIMAL);
    assert_op(t, number_subtract, integer(t, TWO_64), dbl(t, "1.0E0"), "1.8446744073709552E19", T_XSD_DOUBLE);
}

static void division_of_big_numbers(void **state) {
    terms *t = *state;
    assert_op(t, number_divide, integer(t, "1000000000000000000000000000000"), integer(t, "4"),
              "250000000000000000000000000000.0", T_XSD_DECIMAL);
    assert_op(t, number_divide, integer(t, TWO_64_PLUS_1), integer(t, "3"), "6148914691236517205.666666666666666667",
              T_XSD_DECIMAL);
    assert_op(t, number_divide, integer(t, "-1"), integer(t, "3"), "-0.333333333333333333", T_XSD_DECIMAL);
    assert_op(t, number_divide, integer(t, "1"), integer(t, TWO_64), "0.0", T_XSD_DECIMAL); /* 5.4E-20 */
    assert_op(t, number_divide, decimal(t, "1.5"), decimal(t, "0.05"), "30.0", T_XSD_DECIMAL);
    assert_no_result(number_divide, integer(t, TWO_64), integer(t, "0"));
    assert_no_result(number_divide, integer(t, TWO_64), decimal(t, "0.000"));
}

static void floor_division_and_modulo_take_the_divisor_sign(void **state) {
    terms *t = *state;
    assert_op(t, number_floor_divide, integer(t, "7"), integer(t, "2"), "3", T_XSD_INTEGER);
    assert_op(t, number_floor_divide, integer(t, "-7"), integer(t, "2"), "-4", T_XSD_INTEGER);
    assert_op(t, number_floor_divide, integer(t, "7"), integer(t, "-2"), "-4", T_XSD_INTEGER);
    assert_op(t, number_floor_divide, integer(t, "-7"), integer(t, "-2"), "3", T_XSD_INTEGER);
    assert_op(t, number_modulo, integer(t, "7"), integer(t, "2"), "1", T_XSD_INTEGER);
    assert_op(t, number_modulo, integer(t, "-7"), integer(t, "2"), "1", T_XSD_INTEGER);
    assert_op(t, number_modulo, integer(t, "7"), integer(t, "-2"), "-1", T_XSD_INTEGER);
    assert_op(t, number_modulo, integer(t, "-7"), integer(t, "-2"), "-1", T_XSD_INTEGER);
    assert_op(t, number_modulo, integer(t, "6"), integer(t, "3"), "0", T_XSD_INTEGER);
    /* INT64_MIN / -1 overflows 64 bits: exact here */
    assert_op(t, number_floor_divide, integer(t, "-" TWO_63), integer(t, "-1"), TWO_63, T_XSD_INTEGER);
    assert_op(t, number_modulo, integer(t, "-" TWO_63), integer(t, "-1"), "0", T_XSD_INTEGER);
    /* big: -(2^64 + 1) = 2 * -(2^63 + 1) + 1 */
    assert_op(t, number_floor_divide, integer(t, "-" TWO_64_PLUS_1), integer(t, "2"), "-9223372036854775809",
              T_XSD_INTEGER);
    assert_op(t, number_modulo, integer(t, "-" TWO_64_PLUS_1), integer(t, "2"), "1", T_XSD_INTEGER);
    assert_op(t, number_modulo, integer(t, TWO_200), integer(t, "1000000007"), "499445072", T_XSD_INTEGER);
    assert_op(t, number_modulo, integer(t, "5"), integer(t, TWO_64), "5", T_XSD_INTEGER);
    assert_op(t, number_modulo, integer(t, "-5"), integer(t, TWO_64), "18446744073709551611", T_XSD_INTEGER);
    /* decimals and doubles */
    assert_op(t, number_floor_divide, decimal(t, "7.5"), integer(t, "2"), "3", T_XSD_INTEGER);
    assert_op(t, number_floor_divide, decimal(t, "-7.5"), decimal(t, "0.5"), "-15", T_XSD_INTEGER);
    assert_op(t, number_modulo, decimal(t, "7.5"), integer(t, "2"), "1.5", T_XSD_DECIMAL);
    assert_op(t, number_modulo, decimal(t, "-7.5"), integer(t, "2"), "0.5", T_XSD_DECIMAL);
    assert_op(t, number_floor_divide, dbl(t, "-7.0E0"), integer(t, "2"), "-4", T_XSD_INTEGER);
    assert_op(t, number_modulo, dbl(t, "-7.0E0"), integer(t, "2"), "1.0E0", T_XSD_DOUBLE);
    assert_op(t, number_modulo, dbl(t, "7.0E0"), integer(t, "-2"), "-1.0E0", T_XSD_DOUBLE);
    /* none: zero divisors, an infinite quotient, a NaN */
    assert_no_result(number_floor_divide, integer(t, "1"), integer(t, "0"));
    assert_no_result(number_modulo, integer(t, "1"), decimal(t, "0.0"));
    assert_no_result(number_modulo, integer(t, TWO_64), dbl(t, "0.0E0"));
    assert_no_result(number_floor_divide, dbl(t, "INF"), integer(t, "2"));
    assert_no_result(number_modulo, dbl(t, "INF"), integer(t, "2"));
}

static void rounding_to_integers(void **state) {
    terms *t = *state;
    assert_fn(t, number_floor, decimal(t, "2.5"), "2", T_XSD_INTEGER);
    assert_fn(t, number_ceiling, decimal(t, "2.5"), "3", T_XSD_INTEGER);
    assert_fn(t, number_round, decimal(t, "2.5"), "3", T_XSD_INTEGER);
    assert_fn(t, number_floor, decimal(t, "-2.5"), "-3", T_XSD_INTEGER);
    assert_fn(t, number_ceiling, decimal(t, "-2.5"), "-2", T_XSD_INTEGER);
    assert_fn(t, number_round, decimal(t, "-2.5"), "-2", T_XSD_INTEGER); /* halves toward +INF */
    assert_fn(t, number_round, decimal(t, "-2.500000000000000001"), "-3", T_XSD_INTEGER);
    assert_fn(t, number_round, decimal(t, "2.4"), "2", T_XSD_INTEGER);
    assert_fn(t, number_floor, integer(t, "-7"), "-7", T_XSD_INTEGER);
    assert_fn(t, number_round, integer(t, TWO_200), TWO_200, T_XSD_INTEGER);
    assert_fn(t, number_floor, decimal(t, "-12345678901234567890.5"), "-12345678901234567891", T_XSD_INTEGER);
    assert_fn(t, number_ceiling, decimal(t, "-12345678901234567890.5"), "-12345678901234567890", T_XSD_INTEGER);
    assert_fn(t, number_round, decimal(t, "-12345678901234567890.5"), "-12345678901234567890", T_XSD_INTEGER);
    assert_fn(t, number_round, decimal(t, "12345678901234567890.5"), "12345678901234567891", T_XSD_INTEGER);
    assert_fn(t, number_ceiling, decimal(t, "12345678901234567890.000000000000000001"), "12345678901234567891",
              T_XSD_INTEGER);
    assert_fn(t, number_round, dbl(t, "2.5E0"), "3", T_XSD_INTEGER);
    assert_fn(t, number_round, dbl(t, "-0.5E0"), "0", T_XSD_INTEGER);
    assert_fn(t, number_round, dbl(t, "0.49999999999999994E0"), "0", T_XSD_INTEGER);
    assert_fn(t, number_floor, dbl(t, "-0.5E0"), "-1", T_XSD_INTEGER);
    assert_fn(t, number_floor, dbl(t, "1.0E30"), "1000000000000000019884624838656", T_XSD_INTEGER);
    number r = {0}, inf = dbl(t, "INF"), nan = dbl(t, "NaN");
    assert_false(number_floor(&inf, &r));
    assert_false(number_round(&nan, &r));
    assert_false(number_ceiling(&inf, &r));
}

static void negation_and_absolute_value(void **state) {
    terms *t = *state;
    assert_fn(t, number_negate, integer(t, "-" TWO_63), TWO_63, T_XSD_INTEGER);
    number n = integer(t, TWO_63), r = {0};
    assert_true(number_negate(&n, &r));
    assert_null(r.big); /* -2^63 fits 64 bits */
    number_clear(&n);
    assert_number(t, &r, "-" TWO_63, T_XSD_INTEGER);
    assert_fn(t, number_negate, decimal(t, "-" TWO_200 ".5"), TWO_200 ".5", T_XSD_DECIMAL);
    assert_fn(t, number_negate, dbl(t, "1.5E0"), "-1.5E0", T_XSD_DOUBLE);
    assert_fn(t, number_absolute, integer(t, "-" TWO_64_PLUS_1), TWO_64_PLUS_1, T_XSD_INTEGER);
    assert_fn(t, number_absolute, integer(t, TWO_64_PLUS_1), TWO_64_PLUS_1, T_XSD_INTEGER);
    assert_fn(t, number_absolute, decimal(t, "-5.5"), "5.5", T_XSD_DECIMAL);
    assert_fn(t, number_absolute, dbl(t, "-0.0E0"), "0.0E0", T_XSD_DOUBLE);
}

static void powers_are_exact_up_to_the_cap(void **state) {
    terms *t = *state;
    assert_op(t, number_power, integer(t, "2"), integer(t, "200"), TWO_200, T_XSD_INTEGER);
    assert_op(t, number_power, integer(t, "-2"), integer(t, "63"), "-" TWO_63, T_XSD_INTEGER);
    assert_op(t, number_power, integer(t, "-2"), integer(t, "64"), TWO_64, T_XSD_INTEGER);
    assert_op(t, number_power, decimal(t, "1.5"), integer(t, "2"), "2.25", T_XSD_DECIMAL);
    /* 1.1^30 = 17.449402268886407318558...: exact, then rounded once to 18 fraction digits */
    assert_op(t, number_power, decimal(t, "1.1"), integer(t, "30"), "17.449402268886407319", T_XSD_DECIMAL);
    assert_op(t, number_power, decimal(t, "0.1"), integer(t, "19"), "0.0", T_XSD_DECIMAL);
    /* 2^4000000 is exact (4000001 bits); 2^5000000 passes NUMBER_MAX_BITS and is a double, INF */
    number base = integer(t, "2"), big_exponent = integer(t, "4000000"), r = {0};
    assert_true(number_power(&base, &big_exponent, &r));
    assert_int_equal(r.kind, NUMBER_INTEGER);
    number half = {0}, two = integer(t, "2"), back = {0};
    assert_true(number_floor_divide(&r, &two, &half));
    assert_true(number_multiply(&half, &two, &back));
    assert_int_equal(number_compare(&back, &r), NUMBER_EQUAL);
    number_clear(&r);
    number_clear(&half);
    number_clear(&back);
    assert_op(t, number_power, integer(t, "2"), integer(t, "5000000"), "INF", T_XSD_DOUBLE);
    assert_op(t, number_power, integer(t, "2"), integer(t, TWO_64), "INF", T_XSD_DOUBLE);
    assert_op(t, number_power, integer(t, "2"), integer(t, "-1"), "5.0E-1", T_XSD_DOUBLE);
    assert_no_result(number_power, integer(t, "0"), integer(t, "-" TWO_64));
}

static void durations_scaled_by_big_factors(void **state) {
    terms *t = *state;
    int64_t out = 0;
    number factor = integer(t, TWO_64);
    assert_false(number_scale_to_integer(1, &factor, false, &out)); /* 2^64 does not fit */
    assert_true(number_scale_to_integer(0, &factor, false, &out));
    assert_true(out == 0);
    assert_true(number_scale_to_integer(INT64_MAX, &factor, true, &out)); /* 0.4999...: 0 */
    assert_true(out == 0);
    number_clear(&factor);
    factor = decimal(t, "0.5");
    assert_true(number_scale_to_integer(-3, &factor, false, &out)); /* -1.5 rounds toward +INF */
    assert_true(out == -1);
    assert_true(number_scale_to_integer(3, &factor, true, &out));
    assert_true(out == 6);
    factor = integer(t, "-2");
    assert_true(number_scale_to_integer(3, &factor, true, &out)); /* -1.5 */
    assert_true(out == -1);
    factor = decimal(t, "-0.5");
    assert_true(number_scale_to_integer(-3, &factor, false, &out)); /* 1.5 */
    assert_true(out == 2);
    factor = decimal(t, "0.0");
    assert_false(number_scale_to_integer(3, &factor, true, &out));
    factor = decimal(t, "-" TWO_64 ".5");
    assert_true(number_scale_to_integer(-4611686018427387904, &factor, true, &out)); /* 2^62 / 2^64: 0.25 */
    assert_true(out == 0);
    number_clear(&factor);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(big_integers_read_and_write_exactly, setup, teardown),
        cmocka_unit_test_setup_teardown(big_decimals_keep_every_integer_digit, setup, teardown),
        cmocka_unit_test_setup_teardown(derived_integer_types_past_64_bits, setup, teardown),
        cmocka_unit_test_setup_teardown(big_comparisons_are_exact, setup, teardown),
        cmocka_unit_test_setup_teardown(arithmetic_crosses_64_bits_both_ways, setup, teardown),
        cmocka_unit_test_setup_teardown(division_of_big_numbers, setup, teardown),
        cmocka_unit_test_setup_teardown(floor_division_and_modulo_take_the_divisor_sign, setup, teardown),
        cmocka_unit_test_setup_teardown(rounding_to_integers, setup, teardown),
        cmocka_unit_test_setup_teardown(negation_and_absolute_value, setup, teardown),
        cmocka_unit_test_setup_teardown(powers_are_exact_up_to_the_cap, setup, teardown),
        cmocka_unit_test_setup_teardown(durations_scaled_by_big_factors, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
