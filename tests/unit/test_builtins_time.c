/* test_builtins_time.c: xsd:dateTime and duration values in the math: builtins and the time: builtins,
 * evaluated as the engine calls them: lexical forms accepted and refused field by field, each comparison,
 * each function, calendar month arithmetic (end-of-month clamping, leap years, timezone offsets),
 * negative durations, rounding, output forms, and malformed input giving no solution. Every expected
 * value is computed by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "reason/xsd_time.h"

#include "builtins_harness.c"

#define NS_TIME "http://www.w3.org/2000/10/swap/time#"

/* ---- terms ---- */

/* The XSD datatype with this local name. */
static term_id xsd_datatype(terms *t, const char *local) {
    char iri[128];
    snprintf(iri, sizeof iri, NS_XSD "%s", local);
    return terms_iri_cstr(t, iri);
}

static term_id xsd_typed(terms *t, const char *lex, const char *datatype_local) {
    return typed(t, lex, xsd_datatype(t, datatype_local));
}

static term_id dt(terms *t, const char *lex) { return xsd_typed(t, lex, "dateTime"); }
static term_id day_time(terms *t, const char *lex) { return xsd_typed(t, lex, "dayTimeDuration"); }
static term_id year_month(terms *t, const char *lex) { return xsd_typed(t, lex, "yearMonthDuration"); }
static term_id duration(terms *t, const char *lex) { return xsd_typed(t, lex, "duration"); }

/* ---- assertions ---- */

/* The function gives exactly one object for the subject: a literal with this form and XSD datatype
 * (NULL: a simple literal). */
static void expect_result(terms *t, const char *builtin_iri, term_id subject, const char *lex,
                          const char *datatype_local) {
    assert_function(t, builtin_iri, subject, lex, datatype_local ? xsd_datatype(t, datatype_local) : 0);
}

static void expect_nothing(terms *t, const char *builtin_iri, term_id subject, term_id object) {
    assert_none(run(t, builtin_iri, subject, object));
}

/* The dateTime form's instant in seconds since the epoch (time:inSeconds). */
static void expect_seconds(terms *t, const char *datetime, const char *seconds) {
    expect_result(t, NS_TIME "inSeconds", dt(t, datetime), seconds, "decimal");
}

/* A duration read back in canonical form: the sum of a one-item list is the item. */
static void expect_canonical(terms *t, term_id duration_term, const char *lex, const char *datatype_local) {
    expect_result(t, NS_MATH "sum", list(t, 1, duration_term), lex, datatype_local);
}

/* A dateTime form that is not a value: no builtin takes it. */
static void expect_bad_datetime(terms *t, const char *lex) {
    term_id bad = dt(t, lex), good = dt(t, "2026-01-01T00:00:00Z");
    expect_nothing(t, NS_TIME "inSeconds", bad, 0);
    expect_nothing(t, NS_TIME "year", bad, 0);
    expect_nothing(t, NS_MATH "notEqualTo", bad, good);
    expect_nothing(t, NS_MATH "sum", list(t, 2, bad, day_time(t, "PT1S")), 0);
}

static void expect_bad_duration(terms *t, term_id bad) {
    expect_nothing(t, NS_MATH "sum", list(t, 1, bad), 0);
    expect_nothing(t, NS_MATH "sum", list(t, 2, dt(t, "2026-01-01T00:00:00Z"), bad), 0);
    expect_nothing(t, NS_MATH "notEqualTo", bad, day_time(t, "PT1S"));
}

/* ---- lexical forms ---- */

static void datetime_forms_accepted(void **state) {
    terms *t = *state;
    expect_seconds(t, "1970-01-01T00:00:00Z", "0.0");
    expect_seconds(t, "2026-11-26T08:40:19.123Z", "1795682419.123");
    expect_seconds(t, "2026-11-26T08:40:19.123", "1795682419.123");       /* no zone: UTC */
    expect_seconds(t, "2026-11-26T10:40:19.123+02:00", "1795682419.123"); /* an offset east */
    expect_seconds(t, "2026-11-26T03:10:19.123-05:30", "1795682419.123");
    expect_seconds(t, "1970-01-01T00:00:00.1239Z", "0.123"); /* digits past the millisecond truncated */
    expect_seconds(t, "1970-01-01T00:00:00.5Z", "0.5");
    expect_seconds(t, "1969-12-31T23:59:59.999Z", "-0.001");
    expect_seconds(t, "1969-12-31T24:00:00Z", "0.0"); /* 24:00:00 is the next midnight */
    expect_seconds(t, "1969-12-31T24:00:00.000Z", "0.0");
    expect_seconds(t, "2024-02-29T00:00:00Z", "1709164800.0"); /* leap year */
    expect_seconds(t, "2000-02-29T00:00:00Z", "951782400.0");  /* divisible by 400: leap */
    expect_seconds(t, "0000-01-01T00:00:00Z", "-62167219200.0");
    expect_seconds(t, "9999-12-31T23:59:59.999Z", "253402300799.999");
    expect_seconds(t, "2026-01-01T00:00:00+14:00", "1767175200.0");
    expect_seconds(t, "2026-01-01T00:00:00-14:00", "1767276000.0");
}

