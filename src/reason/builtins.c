/* builtins.c: the N3 builtins under their SWAP / EYE names, one section per namespace, and the table
 * builtin_lookup() searches.
 *
 * NOTES ON THE DESIGN
 *  1. A test emits its inputs when it holds. A function emits (subject, computed object) when the
 *     object is unbound, and its inputs when the bound object is the computed one: as the same term,
 *     or, for the math: functions and list:length, as an equal number (3 = 3.0), as EYE compares.
 *  2. Strings are literals' lexical forms, whatever the datatype or language; IRIs are not strings.
 *     Computed strings are simple literals. Order is Unicode codepoint order (UTF-8 byte order).
 *  3. Case-insensitive builtins fold ASCII letters only; other characters must match exactly.
 *  4. Regular expressions are POSIX extended (regcomp, bytes in the C locale), plus \d and \D outside
 *     bracket expressions, which N3 programs written for EYE use. An invalid pattern, or a string
 *     holding a NUL character, makes the relation false.
 *  5. An empty list is an empty list term or rdf:nil.
 *  6. Enumerations (list:member, list:in) emit each distinct item once and stop when emit says so.
 *  7. The math: comparisons and math:sum, difference, product and quotient take xsd:dateTime and the
 *     duration types as well as numbers (xsd_time.h: values, range, order, arithmetic, output forms):
 *     two dateTimes or two durations compare; (dateTime duration...) and (duration duration...) math:sum;
 *     (dateTime dateTime), (dateTime duration), (duration duration) math:difference; (duration number)
 *     and (number duration) math:product; (duration number) and (duration duration) math:quotient. A
 *     list mixing numbers with times, or a malformed time, has no solution. A computed time equals a
 *     bound object when their values are equal (the same instant in another timezone).
 *  8. time: (the N3 builtins report) on a dateTime subject: year, month, day, hour, minute, second (the
 *     integer fields as written, in the dateTime's own timezone), timeZone ("Z" or "-05:00"; none for
 *     a dateTime without one), inSeconds (seconds since the epoch as an xsd:decimal, or a
 *     dayTimeDuration's seconds; with only the object bound, the dateTime of that many seconds). There
 *     is deliberately no time:currentTime, localTime or gmTime: the agent's clock triple is the only time
 *     a rule sees, so a run's result depends on its input alone. */
#include "reason/builtins.h"

#include <nettle/base16.h>
#include <nettle/nettle-meta.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "rdf/buf.h"
#include "rdf/hashmap.h"
#include "reason/numeric.h"
#include "reason/xsd_time.h"

#define NS_TIME "http://www.w3.org/2000/10/swap/time#"

/* ---- arguments ---- */

/* The items of a list term or rdf:nil; false when the term is not a list. */
static bool list_of(const terms *t, term_id id, const term_id **items, size_t *n) {
    if (id == T_RDF_NIL) {
        *items = NULL;
        *n = 0;
        return true;
    }
    if (terms_kind(t, id) != TERM_LIST)
        return false;
    *items = terms_list_items(t, id, n);
    return true;
}

static bool string_of(const terms *t, term_id id, const char **text, size_t *len) {
    if (terms_kind(t, id) != TERM_LITERAL)
        return false;
    *text = terms_lex(t, id, len);
    return true;
}

/* A string regcomp/regexec can take: no NUL inside. */
static bool c_string_of(const terms *t, term_id id, const char **text, size_t *len) {
    return string_of(t, id, text, len) && strlen(*text) == *len;
}

static term_id simple_literal(terms *t, const char *text, size_t len) {
    return terms_literal(t, text, len, 0, NULL, 0);
}

/* A function's result (NOTES 1, by identity). */
static void emit_result(term_id subject, term_id object, term_id result, builtin_emit emit, void *user) {
    if (!object)
        emit(user, subject, result);
    else if (object == result)
        emit(user, subject, object);
}

