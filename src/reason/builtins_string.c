/* builtins_string.c: the string: builtins: tests, order, regular expressions, concatenation, replace.
 *
 * NOTES ON THE DESIGN
 *  1. Strings are literals' lexical forms, whatever the datatype or language; IRIs are not strings.
 *     Computed strings are simple literals. Order is Unicode codepoint order (UTF-8 byte order).
 *  2. Case-insensitive builtins fold ASCII letters only; other characters must match exactly.
 *  3. Regular expressions are POSIX extended (regcomp, bytes in the C locale), plus \d and \D outside
 *     bracket expressions, which N3 programs written for EYE use. An invalid pattern, or a string
 *     holding a NUL character, makes the relation false. */
#include "reason/builtin_family.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "rdf/buf.h"

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

/* Compiles a pattern (NOTES 3): \d and \D outside bracket expressions become [0-9] and [^0-9]. */
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

const builtin builtins_string[] = {
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
};
const size_t builtins_string_count = sizeof builtins_string / sizeof builtins_string[0];