static void datetime_forms_refused(void **state) {
    terms *t = *state;
    static const char *const BAD[] = {
        "2026-13-01T00:00:00Z",
        "2026-00-01T00:00:00Z",
        "2026-01-32T00:00:00Z",
        "2026-01-00T00:00:00Z",
        "2023-02-29T00:00:00Z",
        "1900-02-29T00:00:00Z",
        "2026-04-31T00:00:00Z",
        "2026-01-01T25:00:00Z",
        "2026-01-01T24:00:01Z",
        "2026-01-01T24:01:00Z",
        "2026-01-01T24:00:00.001Z",
        "2026-01-01T24:00:00.0001Z",
        "2026-01-01T00:60:00Z",
        "2026-01-01T00:00:60Z",
        "2026-01-01T00:00:00+15:00",
        "2026-01-01T00:00:00+14:01",
        "2026-01-01T00:00:00+05:60",
        "2026-01-01T00:00:00+0530",
        "2026-01-01T00:00:00+5:30",
        "2026-01-01T00:00:00z",
        "2026-1-01T00:00:00Z",
        "2026-01-01T0:00:00Z",
        "12026-01-01T00:00:00Z",
        "-2026-01-01T00:00:00Z",
        "2026-01-01 00:00:00Z",
        "2026-01-01T00:00:00.Z",
        "2026-01-01T00:00:00Z ",
        " 2026-01-01T00:00:00Z",
        "2026-01-01",
        "2026-01-01T00:00Z",
        "",
        "T",
        "2026-01-01T00:00:00ZZ",
        "2026-01-01T00:00:00+05:30x",
        "0000-01-01T00:00:00+01:00", /* before year 0000 in UTC */
        "9999-12-31T23:59:59-00:01", /* after year 9999 in UTC */
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++)
        expect_bad_datetime(t, BAD[i]);
    /* a dateTime's form as a simple literal or another type is not a dateTime */
    term_id plain = terms_string(t, "2026-01-01T00:00:00Z");
    expect_nothing(t, NS_TIME "inSeconds", plain, 0);
    expect_nothing(t, NS_MATH "lessThan", plain, dt(t, "2027-01-01T00:00:00Z"));
    expect_nothing(t, NS_TIME "year", xsd_typed(t, "2026-01-01T00:00:00Z", "string"), 0);
}

static void duration_forms(void **state) {
    terms *t = *state;
    expect_canonical(t, day_time(t, "PT0S"), "PT0S", "dayTimeDuration");
    expect_canonical(t, day_time(t, "P0D"), "PT0S", "dayTimeDuration");
    expect_canonical(t, day_time(t, "-PT0S"), "PT0S", "dayTimeDuration");
    expect_canonical(t, day_time(t, "PT1.5S"), "PT1.5S", "dayTimeDuration");
    expect_canonical(t, day_time(t, "PT1.500S"), "PT1.5S", "dayTimeDuration");
    expect_canonical(t, day_time(t, "PT90S"), "PT1M30S", "dayTimeDuration");
    expect_canonical(t, day_time(t, "PT26H"), "P1DT2H", "dayTimeDuration");
    expect_canonical(t, day_time(t, "P400D"), "P400D", "dayTimeDuration"); /* days never become months */
    expect_canonical(t, day_time(t, "P106751991167D"), "P106751991167D", "dayTimeDuration");
    expect_canonical(t, day_time(t, "-PT5S"), "-PT5S", "dayTimeDuration");
    expect_canonical(t, day_time(t, "P1DT2H3M4.05S"), "P1DT2H3M4.05S", "dayTimeDuration");
    expect_canonical(t, day_time(t, "PT0.0019S"), "PT0.001S", "dayTimeDuration");   /* truncated */
    expect_canonical(t, day_time(t, "-PT0.0019S"), "-PT0.001S", "dayTimeDuration"); /* toward zero */
    expect_canonical(t, day_time(t, "PT.5S"), "PT0.5S", "dayTimeDuration");
    expect_canonical(t, day_time(t, "PT1.S"), "PT1S", "dayTimeDuration");
    expect_canonical(t, year_month(t, "P14M"), "P1Y2M", "yearMonthDuration");
    expect_canonical(t, year_month(t, "P1Y"), "P1Y", "yearMonthDuration");
    expect_canonical(t, year_month(t, "P0Y"), "P0M", "yearMonthDuration");
    expect_canonical(t, year_month(t, "-P2M"), "-P2M", "yearMonthDuration");
    /* an xsd:duration with one kind of component is a value of that kind */
    expect_canonical(t, duration(t, "PT5S"), "PT5S", "dayTimeDuration");
    expect_canonical(t, duration(t, "P1Y"), "P1Y", "yearMonthDuration");
    expect_canonical(t, duration(t, "P1Y2M3DT4H5M6.7S"), "P1Y2M3DT4H5M6.7S", "duration");

    static const char *const BAD_DAY_TIME[] = {
        "PT",
        "P",
        "",
        "T1S",
        "PT1S ",
        "P1Y2X",
        "P1M",
        "P1Y",
        "P1.5D",
        "PT1.5M",
        "PT1H1H",
        "PT1M1H",
        "P1DT",
        "PT1D",
        "P-1D",
        "-P-1D",
        "+PT1S",
        "PT.S",
        "PT1,5S",
        "P1D1D",
        "1D",
        "PT1S2",
        "PTT1S",
        "P99999999999999999999D",
        "PT9223372036854775807S",
        "P106751991168D", /* beyond 64-bit milliseconds */
    };
    for (size_t i = 0; i < sizeof BAD_DAY_TIME / sizeof BAD_DAY_TIME[0]; i++)
        expect_bad_duration(t, day_time(t, BAD_DAY_TIME[i]));
    static const char *const BAD_YEAR_MONTH[] = {
        "P1D", "PT1S", "P1Y1D", "P1YT", "P1.5Y", "P1M1Y", "P", "P768614336404564651Y" /* 64-bit months overflow */};
    for (size_t i = 0; i < sizeof BAD_YEAR_MONTH / sizeof BAD_YEAR_MONTH[0]; i++)
        expect_bad_duration(t, year_month(t, BAD_YEAR_MONTH[i]));
    expect_bad_duration(t, duration(t, "P1Y2X"));
    expect_bad_duration(t, duration(t, "PT"));
    expect_bad_duration(t, terms_string(t, "PT5S")); /* untyped: a string */
}