/* A numeric function's result (NOTES 1, by numeric equality). */
static void emit_number(terms *t, term_id subject, term_id object, const number *result, builtin_emit emit,
                        void *user) {
    number expected;
    if (!object)
        emit(user, subject, number_to_term(t, result));
    else if (number_from_term(t, object, &expected) && number_compare(result, &expected) == NUMBER_EQUAL)
        emit(user, subject, object);
}

/* A time function's result (NOTES 1 and 7, by value). */
static void emit_time(terms *t, term_id subject, term_id object, const xsd_time *result, builtin_emit emit,
                      void *user) {
    xsd_time expected;
    enum number_order order;
    if (!object)
        emit(user, subject, xsd_time_to_term(t, result));
    else if (xsd_time_from_term(t, object, &expected) && xsd_time_compare(result, &expected, &order) &&
             order == NUMBER_EQUAL)
        emit(user, subject, object);
}

/* ---- log: ---- */

static void log_equal_to(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    (void)t;
    if (subject && object) {
        if (subject == object)
            emit(user, subject, object);
    } else if (subject || object) {
        term_id known = subject ? subject : object;
        emit(user, known, known);
    }
}

static void log_not_equal_to(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    (void)t;
    if (subject && object && subject != object)
        emit(user, subject, object);
}

/* Text usable as an IRI: not empty, no space, control character or character IRIs exclude. */
static bool iri_text_ok(const char *text, size_t len) {
    if (len == 0)
        return false;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c <= 0x20 || c == 0x7f || strchr("<>\"{}|\\^`", c))
            return false;
    }
    return true;
}

/* The relation between an IRI and the simple literal of its text, from whichever side is bound;
 * iri_is_subject says which side of the builtin the IRI is on. */
static void iri_string_relation(terms *t, term_id iri, term_id string, bool iri_is_subject, builtin_emit emit,
                                void *user) {
    size_t len;
    if (iri) {
        if (terms_kind(t, iri) != TERM_IRI)
            return;
        const char *text = terms_lex(t, iri, &len);
        term_id computed = simple_literal(t, text, len);
        if (string && string != computed)
            return;
        string = computed;
    } else if (string) {
        const char *text;
        if (!string_of(t, string, &text, &len) || terms_datatype(t, string) != 0 || !iri_text_ok(text, len))
            return;
        iri = terms_iri(t, text, len);
    } else {
        return;
    }
    if (iri_is_subject)
        emit(user, iri, string);
    else
        emit(user, string, iri);
}

static void log_uri_to_string(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    iri_string_relation(t, subject, object, true, emit, user);
}

static void log_string_to_uri(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    iri_string_relation(t, object, subject, false, emit, user);
}

/* ("lex" <datatype>) log:dtlit "lex"^^<datatype>; a simple literal's datatype is xsd:string. Language
 * tagged literals are not typed literals (log:langlit's domain): no solution. */
static void log_dtlit(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    const char *lex;
    size_t len;
    if (subject) {
        const term_id *items;
        size_t n;
        if (!list_of(t, subject, &items, &n) || n != 2 || !string_of(t, items[0], &lex, &len) ||
            terms_kind(t, items[1]) != TERM_IRI || items[1] == T_RDF_LANGSTRING)
            return;
        emit_result(subject, object, terms_literal(t, lex, len, items[1], NULL, 0), emit, user);
    } else if (object) {
        if (!string_of(t, object, &lex, &len) || terms_lang(t, object))
            return;
        term_id datatype = terms_datatype(t, object);
        term_id parts[2] = {simple_literal(t, lex, len), datatype ? datatype : T_XSD_STRING};
        emit(user, terms_list(t, parts, 2), object);
    }
}

/* ---- math: ---- */

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

/* ---- time: ---- */

/* One calendar field of a dateTime (NOTES 8), an xsd:integer. */
static void time_field(terms *t, term_id subject, term_id object, enum xsd_field field, builtin_emit emit,
                       void *user) {
    xsd_time datetime;
    int fields[XSD_FIELDS];
    if (!subject || !xsd_time_from_term(t, subject, &datetime) || datetime.kind != XSD_DATETIME)
        return;
    xsd_datetime_fields(&datetime, fields);
    number value = number_integer(fields[field]);
    emit_number(t, subject, object, &value, emit, user);
}

