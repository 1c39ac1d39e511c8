/* test_builtins.c: the N3 builtins (log:, math:, list:, crypto:; string: in test_builtins_string.c) as
 * relations: true, false and binding cases, result typing and canonical forms, both directions of the
 * bidirectional ones, and type errors giving no solution. Every expected value is written by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "builtins_harness.c"
#include "reason/builtin_family.h"

#define EX "http://example.org/"

static term_id typed_iri(terms *t, const char *lex, const char *datatype) {
    return typed(t, lex, iri(t, datatype));
}

/* ---- lookup ---- */

static void lookup_and_namespaces(void **state) {
    (void)state;
    assert_int_equal(builtin_lookup(NS_MATH "sum")->mode, BUILTIN_SUBJECT_IN);
    assert_int_equal(builtin_lookup(NS_LIST "in")->mode, BUILTIN_OBJECT_IN);
    assert_int_equal(builtin_lookup(NS_STRING "contains")->mode, BUILTIN_BOTH_IN);
    assert_int_equal(builtin_lookup(NS_LOG "equalTo")->mode, BUILTIN_EITHER_IN);
    assert_string_equal(builtin_lookup(NS_CRYPTO "sha")->iri, NS_CRYPTO "sha");
    assert_null(builtin_lookup(NS_MATH "noSuchBuiltin"));
    assert_null(builtin_lookup(EX "sum"));
    assert_true(builtin_namespace(NS_MATH "noSuchBuiltin"));
    assert_true(builtin_namespace(NS_LOG "semantics"));
    assert_true(builtin_namespace(NS_STRING "x"));
    assert_true(builtin_namespace(NS_LIST "x"));
    assert_true(builtin_namespace(NS_CRYPTO "x"));
    assert_true(builtin_namespace("http://www.w3.org/2000/10/swap/time#localTime"));
    assert_false(builtin_namespace(EX "sum"));
    assert_false(builtin_namespace("http://www.w3.org/2000/10/swap/"));
    /* builtin_lookup looks only in the builtin namespaces: every builtin must be in one */
    const builtin *tables[] = {builtins_log,    builtins_log_reading, builtins_math,  builtins_time,
                               builtins_string, builtins_list,        builtins_crypto};
    const size_t *counts[] = {&builtins_log_count,    &builtins_log_reading_count, &builtins_math_count,
                              &builtins_time_count,   &builtins_string_count,      &builtins_list_count,
                              &builtins_crypto_count};
    for (size_t f = 0; f < sizeof tables / sizeof *tables; f++)
        for (size_t i = 0; i < *counts[f]; i++)
            assert_ptr_equal(builtin_lookup(tables[f][i].iri), &tables[f][i]);
}

/* ---- log: ---- */

static void log_equal_to(void **state) {
    terms *t = *state;
    term_id a = iri(t, EX "a"), b = iri(t, EX "b");
    assert_holds(t, NS_LOG "equalTo", a, a, true);
    assert_holds(t, NS_LOG "equalTo", a, b, false);
    /* term identity, not value: 1 and 1.0 are different terms */
    assert_holds(t, NS_LOG "equalTo", integer(t, "1"), decimal(t, "1.0"), false);
    assert_one(run(t, NS_LOG "equalTo", a, 0), a, a);
    assert_one(run(t, NS_LOG "equalTo", 0, b), b, b);
    assert_none(run(t, NS_LOG "equalTo", 0, 0));
}

static void log_not_equal_to(void **state) {
    terms *t = *state;
    term_id a = iri(t, EX "a"), b = iri(t, EX "b");
    assert_holds(t, NS_LOG "notEqualTo", a, b, true);
    assert_holds(t, NS_LOG "notEqualTo", a, a, false);
    assert_holds(t, NS_LOG "notEqualTo", str(t, "1"), integer(t, "1"), true);
    assert_none(run(t, NS_LOG "notEqualTo", a, 0));
}

