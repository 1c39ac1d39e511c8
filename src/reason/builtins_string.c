/* builtins_string.c: the string: builtins: tests, order, case, length and substrings, formatting,
 * concatenation, and the regular expression ones (matches, replace, scrape, search, scrapeAll).
 *
 * NOTES ON THE DESIGN
 *  1. Strings are literals' lexical forms, whatever the datatype or language; IRIs are not strings
 *     (except in a concatenation).
 *     Computed strings are simple literals, except that lowerCase, upperCase and capitalize keep the
 *     subject's language tag or datatype, as EYE does. Order is Unicode codepoint order (UTF-8 byte
 *     order).
 *  2. Everything counts characters, not bytes: length, substring positions, format widths, and a
 *     result never splits a character. A text that is not UTF-8 where characters matter (case, length,
 *     substring, format, regular expressions) makes the relation false.
 *  3. Case follows Unicode's simple (one character to one character) mappings, as EYE's
 *     downcase_atom and upcase_atom do: É and é, Σ and σ, but ß stays ß. The *IgnoringCase tests compare
 *     lowercased texts. The mappings come from the C library's C.UTF-8 locale; where there is none,
 *     only ASCII letters change case.
 *  4. Regular expressions are Perl-style over characters (text_regex.h: syntax, limits, the scan for
 *     every match). An invalid pattern, or one that exceeds the limits, makes every relation that uses
 *     it false, notMatches included. In a replacement, $0 .. $9 are the match and its groups (empty
 *     for a group that took no part), \$ and \\ are "$" and "\"; in a pattern without groups $1 is
 *     the whole match, as in EYE (which puts the pattern in a group). Unlike EYE, $2 .. $9 are groups,
 *     not literal text, and only the matches are replaced, not other copies of the matched text.
 *  5. Every builtin takes time linear in its texts (searching uses memmem, a two-way search), plus, for
 *     the regex ones, the pattern's own matching cost. */
#define _GNU_SOURCE /* memmem */
#include "reason/builtin_family.h"

#include <locale.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wctype.h>

#include "rdf/buf.h"
#include "rdf/utf8.h"
#include "reason/numeric.h"
#include "reason/text_regex.h"

/* ---- characters ---- */

static locale_t unicode_locale;
static pthread_once_t unicode_locale_once = PTHREAD_ONCE_INIT;

static void unicode_locale_open(void) { unicode_locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0); }

enum case_map { CASE_LOWER, CASE_UPPER };

static uint32_t map_char(uint32_t cp, enum case_map how) {
    if (unicode_locale)
        return (uint32_t)(how == CASE_LOWER ? towlower_l((wint_t)cp, unicode_locale)
                                            : towupper_l((wint_t)cp, unicode_locale));
    if (how == CASE_LOWER && cp >= 'A' && cp <= 'Z')
        return cp + ('a' - 'A');
    if (how == CASE_UPPER && cp >= 'a' && cp <= 'z')
        return cp - ('a' - 'A');
    return cp;
}

/* Appends text with its characters mapped (NOTES 3): the first `first_count` ones with `first`, the
 * others with `rest`. False when the text is not UTF-8. */
static bool map_case(const char *text, size_t len, size_t first_count, enum case_map first, enum case_map rest,
                     buf *out) {
    pthread_once(&unicode_locale_once, unicode_locale_open);
    for (size_t at = 0, i = 0; at < len; i++) {
        uint32_t cp;
        size_t n = utf8_decode(text + at, len - at, &cp);
        if (!n)
            return false;
        uint32_t mapped = map_char(cp, i < first_count ? first : rest);
        /* a C library mapping into the surrogates or beyond Unicode would make invalid UTF-8 */
        if (mapped > 0x10FFFF || (mapped >= 0xD800 && mapped <= 0xDFFF))
            mapped = cp;
        utf8_append(out, mapped);
        at += n;
    }
    return true;
}