/* ---- comparisons ---- */

static const char *const COMPARISONS[] = {"lessThan",   "notGreaterThan", "equalTo",
                                          "notEqualTo", "notLessThan",    "greaterThan"};

/* Which of the six comparisons hold for (a, b): a string of six 0/1 in COMPARISONS order. */
static void expect_comparisons(terms *t, term_id a, term_id b, const char *holds) {
    for (size_t i = 0; i < 6; i++) {
        char iri[128];
        snprintf(iri, sizeof iri, NS_MATH "%s", COMPARISONS[i]);
        assert_holds(t, iri, a, b, holds[i] == '1');
    }
}

#define LESS "110100"
#define EQUAL "011010"
#define GREATER "000111"
#define UNORDERED_UNEQUAL "000100"
#define NONE "000000"

static void comparisons(void **state) {
    terms *t = *state;
    term_id now = dt(t, "2026-11-26T08:40:19.123Z"), later = dt(t, "2026-11-26T08:40:19.124Z");
    expect_comparisons(t, now, later, LESS);
    expect_comparisons(t, later, now, GREATER);
    expect_comparisons(t, now, now, EQUAL);
    /* one instant in two timezones, and no zone as UTC */
    expect_comparisons(t, now, dt(t, "2026-11-26T10:40:19.123+02:00"), EQUAL);
    expect_comparisons(t, now, dt(t, "2026-11-26T08:40:19.123"), EQUAL);
    expect_comparisons(t, dt(t, "2026-11-26T10:00:00+02:00"), dt(t, "2026-11-26T09:00:00Z"), LESS);
    expect_comparisons(t, dt(t, "2026-11-26T24:00:00Z"), dt(t, "2026-11-27T00:00:00Z"), EQUAL);

    expect_comparisons(t, day_time(t, "PT5S"), day_time(t, "PT1M"), LESS);
    expect_comparisons(t, day_time(t, "PT60S"), day_time(t, "PT1M"), EQUAL);
    expect_comparisons(t, day_time(t, "P1D"), day_time(t, "PT23H59M59.999S"), GREATER);
    expect_comparisons(t, day_time(t, "-PT5S"), day_time(t, "PT0S"), LESS);
    expect_comparisons(t, year_month(t, "P1Y"), year_month(t, "P13M"), LESS);
    expect_comparisons(t, year_month(t, "P1Y"), duration(t, "P12M"), EQUAL);
    expect_comparisons(t, day_time(t, "PT0S"), year_month(t, "P0M"), EQUAL);
    /* a month and 30 days have no order; they are only unequal */
    expect_comparisons(t, year_month(t, "P1M"), day_time(t, "P30D"), UNORDERED_UNEQUAL);
    expect_comparisons(t, duration(t, "P1MT1S"), duration(t, "P1MT2S"), UNORDERED_UNEQUAL);
    expect_comparisons(t, duration(t, "P1MT1S"), duration(t, "P1MT1S"), EQUAL);

    /* mixed kinds: nothing holds, not even notEqualTo */
    expect_comparisons(t, now, integer(t, "1795682419"), NONE);
    expect_comparisons(t, integer(t, "5"), day_time(t, "PT5S"), NONE);
    expect_comparisons(t, now, day_time(t, "PT5S"), NONE);
    expect_comparisons(t, now, terms_string(t, "2026-11-26T08:40:19.123Z"), NONE);
    expect_comparisons(t, now, dt(t, "2026-11-26T08:40:61Z"), NONE);
    /* numbers still compare as before */
    expect_comparisons(t, integer(t, "2"), decimal(t, "2.5"), LESS);
}