static void log_uri_to_string_both_directions(void **state) {
    terms *t = *state;
    term_id a = iri(t, EX "a"), text = str(t, EX "a");
    assert_one(run(t, NS_LOG "uriToString", a, 0), a, text);
    assert_one(run(t, NS_LOG "uriToString", 0, text), a, text);
    assert_holds(t, NS_LOG "uriToString", a, text, true);
    assert_holds(t, NS_LOG "uriToString", a, str(t, EX "b"), false);
    assert_one(run(t, NS_LOG "uri", a, 0), a, text);
    /* type errors: a blank node, a typed or tagged literal, text that cannot be an IRI */
    assert_none(run(t, NS_LOG "uriToString", terms_bnode(t, "b", 1), 0));
    assert_none(run(t, NS_LOG "uriToString", str(t, "x"), 0));
    assert_none(run(t, NS_LOG "uriToString", 0, integer(t, "1")));
    assert_none(run(t, NS_LOG "uriToString", 0, terms_literal(t, "x:a", 3, 0, "en", 2)));
    assert_none(run(t, NS_LOG "uriToString", 0, str(t, "http://ex.org/a b")));
    assert_none(run(t, NS_LOG "uriToString", 0, str(t, "")));
    assert_none(run(t, NS_LOG "uriToString", 0, 0));
}

static void log_string_to_uri_both_directions(void **state) {
    terms *t = *state;
    term_id a = iri(t, EX "a"), text = str(t, EX "a");
    assert_one(run(t, NS_LOG "stringToUri", text, 0), text, a);
    assert_one(run(t, NS_LOG "stringToUri", 0, a), text, a);
    assert_holds(t, NS_LOG "stringToUri", text, a, true);
    assert_holds(t, NS_LOG "stringToUri", text, iri(t, EX "b"), false);
    assert_none(run(t, NS_LOG "stringToUri", iri(t, EX "c"), 0));
    assert_none(run(t, NS_LOG "stringToUri", str(t, "<bad>"), 0));
}

static void log_dtlit_both_directions(void **state) {
    terms *t = *state;
    term_id five = integer(t, "5");
    term_id parts = list(t, 2, str(t, "5"), iri(t, NS_XSD "integer"));
    assert_one(run(t, NS_LOG "dtlit", parts, 0), parts, five);
    assert_one(run(t, NS_LOG "dtlit", 0, five), parts, five);
    assert_holds(t, NS_LOG "dtlit", parts, five, true);
    assert_holds(t, NS_LOG "dtlit", parts, decimal(t, "5"), false);
    /* a simple literal is typed xsd:string, both ways */
    term_id string_parts = list(t, 2, str(t, "abc"), iri(t, NS_XSD "string"));
    assert_one(run(t, NS_LOG "dtlit", string_parts, 0), string_parts, str(t, "abc"));
    assert_one(run(t, NS_LOG "dtlit", 0, str(t, "abc")), string_parts, str(t, "abc"));
    /* type errors */
    assert_none(run(t, NS_LOG "dtlit", 0, terms_literal(t, "chat", 4, 0, "fr", 2)));
    assert_none(run(t, NS_LOG "dtlit", 0, iri(t, EX "a")));
    assert_none(run(t, NS_LOG "dtlit", list(t, 1, str(t, "5")), 0));
    assert_none(run(t, NS_LOG "dtlit", list(t, 2, str(t, "5"), str(t, "integer")), 0));
    assert_none(run(t, NS_LOG "dtlit", list(t, 2, iri(t, EX "a"), iri(t, NS_XSD "integer")), 0));
    assert_none(run(t, NS_LOG "dtlit", list(t, 2, str(t, "x"), iri(t, NS_RDF "langString")), 0));
}

/* ---- math: comparisons ---- */

