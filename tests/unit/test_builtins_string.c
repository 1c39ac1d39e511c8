/* test_builtins_string.c: the string: builtins as relations, over characters rather than bytes: tests
 * with and without case (non-ASCII letters too), order, case mapping, length, substring, format, and
 * the regular expression builtins (Perl syntax: (?i), lazy quantifiers, `.` as one character, groups),
 * results that never split a character, invalid patterns and text giving no solution, a catastrophic
 * pattern stopped by the match limit, the pattern cache, and a replace over megabytes finishing (a
 * quadratic one would not within the test's timeout). Every expected value is written by hand. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "rdf/buf.h"
#include "rdf/utf8.h"
#include "reason/text_regex.h"

#define BUILTIN_NAMESPACE NS_STRING
#include "builtins_harness.c"

#define EX "http://example.org/"

/* U+00E9 é, U+00C9 É, U+03C3 σ, U+03A3 Σ, U+1F600 😀, U+10428 𐐨 and U+10400 𐐀 (a non-BMP case pair) */
#define E_ACUTE "\xc3\xa9"
#define E_ACUTE_UPPER "\xc3\x89"
#define SIGMA "\xcf\x83"
#define SIGMA_UPPER "\xce\xa3"
#define EMOJI "\xf0\x9f\x98\x80"
#define DESERET "\xf0\x90\x90\xa8"
#define DESERET_UPPER "\xf0\x90\x90\x80"

/* ---- terms ---- */

static term_id lang(terms *t, const char *lex, const char *tag) {
    return terms_literal(t, lex, strlen(lex), 0, tag, strlen(tag));
}

/* ---- assertions ---- */

/* A replace of every match of pattern in text by replacement gives `expected`. */
static void assert_replace(terms *t, const char *text, const char *pattern, const char *replacement,
                           const char *expected) {
    assert_function(t, "replace", list(t, 3, str(t, text), str(t, pattern), str(t, replacement)), expected, 0);
}

static void assert_list_of_strings(terms *t, term_id l, size_t n, ...) {
    size_t count;
    const term_id *items = l == T_RDF_NIL ? NULL : terms_list_items(t, l, &count);
    if (l == T_RDF_NIL)
        count = 0;
    assert_int_equal(count, n);
    va_list ap;
    va_start(ap, n);
    for (size_t i = 0; i < n; i++)
        assert_string_equal(terms_lex(t, items[i], NULL), va_arg(ap, const char *));
    va_end(ap);
}

/* ---- tests ---- */

static void concatenation(void **state) {
    terms *t = *state;
    term_id abc = list(t, 3, str(t, "a"), str(t, "b"), str(t, "c"));
    assert_function(t, "concatenation", abc, "abc", 0);
    /* any literal's lexical form */
    assert_function(t, "concatenation", list(t, 3, str(t, "n="), integer(t, "1"), lang(t, "x", "en")), "n=1x", 0);
    assert_function(t, "concatenation", list(t, 0), "", 0);
    assert_holds(t, "concatenation", abc, str(t, "abc"), true);
    assert_holds(t, "concatenation", abc, str(t, "abd"), false);
    /* an IRI is its text (the report's casting to string); a blank node or a list is nothing */
    assert_function(t, "concatenation", list(t, 2, str(t, "<"), iri(t, EX "b")), "<" EX "b", 0);
    assert_none(run(t, "concatenation", list(t, 2, str(t, "a"), terms_bnode(t, "b", 1)), 0));
    assert_none(run(t, "concatenation", list(t, 2, str(t, "a"), list(t, 1, str(t, "b"))), 0));
    assert_none(run(t, "concatenation", str(t, "a"), 0));
}