/* ---- functions ---- */

static void sums(void **state) {
    terms *t = *state;
    term_id now = dt(t, "2026-11-26T08:40:19.123Z");
    expect_result(t, NS_MATH "sum", list(t, 2, now, day_time(t, "PT5S")), "2026-11-26T08:40:24.123Z", "dateTime");
    expect_result(t, NS_MATH "sum", list(t, 2, day_time(t, "PT5S"), now), "2026-11-26T08:40:24.123Z", "dateTime");
    expect_result(t, NS_MATH "sum", list(t, 3, now, day_time(t, "P1D"), day_time(t, "-PT0.123S")),
                  "2026-11-27T08:40:19.000Z", "dateTime");
    expect_result(t, NS_MATH "sum", list(t, 2, now, day_time(t, "P36500D")), "2126-11-02T08:40:19.123Z", "dateTime");
    /* the result is written in UTC with milliseconds, whatever the input's timezone */
    expect_result(t, NS_MATH "sum", list(t, 2, dt(t, "2026-11-26T10:00:00+05:30"), day_time(t, "PT0S")),
                  "2026-11-26T04:30:00.000Z", "dateTime");

    /* months: calendar arithmetic, the day clamped to the end of the month */
    expect_result(t, NS_MATH "sum", list(t, 2, dt(t, "2026-01-31T12:00:00Z"), year_month(t, "P1M")),
                  "2026-02-28T12:00:00.000Z", "dateTime");
    expect_result(t, NS_MATH "sum", list(t, 2, dt(t, "2024-01-31T12:00:00Z"), year_month(t, "P1M")),
                  "2024-02-29T12:00:00.000Z", "dateTime");
    expect_result(t, NS_MATH "sum", list(t, 2, dt(t, "2026-03-31T00:00:00Z"), year_month(t, "P1M")),
                  "2026-04-30T00:00:00.000Z", "dateTime");
    expect_result(t, NS_MATH "sum", list(t, 2, dt(t, "2026-01-31T00:00:00Z"), year_month(t, "P2M")),
                  "2026-03-31T00:00:00.000Z", "dateTime");
    /* folded left: the clamp of the first step stays */
    expect_result(t, NS_MATH "sum",
                  list(t, 3, dt(t, "2026-01-31T00:00:00Z"), year_month(t, "P1M"), year_month(t, "P1M")),
                  "2026-03-28T00:00:00.000Z", "dateTime");
    expect_result(t, NS_MATH "sum", list(t, 2, dt(t, "2024-02-29T00:00:00Z"), year_month(t, "P1Y")),
                  "2025-02-28T00:00:00.000Z", "dateTime");
    expect_result(t, NS_MATH "sum", list(t, 2, dt(t, "2026-11-30T00:00:00Z"), year_month(t, "P3M")),
                  "2027-02-28T00:00:00.000Z", "dateTime");
    expect_result(t, NS_MATH "sum", list(t, 2, dt(t, "2026-03-31T00:00:00Z"), year_month(t, "-P1M")),
                  "2026-02-28T00:00:00.000Z", "dateTime");
    expect_result(t, NS_MATH "sum", list(t, 2, dt(t, "2026-01-15T00:00:00Z"), year_month(t, "-P14M")),
                  "2024-11-15T00:00:00.000Z", "dateTime");
    /* months go on the dateTime's own calendar: 1 March 01:00 at +02:00 is 28 February in UTC */
    expect_result(t, NS_MATH "sum", list(t, 2, dt(t, "2026-03-01T01:00:00+02:00"), year_month(t, "P1M")),
                  "2026-03-31T23:00:00.000Z", "dateTime");
    /* a general duration adds its months first: Jan 31 + 1 month = Feb 28, then 1 day */
    expect_result(t, NS_MATH "sum", list(t, 2, dt(t, "2026-01-31T00:00:00Z"), duration(t, "P1M1D")),
                  "2026-03-01T00:00:00.000Z", "dateTime");

    /* durations of one kind */
    expect_result(t, NS_MATH "sum", list(t, 3, day_time(t, "PT5S"), day_time(t, "PT1M"), day_time(t, "-PT0.5S")),
                  "PT1M4.5S", "dayTimeDuration");
    expect_result(t, NS_MATH "sum", list(t, 2, day_time(t, "PT5S"), day_time(t, "-PT5S")), "PT0S", "dayTimeDuration");
    expect_result(t, NS_MATH "sum", list(t, 2, year_month(t, "P11M"), year_month(t, "P1M")), "P1Y",
                  "yearMonthDuration");
    expect_result(t, NS_MATH "sum", list(t, 2, year_month(t, "P1M"), year_month(t, "-P1M")), "P0M",
                  "yearMonthDuration");

    /* a bound object holds when it is the same value */
    term_id deadline = list(t, 2, now, day_time(t, "PT5S"));
    assert_holds(t, NS_MATH "sum", deadline, dt(t, "2026-11-26T08:40:24.123Z"), true);
    assert_holds(t, NS_MATH "sum", deadline, dt(t, "2026-11-26T10:40:24.123+02:00"), true);
    assert_holds(t, NS_MATH "sum", deadline, dt(t, "2026-11-26T08:40:24.124Z"), false);
    assert_holds(t, NS_MATH "sum", list(t, 2, day_time(t, "PT30S"), day_time(t, "PT30S")), day_time(t, "PT1M"), true);

    /* no sum */
    expect_nothing(t, NS_MATH "sum", list(t, 2, now, now), 0);
    expect_nothing(t, NS_MATH "sum", list(t, 2, now, integer(t, "5")), 0);
    expect_nothing(t, NS_MATH "sum", list(t, 2, integer(t, "5"), day_time(t, "PT5S")), 0);
    expect_nothing(t, NS_MATH "sum", list(t, 2, day_time(t, "PT5S"), year_month(t, "P1M")), 0);
    expect_nothing(t, NS_MATH "sum", list(t, 3, day_time(t, "P1D"), year_month(t, "P1M"), now), 0);
    expect_nothing(t, NS_MATH "sum", list(t, 2, dt(t, "9999-12-31T23:59:59.999Z"), day_time(t, "PT0.001S")), 0);
    expect_nothing(t, NS_MATH "sum", list(t, 2, dt(t, "0000-01-01T00:00:00Z"), day_time(t, "-PT0.001S")), 0);
    expect_nothing(t, NS_MATH "sum", list(t, 2, dt(t, "9999-12-01T00:00:00Z"), year_month(t, "P1M")), 0);
    expect_nothing(t, NS_MATH "sum", list(t, 2, day_time(t, "PT9223372036854775.807S"), day_time(t, "PT0.001S")),
                   0); /* overflow */
    /* numbers are summed as before, and the empty list is 0 once */
    expect_result(t, NS_MATH "sum", list(t, 2, integer(t, "2"), integer(t, "3")), "5", "integer");
    expect_result(t, NS_MATH "sum", T_RDF_NIL, "0", "integer");
}