static void time_year(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    time_field(t, subject, object, XSD_YEAR, emit, user);
}

static void time_month(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    time_field(t, subject, object, XSD_MONTH, emit, user);
}

static void time_day(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    time_field(t, subject, object, XSD_DAY, emit, user);
}

static void time_hour(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    time_field(t, subject, object, XSD_HOUR, emit, user);
}

static void time_minute(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    time_field(t, subject, object, XSD_MINUTE, emit, user);
}

static void time_second(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    time_field(t, subject, object, XSD_SECOND, emit, user);
}

static void time_time_zone(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    xsd_time datetime;
    char zone[XSD_ZONE_TEXT];
    if (subject && xsd_time_from_term(t, subject, &datetime) && datetime.kind == XSD_DATETIME &&
        xsd_datetime_zone(&datetime, zone))
        emit_result(subject, object, terms_string(t, zone), emit, user);
}

static void time_in_seconds(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    xsd_time value;
    number seconds;
    if (subject) {
        if (xsd_time_from_term(t, subject, &value) && xsd_time_seconds(&value, &seconds))
            emit_number(t, subject, object, &seconds, emit, user);
    } else if (number_from_term(t, object, &seconds) && xsd_datetime_from_seconds(&seconds, &value)) {
        emit(user, xsd_time_to_term(t, &value), object);
    }
}

/* ---- string: ---- */

static char fold_ascii(char c) { return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c; }

static bool same_text(const char *a, const char *b, size_t n, bool ignore_case) {
    if (!ignore_case)
        return memcmp(a, b, n) == 0;
    for (size_t i = 0; i < n; i++)
        if (fold_ascii(a[i]) != fold_ascii(b[i]))
            return false;
    return true;
}

static bool text_contains(const char *hay, size_t hay_len, const char *needle, size_t needle_len,
                          bool ignore_case) {
    for (size_t i = 0; i + needle_len <= hay_len; i++)
        if (same_text(hay + i, needle, needle_len, ignore_case))
            return true;
    return false;
}

/* Codepoint order: UTF-8 byte order, a prefix first. */
static int compare_text(const char *a, size_t a_len, const char *b, size_t b_len) {
    int order = memcmp(a, b, a_len < b_len ? a_len : b_len);
    if (order != 0)
        return order;
    return (a_len > b_len) - (a_len < b_len);
}

/* Compiles a pattern (NOTES 4): \d and \D outside bracket expressions become [0-9] and [^0-9]. */
static bool regex_compile(const char *pattern, regex_t *re) {
    buf ere = {0};
    for (size_t i = 0; pattern[i]; i++) {
        if (pattern[i] == '[') {
            /* copy the bracket expression: "[", "^"?, "]"? as a member, then members up to "]",
             * where "[:class:]", "[.coll.]" and "[=equiv=]" may hold a "]" */
            size_t j = i + 1;
            if (pattern[j] == '^')
                j++;
            if (pattern[j] == ']')
                j++;
            while (pattern[j] && pattern[j] != ']') {
                if (pattern[j] == '[' && pattern[j + 1] && strchr(":.=", pattern[j + 1])) {
                    const char close[3] = {pattern[j + 1], ']', '\0'};
                    const char *end = strstr(pattern + j + 2, close);
                    j = end ? (size_t)(end - pattern) + 2 : j + 1;
                } else {
                    j++;
                }
            }
            if (pattern[j])
                j++;
            buf_append(&ere, pattern + i, j - i);
            i = j - 1;
        } else if (pattern[i] == '\\' && (pattern[i + 1] == 'd' || pattern[i + 1] == 'D')) {
            buf_puts(&ere, pattern[i + 1] == 'd' ? "[0-9]" : "[^0-9]");
            i++;
        } else if (pattern[i] == '\\' && pattern[i + 1]) {
            buf_append(&ere, pattern + i, 2);
            i++;
        } else {
            buf_putc(&ere, pattern[i]);
        }
    }
    bool ok = regcomp(re, buf_cstr(&ere), REG_EXTENDED) == 0;
    buf_free(&ere);
    return ok;
}

