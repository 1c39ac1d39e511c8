/* numeric.h: XSD numeric values for the math: builtins: reading numeric literals, arithmetic with
 * XPath numeric type promotion, comparison, and canonical lexical forms.
 *
 * NOTES ON THE DESIGN
 *  1. Three kinds, as XPath promotes them: integer op integer stays an integer; an integer or decimal
 *     with a decimal is a decimal; anything with a double is a double.
 *  2. Integers are exact and unbounded (GMP): 2^64 + 1 is not 2^64, 2^200 is written out in full.
 *     Decimals are exact as coeff * 10^-scale with an unbounded coefficient too (an exact integer part
 *     of any size) and scale <= NUMBER_MAX_SCALE: fraction digits beyond that, in a literal or a
 *     result, are rounded half away from zero in one step (1/3 is 0.333333333333333333;
 *     123456789.1234567891234 reads as 123456789.123456789123). So a decimal never loses an integer
 *     digit nor one of its first 18 fraction digits, whatever its size.
 *  3. A value whose coefficient fits 64 bits is held in `coeff` and computed on without GMP (the
 *     reasoner compares and adds small numbers in its hot loops); a larger one in `big`, which owns
 *     memory: a number read or computed must be given to number_clear. An exact result of more than
 *     NUMBER_MAX_BITS bits (1.26 million decimal digits: 2^5000000, say) is computed as a double
 *     instead: approximate (INF or 0), never missing, and no input makes us compute for hours or
 *     exhaust memory that way.
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

/* The bits an exact result may have before it is computed as a double instead (NOTES 3). */
#define NUMBER_MAX_BITS (1u << 22)

struct number_big;

typedef struct number {
    enum number_kind kind;
    /* integer: the value; decimal: value = coeff * 10^-scale, no trailing zero digit. When the
     * coefficient does not fit 64 bits it is in `big`, and coeff is INT64_MIN or INT64_MAX by its sign. */
    int64_t coeff;
    int scale;              /* 0 for integers */
    double real;            /* double only */
    struct number_big *big; /* NULL, or the coefficient when it needs more than 64 bits (owned) */
} number;

enum number_order { NUMBER_LESS, NUMBER_EQUAL, NUMBER_GREATER, NUMBER_UNORDERED /* a NaN */ };

/* Frees what the number owns (NOTES 3); it is then 0. Any number may be cleared, any number of times. */
void number_clear(number *n);

/* Reads a numeric literal: xsd:integer and its derived types (range-checked), xsd:decimal,
 * xsd:double, xsd:float, and a simple literal whose text has integer, decimal or double syntax
 * ("3", "-2.5", "1e3"), as EYE accepts. False for anything else (IRIs, "abc", "300"^^xsd:byte). */
bool number_from_term(const terms *t, term_id id, number *out);
/* The literal with the number's canonical lexical form and its kind's datatype. */
term_id number_to_term(terms *t, const number *n);

number number_integer(int64_t value);
number number_double(double value);
/* The value as a double (+-INF beyond its range). */
double number_to_double(const number *n);
/* |v| as an unsigned value, defined for INT64_MIN as well. */
uint64_t int64_magnitude(int64_t v);
enum number_order number_compare(const number *a, const number *b);
/* -1, 0 or 1; 0 for a NaN. */
int number_sign(const number *n);

/* Each returns false when the operation has no result (NOTES 4); *out is then untouched. A result is a
 * new number for the caller to clear (*out is overwritten, not cleared first). */
bool number_add(const number *a, const number *b, number *out);
bool number_subtract(const number *a, const number *b, number *out);
bool number_multiply(const number *a, const number *b, number *out);
/* XPath's division: exact operands give a decimal (6/3 is "2.0"^^xsd:decimal; math:quotient makes it 2),
 * with a double a double. */
bool number_divide(const number *a, const number *b, number *out);
/* An exact base to a non-negative integer power keeps the base's kind (2^200 exactly; NOTES 3 for the
 * limit); otherwise a double. */
bool number_power(const number *base, const number *exponent, number *out);
/* Always a double. */
bool number_sqrt(const number *a, number *out);
/* -a and |a|, of a's kind. */
bool number_negate(const number *a, number *out);
bool number_absolute(const number *a, number *out);
/* The integer nearest below, above, or nearest (a half toward positive infinity, as XPath's fn:round),
 * an xsd:integer whatever a's kind; none for INF or NaN. */
bool number_floor(const number *a, number *out);
bool number_ceiling(const number *a, number *out);
bool number_round(const number *a, number *out);
/* floor(a / b) as an xsd:integer, and a - b * floor(a / b) (the sign of b) of a's and b's kind, as cwm
 * and EYE compute them: (-7 2) gives -4 and 1, (7 -2) gives -4 and -1. None when b is 0. */
bool number_floor_divide(const number *a, const number *b, number *out);
bool number_modulo(const number *a, const number *b, number *out);
/* value * factor, or with `divide` value / factor, rounded to an integer as XPath's fn:round rounds
 * (a half toward positive infinity), exactly for an integer or decimal factor. False when the result
 * is not finite or does not fit 64 bits, or on division by zero. (Durations times numbers, xsd_time.h.) */
bool number_scale_to_integer(int64_t value, const number *factor, bool divide, int64_t *out);

#endif