static bool lowercase(const char *text, size_t len, buf *out) {
    return map_case(text, len, 0, CASE_LOWER, CASE_LOWER, out);
}

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

/* Replaces every run of whitespace by one space and drops it at both ends, in place. */
static void normalize_space(buf *b) {
    size_t kept = 0;
    bool pending_space = false;
    for (size_t i = 0; i < b->len; i++) {
        if (is_space(b->data[i])) {
            pending_space = kept > 0;
            continue;
        }
        if (pending_space)
            b->data[kept++] = ' ';
        pending_space = false;
        b->data[kept++] = b->data[i];
    }
    b->len = kept;
}

/* ---- tests ---- */

static bool text_contains(const char *hay, size_t hay_len, const char *needle, size_t needle_len) {
    return needle_len == 0 || memmem(hay, hay_len, needle, needle_len) != NULL;
}

/* Codepoint order: UTF-8 byte order, a prefix first. */
static int compare_text(const char *a, size_t a_len, const char *b, size_t b_len) {
    int order = memcmp(a, b, a_len < b_len ? a_len : b_len);
    if (order != 0)
        return order;
    return (a_len > b_len) - (a_len < b_len);
}

enum folding { AS_IS, IGNORING_CASE, ROUGHLY /* ignoring case, and runs of whitespace as one space */ };

/* The two texts folded; false when one is not UTF-8 (only case folding needs characters). */
static bool fold_both(const char **a, size_t *a_len, const char **b, size_t *b_len, enum folding folding,
                      buf *a_folded, buf *b_folded) {
    if (folding == AS_IS)
        return true;
    if (!lowercase(*a, *a_len, a_folded) || !lowercase(*b, *b_len, b_folded))
        return false;
    if (folding == ROUGHLY) {
        normalize_space(a_folded);
        normalize_space(b_folded);
    }
    *a = buf_cstr(a_folded), *a_len = a_folded->len;
    *b = buf_cstr(b_folded), *b_len = b_folded->len;
    return true;
}

enum text_test {
    CONTAINS,
    NOT_CONTAINS,
    STARTS_WITH,
    ENDS_WITH,
    EQUAL,
    NOT_EQUAL,
    GREATER_THAN,
    LESS_THAN,
    NOT_GREATER_THAN,
    NOT_LESS_THAN,
};

static bool test_holds(enum text_test test, const char *a, size_t a_len, const char *b, size_t b_len) {
    switch (test) {
    case CONTAINS:
        return text_contains(a, a_len, b, b_len);
    case NOT_CONTAINS:
        return !text_contains(a, a_len, b, b_len);
    case STARTS_WITH:
        return b_len <= a_len && memcmp(a, b, b_len) == 0;
    case ENDS_WITH:
        return b_len <= a_len && memcmp(a + a_len - b_len, b, b_len) == 0;
    case EQUAL:
        return a_len == b_len && memcmp(a, b, a_len) == 0;
    case NOT_EQUAL:
        return a_len != b_len || memcmp(a, b, a_len) != 0;
    case GREATER_THAN:
        return compare_text(a, a_len, b, b_len) > 0;
    case LESS_THAN:
        return compare_text(a, a_len, b, b_len) < 0;
    case NOT_GREATER_THAN:
        return compare_text(a, a_len, b, b_len) <= 0;
    case NOT_LESS_THAN:
        return compare_text(a, a_len, b, b_len) >= 0;
    }
    return false;
}

/* A test on the subject's and the object's strings, folded first. */
static void string_test(terms *t, term_id subject, term_id object, enum text_test test, enum folding folding,
                        builtin_emit emit, void *user) {
    const char *a, *b;
    size_t a_len, b_len;
    if (!subject || !object || !string_of(t, subject, &a, &a_len) || !string_of(t, object, &b, &b_len))
        return;
    buf a_folded = {0}, b_folded = {0};
    if (fold_both(&a, &a_len, &b, &b_len, folding, &a_folded, &b_folded) && test_holds(test, a, a_len, b, b_len))
        emit(user, subject, object);
    buf_free(&a_folded);
    buf_free(&b_folded);
}