static void math_equal_and_not_equal(void **state) {
    terms *t = *state;
    assert_holds(t, NS_MATH "equalTo", integer(t, "3"), decimal(t, "3.0"), true);
    assert_holds(t, NS_MATH "equalTo", integer(t, "3"), dbl(t, "3.0E0"), true);
    assert_holds(t, NS_MATH "equalTo", integer(t, "3"), str(t, "3"), true); /* numeric-looking string */
    assert_holds(t, NS_MATH "equalTo", integer(t, "+03"), integer(t, "3"), true);
    assert_holds(t, NS_MATH "equalTo", integer(t, "3"), integer(t, "4"), false);
    assert_holds(t, NS_MATH "notEqualTo", integer(t, "3"), integer(t, "4"), true);
    assert_holds(t, NS_MATH "notEqualTo", integer(t, "3"), decimal(t, "3.00"), false);
    /* non-numbers: no solution either way */
    assert_holds(t, NS_MATH "equalTo", str(t, "abc"), str(t, "abc"), false);
    assert_holds(t, NS_MATH "notEqualTo", str(t, "abc"), integer(t, "1"), false);
    assert_holds(t, NS_MATH "notEqualTo", iri(t, EX "a"), integer(t, "1"), false);
    assert_holds(t, NS_MATH "equalTo", terms_literal(t, "3", 1, 0, "en", 2), integer(t, "3"), false);
    assert_holds(t, NS_MATH "equalTo", typed_iri(t, "3", NS_XSD "boolean"), integer(t, "3"), false);
    assert_holds(t, NS_MATH "equalTo", integer(t, "3.0"), integer(t, "3"), false); /* ill-typed */
    assert_holds(t, NS_MATH "equalTo", decimal(t, "1e3"), integer(t, "1000"), false);
    assert_none(run(t, NS_MATH "equalTo", integer(t, "3"), 0));
}

static void math_order(void **state) {
    terms *t = *state;
    assert_holds(t, NS_MATH "greaterThan", integer(t, "5"), decimal(t, "4.5"), true);
    assert_holds(t, NS_MATH "greaterThan", decimal(t, "4.5"), integer(t, "5"), false);
    assert_holds(t, NS_MATH "greaterThan", str(t, "10"), str(t, "9"), true); /* numeric, not text order */
    assert_holds(t, NS_MATH "greaterThan", decimal(t, "-1.2"), decimal(t, "-1.5"), true);
    assert_holds(t, NS_MATH "greaterThan", decimal(t, "-1.5"), decimal(t, "-1.2"), false);
    assert_holds(t, NS_MATH "greaterThan", decimal(t, "-0.5"), integer(t, "-1"), true);
    assert_holds(t, NS_MATH "greaterThan", decimal(t, "0.000000000000000002"), decimal(t, "0.000000000000000001"),
                true);
    assert_holds(t, NS_MATH "lessThan", dbl(t, "-INF"), integer(t, "-9223372036854775807"), true);
    assert_holds(t, NS_MATH "lessThan", integer(t, "2"), integer(t, "2"), false);
    assert_holds(t, NS_MATH "notGreaterThan", integer(t, "2"), decimal(t, "2.0"), true);
    assert_holds(t, NS_MATH "notGreaterThan", integer(t, "3"), integer(t, "2"), false);
    assert_holds(t, NS_MATH "notLessThan", integer(t, "2"), decimal(t, "2.0"), true);
    assert_holds(t, NS_MATH "notLessThan", integer(t, "1"), integer(t, "2"), false);
    assert_holds(t, NS_MATH "greaterThan", str(t, "b"), str(t, "a"), false);
}

static void math_nan_is_unordered(void **state) {
    terms *t = *state;
    term_id nan = dbl(t, "NaN");
    assert_holds(t, NS_MATH "equalTo", nan, nan, false);
    assert_holds(t, NS_MATH "notEqualTo", nan, nan, true);
    assert_holds(t, NS_MATH "notGreaterThan", nan, integer(t, "1"), false);
    assert_holds(t, NS_MATH "notLessThan", nan, integer(t, "1"), false);
}

