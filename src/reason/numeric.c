/* numeric.c: XSD numeric values (see numeric.h for the kinds, the precision and the canonical forms).
 * Exact arithmetic is done on 128-bit integers (GCC and Clang's __int128) and brought back to a 64-bit
 * coefficient by fit_exact(); a result whose integer part does not fit is re-done in double precision. */
#include "reason/numeric.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int64_t POW10[NUMBER_MAX_SCALE + 1] = {
    1LL,
    10LL,
    100LL,
    1000LL,
    10000LL,
    100000LL,
    1000000LL,
    10000000LL,
    100000000LL,
    1000000000LL,
    10000000000LL,
    100000000000LL,
    1000000000000LL,
    10000000000000LL,
    100000000000000LL,
    1000000000000000LL,
    10000000000000000LL,
    100000000000000000LL,
    1000000000000000000LL,
};

/* ---- constructors and conversions ---- */

number number_integer(int64_t value) { return (number){.kind = NUMBER_INTEGER, .coeff = value}; }

static number make_double(double value) { return (number){.kind = NUMBER_DOUBLE, .real = value}; }

/* An exact number; a decimal loses its trailing zero digits so that equal decimals look alike. */
static number make_exact(enum number_kind kind, int64_t coeff, int scale) {
    while (scale > 0 && coeff % 10 == 0) {
        coeff /= 10;
        scale--;
    }
    return (number){.kind = kind, .coeff = coeff, .scale = scale};
}

static bool is_exact(const number *n) { return n->kind != NUMBER_DOUBLE; }

static double to_double(const number *n) {
    return n->kind == NUMBER_DOUBLE ? n->real : (double)n->coeff / (double)POW10[n->scale];
}

uint64_t int64_magnitude(int64_t v) { return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v; }

/* ---- reading literals ---- */

typedef struct number_shape {
    bool valid, has_point, has_exponent;
} number_shape;

/* The XSD lexical shape: [+-]? (digits (. digits?)? | . digits) ([eE] [+-]? digits)? */
static number_shape scan_shape(const char *s, size_t len) {
    number_shape shape = {0};
    size_t i = 0, mantissa_digits = 0;
    if (i < len && (s[i] == '+' || s[i] == '-'))
        i++;
    for (; i < len && s[i] >= '0' && s[i] <= '9'; i++)
        mantissa_digits++;
    if (i < len && s[i] == '.') {
        shape.has_point = true;
        for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++)
            mantissa_digits++;
    }
    if (mantissa_digits == 0)
        return shape;
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        shape.has_exponent = true;
        i++;
        if (i < len && (s[i] == '+' || s[i] == '-'))
            i++;
        size_t exponent_digits = 0;
        for (; i < len && s[i] >= '0' && s[i] <= '9'; i++)
            exponent_digits++;
        if (exponent_digits == 0)
            return shape;
    }
    shape.valid = i == len;
    return shape;
}

/* s is NUL-terminated (term lexical forms are) and of a valid shape, or INF/NaN. */
static number read_double(const char *s) {
    if (strcmp(s, "INF") == 0 || strcmp(s, "+INF") == 0)
        return make_double(INFINITY);
    if (strcmp(s, "-INF") == 0)
        return make_double(-INFINITY);
    if (strcmp(s, "NaN") == 0)
        return make_double(NAN);
    return make_double(strtod(s, NULL));
}

/* An integer or decimal of valid shape without exponent. Fraction digits beyond what a 64-bit
 * coefficient at scale <= NUMBER_MAX_SCALE holds are rounded; an integer part beyond 64 bits makes
 * the value a double (numeric.h NOTES 3). */
static number read_exact(const char *s, size_t len, enum number_kind kind) {
    size_t end = len;
    const char *point = memchr(s, '.', len);
    if (point)
        while (end > (size_t)(point - s) + 1 && s[end - 1] == '0')
            end--;
    bool negative = s[0] == '-';
    uint64_t mag = 0;
    int scale = 0;
    bool in_fraction = false;
    for (size_t i = (s[0] == '+' || s[0] == '-') ? 1 : 0; i < end; i++) {
        if (s[i] == '.') {
            in_fraction = true;
            continue;
        }
        unsigned digit = (unsigned)(s[i] - '0');
        bool full = mag > ((uint64_t)INT64_MAX - digit) / 10;
        if (!in_fraction && full)
            return read_double(s);
        if (in_fraction && (full || scale == NUMBER_MAX_SCALE)) {
            if (digit >= 5 && ++mag > (uint64_t)INT64_MAX)
                return read_double(s);
            break;
        }
        mag = mag * 10 + digit;
        if (in_fraction)
            scale++;
    }
    int64_t coeff = (int64_t)mag;
    return make_exact(kind, negative ? -coeff : coeff, scale);
}

