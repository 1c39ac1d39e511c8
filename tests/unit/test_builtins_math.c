/* test_builtins_math.c: the math: builtins beyond the four operations and the comparisons (those are in
 * test_builtins.c): integerQuotient, remainder, negation both ways, absoluteValue, rounded, floor,
 * ceiling, logarithm, min, max, atan2, the trigonometric and hyperbolic functions and degrees/radians
 * both ways, quotient's integer results, and big integers through the builtins. Each: results and their
 * types, a bound object checked by value, argument modes, and no solution for division by zero, values
 * outside a function's domain and non-numbers. Expected values are EYE's where it has the builtin
 * (checked by running it), otherwise worked out by hand. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define BUILTIN_NAMESPACE NS_MATH
#include "builtins_harness.c"

#define EX "http://example.org/"

static term_id pair(terms *t, term_id a, term_id b) {
    term_id items[2] = {a, b};
    return terms_list(t, items, 2);
}

static term_id list3(terms *t, term_id a, term_id b, term_id c) {
    term_id items[3] = {a, b, c};
    return terms_list(t, items, 3);
}

/* With the subject unbound: one solution, the given object, a subject of this form and type. */
static void assert_inverse(terms *t, const char *name, term_id object, const char *lex, term_id datatype) {
    solutions sol = run(t, name, 0, object);
    assert_int_equal(sol.n, 1);
    assert_int_equal(sol.object[0], object);
    assert_string_equal(terms_lex(t, sol.subject[0], NULL), lex);
    assert_int_equal(terms_datatype(t, sol.subject[0]), datatype);
}

/* A double result near `expected` (a function computed by the C library). */
static void assert_near(terms *t, const char *name, term_id subject, term_id object, double expected) {
    solutions sol = run(t, name, subject, object);
    assert_int_equal(sol.n, 1);
    term_id result = subject ? sol.object[0] : sol.subject[0];
    assert_int_equal(terms_datatype(t, result), T_XSD_DOUBLE);
    double value = strtod(terms_lex(t, result, NULL), NULL);
    assert_true(fabs(value - expected) <= 1e-15 * fmax(1, fabs(expected)));
}

static enum builtin_mode mode_of(const char *local_name) {
    char iri[128];
    strcpy(iri, NS_MATH);
    strcat(iri, local_name);
    return builtin_lookup(iri)->mode;
}

/* ---- modes ---- */

static void modes_follow_the_report(void **state) {
    (void)state;
    const char *functions[] = {"integerQuotient", "remainder", "absoluteValue", "rounded", "floor",
                               "ceiling",         "logarithm", "min",           "max",     "atan2"};
    for (size_t i = 0; i < sizeof functions / sizeof functions[0]; i++)
        assert_int_equal(mode_of(functions[i]), BUILTIN_SUBJECT_IN);
    const char *both_ways[] = {"negation", "sin",   "cos",   "tan",   "asin",    "acos",   "atan",
                               "sinh",     "cosh",  "tanh",  "asinh", "acosh",   "atanh",  "degrees",
                               "radians"};
    for (size_t i = 0; i < sizeof both_ways / sizeof both_ways[0]; i++)
        assert_int_equal(mode_of(both_ways[i]), BUILTIN_EITHER_IN);
}

/* ---- division ---- */

static void quotient_of_integers(void **state) {
    terms *t = *state;
    assert_function(t, "quotient", pair(t, integer(t, "6"), integer(t, "3")), "2", T_XSD_INTEGER);
    assert_function(t, "quotient", pair(t, integer(t, "7"), integer(t, "2")), "3.5", T_XSD_DECIMAL);
    assert_function(t, "quotient", pair(t, integer(t, "-6"), integer(t, "-3")), "2", T_XSD_INTEGER);
    assert_function(t, "quotient", pair(t, integer(t, "36893488147419103234"), integer(t, "2")),
                    "18446744073709551617", T_XSD_INTEGER);
    assert_function(t, "quotient", pair(t, integer(t, "0"), integer(t, "5")), "0", T_XSD_INTEGER);
    assert_function(t, "quotient", pair(t, integer(t, "6"), decimal(t, "3.0")), "2.0", T_XSD_DECIMAL);
    assert_function(t, "quotient", pair(t, integer(t, "6"), dbl(t, "3.0E0")), "2.0E0", T_XSD_DOUBLE);
    assert_holds(t, "quotient", pair(t, integer(t, "6"), integer(t, "3")), decimal(t, "2.0"), true);
    /* a big bound object: compared by value */
    assert_holds(t, "quotient", pair(t, integer(t, "36893488147419103234"), integer(t, "2")),
                 decimal(t, "18446744073709551617.0"), true);
    assert_holds(t, "quotient", pair(t, integer(t, "36893488147419103234"), integer(t, "2")),
                 integer(t, "18446744073709551616"), false);
    assert_none(run(t, "quotient", pair(t, integer(t, "6"), integer(t, "0")), 0));
}