static void differences(void **state) {
    terms *t = *state;
    term_id now = dt(t, "2026-11-26T08:40:19.123Z");
    expect_result(t, NS_MATH "difference", list(t, 2, dt(t, "2026-11-26T08:40:30Z"), now), "PT10.877S",
                  "dayTimeDuration");
    expect_result(t, NS_MATH "difference", list(t, 2, now, dt(t, "2026-11-26T08:40:24.123Z")), "-PT5S",
                  "dayTimeDuration");
    expect_result(t, NS_MATH "difference", list(t, 2, dt(t, "2026-11-27T10:40:19.123+02:00"), now), "P1D",
                  "dayTimeDuration");
    expect_result(t, NS_MATH "difference", list(t, 2, now, now), "PT0S", "dayTimeDuration");
    expect_result(t, NS_MATH "difference", list(t, 2, dt(t, "2025-03-01T00:00:00Z"), dt(t, "2024-03-01T00:00:00Z")),
                  "P365D", "dayTimeDuration");
    expect_result(t, NS_MATH "difference", list(t, 2, dt(t, "2024-03-01T00:00:00Z"), dt(t, "2023-03-01T00:00:00Z")),
                  "P366D", "dayTimeDuration");
    expect_result(t, NS_MATH "difference", list(t, 2, now, day_time(t, "PT5S")), "2026-11-26T08:40:14.123Z",
                  "dateTime");
    expect_result(t, NS_MATH "difference", list(t, 2, now, day_time(t, "-PT5S")), "2026-11-26T08:40:24.123Z",
                  "dateTime");
    expect_result(t, NS_MATH "difference", list(t, 2, dt(t, "2026-03-31T00:00:00Z"), year_month(t, "P1M")),
                  "2026-02-28T00:00:00.000Z", "dateTime");
    expect_result(t, NS_MATH "difference", list(t, 2, day_time(t, "PT1M"), day_time(t, "PT1M5S")), "-PT5S",
                  "dayTimeDuration");
    expect_result(t, NS_MATH "difference", list(t, 2, year_month(t, "P1Y"), year_month(t, "P1M")), "P11M",
                  "yearMonthDuration");
    assert_holds(t, NS_MATH "difference", list(t, 2, dt(t, "2026-11-26T08:40:30Z"), now), duration(t, "PT10.877S"),
                 true);

    expect_nothing(t, NS_MATH "difference", list(t, 2, day_time(t, "PT5S"), now), 0);
    expect_nothing(t, NS_MATH "difference", list(t, 2, day_time(t, "PT5S"), year_month(t, "P1M")), 0);
    expect_nothing(t, NS_MATH "difference", list(t, 2, now, integer(t, "5")), 0);
    expect_nothing(t, NS_MATH "difference", list(t, 3, now, now, now), 0);
    expect_nothing(t, NS_MATH "difference", list(t, 2, dt(t, "0000-01-01T00:00:00Z"), day_time(t, "PT0.001S")), 0);
}