/* xsd:integer's derived types with their value ranges; fits_64 types reject a value beyond 64 bits. */
typedef struct integer_type {
    const char *local_name;
    double min, max;
    bool fits_64;
} integer_type;

static const integer_type INTEGER_TYPES[] = {
    {"integer", -INFINITY, INFINITY, false},
    {"nonPositiveInteger", -INFINITY, 0, false},
    {"negativeInteger", -INFINITY, -1, false},
    {"long", -9223372036854775808.0, 9223372036854775807.0, true},
    {"int", -2147483648.0, 2147483647.0, true},
    {"short", -32768, 32767, true},
    {"byte", -128, 127, true},
    {"nonNegativeInteger", 0, INFINITY, false},
    {"positiveInteger", 1, INFINITY, false},
    {"unsignedLong", 0, 18446744073709551615.0, false},
    {"unsignedInt", 0, 4294967295.0, true},
    {"unsignedShort", 0, 65535, true},
    {"unsignedByte", 0, 255, true},
};

static const integer_type *integer_type_of(const char *datatype_iri) {
    size_t ns_len = strlen(NS_XSD);
    if (strncmp(datatype_iri, NS_XSD, ns_len) != 0)
        return NULL;
    for (size_t i = 0; i < sizeof INTEGER_TYPES / sizeof INTEGER_TYPES[0]; i++)
        if (strcmp(datatype_iri + ns_len, INTEGER_TYPES[i].local_name) == 0)
            return &INTEGER_TYPES[i];
    return NULL;
}

static bool read_integer_type(const char *s, size_t len, const integer_type *type, number *out) {
    number_shape shape = scan_shape(s, len);
    if (!shape.valid || shape.has_point || shape.has_exponent)
        return false;
    number n = read_exact(s, len, NUMBER_INTEGER);
    if (n.kind == NUMBER_DOUBLE && type->fits_64)
        return false;
    double value = to_double(&n);
    if (value < type->min || value > type->max)
        return false;
    *out = n;
    return true;
}

bool number_from_term(const terms *t, term_id id, number *out) {
    if (terms_kind(t, id) != TERM_LITERAL || terms_lang(t, id))
        return false;
    size_t len;
    const char *s = terms_lex(t, id, &len);
    term_id datatype = terms_datatype(t, id);
    number_shape shape = scan_shape(s, len);
    if (datatype == 0) {
        if (!shape.valid)
            return false;
        *out = shape.has_exponent ? read_double(s)
                                  : read_exact(s, len, shape.has_point ? NUMBER_DECIMAL : NUMBER_INTEGER);
        return true;
    }
    if (datatype == T_XSD_DECIMAL) {
        if (!shape.valid || shape.has_exponent)
            return false;
        *out = read_exact(s, len, NUMBER_DECIMAL);
        return true;
    }
    const char *datatype_iri = terms_lex(t, datatype, NULL);
    if (datatype == T_XSD_DOUBLE || strcmp(datatype_iri, NS_XSD "float") == 0) {
        bool special = strcmp(s, "INF") == 0 || strcmp(s, "+INF") == 0 || strcmp(s, "-INF") == 0 ||
                       strcmp(s, "NaN") == 0;
        if (!shape.valid && !special)
            return false;
        *out = read_double(s);
        return true;
    }
    const integer_type *type = integer_type_of(datatype_iri);
    return type && read_integer_type(s, len, type, out);
}

/* ---- canonical lexical forms ---- */

static void format_decimal(const number *n, char *out, size_t cap) {
    uint64_t mag = int64_magnitude(n->coeff);
    const char *sign = n->coeff < 0 ? "-" : "";
    uint64_t unit = (uint64_t)POW10[n->scale];
    if (n->scale == 0)
        snprintf(out, cap, "%s%" PRIu64 ".0", sign, mag);
    else
        snprintf(out, cap, "%s%" PRIu64 ".%0*" PRIu64, sign, mag / unit, n->scale, mag % unit);
}

/* XSD 1.0 canonical double: one nonzero digit before the point, at least one after, no trailing zero
 * digit, "E" and the exponent without "+" or leading zeros. */