static void contains_and_affixes(void **state) {
    terms *t = *state;
    term_id hello = str(t, "Hello World");
    assert_holds(t, "contains", hello, str(t, "o W"), true);
    assert_holds(t, "contains", hello, str(t, "o w"), false);
    assert_holds(t, "contains", hello, str(t, ""), true);
    assert_holds(t, "contains", str(t, "ab"), str(t, "abc"), false);
    assert_holds(t, "startsWith", hello, str(t, "Hell"), true);
    assert_holds(t, "startsWith", hello, str(t, "World"), false);
    assert_holds(t, "startsWith", str(t, "He"), str(t, "Hell"), false);
    assert_holds(t, "endsWith", hello, str(t, "World"), true);
    assert_holds(t, "endsWith", hello, str(t, "Hello"), false);
    assert_holds(t, "endsWith", str(t, "ld"), str(t, "World"), false);
    /* typed literals are strings too; IRIs are not */
    assert_holds(t, "contains", integer(t, "12345"), str(t, "234"), true);
    assert_holds(t, "contains", iri(t, EX "abc"), str(t, "abc"), false);
    assert_holds(t, "startsWith", str(t, EX "a"), iri(t, EX), false);
    assert_none(run(t, "contains", hello, 0));
}

static void ignoring_case(void **state) {
    terms *t = *state;
    term_id hello = str(t, "Hello World");
    assert_holds(t, "containsIgnoringCase", hello, str(t, "O w"), true);
    assert_holds(t, "containsIgnoringCase", hello, str(t, "xyz"), false);
    assert_holds(t, "equalIgnoringCase", str(t, "ABC"), str(t, "abc"), true);
    assert_holds(t, "equalIgnoringCase", str(t, "abc"), str(t, "abd"), false);
    assert_holds(t, "equalIgnoringCase", str(t, "abc"), str(t, "abcd"), false);
    assert_holds(t, "notEqualIgnoringCase", str(t, "abc"), str(t, "ABC"), false);
    assert_holds(t, "notEqualIgnoringCase", str(t, "abc"), str(t, "ABD"), true);
    /* non-ASCII letters, in and beyond the BMP */
    assert_holds(t, "equalIgnoringCase", str(t, E_ACUTE_UPPER "COLE"), str(t, E_ACUTE "cole"), true);
    assert_holds(t, "equalIgnoringCase", str(t, SIGMA_UPPER DESERET_UPPER), str(t, SIGMA DESERET), true);
    assert_holds(t, "equalIgnoringCase", str(t, E_ACUTE), str(t, "e"), false);
    assert_holds(t, "notEqualIgnoringCase", str(t, E_ACUTE_UPPER), str(t, E_ACUTE), false);
    assert_holds(t, "containsIgnoringCase", str(t, "L'" E_ACUTE_UPPER "COLE"), str(t, E_ACUTE "co"), true);
    /* not UTF-8: no case, no answer either way */
    assert_holds(t, "equalIgnoringCase", str(t, "\xff"), str(t, "\xff"), false);
    assert_holds(t, "notEqualIgnoringCase", str(t, "\xff"), str(t, "a"), false);
}

static void roughly(void **state) {
    terms *t = *state;
    term_id text = str(t, "  The QUICK\t\tbrown\n fox ");
    assert_holds(t, "containsRoughly", text, str(t, "quick brown"), true);
    assert_holds(t, "containsRoughly", text, str(t, " quick   BROWN  fox\n"), true);
    assert_holds(t, "containsRoughly", text, str(t, "quickbrown"), false);
    assert_holds(t, "notContainsRoughly", text, str(t, "quick brown"), false);
    assert_holds(t, "notContainsRoughly", text, str(t, "lazy dog"), true);
}

