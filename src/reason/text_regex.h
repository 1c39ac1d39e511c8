/* text_regex.h: Perl-style regular expressions over UTF-8 text (PCRE2), for the string: builtins.
 *
 * NOTES ON THE DESIGN
 *  1. Patterns are PCRE2 in UTF mode: they match characters, not bytes (`.` is one é, one emoji), with
 *     Perl's syntax: (?i) and the other inline flags, lazy quantifiers, lookarounds, \d \s \w \b. As in
 *     EYE (SWI-Prolog's PCRE2 binding), \d \w \s \b and POSIX classes know ASCII only; a pattern that
 *     starts with (*UCP) extends them to Unicode. (?i) folds non-ASCII letters too (É matches é).
 *     \C (one byte inside a character) is refused, so no match ends inside a character.
 *  2. A pattern that does not compile (bad syntax, not UTF-8) or a text that is not UTF-8 gives
 *     TEXT_REGEX_INVALID. A match that needs more than the limits (10 million backtracking steps, as
 *     PCRE2's default, or 64 MiB of backtracking memory) gives TEXT_REGEX_LIMIT: the caller cannot tell
 *     a match from none. A catastrophic pattern such as ^(a+)+$ on forty a's and a "!" reaches them in
 *     0.03 s with the JIT, 0.3 s without (measured). The builtins then make their relation false; they
 *     have no log to report it to.
 *  3. Every match is found left to right in one pass over the text, as Perl's //g and Python's
 *     finditer do: after an empty match, a non-empty match at the same place is tried, then the scan
 *     moves on by one character. The text's UTF-8 is checked once, not at each match, so finding every
 *     match costs time linear in the text (for patterns that do not backtrack pathologically).
 *  4. Compiled patterns are cached per thread (the 16 most recently used), since a rule applies the same
 *     pattern to every binding of its body (measured: string:matches on 100,000 bindings took 0.16 s of
 *     CPU with the cache, 0.65 s compiling the pattern each time).
 *  5. Patterns are compiled to machine code (PCRE2's JIT) where the platform allows: faster (NOTES 2),
 *     and its search for where a match may start finds a caseless first letter in one pass, where the
 *     interpreter searches for each case to the end of the text at every match, which makes (?i)a over
 *     a long text without any "A" quadratic. */
#ifndef LDGSM_REASON_TEXT_REGEX_H
#define LDGSM_REASON_TEXT_REGEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The offset of a group that took no part in the match. */
#define TEXT_REGEX_UNSET SIZE_MAX

typedef struct text_match {
    size_t groups;         /* capture groups in the pattern; group 0, the whole match, not counted */
    const size_t *offsets; /* start and end of group g at [2g] and [2g+1], g = 0..groups (NOTES 3) */
} text_match;

/* Receives one match (valid during the call only); returns false to stop. It must not use text_regex. */
typedef bool text_match_fn(void *user, const text_match *m);

enum text_regex_status { TEXT_REGEX_OK, TEXT_REGEX_INVALID, TEXT_REGEX_LIMIT };

/* Calls fn on each match of the pattern in the text, left to right (NOTES 3), until fn returns false.
 * TEXT_REGEX_OK when the scan ended normally, with or without matches (NOTES 2 for the others). */
enum text_regex_status text_regex_each(const char *pattern, size_t pattern_len, const char *text, size_t text_len,
                                       text_match_fn *fn, void *user);

#endif