static void format_double(double v, char *out, size_t cap) {
    if (isnan(v)) {
        snprintf(out, cap, "NaN");
        return;
    }
    if (isinf(v)) {
        snprintf(out, cap, "%s", v > 0 ? "INF" : "-INF");
        return;
    }
    if (v == 0) {
        snprintf(out, cap, "%s", signbit(v) ? "-0.0E0" : "0.0E0");
        return;
    }
    char sci[40];
    for (int precision = 0; precision <= 16; precision++) {
        snprintf(sci, sizeof sci, "%.*e", precision, v);
        if (strtod(sci, NULL) == v)
            break;
    }
    /* sci is "-d.ddde+XX" or "de-XX" */
    char *e = strchr(sci, 'e');
    long exponent = strtol(e + 1, NULL, 10);
    *e = '\0';
    const char *sign = sci[0] == '-' ? "-" : "";
    const char *digits = sci[0] == '-' ? sci + 1 : sci;
    char lead = digits[0];
    const char *fraction = digits[1] == '.' ? digits + 2 : "";
    size_t fraction_len = strlen(fraction);
    while (fraction_len > 0 && fraction[fraction_len - 1] == '0')
        fraction_len--;
    if (fraction_len == 0)
        snprintf(out, cap, "%s%c.0E%ld", sign, lead, exponent);
    else
        snprintf(out, cap, "%s%c.%.*sE%ld", sign, lead, (int)fraction_len, fraction, exponent);
}

term_id number_to_term(terms *t, const number *n) {
    char text[64];
    term_id datatype;
    switch (n->kind) {
    case NUMBER_INTEGER:
        snprintf(text, sizeof text, "%" PRId64, n->coeff);
        datatype = T_XSD_INTEGER;
        break;
    case NUMBER_DECIMAL:
        format_decimal(n, text, sizeof text);
        datatype = T_XSD_DECIMAL;
        break;
    default:
        format_double(n->real, text, sizeof text);
        datatype = T_XSD_DOUBLE;
        break;
    }
    return terms_literal(t, text, strlen(text), datatype, NULL, 0);
}

/* ---- exact arithmetic in 128 bits ---- */

/* Wide enough for any product of two coefficients and for a coefficient scaled by 10^18 (< 2^123). */
__extension__ typedef __int128 wide;

static wide wide_pow10(int n) {
    wide p = 1;
    while (n-- > 0)
        p *= 10;
    return p;
}

static wide wide_magnitude(wide v) { return v < 0 ? -v : v; }

/* value / 10^n rounded half away from zero. */
static wide round_div_pow10(wide value, int n) {
    wide unit = wide_pow10(n), q = value / unit, r = wide_magnitude(value % unit);
    if (r * 2 >= unit)
        q += value < 0 ? -1 : 1;
    return q;
}

/* The exact number coeff * 10^-scale (scale may be negative). Fraction digits beyond
 * NUMBER_MAX_SCALE, or beyond what a 64-bit coefficient holds, are rounded off in one step; false
 * (overflow) when the integer part alone does not fit 64 bits. */
static bool fit_exact(enum number_kind kind, wide coeff, int scale, number *out) {
    if (scale < 0) {
        coeff *= wide_pow10(-scale); /* -scale <= NUMBER_MAX_SCALE and |coeff| < 2^64: no overflow */
        scale = 0;
    }
    int drop = scale > NUMBER_MAX_SCALE ? scale - NUMBER_MAX_SCALE : 0;
    while (drop < scale && wide_magnitude(coeff / wide_pow10(drop)) > INT64_MAX)
        drop++;
    if (drop > 0) {
        coeff = round_div_pow10(coeff, drop);
        scale -= drop;
    }
    if (wide_magnitude(coeff) > INT64_MAX)
        return false;
    *out = make_exact(kind, (int64_t)coeff, scale);
    return true;
}

/* The coefficient brought to NUMBER_MAX_SCALE fraction digits. */
static wide at_max_scale(const number *n) { return (wide)n->coeff * wide_pow10(NUMBER_MAX_SCALE - n->scale); }

/* ---- comparison ---- */

enum number_order number_compare(const number *a, const number *b) {
    if (is_exact(a) && is_exact(b)) {
        wide x = at_max_scale(a), y = at_max_scale(b);
        return x < y ? NUMBER_LESS : x > y ? NUMBER_GREATER : NUMBER_EQUAL;
    }
    double x = to_double(a), y = to_double(b);
    if (isnan(x) || isnan(y))
        return NUMBER_UNORDERED;
    return x < y ? NUMBER_LESS : x > y ? NUMBER_GREATER : NUMBER_EQUAL;
}

/* ---- arithmetic ---- */

static enum number_kind exact_kind(const number *a, const number *b) {
    return a->kind == NUMBER_INTEGER && b->kind == NUMBER_INTEGER ? NUMBER_INTEGER : NUMBER_DECIMAL;
}

/* The exact operations return false on overflow; the caller then computes in double. */
static bool exact_add(const number *a, const number *b, bool subtract, number *out) {
    wide x = at_max_scale(a), y = at_max_scale(b);
    return fit_exact(exact_kind(a, b), subtract ? x - y : x + y, NUMBER_MAX_SCALE, out);
}

static bool exact_multiply(const number *a, const number *b, number *out) {
    return fit_exact(exact_kind(a, b), (wide)a->coeff * b->coeff, a->scale + b->scale, out);
}

