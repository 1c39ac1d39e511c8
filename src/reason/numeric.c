/* numeric.c: XSD numeric values (see numeric.h for the kinds, the precision and the canonical forms).
 * Exact values with 64-bit coefficients are computed on in 128-bit integers (GCC and Clang's __int128)
 * when the result needs no rounding and fits 64 bits again; every other exact operation goes through
 * GMP, whose result set_exact() rounds, normalizes and stores. */
#include "reason/numeric.h"

#include <gmp.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdf/buf.h"

/* GMP's "si" functions take and give a long: on the 64-bit targets we build for, an int64_t. */
_Static_assert(sizeof(long) == sizeof(int64_t), "long must be 64 bits");

struct number_big {
    mpz_t value;
};

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

/* ---- constructors, conversions, ownership ---- */

number number_integer(int64_t value) { return (number){.kind = NUMBER_INTEGER, .coeff = value}; }

number number_double(double value) { return (number){.kind = NUMBER_DOUBLE, .real = value}; }

void number_clear(number *n) {
    if (n->big) {
        mpz_clear(n->big->value);
        free(n->big);
    }
    *n = (number){0};
}

static bool is_exact(const number *n) { return n->kind != NUMBER_DOUBLE; }

uint64_t int64_magnitude(int64_t v) { return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v; }

/* z (initialized) = the coefficient of an exact number. */
static void coeff_get(mpz_t z, const number *n) {
    if (n->big)
        mpz_set(z, n->big->value);
    else
        mpz_set_si(z, n->coeff);
}

/* z (initialized) = z * 10^n. */
static void mul_pow10(mpz_t z, unsigned long n) {
    if (n <= NUMBER_MAX_SCALE) {
        mpz_mul_ui(z, z, (unsigned long)POW10[n]);
        return;
    }
    mpz_t p;
    mpz_init(p);
    mpz_ui_pow_ui(p, 10, n);
    mpz_mul(z, z, p);
    mpz_clear(p);
}

/* z (initialized) = the coefficient of an exact number brought to `scale` >= n->scale fraction digits. */
static void coeff_at_scale(mpz_t z, const number *n, int scale) {
    coeff_get(z, n);
    mul_pow10(z, (unsigned long)(scale - n->scale));
}

/* q = n / d rounded half away from zero (d != 0); q may be n. */
static void divide_rounded(mpz_t q, const mpz_t n, const mpz_t d) {
    int sign = mpz_sgn(n) * mpz_sgn(d);
    mpz_t rest;
    mpz_init(rest);
    mpz_tdiv_qr(q, rest, n, d);
    mpz_mul_2exp(rest, rest, 1);
    if (mpz_cmpabs(rest, d) >= 0) {
        if (sign > 0)
            mpz_add_ui(q, q, 1);
        else
            mpz_sub_ui(q, q, 1);
    }
    mpz_clear(rest);
}

/* *out = the exact number coeff * 10^-scale (scale >= 0): fraction digits beyond NUMBER_MAX_SCALE
 * rounded half away from zero in one step, trailing zero fraction digits dropped so that equal decimals
 * look alike, the coefficient inline when it fits 64 bits. coeff is used up (changed). */
static void set_exact(number *out, enum number_kind kind, mpz_t coeff, unsigned long scale) {
    if (scale > NUMBER_MAX_SCALE) {
        mpz_t unit;
        mpz_init(unit);
        mpz_ui_pow_ui(unit, 10, scale - NUMBER_MAX_SCALE);
        divide_rounded(coeff, coeff, unit);
        mpz_clear(unit);
        scale = NUMBER_MAX_SCALE;
    }
    while (scale > 0 && mpz_sgn(coeff) != 0 && mpz_divisible_ui_p(coeff, 10)) {
        mpz_divexact_ui(coeff, coeff, 10);
        scale--;
    }
    if (mpz_sgn(coeff) == 0)
        scale = 0;
    *out = (number){.kind = kind, .scale = (int)scale};
    if (mpz_fits_slong_p(coeff)) {
        out->coeff = mpz_get_si(coeff);
        return;
    }
    out->coeff = mpz_sgn(coeff) < 0 ? INT64_MIN : INT64_MAX;
    out->big = xmalloc(sizeof *out->big);
    mpz_init(out->big->value);
    mpz_swap(out->big->value, coeff);
}