static void math_derived_integer_types(void **state) {
    terms *t = *state;
    assert_holds(t, NS_MATH "equalTo", typed_iri(t, "127", NS_XSD "byte"), integer(t, "127"), true);
    assert_holds(t, NS_MATH "equalTo", typed_iri(t, "128", NS_XSD "byte"), integer(t, "128"), false);
    assert_holds(t, NS_MATH "equalTo", typed_iri(t, "65535", NS_XSD "unsignedShort"), integer(t, "65535"), true);
    assert_holds(t, NS_MATH "equalTo", typed_iri(t, "-1", NS_XSD "nonNegativeInteger"), integer(t, "-1"), false);
    assert_holds(t, NS_MATH "equalTo", typed_iri(t, "0", NS_XSD "positiveInteger"), integer(t, "0"), false);
    assert_holds(t, NS_MATH "equalTo", typed_iri(t, "2.5", NS_XSD "float"), decimal(t, "2.5"), true);
    /* beyond 64 bits an integer stays exact; compared with a double, it is promoted to one */
    assert_holds(t, NS_MATH "equalTo", integer(t, "100000000000000000000"), dbl(t, "1.0E20"), true);
    assert_holds(t, NS_MATH "equalTo", integer(t, "100000000000000000001"), integer(t, "100000000000000000000"),
                false);
    assert_holds(t, NS_MATH "equalTo", typed_iri(t, "9223372036854775808", NS_XSD "long"),
                dbl(t, "9.223372036854775808E18"), false);
    assert_holds(t, NS_MATH "equalTo", typed_iri(t, "9223372036854775808", NS_XSD "unsignedLong"),
                dbl(t, "9.223372036854775808E18"), true);
    /* typed derived integers are integers in results */
    assert_function(t, NS_MATH "sum", list(t, 2, typed_iri(t, "7", NS_XSD "int"), integer(t, "1")), "8", T_XSD_INTEGER);
}

/* ---- math: functions ---- */

static void math_sum(void **state) {
    terms *t = *state;
    assert_function(t, NS_MATH "sum", list(t, 3, integer(t, "1"), integer(t, "2"), integer(t, "3")), "6",
                    T_XSD_INTEGER);
    assert_function(t, NS_MATH "sum", list(t, 2, integer(t, "1"), decimal(t, "2.5")), "3.5", T_XSD_DECIMAL);
    assert_function(t, NS_MATH "sum", list(t, 2, decimal(t, "0.1"), decimal(t, "0.2")), "0.3", T_XSD_DECIMAL);
    assert_function(t, NS_MATH "sum", list(t, 2, decimal(t, "1.25"), decimal(t, "0.75")), "2.0", T_XSD_DECIMAL);
    assert_function(t, NS_MATH "sum", list(t, 2, integer(t, "1"), dbl(t, "1.5E0")), "2.5E0", T_XSD_DOUBLE);
    assert_function(t, NS_MATH "sum", list(t, 2, str(t, "2"), str(t, "3")), "5", T_XSD_INTEGER);
    assert_function(t, NS_MATH "sum", list(t, 1, str(t, "1e2")), "1.0E2", T_XSD_DOUBLE);
    assert_function(t, NS_MATH "sum", list(t, 0), "0", T_XSD_INTEGER);
    assert_function(t, NS_MATH "sum", T_RDF_NIL, "0", T_XSD_INTEGER);
    /* 19 fraction digits round to 18 */
    assert_function(t, NS_MATH "sum", list(t, 1, decimal(t, "0.1234567890123456789")), "0.123456789012345679",
                    T_XSD_DECIMAL);
    assert_function(t, NS_MATH "sum", list(t, 1, decimal(t, "-0.0000000000000000015")), "-0.000000000000000002",
                    T_XSD_DECIMAL);
    /* 21 significant digits: all kept (the coefficient is unbounded; only the scale is limited) */
    assert_function(t, NS_MATH "sum", list(t, 1, decimal(t, "123456789.123456789123")), "123456789.123456789123",
                    T_XSD_DECIMAL);
    /* past 64 bits: 2^63 is an exact integer */
    assert_function(t, NS_MATH "sum", list(t, 2, integer(t, "9223372036854775807"), integer(t, "1")),
                    "9223372036854775808", T_XSD_INTEGER);
    /* bound object: compared numerically */
    term_id s = list(t, 2, integer(t, "2"), integer(t, "4"));
    assert_holds(t, NS_MATH "sum", s, decimal(t, "6.0"), true);
    assert_holds(t, NS_MATH "sum", s, integer(t, "7"), false);
    assert_holds(t, NS_MATH "sum", s, str(t, "six"), false);
    /* type errors */
    assert_none(run(t, NS_MATH "sum", list(t, 2, str(t, "a"), integer(t, "1")), 0));
    assert_none(run(t, NS_MATH "sum", integer(t, "1"), 0));
    assert_none(run(t, NS_MATH "sum", 0, integer(t, "1")));
}