/* Whether the regex matches somewhere in text; false as well when the pattern does not compile,
 * which *valid reports. */
static bool regex_search(const char *text, const char *pattern, bool *valid) {
    regex_t re;
    *valid = regex_compile(pattern, &re);
    if (!*valid)
        return false;
    bool found = regexec(&re, text, 0, NULL, 0) == 0;
    regfree(&re);
    return found;
}

#define REGEX_GROUPS 10 /* $0 .. $9 */

/* The replacement for one match: $N is group N (empty when it did not take part), \$ and \\ are
 * "$" and "\", everything else is itself. Offsets in m are relative to `subject`. */
static void append_replacement(buf *out, const char *replacement, const char *subject, const regmatch_t *m,
                               size_t groups) {
    for (const char *r = replacement; *r; r++) {
        if (r[0] == '\\' && (r[1] == '\\' || r[1] == '$')) {
            buf_putc(out, *++r);
        } else if (r[0] == '$' && r[1] >= '0' && r[1] <= '9') {
            size_t g = (size_t)(*++r - '0');
            if (g <= groups && m[g].rm_so >= 0)
                buf_append(out, subject + m[g].rm_so, (size_t)(m[g].rm_eo - m[g].rm_so));
        } else {
            buf_putc(out, *r);
        }
    }
}

/* Length of the UTF-8 character at text[0] (1 for a stray byte), so empty matches step by characters. */
static size_t utf8_step(const char *text, size_t remaining) {
    size_t n = 1;
    while (n < remaining && n < 4 && ((unsigned char)text[n] & 0xc0) == 0x80)
        n++;
    return n;
}

/* Replaces every match, left to right, as sed's s///g does: an empty match right after a match is
 * not a match, and after an empty match the scan moves on by one character. */
static void regex_replace_all(const regex_t *re, const char *text, size_t len, const char *replacement,
                              buf *out) {
    size_t groups = re->re_nsub < REGEX_GROUPS - 1 ? re->re_nsub : REGEX_GROUPS - 1;
    regmatch_t m[REGEX_GROUPS];
    size_t at = 0;
    bool after_match = false;
    while (at <= len && regexec(re, text + at, REGEX_GROUPS, m, at > 0 ? REG_NOTBOL : 0) == 0) {
        size_t start = at + (size_t)m[0].rm_so, end = at + (size_t)m[0].rm_eo;
        bool empty = start == end;
        if (!(empty && start == at && after_match)) {
            buf_append(out, text + at, start - at);
            append_replacement(out, replacement, text + at, m, groups);
        }
        if (!empty) {
            at = end;
            after_match = true;
            continue;
        }
        if (end == len) {
            at = len;
            break;
        }
        size_t step = utf8_step(text + end, len - end);
        buf_append(out, text + end, step);
        at = end + step;
        after_match = false;
    }
    if (at < len)
        buf_append(out, text + at, len - at);
}

typedef bool text_test(const char *a, size_t a_len, const char *b, size_t b_len);

/* A test on the subject's and the object's strings. */
static void string_test(terms *t, term_id subject, term_id object, text_test *test, builtin_emit emit,
                        void *user) {
    const char *a, *b;
    size_t a_len, b_len;
    if (subject && object && string_of(t, subject, &a, &a_len) && string_of(t, object, &b, &b_len) &&
        test(a, a_len, b, b_len))
        emit(user, subject, object);
}

static bool test_contains(const char *a, size_t a_len, const char *b, size_t b_len) {
    return text_contains(a, a_len, b, b_len, false);
}