static void integer_quotient_and_remainder(void **state) {
    terms *t = *state;
    assert_function(t, "integerQuotient", pair(t, integer(t, "7"), integer(t, "2")), "3", T_XSD_INTEGER);
    assert_function(t, "integerQuotient", pair(t, integer(t, "-7"), integer(t, "2")), "-4", T_XSD_INTEGER);
    assert_function(t, "integerQuotient", pair(t, integer(t, "7"), integer(t, "-2")), "-4", T_XSD_INTEGER);
    assert_function(t, "integerQuotient", pair(t, decimal(t, "7.5"), integer(t, "2")), "3", T_XSD_INTEGER);
    assert_function(t, "integerQuotient", pair(t, integer(t, "18446744073709551617"), integer(t, "2")),
                    "9223372036854775808", T_XSD_INTEGER);
    assert_function(t, "remainder", pair(t, integer(t, "10"), integer(t, "3")), "1", T_XSD_INTEGER);
    assert_function(t, "remainder", pair(t, integer(t, "-7"), integer(t, "2")), "1", T_XSD_INTEGER);
    assert_function(t, "remainder", pair(t, integer(t, "7"), integer(t, "-2")), "-1", T_XSD_INTEGER);
    assert_function(t, "remainder", pair(t, integer(t, "18446744073709551617"), integer(t, "18446744073709551616")),
                    "1", T_XSD_INTEGER);
    assert_holds(t, "remainder", pair(t, integer(t, "10"), integer(t, "3")), decimal(t, "1.0"), true);
    assert_holds(t, "remainder", pair(t, integer(t, "10"), integer(t, "3")), integer(t, "2"), false);
    /* the report: integers only (EYE also gives 1.5 for (7.5 2)) */
    assert_none(run(t, "remainder", pair(t, decimal(t, "7.5"), integer(t, "2")), 0));
    assert_none(run(t, "remainder", pair(t, dbl(t, "7.0E0"), integer(t, "2")), 0));
    /* division by zero, non-numbers, wrong shapes */
    assert_none(run(t, "remainder", pair(t, integer(t, "7"), integer(t, "0")), 0));
    assert_none(run(t, "integerQuotient", pair(t, integer(t, "7"), decimal(t, "0.0")), 0));
    assert_none(run(t, "integerQuotient", pair(t, str(t, "seven"), integer(t, "2")), 0));
    assert_none(run(t, "remainder", list3(t, integer(t, "7"), integer(t, "2"), integer(t, "1")), 0));
    assert_none(run(t, "integerQuotient", integer(t, "7"), 0));
}

/* ---- one number in, one out ---- */

static void negation_both_ways(void **state) {
    terms *t = *state;
    assert_function(t, "negation", integer(t, "5"), "-5", T_XSD_INTEGER);
    assert_function(t, "negation", decimal(t, "-2.5"), "2.5", T_XSD_DECIMAL);
    assert_function(t, "negation", integer(t, "9223372036854775808"), "-9223372036854775808", T_XSD_INTEGER);
    assert_function(t, "negation", integer(t, "-9223372036854775808"), "9223372036854775808", T_XSD_INTEGER);
    assert_inverse(t, "negation", integer(t, "5"), "-5", T_XSD_INTEGER);
    assert_inverse(t, "negation", dbl(t, "1.5E0"), "-1.5E0", T_XSD_DOUBLE);
    assert_holds(t, "negation", integer(t, "5"), decimal(t, "-5.0"), true);
    assert_holds(t, "negation", integer(t, "5"), integer(t, "5"), false);
    assert_none(run(t, "negation", str(t, "five"), 0));
    assert_none(run(t, "negation", 0, str(t, "five")));
    assert_none(run(t, "negation", 0, 0));
}