/* The canonical lexical form of an exact number whose coefficient is in `big` (a malloc'd string). */
static char *format_big(const number *n) {
    size_t digits_cap = mpz_sizeinbase(n->big->value, 10) + 2;
    char *digits = xmalloc(digits_cap);
    mpz_get_str(digits, 10, n->big->value);
    const char *magnitude = digits[0] == '-' ? digits + 1 : digits;
    size_t len = strlen(magnitude), scale = (size_t)n->scale;
    char *out = xmalloc(len + scale + 5); /* sign, "0.", the digits, zeros, ".0", NUL */
    char *w = out;
    if (digits[0] == '-')
        *w++ = '-';
    if (n->kind == NUMBER_INTEGER) {
        memcpy(w, magnitude, len + 1);
    } else if (scale == 0) {
        sprintf(w, "%s.0", magnitude);
    } else if (len > scale) {
        sprintf(w, "%.*s.%s", (int)(len - scale), magnitude, magnitude + len - scale);
    } else {
        memcpy(w, "0.", 2);
        memset(w + 2, '0', scale - len);
        memcpy(w + 2 + scale - len, magnitude, len + 1);
    }
    free(digits);
    return out;
}

static double to_double(const number *n) {
    if (n->kind == NUMBER_DOUBLE)
        return n->real;
    if (!n->big)
        return (double)n->coeff / (double)POW10[n->scale];
    char *text = format_big(n); /* strtod rounds correctly; beyond a double's range it gives +-INF */
    double value = strtod(text, NULL);
    free(text);
    return value;
}

double number_to_double(const number *n) { return to_double(n); }

int number_sign(const number *n) {
    if (!is_exact(n))
        return n->real > 0 ? 1 : n->real < 0 ? -1 : 0;
    if (n->big)
        return mpz_sgn(n->big->value);
    return n->coeff > 0 ? 1 : n->coeff < 0 ? -1 : 0;
}

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
        return number_double(INFINITY);
    if (strcmp(s, "-INF") == 0)
        return number_double(-INFINITY);
    if (strcmp(s, "NaN") == 0)
        return number_double(NAN);
    return number_double(strtod(s, NULL));
}

/* An integer or decimal of valid shape without exponent, exactly (fraction digits beyond
 * NUMBER_MAX_SCALE rounded, numeric.h NOTES 2): in 64 bits when it fits, else through GMP. */
static number read_exact(const char *s, size_t len, enum number_kind kind) {
    size_t end = len;
    const char *point = memchr(s, '.', len);
    if (point)
        while (end > (size_t)(point - s) + 1 && s[end - 1] == '0')
            end--;
    bool negative = s[0] == '-';
    size_t start = (s[0] == '+' || s[0] == '-') ? 1 : 0;
    uint64_t mag = 0;
    int scale = 0;
    bool in_fraction = false, fits = true;
    for (size_t i = start; i < end && fits; i++) {
        if (s[i] == '.') {
            in_fraction = true;
            continue;
        }
        unsigned digit = (unsigned)(s[i] - '0');
        fits = mag <= ((uint64_t)INT64_MAX - digit) / 10 && !(in_fraction && scale == NUMBER_MAX_SCALE);
        mag = mag * 10 + digit;
        scale += in_fraction;
    }
    if (fits) /* no trailing zero fraction digit: they were trimmed */
        return (number){.kind = kind, .coeff = negative ? -(int64_t)mag : (int64_t)mag, .scale = scale};
    char *digits = xmalloc(end - start + 2), *w = digits;
    unsigned long fraction_digits = 0;
    if (negative)
        *w++ = '-';
    for (size_t i = start; i < end; i++) {
        if (s[i] == '.') {
            fraction_digits = (unsigned long)(end - i - 1);
            continue;
        }
        *w++ = s[i];
    }
    *w = '\0';
    mpz_t coeff;
    mpz_init_set_str(coeff, digits, 10);
    free(digits);
    number n;
    set_exact(&n, kind, coeff, fraction_digits);
    mpz_clear(coeff);
    return n;
}

/* xsd:integer's derived types with their value ranges. A side marked unbounded has no limit (min or max
 * is then unused); unsignedLong alone reaches beyond 64 bits, to 2^64 - 1 (max_bits). */