static bool test_contains_ignoring_case(const char *a, size_t a_len, const char *b, size_t b_len) {
    return text_contains(a, a_len, b, b_len, true);
}

static bool test_starts_with(const char *a, size_t a_len, const char *b, size_t b_len) {
    return b_len <= a_len && memcmp(a, b, b_len) == 0;
}

static bool test_ends_with(const char *a, size_t a_len, const char *b, size_t b_len) {
    return b_len <= a_len && memcmp(a + a_len - b_len, b, b_len) == 0;
}

static bool test_equal_ignoring_case(const char *a, size_t a_len, const char *b, size_t b_len) {
    return a_len == b_len && same_text(a, b, a_len, true);
}

static bool test_greater_than(const char *a, size_t a_len, const char *b, size_t b_len) {
    return compare_text(a, a_len, b, b_len) > 0;
}

static bool test_less_than(const char *a, size_t a_len, const char *b, size_t b_len) {
    return compare_text(a, a_len, b, b_len) < 0;
}

static bool test_not_greater_than(const char *a, size_t a_len, const char *b, size_t b_len) {
    return compare_text(a, a_len, b, b_len) <= 0;
}

static bool test_not_less_than(const char *a, size_t a_len, const char *b, size_t b_len) {
    return compare_text(a, a_len, b, b_len) >= 0;
}

static void string_contains(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    string_test(t, subject, object, test_contains, emit, user);
}

static void string_contains_ignoring_case(terms *t, term_id subject, term_id object, builtin_emit emit,
                                          void *user) {
    string_test(t, subject, object, test_contains_ignoring_case, emit, user);
}

static void string_starts_with(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    string_test(t, subject, object, test_starts_with, emit, user);
}

static void string_ends_with(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    string_test(t, subject, object, test_ends_with, emit, user);
}

static void string_equal_ignoring_case(terms *t, term_id subject, term_id object, builtin_emit emit,
                                       void *user) {
    string_test(t, subject, object, test_equal_ignoring_case, emit, user);
}

static void string_greater_than(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    string_test(t, subject, object, test_greater_than, emit, user);
}

static void string_less_than(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    string_test(t, subject, object, test_less_than, emit, user);
}

static void string_not_greater_than(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    string_test(t, subject, object, test_not_greater_than, emit, user);
}

static void string_not_less_than(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    string_test(t, subject, object, test_not_less_than, emit, user);
}

/* "text" string:matches "regex" (a match anywhere), or with `negated` string:notMatches; an invalid
 * regex makes both false. */
static void string_match(terms *t, term_id subject, term_id object, bool negated, builtin_emit emit, void *user) {
    const char *text, *pattern;
    size_t text_len, pattern_len;
    if (!subject || !object || !c_string_of(t, subject, &text, &text_len) ||
        !c_string_of(t, object, &pattern, &pattern_len))
        return;
    bool valid, found = regex_search(text, pattern, &valid);
    if (valid && found != negated)
        emit(user, subject, object);
}

static void string_matches(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    string_match(t, subject, object, false, emit, user);
}

static void string_not_matches(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    string_match(t, subject, object, true, emit, user);
}

static void string_concatenation(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    const term_id *items;
    size_t n;
    if (!subject || !list_of(t, subject, &items, &n))
        return;
    buf joined = {0};
    for (size_t i = 0; i < n; i++) {
        const char *text;
        size_t len;
        if (!string_of(t, items[i], &text, &len)) {
            buf_free(&joined);
            return;
        }
        buf_append(&joined, text, len);
    }
    emit_result(subject, object, simple_literal(t, buf_cstr(&joined), joined.len), emit, user);
    buf_free(&joined);
}