/* Long division of the coefficients, to at most NUMBER_MAX_SCALE fraction digits in the result and
 * as many significant digits as 64 bits hold, the last one rounded. */
static bool exact_divide(const number *a, const number *b, number *out) {
    int shift = a->scale - b->scale; /* a / b = (a->coeff / b->coeff) * 10^-shift */
    wide divisor = wide_magnitude(b->coeff), remainder = wide_magnitude(a->coeff) % divisor;
    wide q = wide_magnitude(a->coeff) / divisor;
    int digits = 0;
    while (remainder != 0) {
        wide digit = remainder * 10 / divisor;
        if (digits + shift == NUMBER_MAX_SCALE || q * 10 + digit > INT64_MAX) {
            if (digit >= 5)
                q++;
            break;
        }
        q = q * 10 + digit;
        remainder = remainder * 10 % divisor;
        digits++;
    }
    bool negative = (a->coeff < 0) != (b->coeff < 0);
    return fit_exact(NUMBER_DECIMAL, negative ? -q : q, digits + shift, out);
}

/* A double result, or none when the operation made a NaN out of non-NaN arguments. */
static bool double_result(double r, const number *a, const number *b, number *out) {
    if (isnan(r) && !isnan(to_double(a)) && !(b && isnan(to_double(b))))
        return false;
    *out = make_double(r);
    return true;
}

static bool is_zero(const number *n) { return is_exact(n) ? n->coeff == 0 : n->real == 0; }

bool number_add(const number *a, const number *b, number *out) {
    if (is_exact(a) && is_exact(b) && exact_add(a, b, false, out))
        return true;
    return double_result(to_double(a) + to_double(b), a, b, out);
}

bool number_subtract(const number *a, const number *b, number *out) {
    if (is_exact(a) && is_exact(b) && exact_add(a, b, true, out))
        return true;
    return double_result(to_double(a) - to_double(b), a, b, out);
}

bool number_multiply(const number *a, const number *b, number *out) {
    if (is_exact(a) && is_exact(b) && exact_multiply(a, b, out))
        return true;
    return double_result(to_double(a) * to_double(b), a, b, out);
}

bool number_divide(const number *a, const number *b, number *out) {
    if (is_zero(b))
        return false;
    if (is_exact(a) && is_exact(b) && exact_divide(a, b, out))
        return true;
    return double_result(to_double(a) / to_double(b), a, b, out);
}

/* Square-and-multiply; false on overflow. */
static bool exact_power(const number *base, int64_t exponent, number *out) {
    number result = make_exact(base->kind, 1, 0), square = *base;
    while (exponent > 0) {
        if ((exponent & 1) && !exact_multiply(&result, &square, &result))
            return false;
        exponent >>= 1;
        if (exponent > 0 && !exact_multiply(&square, &square, &square))
            return false;
    }
    *out = result;
    return true;
}

bool number_power(const number *base, const number *exponent, number *out) {
    bool integer_exponent = exponent->kind == NUMBER_INTEGER;
    if (is_zero(base) && to_double(exponent) < 0)
        return false;
    if (is_exact(base) && integer_exponent && exponent->coeff >= 0 && exact_power(base, exponent->coeff, out))
        return true;
    return double_result(pow(to_double(base), to_double(exponent)), base, exponent, out);
}

bool number_sqrt(const number *a, number *out) { return double_result(sqrt(to_double(a)), a, NULL, out); }

/* ---- integers scaled by a number ---- */

/* floor(num / den) for den > 0. */
static wide wide_floor_div(wide num, wide den) {
    wide q = num / den;
    return (num % den != 0 && num < 0) ? q - 1 : q;
}

bool number_scale_to_integer(int64_t value, const number *factor, bool divide, int64_t *out) {
    if (!is_exact(factor)) {
        double x = divide ? (double)value / factor->real : (double)value * factor->real;
        if (!isfinite(x))
            return false;
        double r = floor(x);
        if (x - r >= 0.5) /* not floor(x + 0.5): that rounds 0.49999999999999994 up */
            r += 1;
        if (r < -9223372036854775808.0 || r >= 9223372036854775808.0)
            return false;
        *out = (int64_t)r;
        return true;
    }
    /* value * coeff / 10^scale, or value * 10^scale / coeff: |value| < 2^63 and 10^18 < 2^60 */
    wide num = divide ? (wide)value * wide_pow10(factor->scale) : (wide)value * factor->coeff;
    wide den = divide ? (wide)factor->coeff : wide_pow10(factor->scale);
    if (den == 0)
        return false;
    if (den < 0) {
        num = -num;
        den = -den;
    }
    wide rounded = wide_floor_div(2 * num + den, 2 * den); /* floor(num / den + 1/2) */
    if (rounded > INT64_MAX || rounded < INT64_MIN)
        return false;
    *out = (int64_t)rounded;
    return true;
}