static void products(void **state) {
    terms *t = *state;
    term_id five = day_time(t, "PT5S");
    expect_result(t, NS_MATH "product", list(t, 2, five, integer(t, "3")), "PT15S", "dayTimeDuration");
    expect_result(t, NS_MATH "product", list(t, 2, integer(t, "3"), five), "PT15S", "dayTimeDuration");
    expect_result(t, NS_MATH "product", list(t, 2, five, decimal(t, "1.5")), "PT7.5S", "dayTimeDuration");
    expect_result(t, NS_MATH "product", list(t, 2, five, dbl(t, "2.5E0")), "PT12.5S", "dayTimeDuration");
    expect_result(t, NS_MATH "product", list(t, 2, five, terms_string(t, "2")), "PT10S", "dayTimeDuration");
    expect_result(t, NS_MATH "product", list(t, 2, five, integer(t, "-1")), "-PT5S", "dayTimeDuration");
    expect_result(t, NS_MATH "product", list(t, 2, five, integer(t, "0")), "PT0S", "dayTimeDuration");
    /* rounded to the millisecond as fn:round rounds: a half up */
    expect_result(t, NS_MATH "product", list(t, 2, day_time(t, "PT0.001S"), decimal(t, "0.5")), "PT0.001S",
                  "dayTimeDuration");
    expect_result(t, NS_MATH "product", list(t, 2, day_time(t, "-PT0.001S"), decimal(t, "0.5")), "PT0S",
                  "dayTimeDuration");
    expect_result(t, NS_MATH "product", list(t, 2, day_time(t, "-PT0.003S"), decimal(t, "0.5")), "-PT0.001S",
                  "dayTimeDuration");
    expect_result(t, NS_MATH "product", list(t, 2, day_time(t, "PT1S"), decimal(t, "0.0004999")), "PT0S",
                  "dayTimeDuration");
    expect_result(t, NS_MATH "product", list(t, 2, day_time(t, "PT1S"), dbl(t, "4.9999E-4")), "PT0S",
                  "dayTimeDuration");
    /* the double just below 0.5: floor(x + 0.5) would round it up */
    expect_result(t, NS_MATH "product", list(t, 2, day_time(t, "PT0.001S"), dbl(t, "4.9999999999999994E-1")), "PT0S",
                  "dayTimeDuration");
    /* a retry delay times a backoff factor */
    expect_result(t, NS_MATH "product", list(t, 2, day_time(t, "PT1S"), integer(t, "8")), "PT8S", "dayTimeDuration");
    expect_result(t, NS_MATH "product", list(t, 2, year_month(t, "P1Y2M"), decimal(t, "1.5")), "P1Y9M",
                  "yearMonthDuration");
    expect_result(t, NS_MATH "product", list(t, 2, year_month(t, "P1M"), decimal(t, "1.5")), "P2M",
                  "yearMonthDuration");
    expect_result(t, NS_MATH "product", list(t, 2, year_month(t, "-P1M"), decimal(t, "1.5")), "-P1M",
                  "yearMonthDuration");
    assert_holds(t, NS_MATH "product", list(t, 2, five, integer(t, "12")), day_time(t, "PT1M"), true);
    assert_holds(t, NS_MATH "product", list(t, 2, five, integer(t, "12")), day_time(t, "PT2M"), false);

    expect_nothing(t, NS_MATH "product", list(t, 2, five, dbl(t, "NaN")), 0);
    expect_nothing(t, NS_MATH "product", list(t, 2, five, dbl(t, "INF")), 0);
    expect_nothing(t, NS_MATH "product", list(t, 2, five, dbl(t, "1E300")), 0);
    expect_nothing(t, NS_MATH "product", list(t, 2, five, five), 0);
    expect_nothing(t, NS_MATH "product", list(t, 2, dt(t, "2026-01-01T00:00:00Z"), integer(t, "2")), 0);
    expect_nothing(t, NS_MATH "product", list(t, 2, duration(t, "P1MT1S"), integer(t, "2")), 0);
    expect_nothing(t, NS_MATH "product", list(t, 3, five, integer(t, "2"), integer(t, "2")), 0);
    expect_nothing(t, NS_MATH "product", list(t, 2, five, terms_string(t, "two")), 0);
}