static void order(void **state) {
    terms *t = *state;
    assert_holds(t, "greaterThan", str(t, "b"), str(t, "a"), true);
    assert_holds(t, "greaterThan", str(t, "a"), str(t, "b"), false);
    assert_holds(t, "greaterThan", str(t, "ab"), str(t, "a"), true);
    assert_holds(t, "greaterThan", str(t, "10"), str(t, "9"), false); /* text, not numbers */
    assert_holds(t, "greaterThan", str(t, E_ACUTE), str(t, "z"), true); /* U+00E9 > U+007A */
    assert_holds(t, "greaterThan", str(t, "\xef\xbc\xa1"), str(t, E_ACUTE), true); /* U+FF21 */
    assert_holds(t, "greaterThan", str(t, EMOJI), str(t, "\xef\xbc\xa1"), true);     /* beyond the BMP last */
    assert_holds(t, "lessThan", str(t, "a"), str(t, "b"), true);
    assert_holds(t, "lessThan", str(t, "a"), str(t, "a"), false);
    assert_holds(t, "notGreaterThan", str(t, "a"), str(t, "a"), true);
    assert_holds(t, "notGreaterThan", str(t, "b"), str(t, "a"), false);
    assert_holds(t, "notLessThan", str(t, "a"), str(t, "a"), true);
    assert_holds(t, "notLessThan", str(t, "a"), str(t, "b"), false);
    assert_holds(t, "lessThan", iri(t, EX "a"), str(t, "b"), false);
}

static void case_mapping(void **state) {
    terms *t = *state;
    assert_function(t, "upperCase", str(t, "h" E_ACUTE "llo " SIGMA DESERET EMOJI),
                    "H" E_ACUTE_UPPER "LLO " SIGMA_UPPER DESERET_UPPER EMOJI, 0);
    assert_function(t, "lowerCase", str(t, E_ACUTE_UPPER "COLE " SIGMA_UPPER DESERET_UPPER),
                    E_ACUTE "cole " SIGMA DESERET, 0);
    assert_function(t, "capitalize", str(t, E_ACUTE "COLE"), E_ACUTE_UPPER "cole", 0);
    assert_function(t, "capitalize", str(t, ""), "", 0);
    assert_function(t, "upperCase", str(t, "stra\xc3\x9f" "e"), "STRA\xc3\x9f" "E", 0); /* ß has no one-letter upper */
    /* the language tag stays (as in EYE) */
    term_id ecole_fr = lang(t, E_ACUTE "cole", "fr");
    solutions sol = run(t, "lowerCase", lang(t, E_ACUTE_UPPER "COLE", "fr"), 0);
    assert_int_equal(sol.n, 1);
    assert_int_equal(sol.object[0], ecole_fr);
    assert_holds(t, "upperCase", str(t, "ab"), str(t, "AB"), true);
    assert_holds(t, "upperCase", str(t, "ab"), str(t, "Ab"), false);
    assert_none(run(t, "upperCase", str(t, "a\xc3"), 0)); /* a cut character */
    assert_none(run(t, "lowerCase", iri(t, EX "A"), 0));
}

static void length(void **state) {
    terms *t = *state;
    term_id hello = str(t, "h" E_ACUTE "llo" EMOJI);
    assert_function(t, "length", hello, "6", T_XSD_INTEGER);
    assert_function(t, "length", str(t, ""), "0", T_XSD_INTEGER);
    assert_function(t, "length", integer(t, "-12"), "3", T_XSD_INTEGER);
    assert_holds(t, "length", hello, integer(t, "6"), true);
    assert_holds(t, "length", hello, decimal(t, "6.0"), true); /* a number equal to 6 */
    assert_holds(t, "length", hello, integer(t, "9"), false);  /* its bytes */
    assert_none(run(t, "length", str(t, "\xe2\x82"), 0));
    assert_none(run(t, "length", iri(t, EX "abc"), 0));
}

