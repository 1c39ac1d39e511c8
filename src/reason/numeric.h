/* numeric.h: XSD numeric values for the math: builtins: reading numeric literals, arithmetic with
 * XPath numeric type promotion, comparison, and canonical lexical forms.
 *
 * NOTES ON THE DESIGN
 *  1. Three kinds, as XPath promotes them: integer op integer stays an integer; an integer or decimal
 *     with a decimal is a decimal; anything with a double is a double.
 *  2. Integers are exact 64-bit. Decimals are exact as coeff * 10^-scale with a 64-bit coefficient
 *     (18 or 19 significant digits; XSD requires 18) and scale <= NUMBER_MAX_SCALE: fraction digits
 *     beyond that, in a literal or a result, are rounded half away from zero in one step (1/3 is
 *     0.333333333333333333; 123456789.123456789123 reads as 123456789.1234567891).
 *  3. A value or result beyond 64 bits (an integer literal with 20 digits, a product that overflows)
 *     falls back to xsd:double: the answer is approximate, never wrong in magnitude, never missing.
 *  4. An operation undefined for its arguments (division by zero, the square root of a negative
 *     number, 0 to a negative power, a NaN made from non-NaN arguments) has no result.
 *  5. Canonical forms (XSD 1.0): integer "-12"; decimal "2.0", "-0.5"; double "1.5E2", "0.0E0",
 *     "INF", "-INF", "NaN" (the shortest mantissa that reads back as the same double). */
#ifndef LDGSM_REASON_NUMERIC_H
#define LDGSM_REASON_NUMERIC_H

#include <stdbool.h>
#include <stdint.h>

#include "rdf/term.h"

#define NUMBER_MAX_SCALE 18

enum number_kind { NUMBER_INTEGER, NUMBER_DECIMAL, NUMBER_DOUBLE };

typedef struct number {
    enum number_kind kind;
    int64_t coeff; /* integer: the value; decimal: value = coeff * 10^-scale, no trailing zero digit */
    int scale;     /* 0 for integers */
    double real;   /* double only */
} number;

enum number_order { NUMBER_LESS, NUMBER_EQUAL, NUMBER_GREATER, NUMBER_UNORDERED /* a NaN */ };

/* Reads a numeric literal: xsd:integer and its derived types (range-checked), xsd:decimal,
 * xsd:double, xsd:float, and a simple literal whose text has integer, decimal or double syntax
 * ("3", "-2.5", "1e3"), as EYE accepts. False for anything else (IRIs, "abc", "300"^^xsd:byte). */
bool number_from_term(const terms *t, term_id id, number *out);
/* The literal with the number's canonical lexical form and its kind's datatype. */
term_id number_to_term(terms *t, const number *n);

number number_integer(int64_t value);
/* |v| as an unsigned value, defined for INT64_MIN as well. */
uint64_t int64_magnitude(int64_t v);
enum number_order number_compare(const number *a, const number *b);

/* Each returns false when the operation has no result (NOTES 4); *out is then untouched. */
bool number_add(const number *a, const number *b, number *out);
bool number_subtract(const number *a, const number *b, number *out);
bool number_multiply(const number *a, const number *b, number *out);
/* Exact operands give a decimal (6/3 is "2.0"^^xsd:decimal); with a double, a double. */
bool number_divide(const number *a, const number *b, number *out);
/* An exact base to a non-negative integer power keeps the base's kind; otherwise a double. */
bool number_power(const number *base, const number *exponent, number *out);
/* Always a double. */
bool number_sqrt(const number *a, number *out);
/* value * factor, or with `divide` value / factor, rounded to an integer as XPath's fn:round rounds
 * (a half toward positive infinity), exactly for an integer or decimal factor. False when the result
 * is not finite or does not fit 64 bits, or on division by zero. (Durations times numbers, xsd_time.h.) */
bool number_scale_to_integer(int64_t value, const number *factor, bool divide, int64_t *out);

#endif