typedef struct integer_type {
    const char *local_name;
    int64_t min, max;
    bool unbounded_below, unbounded_above;
    unsigned max_bits;
} integer_type;

static const integer_type INTEGER_TYPES[] = {
    {"integer", 0, 0, true, true, 0},
    {"nonPositiveInteger", 0, 0, true, false, 0},
    {"negativeInteger", 0, -1, true, false, 0},
    {"long", INT64_MIN, INT64_MAX, false, false, 0},
    {"int", -2147483648LL, 2147483647LL, false, false, 0},
    {"short", -32768, 32767, false, false, 0},
    {"byte", -128, 127, false, false, 0},
    {"nonNegativeInteger", 0, 0, false, true, 0},
    {"positiveInteger", 1, 0, false, true, 0},
    {"unsignedLong", 0, 0, false, true, 64},
    {"unsignedInt", 0, 4294967295LL, false, false, 0},
    {"unsignedShort", 0, 65535, false, false, 0},
    {"unsignedByte", 0, 255, false, false, 0},
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

static bool in_range(const number *n, const integer_type *type) {
    if (!n->big)
        return (type->unbounded_below || n->coeff >= type->min) && (type->unbounded_above || n->coeff <= type->max);
    if (mpz_sgn(n->big->value) < 0)
        return type->unbounded_below;
    return type->unbounded_above && (type->max_bits == 0 || mpz_sizeinbase(n->big->value, 2) <= type->max_bits);
}

static bool read_integer_type(const char *s, size_t len, const integer_type *type, number *out) {
    number_shape shape = scan_shape(s, len);
    if (!shape.valid || shape.has_point || shape.has_exponent)
        return false;
    number n = read_exact(s, len, NUMBER_INTEGER);
    if (!in_range(&n, type)) {
        number_clear(&n);
        return false;
    }
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
    if (datatype == T_XSD_INTEGER)
        return read_integer_type(s, len, &INTEGER_TYPES[0], out);
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
    if (n->big) {
        char *text = format_big(n);
        term_id id = terms_literal(t, text, strlen(text), n->kind == NUMBER_INTEGER ? T_XSD_INTEGER : T_XSD_DECIMAL,
                                   NULL, 0);
        free(text);
        return id;
    }
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

/* ---- exact arithmetic ---- */

/* Wide enough for any product of two 64-bit coefficients and for one scaled by 10^18 (< 2^123). */
__extension__ typedef __int128 wide;

/* floor(num / den) for den > 0. */
static wide wide_floor_div(wide num, wide den) {
    wide q = num / den;
    return (num % den != 0 && num < 0) ? q - 1 : q;
}

/* *out = coeff * 10^-scale when that needs no rounding and fits a 64-bit coefficient: the fast path. */
static bool fit_small(enum number_kind kind, wide coeff, int scale, number *out) {
    while (scale > 0 && coeff % 10 == 0) {
        coeff /= 10;
        scale--;
    }
    if (scale > NUMBER_MAX_SCALE || coeff > INT64_MAX || coeff < INT64_MIN)
        return false;
    *out = (number){.kind = kind, .coeff = (int64_t)coeff, .scale = scale};
    return true;
}

/* The bits of an exact number's coefficient's magnitude. */
static size_t coeff_bits(const number *n) {
    if (n->big)
        return mpz_sizeinbase(n->big->value, 2);
    uint64_t mag = int64_magnitude(n->coeff);
    return mag == 0 ? 0 : 64 - (size_t)__builtin_clzll(mag);
}

static int max_scale(const number *a, const number *b) { return a->scale > b->scale ? a->scale : b->scale; }

static enum number_kind exact_kind(const number *a, const number *b) {
    return a->kind == NUMBER_INTEGER && b->kind == NUMBER_INTEGER ? NUMBER_INTEGER : NUMBER_DECIMAL;
}

static void exact_copy(const number *a, enum number_kind kind, number *out) {
    if (!a->big) {
        *out = *a;
        out->kind = kind;
        return;
    }
    mpz_t z;
    mpz_init(z);
    coeff_get(z, a);
    set_exact(out, kind, z, (unsigned long)a->scale);
    mpz_clear(z);
}

/* ---- comparison ---- */

static int compare_exact(const number *a, const number *b) {
    if (!a->big && !b->big) {
        if (a->scale == b->scale)
            return (a->coeff > b->coeff) - (a->coeff < b->coeff);
        int scale = max_scale(a, b);
        wide x = (wide)a->coeff * POW10[scale - a->scale], y = (wide)b->coeff * POW10[scale - b->scale];
        return (x > y) - (x < y);
    }
    int scale = max_scale(a, b);
    mpz_t x, y;
    mpz_inits(x, y, NULL);
    coeff_at_scale(x, a, scale);
    coeff_at_scale(y, b, scale);
    int order = mpz_cmp(x, y);
    mpz_clears(x, y, NULL);
    return order;
}

enum number_order number_compare(const number *a, const number *b) {
    if (is_exact(a) && is_exact(b)) {
        int order = compare_exact(a, b);
        return order < 0 ? NUMBER_LESS : order > 0 ? NUMBER_GREATER : NUMBER_EQUAL;
    }
    double x = to_double(a), y = to_double(b);
    if (isnan(x) || isnan(y))
        return NUMBER_UNORDERED;
    return x < y ? NUMBER_LESS : x > y ? NUMBER_GREATER : NUMBER_EQUAL;
}

/* ---- arithmetic ---- */

static void exact_add(const number *a, const number *b, bool subtract, number *out) {
    enum number_kind kind = exact_kind(a, b);
    int scale = max_scale(a, b);
    if (!a->big && !b->big) {
        wide x = (wide)a->coeff * POW10[scale - a->scale], y = (wide)b->coeff * POW10[scale - b->scale];
        if (fit_small(kind, subtract ? x - y : x + y, scale, out))
            return;
    }
    mpz_t x, y;
    mpz_inits(x, y, NULL);
    coeff_at_scale(x, a, scale);
    coeff_at_scale(y, b, scale);
    if (subtract)
        mpz_sub(x, x, y);
    else
        mpz_add(x, x, y);
    set_exact(out, kind, x, (unsigned long)scale);
    mpz_clears(x, y, NULL);
}

/* False when the product would pass NUMBER_MAX_BITS. */
static bool exact_multiply(const number *a, const number *b, number *out) {
    enum number_kind kind = exact_kind(a, b);
    int scale = a->scale + b->scale;
    if (!a->big && !b->big && fit_small(kind, (wide)a->coeff * b->coeff, scale, out))
        return true;
    if (coeff_bits(a) + coeff_bits(b) > NUMBER_MAX_BITS)
        return false;
    mpz_t x, y;
    mpz_inits(x, y, NULL);
    coeff_get(x, a);
    coeff_get(y, b);
    mpz_mul(x, x, y);
    set_exact(out, kind, x, (unsigned long)scale);
    mpz_clears(x, y, NULL);
    return true;
}

/* a / b (b not 0) to NUMBER_MAX_SCALE fraction digits, the last one rounded:
 * (ca * 10^-sa) / (cb * 10^-sb) = (ca * 10^(sb + 18)) / (cb * 10^sa) * 10^-18. */
static void exact_divide(const number *a, const number *b, number *out) {
    mpz_t n, d;
    mpz_inits(n, d, NULL);
    coeff_get(n, a);
    mul_pow10(n, (unsigned long)(b->scale + NUMBER_MAX_SCALE));
    coeff_at_scale(d, b, b->scale + a->scale);
    divide_rounded(n, n, d);
    set_exact(out, NUMBER_DECIMAL, n, NUMBER_MAX_SCALE);
    mpz_clears(n, d, NULL);
}

/* A double result, or none when the operation made a NaN out of non-NaN arguments. */
static bool double_result(double r, const number *a, const number *b, number *out) {
    if (isnan(r) && !isnan(to_double(a)) && !(b && isnan(to_double(b))))
        return false;
    *out = number_double(r);
    return true;
}

static bool is_zero(const number *n) { return is_exact(n) ? number_sign(n) == 0 : n->real == 0; }

bool number_add(const number *a, const number *b, number *out) {
    if (!is_exact(a) || !is_exact(b))
        return double_result(to_double(a) + to_double(b), a, b, out);
    exact_add(a, b, false, out);
    return true;
}

bool number_subtract(const number *a, const number *b, number *out) {
    if (!is_exact(a) || !is_exact(b))
        return double_result(to_double(a) - to_double(b), a, b, out);
    exact_add(a, b, true, out);
    return true;
}

bool number_multiply(const number *a, const number *b, number *out) {
    if (is_exact(a) && is_exact(b) && exact_multiply(a, b, out))
        return true;
    return double_result(to_double(a) * to_double(b), a, b, out);
}

bool number_divide(const number *a, const number *b, number *out) {
    if (is_zero(b))
        return false;
    if (!is_exact(a) || !is_exact(b))
        return double_result(to_double(a) / to_double(b), a, b, out);
    exact_divide(a, b, out);
    return true;
}

/* base^exponent exactly, rounded once to NUMBER_MAX_SCALE fraction digits; false when the exact power
 * (or the 10^scale it is rounded with) would pass NUMBER_MAX_BITS. */
static bool exact_power(const number *base, int64_t exponent, number *out) {
    /* the power's bits and the 10^scale it is rounded with; -INF or 0 for a coefficient 0 or +-1 */
    double log2_coeff = base->big ? (double)coeff_bits(base) : log2(fabs((double)base->coeff));
    double bits = (log2_coeff + 4.0 * base->scale) * (double)exponent;
    if (bits > NUMBER_MAX_BITS)
        return false;
    mpz_t z;
    mpz_init(z);
    coeff_get(z, base);
    mpz_pow_ui(z, z, (unsigned long)exponent);
    set_exact(out, base->kind, z, (unsigned long)base->scale * (unsigned long)exponent);
    mpz_clear(z);
    return true;
}

bool number_power(const number *base, const number *exponent, number *out) {
    if (is_zero(base) && to_double(exponent) < 0)
        return false;
    if (is_exact(base) && exponent->kind == NUMBER_INTEGER && !exponent->big && exponent->coeff >= 0 &&
        exact_power(base, exponent->coeff, out))
        return true;
    return double_result(pow(to_double(base), to_double(exponent)), base, exponent, out);
}

bool number_sqrt(const number *a, number *out) { return double_result(sqrt(to_double(a)), a, NULL, out); }

bool number_negate(const number *a, number *out) {
    if (!is_exact(a)) {
        *out = number_double(-a->real);
        return true;
    }
    if (!a->big && a->coeff != INT64_MIN) {
        *out = *a;
        out->coeff = -a->coeff;
        return true;
    }
    mpz_t z;
    mpz_init(z);
    coeff_get(z, a);
    mpz_neg(z, z);
    set_exact(out, a->kind, z, (unsigned long)a->scale);
    mpz_clear(z);
    return true;
}

bool number_absolute(const number *a, number *out) {
    if (!is_exact(a)) {
        *out = number_double(fabs(a->real));
        return true;
    }
    if (number_sign(a) < 0)
        return number_negate(a, out);
    exact_copy(a, a->kind, out);
    return true;
}

enum rounding { ROUND_FLOOR, ROUND_CEILING, ROUND_HALF_UP };

/* A finite double rounded to an integral value, as an xsd:integer. */
static bool integer_from_double(double x, enum rounding mode, number *out) {
    if (!isfinite(x))
        return false;
    double r = mode == ROUND_CEILING ? ceil(x) : floor(x);
    if (mode == ROUND_HALF_UP && x - r >= 0.5) /* not floor(x + 0.5): that rounds 0.49999999999999994 up */
        r += 1;
    mpz_t z;
    mpz_init_set_d(z, r); /* exact: a double that large is an integer already */
    set_exact(out, NUMBER_INTEGER, z, 0);
    mpz_clear(z);
    return true;
}

static bool to_integer(const number *a, enum rounding mode, number *out) {
    if (!is_exact(a))
        return integer_from_double(a->real, mode, out);
    if (!a->big) { /* |result| <= |coeff|: it fits */
        wide c = a->coeff, unit = POW10[a->scale];
        wide r = mode == ROUND_FLOOR     ? wide_floor_div(c, unit)
                 : mode == ROUND_CEILING ? -wide_floor_div(-c, unit)
                                         : wide_floor_div(2 * c + unit, 2 * unit);
        *out = number_integer((int64_t)r);
        return true;
    }
    mpz_t c, unit;
    mpz_inits(c, unit, NULL);
    coeff_get(c, a);
    mpz_ui_pow_ui(unit, 10, (unsigned long)a->scale);
    if (mode == ROUND_FLOOR) {
        mpz_fdiv_q(c, c, unit);
    } else if (mode == ROUND_CEILING) {
        mpz_cdiv_q(c, c, unit);
    } else { /* floor((2c + unit) / (2 unit)) */
        mpz_mul_2exp(c, c, 1);
        mpz_add(c, c, unit);
        mpz_mul_2exp(unit, unit, 1);
        mpz_fdiv_q(c, c, unit);
    }
    set_exact(out, NUMBER_INTEGER, c, 0);
    mpz_clears(c, unit, NULL);
    return true;
}

bool number_floor(const number *a, number *out) { return to_integer(a, ROUND_FLOOR, out); }
bool number_ceiling(const number *a, number *out) { return to_integer(a, ROUND_CEILING, out); }
bool number_round(const number *a, number *out) { return to_integer(a, ROUND_HALF_UP, out); }

/* The two exact operands as coefficients at one scale (their quotient or remainder is the same). */
static void aligned_coeffs(const number *a, const number *b, mpz_t x, mpz_t y) {
    int scale = max_scale(a, b);
    coeff_at_scale(x, a, scale);
    coeff_at_scale(y, b, scale);
}

bool number_floor_divide(const number *a, const number *b, number *out) {
    if (is_zero(b))
        return false;
    if (!is_exact(a) || !is_exact(b)) {
        return integer_from_double(to_double(a) / to_double(b), ROUND_FLOOR, out);
    }
    mpz_t x, y;
    mpz_inits(x, y, NULL);
    aligned_coeffs(a, b, x, y);
    mpz_fdiv_q(x, x, y);
    set_exact(out, NUMBER_INTEGER, x, 0);
    mpz_clears(x, y, NULL);
    return true;
}

bool number_modulo(const number *a, const number *b, number *out) {
    if (is_zero(b))
        return false;
    if (!is_exact(a) || !is_exact(b)) {
        double x = to_double(a), y = to_double(b), r = fmod(x, y);
        if (r != 0 && (r < 0) != (y < 0))
            r += y;
        return double_result(r, a, b, out);
    }
    enum number_kind kind = exact_kind(a, b);
    int scale = max_scale(a, b);
    if (!a->big && !b->big) {
        wide x = (wide)a->coeff * POW10[scale - a->scale], y = (wide)b->coeff * POW10[scale - b->scale];
        wide r = x % y;
        if (r != 0 && (r < 0) != (y < 0))
            r += y;
        if (fit_small(kind, r, scale, out))
            return true;
    }
    mpz_t x, y;
    mpz_inits(x, y, NULL);
    aligned_coeffs(a, b, x, y);
    mpz_fdiv_r(x, x, y);
    set_exact(out, kind, x, (unsigned long)scale);
    mpz_clears(x, y, NULL);
    return true;
}

/* ---- integers scaled by a number ---- */

bool number_scale_to_integer(int64_t value, const number *factor, bool divide, int64_t *out) {
    if (!is_exact(factor)) {
        double x = divide ? (double)value / factor->real : (double)value * factor->real, r = floor(x);
        if (!isfinite(x))
            return false;
        if (x - r >= 0.5) /* not floor(x + 0.5): that rounds 0.49999999999999994 up */
            r += 1;
        if (r < -9223372036854775808.0 || r >= 9223372036854775808.0)
            return false;
        *out = (int64_t)r;
        return true;
    }
    if (is_zero(factor) && divide)
        return false;
    /* value * coeff / 10^scale, or value * 10^scale / coeff, rounded: floor((2 num + den) / (2 den)), which
     * is floor(num / den + 1/2) whatever den's sign */
    mpz_t num, den;
    mpz_inits(num, den, NULL);
    coeff_get(divide ? den : num, factor);
    mpz_ui_pow_ui(divide ? num : den, 10, (unsigned long)factor->scale);
    mpz_mul_si(num, num, value);
    mpz_mul_2exp(num, num, 1);
    mpz_add(num, num, den);
    mpz_mul_2exp(den, den, 1);
    mpz_fdiv_q(num, num, den);
    bool fits = mpz_fits_slong_p(num);
    if (fits)
        *out = mpz_get_si(num);
    mpz_clears(num, den, NULL);
    return fits;
}