static void quotients(void **state) {
    terms *t = *state;
    term_id minute = day_time(t, "PT1M");
    expect_result(t, NS_MATH "quotient", list(t, 2, minute, integer(t, "4")), "PT15S", "dayTimeDuration");
    expect_result(t, NS_MATH "quotient", list(t, 2, day_time(t, "PT1S"), integer(t, "3")), "PT0.333S",
                  "dayTimeDuration");
    expect_result(t, NS_MATH "quotient", list(t, 2, day_time(t, "PT2S"), integer(t, "3")), "PT0.667S",
                  "dayTimeDuration");
    expect_result(t, NS_MATH "quotient", list(t, 2, minute, decimal(t, "0.5")), "PT2M", "dayTimeDuration");
    expect_result(t, NS_MATH "quotient", list(t, 2, minute, dbl(t, "INF")), "PT0S", "dayTimeDuration");
    expect_result(t, NS_MATH "quotient", list(t, 2, year_month(t, "P1Y"), integer(t, "5")), "P2M",
                  "yearMonthDuration"); /* 2.4 months */
    expect_result(t, NS_MATH "quotient", list(t, 2, minute, day_time(t, "PT5S")), "12.0", "decimal");
    expect_result(t, NS_MATH "quotient", list(t, 2, day_time(t, "PT1S"), day_time(t, "-PT4S")), "-0.25", "decimal");
    expect_result(t, NS_MATH "quotient", list(t, 2, year_month(t, "P1Y"), year_month(t, "P5M")), "2.4", "decimal");

    expect_nothing(t, NS_MATH "quotient", list(t, 2, minute, integer(t, "0")), 0);
    expect_nothing(t, NS_MATH "quotient", list(t, 2, minute, dbl(t, "0.0E0")), 0);
    expect_nothing(t, NS_MATH "quotient", list(t, 2, minute, day_time(t, "PT0S")), 0);
    expect_nothing(t, NS_MATH "quotient", list(t, 2, minute, year_month(t, "P1M")), 0);
    expect_nothing(t, NS_MATH "quotient", list(t, 2, integer(t, "4"), minute), 0);
    expect_nothing(t, NS_MATH "quotient", list(t, 2, dt(t, "2026-01-01T00:00:00Z"), integer(t, "2")), 0);
}

/* ---- time: ---- */

static void time_fields(void **state) {
    terms *t = *state;
    term_id now = dt(t, "2026-11-26T08:40:19.923Z");
    expect_result(t, NS_TIME "year", now, "2026", "integer");
    expect_result(t, NS_TIME "month", now, "11", "integer");
    expect_result(t, NS_TIME "day", now, "26", "integer");
    expect_result(t, NS_TIME "hour", now, "8", "integer");
    expect_result(t, NS_TIME "minute", now, "40", "integer");
    expect_result(t, NS_TIME "second", now, "19", "integer"); /* the integer seconds, as the report says */
    expect_result(t, NS_TIME "timeZone", now, "Z", NULL);
    /* fields as written, in the dateTime's own timezone */
    term_id east = dt(t, "2027-01-01T01:30:00+05:30");
    expect_result(t, NS_TIME "year", east, "2027", "integer");
    expect_result(t, NS_TIME "month", east, "1", "integer");
    expect_result(t, NS_TIME "day", east, "1", "integer");
    expect_result(t, NS_TIME "hour", east, "1", "integer");
    expect_result(t, NS_TIME "minute", east, "30", "integer");
    expect_result(t, NS_TIME "timeZone", east, "+05:30", NULL);
    expect_result(t, NS_TIME "timeZone", dt(t, "2026-01-01T00:00:00-14:00"), "-14:00", NULL);
    expect_result(t, NS_TIME "timeZone", dt(t, "2026-01-01T00:00:00+00:00"), "Z", NULL);
    /* 24:00:00 is the next day's midnight */
    term_id midnight = dt(t, "2026-12-31T24:00:00Z");
    expect_result(t, NS_TIME "year", midnight, "2027", "integer");
    expect_result(t, NS_TIME "hour", midnight, "0", "integer");
    /* no timezone: no time:timeZone, the fields as written */
    term_id floating = dt(t, "2026-11-26T08:40:19");
    expect_nothing(t, NS_TIME "timeZone", floating, 0);
    expect_result(t, NS_TIME "hour", floating, "8", "integer");

    assert_holds(t, NS_TIME "year", now, integer(t, "2026"), true);
    assert_holds(t, NS_TIME "year", now, decimal(t, "2026.0"), true);
    assert_holds(t, NS_TIME "year", now, integer(t, "2025"), false);
    assert_holds(t, NS_TIME "timeZone", now, terms_string(t, "Z"), true);
    assert_holds(t, NS_TIME "timeZone", now, terms_string(t, "+00:00"), false);
    expect_nothing(t, NS_TIME "year", day_time(t, "P1D"), 0);
    expect_nothing(t, NS_TIME "hour", integer(t, "2026"), 0);
    expect_nothing(t, NS_TIME "year", 0, integer(t, "2026"));
}