static void absolute_value_and_rounding(void **state) {
    terms *t = *state;
    assert_function(t, "absoluteValue", integer(t, "-2"), "2", T_XSD_INTEGER);
    assert_function(t, "absoluteValue", decimal(t, "-5.5"), "5.5", T_XSD_DECIMAL);
    assert_function(t, "absoluteValue", integer(t, "-18446744073709551617"), "18446744073709551617", T_XSD_INTEGER);
    assert_function(t, "absoluteValue", dbl(t, "-INF"), "INF", T_XSD_DOUBLE);
    assert_function(t, "rounded", dbl(t, "3.3"), "3", T_XSD_INTEGER);
    assert_function(t, "rounded", decimal(t, "2.5"), "3", T_XSD_INTEGER);
    assert_function(t, "rounded", decimal(t, "-2.5"), "-2", T_XSD_INTEGER);
    assert_function(t, "rounded", dbl(t, "2.5E0"), "3", T_XSD_INTEGER);
    assert_function(t, "floor", decimal(t, "2.5"), "2", T_XSD_INTEGER);
    assert_function(t, "floor", decimal(t, "-2.5"), "-3", T_XSD_INTEGER);
    assert_function(t, "ceiling", decimal(t, "-2.5"), "-2", T_XSD_INTEGER);
    assert_function(t, "ceiling", dbl(t, "2.5E0"), "3", T_XSD_INTEGER);
    assert_function(t, "floor", integer(t, "18446744073709551617"), "18446744073709551617", T_XSD_INTEGER);
    assert_holds(t, "floor", decimal(t, "2.5"), integer(t, "2"), true);
    assert_holds(t, "ceiling", decimal(t, "2.5"), integer(t, "2"), false);
    assert_none(run(t, "rounded", dbl(t, "NaN"), 0));
    assert_none(run(t, "floor", dbl(t, "INF"), 0));
    assert_none(run(t, "ceiling", str(t, "x"), 0));
    assert_none(run(t, "absoluteValue", 0, integer(t, "2"))); /* the report: $s+ only */
}

/* ---- lists ---- */

static void min_max_logarithm_atan2(void **state) {
    terms *t = *state;
    assert_function(t, "min", list3(t, integer(t, "1"), integer(t, "2"), integer(t, "3")), "1", T_XSD_INTEGER);
    assert_function(t, "max", list3(t, integer(t, "1"), decimal(t, "2.5"), integer(t, "3")), "3", T_XSD_INTEGER);
    assert_function(t, "max", list3(t, integer(t, "1"), decimal(t, "3.5"), integer(t, "3")), "3.5", T_XSD_DECIMAL);
    assert_function(t, "min", list3(t, integer(t, "18446744073709551617"), integer(t, "18446744073709551616"),
                                    integer(t, "18446744073709551618")),
                    "18446744073709551616", T_XSD_INTEGER);
    assert_function(t, "max", list3(t, integer(t, "1"), dbl(t, "NaN"), integer(t, "3")), "NaN", T_XSD_DOUBLE);
    assert_function(t, "min", pair(t, dbl(t, "-INF"), integer(t, "3")), "-INF", T_XSD_DOUBLE);
    assert_holds(t, "max", pair(t, integer(t, "1"), integer(t, "2")), decimal(t, "2.0"), true);
    assert_none(run(t, "min", T_RDF_NIL, 0));
    assert_none(run(t, "max", pair(t, integer(t, "1"), str(t, "two")), 0));
    assert_function(t, "logarithm", pair(t, integer(t, "8"), integer(t, "2")), "3.0E0", T_XSD_DOUBLE);
    assert_function(t, "logarithm", pair(t, integer(t, "1"), integer(t, "10")), "0.0E0", T_XSD_DOUBLE);
    assert_near(t, "logarithm", pair(t, integer(t, "100"), decimal(t, "10.0")), 0, 2);
    assert_none(run(t, "logarithm", pair(t, integer(t, "0"), integer(t, "2")), 0));
    assert_none(run(t, "logarithm", pair(t, integer(t, "-8"), integer(t, "2")), 0));
    assert_none(run(t, "logarithm", pair(t, integer(t, "8"), integer(t, "1")), 0));
    assert_none(run(t, "logarithm", pair(t, integer(t, "8"), integer(t, "-2")), 0));
    assert_function(t, "atan2", pair(t, integer(t, "1"), integer(t, "2")), "4.636476090008061E-1", T_XSD_DOUBLE);
    assert_function(t, "atan2", pair(t, integer(t, "0"), integer(t, "-1")), "3.141592653589793E0", T_XSD_DOUBLE);
    assert_none(run(t, "atan2", pair(t, integer(t, "0"), str(t, "x")), 0));
}

/* ---- trigonometry ---- */