/* ("text" "regex" "replacement") string:replace "result": every match replaced (regex_replace_all). */
static void string_replace(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    const term_id *items;
    size_t n, text_len, pattern_len, replacement_len;
    const char *text, *pattern, *replacement;
    regex_t re;
    if (!subject || !list_of(t, subject, &items, &n) || n != 3 || !c_string_of(t, items[0], &text, &text_len) ||
        !c_string_of(t, items[1], &pattern, &pattern_len) ||
        !c_string_of(t, items[2], &replacement, &replacement_len) || !regex_compile(pattern, &re))
        return;
    buf result = {0};
    regex_replace_all(&re, text, text_len, replacement, &result);
    regfree(&re);
    emit_result(subject, object, simple_literal(t, buf_cstr(&result), result.len), emit, user);
    buf_free(&result);
}

/* ---- list: ---- */

/* The membership relation between a list and its items, from the list's side: with the item bound a
 * test, else each distinct item once. list_is_subject says which side of the builtin the list is on. */
static void list_membership(terms *t, term_id list, term_id item, bool list_is_subject, builtin_emit emit,
                            void *user) {
    const term_id *items;
    size_t n;
    if (!list || !list_of(t, list, &items, &n))
        return;
    if (item) {
        for (size_t i = 0; i < n; i++)
            if (items[i] == item) {
                if (list_is_subject)
                    emit(user, list, item);
                else
                    emit(user, item, list);
                return;
            }
        return;
    }
    u64map seen = {0};
    for (size_t i = 0; i < n; i++) {
        bool first_time;
        u64map_put(&seen, items[i], 0, &first_time);
        if (first_time && !(list_is_subject ? emit(user, list, items[i]) : emit(user, items[i], list)))
            break;
    }
    u64map_free(&seen);
}

static void list_member(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    list_membership(t, subject, object, true, emit, user);
}

static void list_in(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    list_membership(t, object, subject, false, emit, user);
}

/* list:first and list:last: the item at one end of a non-empty list. */
static void list_end(terms *t, term_id subject, term_id object, bool last, builtin_emit emit, void *user) {
    const term_id *items;
    size_t n;
    if (subject && list_of(t, subject, &items, &n) && n > 0)
        emit_result(subject, object, items[last ? n - 1 : 0], emit, user);
}

static void list_first(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    list_end(t, subject, object, false, emit, user);
}

static void list_last(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    list_end(t, subject, object, true, emit, user);
}

static void list_length(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    const term_id *items;
    size_t n;
    if (subject && list_of(t, subject, &items, &n)) {
        number length = number_integer((int64_t)n);
        emit_number(t, subject, object, &length, emit, user);
    }
}

/* ---- crypto: ---- */

/* The lower-case hex digest of a string's UTF-8 bytes. */
static void crypto_digest(terms *t, term_id subject, term_id object, const struct nettle_hash *hash,
                          builtin_emit emit, void *user) {
    const char *text;
    size_t len;
    if (!subject || !string_of(t, subject, &text, &len))
        return;
    void *ctx = xmalloc(hash->context_size);
    uint8_t *digest = xmalloc(hash->digest_size);
    char *hex = xmalloc(BASE16_ENCODE_LENGTH(hash->digest_size));
    hash->init(ctx);
    hash->update(ctx, len, (const uint8_t *)text);
    hash->digest(ctx, hash->digest_size, digest);
    base16_encode_update(hex, hash->digest_size, digest);
    emit_result(subject, object, simple_literal(t, hex, BASE16_ENCODE_LENGTH(hash->digest_size)), emit, user);
    free(hex);
    free(digest);
    free(ctx);
}

static void crypto_sha(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    crypto_digest(t, subject, object, &nettle_sha1, emit, user);
}

static void crypto_sha256(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    crypto_digest(t, subject, object, &nettle_sha256, emit, user);
}

static void crypto_sha512(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    crypto_digest(t, subject, object, &nettle_sha512, emit, user);
}

static void crypto_md5(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    crypto_digest(t, subject, object, &nettle_md5, emit, user);
}

/* ---- the table ---- */