static void substring(void **state) {
    terms *t = *state;
    term_id word = str(t, "h" E_ACUTE "llo" EMOJI "x");
    assert_function(t, "substring", list(t, 3, word, integer(t, "2"), integer(t, "4")), E_ACUTE "llo", 0);
    assert_function(t, "substring", list(t, 3, word, integer(t, "6"), integer(t, "1")), EMOJI, 0);
    assert_function(t, "substring", list(t, 2, word, integer(t, "5")), "o" EMOJI "x", 0);
    assert_function(t, "substring", list(t, 2, str(t, "abc"), integer(t, "1")), "abc", 0);
    /* positions outside the text are left out, as XPath's fn:substring */
    assert_function(t, "substring", list(t, 3, str(t, "abc"), integer(t, "2"), integer(t, "10")), "bc", 0);
    assert_function(t, "substring", list(t, 3, str(t, "abc"), integer(t, "0"), integer(t, "2")), "a", 0);
    assert_function(t, "substring", list(t, 3, str(t, "abc"), integer(t, "-1"), integer(t, "3")), "a", 0);
    assert_function(t, "substring", list(t, 3, str(t, "abc"), integer(t, "5"), integer(t, "2")), "", 0);
    assert_function(t, "substring", list(t, 3, str(t, "abc"), integer(t, "2"), integer(t, "-1")), "", 0);
    assert_function(t, "substring", list(t, 2, str(t, "abc"), integer(t, "99999999999999999999999")), "", 0);
    assert_function(t, "substring",
                    list(t, 3, str(t, "abc"), integer(t, "2"), integer(t, "9223372036854775807")), "bc", 0);
    assert_function(t, "substring",
                    list(t, 3, str(t, "abc"), integer(t, "-9223372036854775808"), integer(t, "9223372036854775807")),
                    "", 0);
    /* a numeric-looking string counts as an integer (EYE's getint) */
    assert_function(t, "substring", list(t, 3, str(t, "abc"), str(t, "2"), str(t, "1")), "b", 0);
    assert_none(run(t, "substring", list(t, 3, str(t, "abc"), decimal(t, "1.5"), integer(t, "1")), 0));
    assert_none(run(t, "substring", list(t, 1, str(t, "abc")), 0));
    assert_none(run(t, "substring", list(t, 3, str(t, "a\xff"), integer(t, "1"), integer(t, "1")), 0));
}

static void format(void **state) {
    terms *t = *state;
    /* the report's example */
    assert_function(t, "format",
                    list(t, 4, str(t, "%s://%s/%s"), str(t, "https"), str(t, "w3c.github.io"), str(t, "N3/spec/")),
                    "https://w3c.github.io/N3/spec/", 0);
    /* widths and precisions count characters */
    assert_function(t, "format",
                    list(t, 4, str(t, "[%4s|%-4s|%.2s]"), str(t, E_ACUTE), str(t, "ab"), str(t, EMOJI "xyz")),
                    "[   " E_ACUTE "|ab  |" EMOJI "x]", 0);
    assert_function(t, "format", list(t, 3, str(t, "%d%%, %i"), integer(t, "42"), integer(t, "-7")), "42%, -7", 0);
    assert_function(t, "format", list(t, 3, str(t, "%05d|%.3d"), integer(t, "-42"), integer(t, "7")), "-0042|007", 0);
    assert_function(t, "format", list(t, 2, str(t, "%d"), integer(t, "123456789012345678901234567890")),
                    "123456789012345678901234567890", 0);
    assert_function(t, "format", list(t, 2, str(t, "%s"), integer(t, "7")), "7", 0);
    assert_function(t, "format", list(t, 1, str(t, "no tags")), "no tags", 0);
    /* an argument missing or left over, another conversion, a non-integer for %d, a field too wide */
    assert_none(run(t, "format", list(t, 2, str(t, "%s %s"), str(t, "a")), 0));
    assert_none(run(t, "format", list(t, 3, str(t, "%s"), str(t, "a"), str(t, "b")), 0));
    assert_none(run(t, "format", list(t, 2, str(t, "%x"), integer(t, "1")), 0));
    assert_none(run(t, "format", list(t, 2, str(t, "%d"), decimal(t, "1.5")), 0));
    assert_none(run(t, "format", list(t, 2, str(t, "%99999999999999999999s"), str(t, "a")), 0));
    assert_none(run(t, "format", list(t, 2, str(t, "50%"), str(t, "a")), 0));
    assert_none(run(t, "format", list(t, 2, str(t, "%s"), iri(t, EX "a")), 0));
    assert_none(run(t, "format", list(t, 0), 0));
}