#define STRING_TEST(name, test, folding)                                                                  \
    static void name(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {          \
        string_test(t, subject, object, test, folding, emit, user);                                       \
    }

STRING_TEST(string_contains, CONTAINS, AS_IS)
STRING_TEST(string_contains_ignoring_case, CONTAINS, IGNORING_CASE)
STRING_TEST(string_contains_roughly, CONTAINS, ROUGHLY)
STRING_TEST(string_not_contains_roughly, NOT_CONTAINS, ROUGHLY)
STRING_TEST(string_starts_with, STARTS_WITH, AS_IS)
STRING_TEST(string_ends_with, ENDS_WITH, AS_IS)
STRING_TEST(string_equal_ignoring_case, EQUAL, IGNORING_CASE)
STRING_TEST(string_not_equal_ignoring_case, NOT_EQUAL, IGNORING_CASE)
STRING_TEST(string_greater_than, GREATER_THAN, AS_IS)
STRING_TEST(string_less_than, LESS_THAN, AS_IS)
STRING_TEST(string_not_greater_than, NOT_GREATER_THAN, AS_IS)
STRING_TEST(string_not_less_than, NOT_LESS_THAN, AS_IS)

/* ---- functions of one string ---- */

static void emit_text(terms *t, term_id subject, term_id object, const buf *text, builtin_emit emit, void *user) {
    emit_result(subject, object, simple_literal(t, text->len ? text->data : "", text->len), emit, user);
}

/* "text" string:lowerCase, upperCase or capitalize (the first character upper, the rest lower): the
 * result keeps the subject's language or datatype (NOTES 1). */
static void string_case(terms *t, term_id subject, term_id object, size_t first_count, enum case_map first,
                        enum case_map rest, builtin_emit emit, void *user) {
    const char *text;
    size_t len;
    if (!subject || !string_of(t, subject, &text, &len))
        return;
    buf mapped = {0};
    if (map_case(text, len, first_count, first, rest, &mapped)) {
        const char *lang = terms_lang(t, subject);
        term_id result = terms_literal(t, mapped.len ? mapped.data : "", mapped.len, terms_datatype(t, subject), lang,
                                       lang ? strlen(lang) : 0);
        emit_result(subject, object, result, emit, user);
    }
    buf_free(&mapped);
}

BUILTIN_VARIANT(string_lower_case, string_case, 0, CASE_LOWER, CASE_LOWER)
BUILTIN_VARIANT(string_upper_case, string_case, 0, CASE_UPPER, CASE_UPPER)
BUILTIN_VARIANT(string_capitalize, string_case, 1, CASE_UPPER, CASE_LOWER)

/* "text" string:length n: the number of characters, an xsd:integer. */
static void string_length(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    const char *text;
    size_t len, count;
    if (!subject || !string_of(t, subject, &text, &len) || (count = utf8_length(text, len)) == SIZE_MAX)
        return;
    number n = number_integer((int64_t)count);
    emit_number(t, subject, object, &n, emit, user);
    number_clear(&n);
}

/* An integer argument; one beyond 64 bits is INT64_MIN or INT64_MAX by its sign (far enough for any
 * position or width). */
static bool integer_of(const terms *t, term_id id, int64_t *out) {
    number n = {0};
    bool ok = number_from_term(t, id, &n) && n.kind == NUMBER_INTEGER;
    if (ok)
        *out = n.coeff;
    number_clear(&n);
    return ok;
}

/* ("text" start length?) string:substring "part": the characters at positions start .. start+length-1
 * (counted from 1; without a length, to the end), as XPath's fn:substring: positions outside the text
 * are left out, so ("abc" 0 2) is "a" and ("abc" 2 10) is "bc". (EYE has no result when the range runs
 * past the end.) */
static void string_substring(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    const term_id *items;
    size_t n, len;
    const char *text;
    int64_t start, length = INT64_MAX;
    if (!subject || !list_of(t, subject, &items, &n) || (n != 2 && n != 3) || !string_of(t, items[0], &text, &len) ||
        !integer_of(t, items[1], &start) || (n == 3 && !integer_of(t, items[2], &length)) ||
        utf8_length(text, len) == SIZE_MAX)
        return;
    /* positions start .. end-1, end saturated so that no sum overflows */
    int64_t end = length <= 0 ? start : (start > INT64_MAX - length ? INT64_MAX : start + length);
    buf part = {0};
    int64_t position = 1;
    for (size_t at = 0; at < len && position < end; position++) {
        uint32_t cp;
        size_t char_len = utf8_decode(text + at, len - at, &cp);
        if (position >= start)
            buf_append(&part, text + at, char_len);
        at += char_len;
    }
    emit_text(t, subject, object, &part, emit, user);
    buf_free(&part);
}

/* ---- functions of a list ---- */

/* (part ...) string:concatenation "whole": literals' lexical forms and IRIs' text (the report's "casting
 * to string", which the W3C N3 test suite expects; EYE writes an IRI as a prefixed name). */
static void string_concatenation(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    const term_id *items;
    size_t n;
    if (!subject || !list_of(t, subject, &items, &n))
        return;
    buf joined = {0};
    for (size_t i = 0; i < n; i++) {
        enum term_kind kind = terms_kind(t, items[i]);
        if (kind != TERM_LITERAL && kind != TERM_IRI) {
            buf_free(&joined);
            return;
        }
        size_t len;
        const char *text = terms_lex(t, items[i], &len);
        buf_append(&joined, text, len);
    }
    emit_text(t, subject, object, &joined, emit, user);
    buf_free(&joined);
}

#define FORMAT_MAX_WIDTH 1000000 /* a wider field is refused rather than allocated */

/* Appends `text` to out within a field of `width` characters, padded on the left (on the right with
 * left_align) with `pad`; a '0' pad goes after a leading sign. */
static void append_field(buf *out, const char *text, size_t len, size_t chars, size_t width, bool left_align,
                         char pad) {
    size_t fill = width > chars ? width - chars : 0;
    if (!left_align && pad == '0' && len > 0 && (text[0] == '-' || text[0] == '+')) {
        buf_putc(out, text[0]);
        text++, len--;
    }
    if (left_align)
        buf_append(out, text, len);
    for (size_t i = 0; i < fill; i++)
        buf_putc(out, left_align ? ' ' : pad);
    if (!left_align)
        buf_append(out, text, len);
}

/* Reads a run of decimal digits at format[*at] as a field size; false when it is larger than
 * FORMAT_MAX_WIDTH. */
static bool read_size(const char *format, size_t len, size_t *at, size_t *out) {
    size_t value = 0;
    for (; *at < len && format[*at] >= '0' && format[*at] <= '9'; ++*at) {
        value = value * 10 + (size_t)(format[*at] - '0');
        if (value > FORMAT_MAX_WIDTH)
            return false;
    }
    *out = value;
    return true;
}

/* One conversion, %[-0][width][.precision](s|d|i), of argument arg; false when it does not apply. %s takes
 * any literal's lexical form (precision: at most that many characters), %d and %i an integer. */
static bool format_one(terms *t, char conversion, term_id arg, size_t width, bool left_align, bool zero_pad,
                       bool has_precision, size_t precision, buf *out) {
    const char *text;
    size_t len, chars;
    if (conversion == 's') {
        if (!string_of(t, arg, &text, &len) || (chars = utf8_length(text, len)) == SIZE_MAX)
            return false;
        if (has_precision && precision < chars) {
            size_t at = 0;
            uint32_t cp;
            for (size_t i = 0; i < precision; i++)
                at += utf8_decode(text + at, len - at, &cp);
            len = at, chars = precision;
        }
        append_field(out, text, len, chars, width, left_align, ' ');
        return true;
    }
    if (conversion == 'd' || conversion == 'i') {
        number n = {0};
        bool ok = number_from_term(t, arg, &n) && n.kind == NUMBER_INTEGER;
        if (ok) {
            text = terms_lex(t, number_to_term(t, &n), &len); /* canonical: no '+', no leading zeros */
            buf digits = {0};
            bool negative = text[0] == '-';
            size_t digit_count = len - negative;
            if (negative)
                buf_putc(&digits, '-');
            for (size_t i = digit_count; has_precision && i < precision; i++)
                buf_putc(&digits, '0');
            buf_append(&digits, text + negative, digit_count);
            append_field(out, digits.data, digits.len, digits.len, width, left_align,
                         zero_pad && !has_precision ? '0' : ' ');
            buf_free(&digits);
        }
        number_clear(&n);
        return ok;
    }
    return false;
}

/* ("format" arg ...) string:format "text": printf-style, with %s, %d, %i and %% (format_one); a
 * conversion without its argument, an argument left over, or any other conversion gives no result. */
static void string_format(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    const term_id *items;
    size_t n, format_len;
    const char *format;
    if (!subject || !list_of(t, subject, &items, &n) || n < 1 || !string_of(t, items[0], &format, &format_len) ||
        utf8_length(format, format_len) == SIZE_MAX)
        return;
    buf out = {0};
    size_t next_arg = 1;
    bool ok = true;
    for (size_t at = 0; ok && at < format_len; at++) {
        if (format[at] != '%') {
            buf_putc(&out, format[at]);
            continue;
        }
        if (++at < format_len && format[at] == '%') {
            buf_putc(&out, '%');
            continue;
        }
        bool left_align = false, zero_pad = false, has_precision = false;
        size_t width = 0, precision = 0;
        for (; at < format_len && (format[at] == '-' || format[at] == '0'); at++)
            *(format[at] == '-' ? &left_align : &zero_pad) = true;
        ok = read_size(format, format_len, &at, &width);
        if (ok && at < format_len && format[at] == '.') {
            at++;
            has_precision = true;
            ok = read_size(format, format_len, &at, &precision);
        }
        ok = ok && at < format_len && next_arg < n &&
             format_one(t, format[at], items[next_arg++], width, left_align, zero_pad, has_precision, precision,
                        &out);
    }
    if (ok && next_arg == n)
        emit_text(t, subject, object, &out, emit, user);
    buf_free(&out);
}

/* ---- regular expressions ---- */

/* A list argument of strings (text pattern) or (text pattern replacement), each UTF-8 for the ones
 * regular expressions use. */
static bool regex_args(const terms *t, term_id subject, size_t count, const char **text, size_t *len) {
    const term_id *items;
    size_t n;
    if (!subject || !list_of(t, subject, &items, &n) || n != count)
        return false;
    for (size_t i = 0; i < count; i++)
        if (!string_of(t, items[i], &text[i], &len[i]))
            return false;
    return true;
}

static bool stop_at_first(void *user, const text_match *m) {
    (void)m;
    *(bool *)user = true;
    return false;
}

/* "text" string:matches "regex" (a match anywhere), or with `negated` string:notMatches (NOTES 4). */
static void string_match(terms *t, term_id subject, term_id object, bool negated, builtin_emit emit, void *user) {
    const char *text, *pattern;
    size_t text_len, pattern_len;
    if (!subject || !object || !string_of(t, subject, &text, &text_len) ||
        !string_of(t, object, &pattern, &pattern_len))
        return;
    bool found = false;
    if (text_regex_each(pattern, pattern_len, text, text_len, stop_at_first, &found) == TEXT_REGEX_OK &&
        found != negated)
        emit(user, subject, object);
}

BUILTIN_VARIANT(string_matches, string_match, false)
BUILTIN_VARIANT(string_not_matches, string_match, true)

typedef struct replacing {
    const char *text, *replacement;
    size_t replacement_len, copied; /* text[0..copied) is in out */
    buf out;
} replacing;

/* Appends group g of match m, or nothing when it took no part (NOTES 4 for $1 without groups). */
static void append_group(replacing *r, const text_match *m, size_t g) {
    if (g == 1 && m->groups == 0)
        g = 0;
    if (g > m->groups || m->offsets[2 * g] == TEXT_REGEX_UNSET)
        return;
    buf_append(&r->out, r->text + m->offsets[2 * g], m->offsets[2 * g + 1] - m->offsets[2 * g]);
}

static bool replace_one(void *user, const text_match *m) {
    replacing *r = user;
    buf_append(&r->out, r->text + r->copied, m->offsets[0] - r->copied);
    const char *s = r->replacement, *end = s + r->replacement_len;
    for (; s < end; s++) {
        if (s[0] == '\\' && s + 1 < end && (s[1] == '\\' || s[1] == '$'))
            buf_putc(&r->out, *++s);
        else if (s[0] == '$' && s + 1 < end && s[1] >= '0' && s[1] <= '9')
            append_group(r, m, (size_t)(*++s - '0'));
        else
            buf_putc(&r->out, *s);
    }
    r->copied = m->offsets[1];
    return true;
}

/* ("text" "regex" "replacement") string:replace "result": every match replaced (NOTES 4), the result
 * written in one pass. */
static void string_replace(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    const char *args[3];
    size_t len[3];
    if (!regex_args(t, subject, 3, args, len) || utf8_length(args[2], len[2]) == SIZE_MAX)
        return;
    replacing r = {.text = args[0], .replacement = args[2], .replacement_len = len[2]};
    if (text_regex_each(args[1], len[1], args[0], len[0], replace_one, &r) == TEXT_REGEX_OK) {
        buf_append(&r.out, args[0] + r.copied, len[0] - r.copied);
        emit_text(t, subject, object, &r.out, emit, user);
    }
    buf_free(&r.out);
}

typedef struct collecting {
    terms *t;
    const char *text;
    bool all_groups; /* every group of the first match; otherwise group 1 of every match */
    bool matched;
    u32vec items;
} collecting;

static term_id group_text(collecting *c, const text_match *m, size_t g) {
    size_t start = m->offsets[2 * g];
    if (start == TEXT_REGEX_UNSET)
        return simple_literal(c->t, "", 0);
    return simple_literal(c->t, c->text + start, m->offsets[2 * g + 1] - start);
}

static bool collect_groups(void *user, const text_match *m) {
    collecting *c = user;
    c->matched = true;
    if (c->all_groups) {
        for (size_t g = 1; g <= m->groups; g++)
            u32vec_push(&c->items, group_text(c, m, g));
        return false;
    }
    u32vec_push(&c->items, group_text(c, m, m->groups > 0 ? 1 : 0));
    return true;
}

/* ("text" "regex") string:search (group ...): the groups of the first match (none: no result).
 * ("text" "regex") string:scrapeAll (part ...): group 1 of every match, or the whole match for a pattern
 * without groups. A group that took no part is "". Both are EYE's. */
static void string_collect(terms *t, term_id subject, term_id object, bool all_groups, builtin_emit emit,
                           void *user) {
    const char *args[2];
    size_t len[2];
    if (!regex_args(t, subject, 2, args, len))
        return;
    collecting c = {.t = t, .text = args[0], .all_groups = all_groups};
    if (text_regex_each(args[1], len[1], args[0], len[0], collect_groups, &c) == TEXT_REGEX_OK &&
        (c.matched || !all_groups)) {
        static const term_id no_items[1]; /* terms_list hashes its items: never a null pointer */
        emit_result(subject, object, terms_list(t, c.items.len ? c.items.data : no_items, c.items.len), emit, user);
    }
    u32vec_free(&c.items);
}

BUILTIN_VARIANT(string_search, string_collect, true)
BUILTIN_VARIANT(string_scrape_all, string_collect, false)

typedef struct scraping {
    size_t start, end; /* group 1 of the first match; start TEXT_REGEX_UNSET when none */
} scraping;

static bool scrape_first(void *user, const text_match *m) {
    scraping *s = user;
    if (m->groups >= 1)
        s->start = m->offsets[2], s->end = m->offsets[3];
    return false;
}

/* ("text" "regex") string:scrape "part": group 1 of the first match; no result when there is no match,
 * no group, or group 1 took no part. */
static void string_scrape(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    const char *args[2];
    size_t len[2];
    scraping s = {TEXT_REGEX_UNSET, 0};
    if (regex_args(t, subject, 2, args, len) &&
        text_regex_each(args[1], len[1], args[0], len[0], scrape_first, &s) == TEXT_REGEX_OK &&
        s.start != TEXT_REGEX_UNSET)
        emit_result(subject, object, simple_literal(t, args[0] + s.start, s.end - s.start), emit, user);
}

const builtin builtins_string[] = {
    {NS_STRING "concatenation", BUILTIN_SUBJECT_IN, string_concatenation, false},
    {NS_STRING "format", BUILTIN_SUBJECT_IN, string_format, false},
    {NS_STRING "contains", BUILTIN_BOTH_IN, string_contains, false},
    {NS_STRING "containsIgnoringCase", BUILTIN_BOTH_IN, string_contains_ignoring_case, false},
    {NS_STRING "containsRoughly", BUILTIN_BOTH_IN, string_contains_roughly, false},
    {NS_STRING "notContainsRoughly", BUILTIN_BOTH_IN, string_not_contains_roughly, false},
    {NS_STRING "startsWith", BUILTIN_BOTH_IN, string_starts_with, false},
    {NS_STRING "endsWith", BUILTIN_BOTH_IN, string_ends_with, false},
    {NS_STRING "equalIgnoringCase", BUILTIN_BOTH_IN, string_equal_ignoring_case, false},
    {NS_STRING "notEqualIgnoringCase", BUILTIN_BOTH_IN, string_not_equal_ignoring_case, false},
    {NS_STRING "greaterThan", BUILTIN_BOTH_IN, string_greater_than, false},
    {NS_STRING "lessThan", BUILTIN_BOTH_IN, string_less_than, false},
    {NS_STRING "notGreaterThan", BUILTIN_BOTH_IN, string_not_greater_than, false},
    {NS_STRING "notLessThan", BUILTIN_BOTH_IN, string_not_less_than, false},
    {NS_STRING "lowerCase", BUILTIN_SUBJECT_IN, string_lower_case, false},
    {NS_STRING "upperCase", BUILTIN_SUBJECT_IN, string_upper_case, false},
    {NS_STRING "capitalize", BUILTIN_SUBJECT_IN, string_capitalize, false},
    {NS_STRING "length", BUILTIN_SUBJECT_IN, string_length, false},
    {NS_STRING "substring", BUILTIN_SUBJECT_IN, string_substring, false},
    {NS_STRING "matches", BUILTIN_BOTH_IN, string_matches, false},
    {NS_STRING "notMatches", BUILTIN_BOTH_IN, string_not_matches, false},
    {NS_STRING "replace", BUILTIN_SUBJECT_IN, string_replace, false},
    {NS_STRING "scrape", BUILTIN_SUBJECT_IN, string_scrape, false},
    {NS_STRING "scrapeAll", BUILTIN_SUBJECT_IN, string_scrape_all, false},
    {NS_STRING "search", BUILTIN_SUBJECT_IN, string_search, false},
};
const size_t builtins_string_count = sizeof builtins_string / sizeof builtins_string[0];