static void math_product(void **state) {
    terms *t = *state;
    assert_function(t, NS_MATH "product", list(t, 3, integer(t, "2"), integer(t, "3"), integer(t, "4")), "24",
                    T_XSD_INTEGER);
    assert_function(t, NS_MATH "product", list(t, 2, decimal(t, "1.5"), integer(t, "2")), "3.0", T_XSD_DECIMAL);
    assert_function(t, NS_MATH "product", list(t, 2, decimal(t, "-0.5"), decimal(t, "0.5")), "-0.25",
                    T_XSD_DECIMAL);
    assert_function(t, NS_MATH "product", list(t, 2, integer(t, "2"), dbl(t, "0.5E0")), "1.0E0", T_XSD_DOUBLE);
    assert_function(t, NS_MATH "product", list(t, 0), "1", T_XSD_INTEGER);
    /* the exact product -22.38296930671695553958004 rounded to 18 fraction digits (the last a 0) */
    assert_function(t, NS_MATH "product", list(t, 2, decimal(t, "-0.269682234578"), decimal(t, "82.99756690218")),
                    "-22.38296930671695554", T_XSD_DECIMAL);
    /* 19 fraction digits: 5E-19 rounds up to the 18th digit, 4E-19 down to zero */
    assert_function(t, NS_MATH "product", list(t, 2, decimal(t, "0.0000000005"), decimal(t, "0.000000001")),
                    "0.000000000000000001", T_XSD_DECIMAL);
    assert_function(t, NS_MATH "product", list(t, 2, decimal(t, "0.0000000004"), decimal(t, "0.000000001")),
                    "0.0", T_XSD_DECIMAL);
    assert_function(t, NS_MATH "product", list(t, 2, integer(t, "4294967296"), integer(t, "4294967296")),
                    "18446744073709551616", T_XSD_INTEGER);
    assert_holds(t, NS_MATH "product", list(t, 2, integer(t, "2"), integer(t, "3")), integer(t, "6"), true);
    assert_holds(t, NS_MATH "product", list(t, 2, integer(t, "2"), integer(t, "3")), integer(t, "5"), false);
    assert_none(run(t, NS_MATH "product", list(t, 2, integer(t, "2"), iri(t, EX "a")), 0));
}

static void math_difference(void **state) {
    terms *t = *state;
    assert_function(t, NS_MATH "difference", list(t, 2, integer(t, "10"), integer(t, "4")), "6", T_XSD_INTEGER);
    assert_function(t, NS_MATH "difference", list(t, 2, integer(t, "1"), decimal(t, "2.5")), "-1.5", T_XSD_DECIMAL);
    assert_function(t, NS_MATH "difference", list(t, 2, integer(t, "0"), decimal(t, "0.05")), "-0.05",
                    T_XSD_DECIMAL);
    assert_function(t, NS_MATH "difference", list(t, 2, decimal(t, "0.5"), decimal(t, "0.5")), "0.0",
                    T_XSD_DECIMAL);
    assert_function(t, NS_MATH "difference", list(t, 2, dbl(t, "1E0"), integer(t, "3")), "-2.0E0", T_XSD_DOUBLE);
    assert_function(t, NS_MATH "difference",
                    list(t, 2, integer(t, "-9223372036854775807"), integer(t, "2")), "-9223372036854775809",
                    T_XSD_INTEGER);
    assert_holds(t, NS_MATH "difference", list(t, 2, integer(t, "3"), integer(t, "1")), integer(t, "2"), true);
    assert_holds(t, NS_MATH "difference", list(t, 2, integer(t, "3"), integer(t, "1")), integer(t, "4"), false);
    assert_none(run(t, NS_MATH "difference", list(t, 1, integer(t, "3")), 0));
    assert_none(run(t, NS_MATH "difference", list(t, 3, integer(t, "3"), integer(t, "2"), integer(t, "1")), 0));
    assert_none(run(t, NS_MATH "difference", list(t, 2, integer(t, "3"), str(t, "x")), 0));
}