static void trigonometry_both_ways(void **state) {
    terms *t = *state;
    /* EYE's values, as doubles in canonical form */
    assert_function(t, "sin", integer(t, "1"), "8.414709848078965E-1", T_XSD_DOUBLE);
    assert_function(t, "sin", integer(t, "0"), "0.0E0", T_XSD_DOUBLE);
    assert_function(t, "cos", integer(t, "1"), "5.403023058681398E-1", T_XSD_DOUBLE);
    assert_function(t, "cos", integer(t, "0"), "1.0E0", T_XSD_DOUBLE);
    assert_function(t, "tan", integer(t, "1"), "1.5574077246549023E0", T_XSD_DOUBLE);
    assert_function(t, "asin", integer(t, "1"), "1.5707963267948966E0", T_XSD_DOUBLE);
    assert_function(t, "acos", integer(t, "1"), "0.0E0", T_XSD_DOUBLE);
    assert_function(t, "atan", integer(t, "1"), "7.853981633974483E-1", T_XSD_DOUBLE);
    assert_function(t, "sinh", integer(t, "1"), "1.1752011936438014E0", T_XSD_DOUBLE);
    assert_function(t, "cosh", integer(t, "1"), "1.5430806348152437E0", T_XSD_DOUBLE);
    assert_function(t, "tanh", integer(t, "1"), "7.615941559557649E-1", T_XSD_DOUBLE);
    assert_function(t, "asinh", integer(t, "1"), "8.81373587019543E-1", T_XSD_DOUBLE);
    assert_function(t, "acosh", integer(t, "2"), "1.3169578969248166E0", T_XSD_DOUBLE);
    assert_function(t, "atanh", decimal(t, "0.5"), "5.493061443340548E-1", T_XSD_DOUBLE);
    assert_function(t, "degrees", integer(t, "1"), "5.729577951308232E1", T_XSD_DOUBLE);
    assert_function(t, "radians", integer(t, "180"), "3.141592653589793E0", T_XSD_DOUBLE);
    /* backwards: the inverse's principal value */
    assert_inverse(t, "sin", integer(t, "1"), "1.5707963267948966E0", T_XSD_DOUBLE);
    assert_inverse(t, "cos", integer(t, "1"), "0.0E0", T_XSD_DOUBLE);
    assert_inverse(t, "asin", dbl(t, "1.5707963267948966E0"), "1.0E0", T_XSD_DOUBLE);
    assert_inverse(t, "degrees", integer(t, "180"), "3.141592653589793E0", T_XSD_DOUBLE);
    assert_inverse(t, "radians", dbl(t, "3.141592653589793E0"), "1.8E2", T_XSD_DOUBLE);
    assert_inverse(t, "cosh", integer(t, "1"), "0.0E0", T_XSD_DOUBLE);
    assert_near(t, "tan", 0, integer(t, "1"), atan(1));
    assert_near(t, "atan", 0, integer(t, "1"), tan(1));
    assert_near(t, "acos", 0, integer(t, "0"), cos(0));
    assert_near(t, "sinh", 0, integer(t, "1"), asinh(1));
    assert_near(t, "tanh", 0, decimal(t, "0.5"), atanh(0.5));
    assert_near(t, "asinh", 0, integer(t, "1"), sinh(1));
    assert_near(t, "acosh", 0, integer(t, "1"), cosh(1));
    assert_near(t, "atanh", 0, decimal(t, "0.5"), tanh(0.5));
    /* both bound: a test by value */
    assert_holds(t, "sin", integer(t, "0"), integer(t, "0"), true);
    assert_holds(t, "cos", integer(t, "0"), decimal(t, "1.0"), true);
    assert_holds(t, "cos", integer(t, "0"), integer(t, "0"), false);
    /* outside the domain: no result */
    assert_none(run(t, "asin", integer(t, "2"), 0));
    assert_none(run(t, "sin", 0, integer(t, "2")));
    assert_none(run(t, "acos", decimal(t, "-1.5"), 0));
    assert_none(run(t, "acosh", decimal(t, "0.5"), 0));
    assert_none(run(t, "cosh", 0, decimal(t, "0.5")));
    assert_none(run(t, "atanh", integer(t, "2"), 0));
    assert_none(run(t, "sin", dbl(t, "INF"), 0));
    /* NaN in, NaN out; non-numbers: nothing */
    assert_function(t, "sin", dbl(t, "NaN"), "NaN", T_XSD_DOUBLE);
    assert_none(run(t, "cos", str(t, "zero"), 0));
    assert_none(run(t, "degrees", 0, terms_iri_cstr(t, EX "a")));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(modes_follow_the_report),
        cmocka_unit_test_setup_teardown(quotient_of_integers, setup, teardown),
        cmocka_unit_test_setup_teardown(integer_quotient_and_remainder, setup, teardown),
        cmocka_unit_test_setup_teardown(negation_both_ways, setup, teardown),
        cmocka_unit_test_setup_teardown(absolute_value_and_rounding, setup, teardown),
        cmocka_unit_test_setup_teardown(min_max_logarithm_atan2, setup, teardown),
        cmocka_unit_test_setup_teardown(trigonometry_both_ways, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