static void matches(void **state) {
    terms *t = *state;
    assert_holds(t, "matches", str(t, "abc123"), str(t, "[0-9]+$"), true);
    assert_holds(t, "matches", str(t, "abc"), str(t, "\\d"), false);
    assert_holds(t, "notMatches", str(t, "abc"), str(t, "\\d"), true);
    assert_holds(t, "notMatches", str(t, "abc1"), str(t, "\\d"), false);
    assert_holds(t, "matches", str(t, "hello world!"), str(t, ".*(l)+o wo.*"), true); /* the report's */
    /* Perl syntax: inline flags, lookarounds */
    assert_holds(t, "matches", str(t, "HeLLo"), str(t, "(?i)^hello$"), true);
    assert_holds(t, "matches", str(t, "HeLLo"), str(t, "^hello$"), false);
    assert_holds(t, "matches", str(t, "H" E_ACUTE_UPPER "LLO"), str(t, "(?i)h" E_ACUTE "llo"), true);
    assert_holds(t, "matches", str(t, "price: 10 EUR"), str(t, "\\d+(?= EUR)"), true);
    /* characters, not bytes */
    assert_holds(t, "matches", str(t, E_ACUTE), str(t, "^.$"), true);
    assert_holds(t, "matches", str(t, EMOJI), str(t, "^.$"), true);
    assert_holds(t, "matches", str(t, E_ACUTE), str(t, "^[" E_ACUTE "x]$"), true);
    /* \w is ASCII, as in EYE; (*UCP) extends it */
    assert_holds(t, "matches", str(t, E_ACUTE), str(t, "^\\w$"), false);
    assert_holds(t, "matches", str(t, E_ACUTE), str(t, "(*UCP)^\\w$"), true);
    /* an invalid pattern, a pattern or text that is not UTF-8, \C: neither holds */
    const char *invalid[] = {"(ab", "a\\", "[z-a]", "\xff", "\\C"};
    for (size_t i = 0; i < sizeof invalid / sizeof invalid[0]; i++) {
        assert_holds(t, "matches", str(t, "abc"), str(t, invalid[i]), false);
        assert_holds(t, "notMatches", str(t, "abc"), str(t, invalid[i]), false);
    }
    assert_holds(t, "matches", str(t, "a\xe9"), str(t, "a"), false);
    assert_holds(t, "notMatches", str(t, "a\xe9"), str(t, "z"), false);
    assert_holds(t, "matches", iri(t, EX "abc"), str(t, "abc"), false);
}