static const builtin BUILTINS[] = {
    {NS_LOG "equalTo", BUILTIN_EITHER_IN, log_equal_to},
    {NS_LOG "notEqualTo", BUILTIN_BOTH_IN, log_not_equal_to},
    {NS_LOG "uri", BUILTIN_EITHER_IN, log_uri_to_string},
    {NS_LOG "uriToString", BUILTIN_EITHER_IN, log_uri_to_string},
    {NS_LOG "stringToUri", BUILTIN_EITHER_IN, log_string_to_uri},
    {NS_LOG "dtlit", BUILTIN_EITHER_IN, log_dtlit},

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

    {NS_TIME "year", BUILTIN_SUBJECT_IN, time_year},
    {NS_TIME "month", BUILTIN_SUBJECT_IN, time_month},
    {NS_TIME "day", BUILTIN_SUBJECT_IN, time_day},
    {NS_TIME "hour", BUILTIN_SUBJECT_IN, time_hour},
    {NS_TIME "minute", BUILTIN_SUBJECT_IN, time_minute},
    {NS_TIME "second", BUILTIN_SUBJECT_IN, time_second},
    {NS_TIME "timeZone", BUILTIN_SUBJECT_IN, time_time_zone},
    {NS_TIME "inSeconds", BUILTIN_EITHER_IN, time_in_seconds},

    {NS_STRING "concatenation", BUILTIN_SUBJECT_IN, string_concatenation},
    {NS_STRING "contains", BUILTIN_BOTH_IN, string_contains},
    {NS_STRING "containsIgnoringCase", BUILTIN_BOTH_IN, string_contains_ignoring_case},
    {NS_STRING "startsWith", BUILTIN_BOTH_IN, string_starts_with},
    {NS_STRING "endsWith", BUILTIN_BOTH_IN, string_ends_with},
    {NS_STRING "equalIgnoringCase", BUILTIN_BOTH_IN, string_equal_ignoring_case},
    {NS_STRING "greaterThan", BUILTIN_BOTH_IN, string_greater_than},
    {NS_STRING "lessThan", BUILTIN_BOTH_IN, string_less_than},
    {NS_STRING "notGreaterThan", BUILTIN_BOTH_IN, string_not_greater_than},
    {NS_STRING "notLessThan", BUILTIN_BOTH_IN, string_not_less_than},
    {NS_STRING "matches", BUILTIN_BOTH_IN, string_matches},
    {NS_STRING "notMatches", BUILTIN_BOTH_IN, string_not_matches},
    {NS_STRING "replace", BUILTIN_SUBJECT_IN, string_replace},

    {NS_LIST "member", BUILTIN_SUBJECT_IN, list_member},
    {NS_LIST "in", BUILTIN_OBJECT_IN, list_in},
    {NS_LIST "first", BUILTIN_SUBJECT_IN, list_first},
    {NS_LIST "last", BUILTIN_SUBJECT_IN, list_last},
    {NS_LIST "length", BUILTIN_SUBJECT_IN, list_length},

    {NS_CRYPTO "sha", BUILTIN_SUBJECT_IN, crypto_sha},
    {NS_CRYPTO "sha256", BUILTIN_SUBJECT_IN, crypto_sha256},
    {NS_CRYPTO "sha512", BUILTIN_SUBJECT_IN, crypto_sha512},
    {NS_CRYPTO "md5", BUILTIN_SUBJECT_IN, crypto_md5},
};

const builtin *builtin_lookup(const char *iri) {
    for (size_t i = 0; i < sizeof BUILTINS / sizeof BUILTINS[0]; i++)
        if (strcmp(BUILTINS[i].iri, iri) == 0)
            return &BUILTINS[i];
    return NULL;
}

bool builtin_namespace(const char *iri) {
    static const char *const namespaces[] = {NS_LOG, NS_MATH, NS_STRING, NS_LIST, NS_CRYPTO, NS_TIME};
    for (size_t i = 0; i < sizeof namespaces / sizeof namespaces[0]; i++)
        if (strncmp(iri, namespaces[i], strlen(namespaces[i])) == 0)
            return true;
    return false;
}