static void math_quotient(void **state) {
    terms *t = *state;
    /* two integers dividing exactly give an integer, as in EYE and the report's example */
    assert_function(t, NS_MATH "quotient", list(t, 2, integer(t, "6"), integer(t, "3")), "2", T_XSD_INTEGER);
    assert_function(t, NS_MATH "quotient", list(t, 2, integer(t, "-42"), integer(t, "2")), "-21", T_XSD_INTEGER);
    assert_function(t, NS_MATH "quotient", list(t, 2, decimal(t, "6.0"), integer(t, "3")), "2.0", T_XSD_DECIMAL);
    assert_function(t, NS_MATH "quotient", list(t, 2, integer(t, "7"), integer(t, "2")), "3.5", T_XSD_DECIMAL);
    assert_function(t, NS_MATH "quotient", list(t, 2, integer(t, "-7"), integer(t, "2")), "-3.5", T_XSD_DECIMAL);
    assert_function(t, NS_MATH "quotient", list(t, 2, integer(t, "1"), integer(t, "8")), "0.125", T_XSD_DECIMAL);
    assert_function(t, NS_MATH "quotient", list(t, 2, integer(t, "1"), integer(t, "3")), "0.333333333333333333",
                    T_XSD_DECIMAL);
    assert_function(t, NS_MATH "quotient", list(t, 2, integer(t, "2"), integer(t, "3")), "0.666666666666666667",
                    T_XSD_DECIMAL);
    /* the 19th fraction digit is a 5: rounded half away from zero */
    assert_function(t, NS_MATH "quotient", list(t, 2, integer(t, "1"), integer(t, "2000000000000000000")),
                    "0.000000000000000001", T_XSD_DECIMAL);
    assert_function(t, NS_MATH "quotient", list(t, 2, integer(t, "-1"), integer(t, "2000000000000000000")),
                    "-0.000000000000000001", T_XSD_DECIMAL);
    assert_function(t, NS_MATH "quotient", list(t, 2, decimal(t, "1.5"), decimal(t, "0.05")), "30.0",
                    T_XSD_DECIMAL);
    assert_function(t, NS_MATH "quotient", list(t, 2, integer(t, "1"), dbl(t, "4.0E0")), "2.5E-1", T_XSD_DOUBLE);
    assert_holds(t, NS_MATH "quotient", list(t, 2, integer(t, "6"), integer(t, "3")), integer(t, "2"), true);
    /* division by zero, whatever the types */
    assert_none(run(t, NS_MATH "quotient", list(t, 2, integer(t, "1"), integer(t, "0")), 0));
    assert_none(run(t, NS_MATH "quotient", list(t, 2, decimal(t, "1.5"), decimal(t, "0.00")), 0));
    assert_none(run(t, NS_MATH "quotient", list(t, 2, dbl(t, "1E0"), dbl(t, "0E0")), 0));
    assert_none(run(t, NS_MATH "quotient", list(t, 2, str(t, "one"), integer(t, "2")), 0));
}

static void math_exponentiation(void **state) {
    terms *t = *state;
    assert_function(t, NS_MATH "exponentiation", list(t, 2, integer(t, "2"), integer(t, "10")), "1024",
                    T_XSD_INTEGER);
    assert_function(t, NS_MATH "exponentiation", list(t, 2, integer(t, "-3"), integer(t, "3")), "-27",
                    T_XSD_INTEGER);
    assert_function(t, NS_MATH "exponentiation", list(t, 2, integer(t, "5"), integer(t, "0")), "1", T_XSD_INTEGER);
    assert_function(t, NS_MATH "exponentiation", list(t, 2, decimal(t, "1.5"), integer(t, "2")), "2.25",
                    T_XSD_DECIMAL);
    assert_function(t, NS_MATH "exponentiation", list(t, 2, integer(t, "2"), integer(t, "-1")), "5.0E-1",
                    T_XSD_DOUBLE);
    assert_function(t, NS_MATH "exponentiation", list(t, 2, integer(t, "4"), decimal(t, "0.5")), "2.0E0",
                    T_XSD_DOUBLE);
    assert_function(t, NS_MATH "exponentiation", list(t, 2, integer(t, "2"), integer(t, "64")),
                    "18446744073709551616", T_XSD_INTEGER);
    assert_holds(t, NS_MATH "exponentiation", list(t, 2, integer(t, "3"), integer(t, "2")), integer(t, "9"), true);
    assert_holds(t, NS_MATH "exponentiation", list(t, 2, integer(t, "3"), integer(t, "2")), integer(t, "8"), false);
    assert_none(run(t, NS_MATH "exponentiation", list(t, 2, integer(t, "0"), integer(t, "-1")), 0));
    assert_none(run(t, NS_MATH "exponentiation", list(t, 2, integer(t, "-8"), decimal(t, "0.5")), 0));
    assert_none(run(t, NS_MATH "exponentiation", list(t, 1, integer(t, "2")), 0));
}