static void replace(void **state) {
    terms *t = *state;
    assert_replace(t, "hello world", "o", "0", "hell0 w0rld");
    assert_replace(t, "hello world!", "(l)", "[$1]", "he[l][l]o wor[l]d!"); /* the report's */
    assert_replace(t, "2024-05-06", "([0-9]+)-([0-9]+)-([0-9]+)", "$3/$2/$1", "06/05/2024");
    assert_replace(t, "a1b22", "\\d+", "#", "a#b#");
    assert_replace(t, "a:b]", "[[:alpha:]]", "x", "x:x]");
    assert_replace(t, "abc", "z", "y", "abc");
    assert_replace(t, "aaa", "^a", "b", "baa");
    /* empty matches, as Perl's s///g and Python's re.sub */
    assert_replace(t, "abc", "x*", "-", "-a-b-c-");
    assert_replace(t, "abb", "b*", "-", "-a--");
    assert_replace(t, "ab", "|b", "-", "-a---"); /* after an empty match, a non-empty one at the same place */
    assert_replace(t, "", "x*", "-", "-");
    assert_replace(t, E_ACUTE EMOJI, "", "|", "|" E_ACUTE "|" EMOJI "|");
    /* $0, \$ and \\; a group that took no part is empty; $1 without groups is the match (EYE) */
    assert_replace(t, "a", "a", "\\$1 costs \\\\ $0$0", "$1 costs \\ aa");
    assert_replace(t, "ab", "(x)?b", "[$1]", "a[]");
    assert_replace(t, "abab", "a|b", "[$1]", "[a][b][a][b]");
    assert_replace(t, "ab", "(a)", "$2$", "$b");
    /* (?i), lazy quantifiers, `.` as one character */
    assert_replace(t, "AbaB", "(?i)b", "x", "Axax");
    assert_replace(t, "<a><b>", "<(.+?)>", "$1", "ab");
    assert_replace(t, "<a><b>", "<(.+)>", "$1", "a><b");
    assert_replace(t, "h" E_ACUTE "llo", ".", "-", "-----");
    assert_replace(t, E_ACUTE EMOJI "x", "[^x]", "?", "??x");
    assert_replace(t, "caf" E_ACUTE_UPPER, "(?i)" E_ACUTE, "e", "cafe");
    term_id s = list(t, 3, str(t, "abc"), str(t, "b"), str(t, "B"));
    assert_holds(t, "replace", s, str(t, "aBc"), true);
    assert_holds(t, "replace", s, str(t, "abc"), false);
    /* a NUL character is a character */
    solutions sol = run(t, "replace", list(t, 3, terms_literal(t, "a\0b", 3, 0, NULL, 0), str(t, "b"), str(t, "x")), 0);
    assert_int_equal(sol.n, 1);
    size_t len;
    const char *result = terms_lex(t, sol.object[0], &len);
    assert_int_equal(len, 3);
    assert_memory_equal(result, "a\0x", 3);
    /* type errors, invalid patterns, text that is not UTF-8 */
    assert_none(run(t, "replace", list(t, 3, str(t, "abc"), str(t, "("), str(t, "x")), 0));
    assert_none(run(t, "replace", list(t, 3, str(t, "abc"), str(t, "a\\"), str(t, "x")), 0));
    assert_none(run(t, "replace", list(t, 3, str(t, "abc"), str(t, "\\C"), str(t, "x")), 0));
    assert_none(run(t, "replace", list(t, 2, str(t, "abc"), str(t, "b")), 0));
    assert_none(run(t, "replace", list(t, 3, iri(t, EX "abc"), str(t, "b"), str(t, "x")), 0));
    assert_none(run(t, "replace", list(t, 3, str(t, "a\xc3"), str(t, "z"), str(t, "x")), 0));
    assert_none(run(t, "replace", list(t, 3, str(t, "abc"), str(t, "b"), str(t, "\xc3")), 0));
}

/* Whatever the pattern, a replace over mixed text gives UTF-8: no match starts or ends inside a character. */
static void replace_keeps_characters_whole(void **state) {
    terms *t = *state;
    const char *text = "a" E_ACUTE EMOJI "b" SIGMA_UPPER DESERET;
    const char *patterns[] = {"", ".", "..", "(?=.)", "\\X", "[^a]", ("(?i)" SIGMA), "\\b", "$", "(?<=.)", "\\W"};
    for (size_t i = 0; i < sizeof patterns / sizeof patterns[0]; i++) {
        solutions sol = run(t, "replace", list(t, 3, str(t, text), str(t, patterns[i]), str(t, "")), 0);
        assert_int_equal(sol.n, 1);
        size_t len;
        const char *result = terms_lex(t, sol.object[0], &len);
        assert_int_not_equal(utf8_length(result, len), SIZE_MAX);
    }
}