static void time_in_seconds(void **state) {
    terms *t = *state;
    expect_result(t, NS_TIME "inSeconds", day_time(t, "PT1M30.5S"), "90.5", "decimal");
    expect_result(t, NS_TIME "inSeconds", day_time(t, "-P1D"), "-86400.0", "decimal");
    expect_nothing(t, NS_TIME "inSeconds", year_month(t, "P1M"), 0);
    expect_nothing(t, NS_TIME "inSeconds", integer(t, "5"), 0);
    assert_holds(t, NS_TIME "inSeconds", dt(t, "1970-01-01T00:16:40Z"), integer(t, "1000"), true);
    assert_holds(t, NS_TIME "inSeconds", dt(t, "1970-01-01T00:16:40.001Z"), integer(t, "1000"), false);

    /* the inverse: the dateTime of so many seconds, in UTC */
    solutions a = run(t, NS_TIME "inSeconds", 0, integer(t, "1000"));
    assert_int_equal(a.n, 1);
    assert_string_equal(terms_lex(t, a.subject[0], NULL), "1970-01-01T00:16:40.000Z");
    assert_int_equal(terms_datatype(t, a.subject[0]), T_XSD_DATETIME);
    a = run(t, NS_TIME "inSeconds", 0, decimal(t, "1795682419.1235"));
    assert_int_equal(a.n, 1);
    assert_string_equal(terms_lex(t, a.subject[0], NULL), "2026-11-26T08:40:19.124Z");
    a = run(t, NS_TIME "inSeconds", 0, integer(t, "-1"));
    assert_int_equal(a.n, 1);
    assert_string_equal(terms_lex(t, a.subject[0], NULL), "1969-12-31T23:59:59.000Z");
    expect_nothing(t, NS_TIME "inSeconds", 0, integer(t, "253402300800"));
    expect_nothing(t, NS_TIME "inSeconds", 0, dbl(t, "NaN"));
    expect_nothing(t, NS_TIME "inSeconds", 0, terms_string(t, "soon"));
}

/* Values no literal can hold (a duration of -2^63 ms) are refused, not negated into undefined behaviour. */
static void extreme_values(void **state) {
    (void)state;
    xsd_time now, lowest = {.kind = XSD_DAYTIME_DURATION, .ms = INT64_MIN}, out;
    assert_true(xsd_datetime_parse("2026-01-01T00:00:00Z", 20, &now));
    assert_false(xsd_time_subtract(&now, &lowest, &out));
    assert_false(xsd_time_subtract(&lowest, &(xsd_time){.kind = XSD_DAYTIME_DURATION, .ms = 1}, &out));
}

static void lookup(void **state) {
    (void)state;
    assert_int_equal(builtin_lookup(NS_TIME "year")->mode, BUILTIN_SUBJECT_IN);
    assert_int_equal(builtin_lookup(NS_TIME "inSeconds")->mode, BUILTIN_EITHER_IN);
    /* the clock triple is a rule's only time: no builtin reads the system clock */
    assert_null(builtin_lookup(NS_TIME "currentTime"));
    assert_null(builtin_lookup(NS_TIME "localTime"));
    assert_null(builtin_lookup(NS_TIME "gmTime"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(datetime_forms_accepted, setup, teardown),
        cmocka_unit_test_setup_teardown(datetime_forms_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(duration_forms, setup, teardown),
        cmocka_unit_test_setup_teardown(comparisons, setup, teardown),
        cmocka_unit_test_setup_teardown(sums, setup, teardown),
        cmocka_unit_test_setup_teardown(differences, setup, teardown),
        cmocka_unit_test_setup_teardown(products, setup, teardown),
        cmocka_unit_test_setup_teardown(quotients, setup, teardown),
        cmocka_unit_test_setup_teardown(time_fields, setup, teardown),
        cmocka_unit_test_setup_teardown(time_in_seconds, setup, teardown),
        cmocka_unit_test(extreme_values),
        cmocka_unit_test(lookup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