static void math_sqrt(void **state) {
    terms *t = *state;
    assert_function(t, NS_MATH "sqrt", integer(t, "16"), "4.0E0", T_XSD_DOUBLE);
    assert_function(t, NS_MATH "sqrt", integer(t, "2"), "1.4142135623730951E0", T_XSD_DOUBLE);
    assert_function(t, NS_MATH "sqrt", decimal(t, "0.0001"), "1.0E-2", T_XSD_DOUBLE);
    assert_function(t, NS_MATH "sqrt", dbl(t, "0"), "0.0E0", T_XSD_DOUBLE);
    assert_holds(t, NS_MATH "sqrt", integer(t, "16"), integer(t, "4"), true);
    assert_holds(t, NS_MATH "sqrt", integer(t, "16"), integer(t, "5"), false);
    assert_none(run(t, NS_MATH "sqrt", integer(t, "-1"), 0));
    assert_none(run(t, NS_MATH "sqrt", str(t, "four"), 0));
    assert_none(run(t, NS_MATH "sqrt", list(t, 1, integer(t, "4")), 0));
}

/* ---- list: ---- */

static void list_member(void **state) {
    terms *t = *state;
    term_id a = iri(t, EX "a"), b = iri(t, EX "b"), c = iri(t, EX "c");
    term_id aba = list(t, 3, a, b, a);
    solutions sol = run(t, NS_LIST "member", aba, 0);
    assert_int_equal(sol.n, 2); /* each distinct item once, in list order */
    assert_int_equal(sol.subject[0], aba);
    assert_int_equal(sol.object[0], a);
    assert_int_equal(sol.subject[1], aba);
    assert_int_equal(sol.object[1], b);
    assert_holds(t, NS_LIST "member", aba, b, true);
    assert_holds(t, NS_LIST "member", aba, c, false);
    assert_none(run(t, NS_LIST "member", list(t, 0), 0));
    assert_none(run(t, NS_LIST "member", a, 0));
    /* emit returning false stops the enumeration */
    const builtin *member = builtin_lookup(NS_LIST "member");
    solutions first_only = {.stop_after = 1};
    member->eval(t, list(t, 3, a, b, c), 0, collect, &first_only);
    assert_int_equal(first_only.n, 1);
    assert_int_equal(first_only.object[0], a);
}

static void list_in(void **state) {
    terms *t = *state;
    term_id a = iri(t, EX "a"), b = iri(t, EX "b"), c = iri(t, EX "c");
    term_id ab = list(t, 2, a, b);
    solutions sol = run(t, NS_LIST "in", 0, ab);
    assert_int_equal(sol.n, 2);
    assert_int_equal(sol.subject[0], a);
    assert_int_equal(sol.object[0], ab);
    assert_int_equal(sol.subject[1], b);
    assert_int_equal(sol.object[1], ab);
    assert_holds(t, NS_LIST "in", b, ab, true);
    assert_holds(t, NS_LIST "in", c, ab, false);
    assert_none(run(t, NS_LIST "in", a, 0));
    assert_none(run(t, NS_LIST "in", 0, str(t, "ab")));
}