static void scrape_and_search(void **state) {
    terms *t = *state;
    /* the report's */
    assert_function(t, "scrape", list(t, 2, str(t, "https://w3c.github.io/N3/spec/"), str(t, ".*/([^/]+/)$")), "spec/",
                    0);
    assert_function(t, "scrape", list(t, 2, str(t, "aXbXcX"), str(t, "X(.*?)X")), "b", 0);
    assert_function(t, "scrape", list(t, 2, str(t, "x=1, y=22"), str(t, "([a-z])=(\\d+)")), "x", 0);
    assert_function(t, "scrape", list(t, 2, str(t, "caf" E_ACUTE "!"), str(t, "f(.)")), E_ACUTE, 0);
    assert_none(run(t, "scrape", list(t, 2, str(t, "abc"), str(t, "z(.)")), 0)); /* no match */
    assert_none(run(t, "scrape", list(t, 2, str(t, "abc"), str(t, "b")), 0));    /* no group */
    assert_none(run(t, "scrape", list(t, 2, str(t, "abc"), str(t, "(x)?b")), 0)); /* group 1 not set */
    assert_none(run(t, "scrape", list(t, 2, str(t, "abc"), str(t, "(")), 0));
    solutions sol = run(t, "search", list(t, 2, str(t, "a-b c-d"), str(t, "(\\w)-(\\w)")), 0);
    assert_int_equal(sol.n, 1);
    assert_list_of_strings(t, sol.object[0], 2, "a", "b");
    sol = run(t, "search", list(t, 2, str(t, "ab"), str(t, "(x)?(b)")), 0);
    assert_list_of_strings(t, sol.object[0], 2, "", "b");
    sol = run(t, "search", list(t, 2, str(t, "ab"), str(t, "b")), 0);
    assert_list_of_strings(t, sol.object[0], 0);
    assert_none(run(t, "search", list(t, 2, str(t, "ab"), str(t, "c")), 0));
    sol = run(t, "scrapeAll", list(t, 2, str(t, "a1b2" E_ACUTE "3"), str(t, "(.)[0-9]")), 0);
    assert_list_of_strings(t, sol.object[0], 3, "a", "b", E_ACUTE);
    sol = run(t, "scrapeAll", list(t, 2, str(t, "a1b22"), str(t, "\\d+")), 0);
    assert_list_of_strings(t, sol.object[0], 2, "1", "22");
    sol = run(t, "scrapeAll", list(t, 2, str(t, "abc"), str(t, "\\d")), 0);
    assert_list_of_strings(t, sol.object[0], 0);
    assert_none(run(t, "scrapeAll", list(t, 2, str(t, "abc"), str(t, "[")), 0));
}

static bool count_match(void *user, const text_match *m) {
    (void)m;
    ++*(size_t *)user;
    return true;
}

/* A pattern whose matching takes exponential time is stopped by the match limit: neither matches nor
 * notMatches holds, and the next pattern works as before. */
static void catastrophic_pattern_is_bounded(void **state) {
    terms *t = *state;
    char text[64];
    memset(text, 'a', 40);
    strcpy(text + 40, "!");
    size_t n = 0;
    assert_int_equal(text_regex_each("^(a|a?)+$", 9, text, strlen(text), count_match, &n), TEXT_REGEX_LIMIT);
    assert_int_equal(n, 0);
    assert_holds(t, "matches", str(t, text), str(t, "^(a|a?)+$"), false);
    assert_holds(t, "notMatches", str(t, text), str(t, "^(a|a?)+$"), false);
    assert_none(run(t, "replace", list(t, 3, str(t, text), str(t, "^(a|a?)+$"), str(t, "x")), 0));
    assert_holds(t, "matches", str(t, text), str(t, "^a+!$"), true);
}

/* More patterns than the cache holds, used in turn and again: each still gives its own answers. */
static void pattern_cache(void **state) {
    terms *t = *state;
    for (int round = 0; round < 3; round++)
        for (int i = 0; i < 40; i++) {
            char pattern[16], yes[16], no[16];
            snprintf(pattern, sizeof pattern, "^x%d$", i);
            snprintf(yes, sizeof yes, "x%d", i);
            snprintf(no, sizeof no, "x%d", i + 1);
            assert_holds(t, "matches", str(t, yes), str(t, pattern), true);
            assert_holds(t, "matches", str(t, no), str(t, pattern), false);
        }
}