static void list_first_last_length(void **state) {
    terms *t = *state;
    term_id a = iri(t, EX "a"), b = iri(t, EX "b"), c = iri(t, EX "c");
    term_id abc = list(t, 3, a, b, c);
    assert_one(run(t, NS_LIST "first", abc, 0), abc, a);
    assert_one(run(t, NS_LIST "last", abc, 0), abc, c);
    assert_holds(t, NS_LIST "first", abc, a, true);
    assert_holds(t, NS_LIST "first", abc, b, false);
    assert_holds(t, NS_LIST "last", abc, a, false);
    assert_none(run(t, NS_LIST "first", list(t, 0), 0));
    assert_none(run(t, NS_LIST "last", T_RDF_NIL, 0));
    assert_none(run(t, NS_LIST "first", a, 0));
    assert_function(t, NS_LIST "length", abc, "3", T_XSD_INTEGER);
    assert_function(t, NS_LIST "length", list(t, 0), "0", T_XSD_INTEGER);
    assert_function(t, NS_LIST "length", T_RDF_NIL, "0", T_XSD_INTEGER);
    assert_holds(t, NS_LIST "length", abc, integer(t, "3"), true);
    assert_holds(t, NS_LIST "length", abc, integer(t, "4"), false);
    assert_none(run(t, NS_LIST "length", str(t, "abc"), 0));
}

/* ---- crypto: ---- */

static void crypto_digests(void **state) {
    terms *t = *state;
    /* FIPS 180 and RFC 1321 test vectors */
    assert_function(t, NS_CRYPTO "sha", str(t, "abc"), "a9993e364706816aba3e25717850c26c9cd0d89d", 0);
    assert_function(t, NS_CRYPTO "sha", str(t, ""), "da39a3ee5e6b4b0d3255bfef95601890afd80709", 0);
    assert_function(t, NS_CRYPTO "sha256", str(t, "abc"),
                    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", 0);
    assert_function(t, NS_CRYPTO "sha512", str(t, "abc"),
                    "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
                    "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
                    0);
    assert_function(t, NS_CRYPTO "md5", str(t, "abc"), "900150983cd24fb0d6963f7d28e17f72", 0);
    /* the lexical form's bytes, whatever the literal's type */
    assert_function(t, NS_CRYPTO "sha", typed_iri(t, "abc", EX "type"), "a9993e364706816aba3e25717850c26c9cd0d89d",
                    0);
    term_id abc = str(t, "abc");
    assert_holds(t, NS_CRYPTO "sha", abc, str(t, "a9993e364706816aba3e25717850c26c9cd0d89d"), true);
    assert_holds(t, NS_CRYPTO "sha", abc, str(t, "A9993E364706816ABA3E25717850C26C9CD0D89D"), false);
    assert_none(run(t, NS_CRYPTO "sha", iri(t, EX "abc"), 0));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lookup_and_namespaces),
        cmocka_unit_test_setup_teardown(log_equal_to, setup, teardown),
        cmocka_unit_test_setup_teardown(log_not_equal_to, setup, teardown),
        cmocka_unit_test_setup_teardown(log_uri_to_string_both_directions, setup, teardown),
        cmocka_unit_test_setup_teardown(log_string_to_uri_both_directions, setup, teardown),
        cmocka_unit_test_setup_teardown(log_dtlit_both_directions, setup, teardown),
        cmocka_unit_test_setup_teardown(math_equal_and_not_equal, setup, teardown),
        cmocka_unit_test_setup_teardown(math_order, setup, teardown),
        cmocka_unit_test_setup_teardown(math_nan_is_unordered, setup, teardown),
        cmocka_unit_test_setup_teardown(math_derived_integer_types, setup, teardown),
        cmocka_unit_test_setup_teardown(math_sum, setup, teardown),
        cmocka_unit_test_setup_teardown(math_product, setup, teardown),
        cmocka_unit_test_setup_teardown(math_difference, setup, teardown),
        cmocka_unit_test_setup_teardown(math_quotient, setup, teardown),
        cmocka_unit_test_setup_teardown(math_exponentiation, setup, teardown),
        cmocka_unit_test_setup_teardown(math_sqrt, setup, teardown),
        cmocka_unit_test_setup_teardown(list_member, setup, teardown),
        cmocka_unit_test_setup_teardown(list_in, setup, teardown),
        cmocka_unit_test_setup_teardown(list_first_last_length, setup, teardown),
        cmocka_unit_test_setup_teardown(crypto_digests, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