static void *match_in_thread(void *arg) {
    size_t *n = arg;
    text_regex_each("(?i)b", 5, "aBcb", 4, count_match, n);
    return NULL;
}

/* Another thread has its own cache, freed when it ends (the sanitizer build would report a leak). */
static void pattern_cache_per_thread(void **state) {
    (void)state;
    size_t n = 0;
    pthread_t thread;
    assert_int_equal(pthread_create(&thread, NULL, match_in_thread, &n), 0);
    assert_int_equal(pthread_join(thread, NULL), 0);
    assert_int_equal(n, 2);
}

/* The characters of replacing every match of pattern in `repeats` copies of unit by "<match>". */
static size_t replaced_length(terms *t, const char *unit, size_t repeats, const char *pattern) {
    buf text = {0};
    for (size_t i = 0; i < repeats; i++)
        buf_puts(&text, unit);
    term_id subject = terms_literal(t, text.data, text.len, 0, NULL, 0);
    buf_free(&text);
    solutions sol = run(t, "replace", list(t, 3, subject, str(t, pattern), str(t, "<$0>")), 0);
    assert_int_equal(sol.n, 1);
    size_t len;
    const char *result = terms_lex(t, sol.object[0], &len);
    return utf8_length(result, len);
}

/* Megabytes with a match every character or two: each match must cost only its own stretch of text. A
 * UTF-8 check of the rest of the text at every match, or the interpreter's search for a caseless first
 * letter (it looks for "B" to the end of the text at every match; the JIT does not), made this
 * quadratic: many minutes, past the test's timeout. Linear, it takes a second or two. */
static void replace_is_linear(void **state) {
    terms *t = *state;
    const size_t n = 1000000;
    assert_int_equal(replaced_length(t, "b", 4 * n, "(?i)B"), 3 * 4 * n);
    /* 5 MB of "b😀": the emoji with and without a lookbehind; an empty match at every character boundary */
    assert_int_equal(replaced_length(t, "b" EMOJI, n, EMOJI), 4 * n);
    assert_int_equal(replaced_length(t, "b" EMOJI, n, "(?<=b)" EMOJI), 4 * n);
    assert_int_equal(replaced_length(t, "b" EMOJI, n, "x*"), 2 * n + 2 * (2 * n + 1));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(concatenation, setup, teardown),
        cmocka_unit_test_setup_teardown(contains_and_affixes, setup, teardown),
        cmocka_unit_test_setup_teardown(ignoring_case, setup, teardown),
        cmocka_unit_test_setup_teardown(roughly, setup, teardown),
        cmocka_unit_test_setup_teardown(order, setup, teardown),
        cmocka_unit_test_setup_teardown(case_mapping, setup, teardown),
        cmocka_unit_test_setup_teardown(length, setup, teardown),
        cmocka_unit_test_setup_teardown(substring, setup, teardown),
        cmocka_unit_test_setup_teardown(format, setup, teardown),
        cmocka_unit_test_setup_teardown(matches, setup, teardown),
        cmocka_unit_test_setup_teardown(replace, setup, teardown),
        cmocka_unit_test_setup_teardown(replace_keeps_characters_whole, setup, teardown),
        cmocka_unit_test_setup_teardown(scrape_and_search, setup, teardown),
        cmocka_unit_test_setup_teardown(catastrophic_pattern_is_bounded, setup, teardown),
        cmocka_unit_test_setup_teardown(pattern_cache, setup, teardown),
        cmocka_unit_test_setup_teardown(pattern_cache_per_thread, setup, teardown),
        cmocka_unit_test_setup_teardown(replace_is_linear, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
