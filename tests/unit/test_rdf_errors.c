/* test_rdf_errors.c: where rdf_parse says a document goes wrong (a table of broken Turtle and TriG, each
 * error at its line and column, in the recognizer's words: raptor2 never parses a text it refuses; the
 * other syntaxes), and the bound on what names
 * written in full may add (a long namespace, base or subject used many times is refused, legitimate wide
 * documents are not). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rdf/buf.h"
#include "rdf/nesting.h"
#include "rdf/rdfio.h"
#include "rdf/term_rules.h"
#include "rdf/turtle_scan.h"

#include "rdf_fixture.h"


static int parse(fixture *f, enum rdf_syntax syntax, const char *text, size_t len, size_t *count, rdf_error *err) {
    triple *ts;
    int rc = rdf_parse_triples(f->io, syntax, text, len, "http://host/dir/doc", "doc", &ts, count, err);
    free(ts);
    return rc;
}

static const struct broken {
    enum rdf_syntax syntax;
    const char *text;
    int line, col;
    const char *says; /* part of the message after "doc:line:col: " */
} broken[] = {
    /* an undeclared prefix: raptor2 gives no position at all */
    {RDF_TURTLE, "<a> ex:p <b> .\n", 1, 5, "a prefix that is not declared: ex:p"},
    {RDF_TURTLE, "@prefix ex: <http://e/> .\n<a> ex:p <b> .\n<a> ab:c <d> .\n", 3, 5, "a prefix that is not declared: ab:c"},
    {RDF_TURTLE, "<a> <b> \"x\"^^xsd:int .\n", 1, 14, "a prefix that is not declared: xsd:int"},
    {RDF_TRIG, "<g> { <a> ex:b <c> }\n", 1, 11, "a prefix that is not declared: ex:b"},
    /* grammar errors (raptor2 gives the line only): what was expected, and found */
    {RDF_TURTLE, "@prefix ex: <http://e/> .\n<a> ex:p <b>\n<c> <d> <e> .\n", 3, 1,
     "expecting '.', found an IRI: <c>"},
    {RDF_TURTLE, "<a> <b> <c> .\n<a> <b> .\n", 2, 9, "'.' cannot stand here"},
    {RDF_TURTLE, "<a> <b> <c> .\n<a> <b> <c> <d> .\n", 2, 13, "expecting '.', found an IRI: <d>"},
    {RDF_TURTLE, "<a> <b> <c>\n", 2, 1, "expecting '.', found the end of the text"},
    {RDF_TURTLE, "<a> <b> <c> .\n<a>\n", 3, 1, "the text ends inside a statement"},
    {RDF_TURTLE, "<a> <b> \"x\"^^ .\n", 1, 15, "'.' cannot stand here"},
    {RDF_TURTLE, "<a> <b> ( <c> .\n", 1, 15, "'.' cannot stand here"},
    {RDF_TURTLE, "<a> <b> [ <c> <d> .\n", 1, 19, "expecting ']', found '.'"},
    {RDF_TURTLE, "<a> <b> <c>, .\n", 1, 14, "'.' cannot stand here"},
    {RDF_TURTLE, "<a> <b> <c> . }\n", 1, 15, "braces are not Turtle (a TriG graph, or an N3 formula?)"},
    {RDF_TURTLE, "a <b> <c> .\n", 1, 1, "'a' cannot stand here"},
    {RDF_TURTLE, "\"x\" <b> <c> .\n", 1, 1, "a string cannot stand here: \"x\""},
    {RDF_TURTLE, "<a> <b> \"x\"@en^^<http://t> .\n", 1, 15, "'^^' cannot stand here"},
    {RDF_TURTLE, "@prefix ex: <http://e/> .\n  ex:a\tex:b\n\t\tex:c ex:d .\n", 3, 8, "expecting '.', found a prefixed name: ex:d"},
    {RDF_TRIG, "<g> { <a> <b> <c> \n", 2, 1, "expecting '}', found the end of the text"},
    {RDF_TRIG, "{ <a> <b> <c> . } .\n", 1, 19, "'.' cannot stand here"},
    /* lexical errors (raptor2 gives the line only) */
    {RDF_TURTLE, "<a> <b> \"abc .\n", 1, 9, "a string that does not end: \""},
    {RDF_TURTLE, "<a> <b> \"a\nb\" .\n", 1, 9, "a string that does not end: \""},
    {RDF_TURTLE, "<a> <b> \"x\"@ .\n", 1, 12, "no Turtle token begins here: @"},
    {RDF_TURTLE, "@prefix ex <http://e/> .\n", 1, 9, "no Turtle token begins here: e"},
    {RDF_TURTLE, "<a> <b> <c d> .\n", 1, 9, "no Turtle token begins here: <"},
    {RDF_TURTLE, "<a> <b> <c> . # a comment\n<d> <e> ?x .\n", 2, 9, "no Turtle token begins here: ?"},
    {RDF_TURTLE, "<a> <b> <c> .\n\n   @prefix\nex: <x> .\n", 3, 11, "no Turtle token begins here"},
    {RDF_TURTLE, "<a> <b> <c> .\n<a> abc <c> .\n", 2, 6, "no Turtle token begins here: b"},
    {RDF_TURTLE, "<a> <b> \"\\u00e9\" .\n<a> <b> \"\\uZZZZ\" .\n", 2, 10, "an escape Turtle strings do not have: \\u"},
    {RDF_TURTLE, "<a> <b> <c> .\n<d> <e> \"\"\"never\nends .\n", 2, 9, "a string that does not end: \"\"\"never"},
    {RDF_TURTLE, "  <a> <b> \"\"\"long\nstring\n with \\q\"\"\" .\n", 3, 7, "an escape Turtle strings do not have: \\q"},
    /* texts on which raptor2 2.0.15 leaks the tokens it holds (the sanitizer build's leak check) */
    {RDF_TURTLE, "@prefix", 1, 8, "the text ends inside a statement"},
    {RDF_TURTLE, "<> <http://ex/p> \"c <http://ex/q> \"d\" .\n", 1, 36, "no Turtle token begins here: d"},
    {RDF_TURTLE, "<a> <b> <http://x/\\u003C> .\n", 1, 19, "an escape of a character no IRI holds: \\u003C"},
    /* columns count characters, not bytes, and a character is quoted whole */
    {RDF_TURTLE, "<a> <b> \"\xC3\xA9t\xC3\xA9\" ; ex:q 1 .\n", 1, 17, "a prefix that is not declared: ex:q"},
    {RDF_TURTLE, "<a> <b> <c> .\n\xC3\xA9t\xC3\xA9 <b> <c> .\n", 2, 1, "no Turtle token begins here: \xC3\xA9"},
    /* N-Triples and N-Quads: raptor2's own line and column */
    {RDF_NTRIPLES, "<http://a> <http://p> <http://b> .\n<http://a> ex:p <http://b> .\n", 2, 12, "Saw 'e'"},
    {RDF_NQUADS, "<http://a> <http://p> <http://b> <http://g> .\n<http://a> <http://p> <http://b> x .\n", 2, 34,
     "expected Graph term"},
};

/* raptor2 2.0.15 writes past a heap buffer when it makes a literal whose language tag has 256 characters
 * or more (valgrind sees it in every syntax; the sanitizer build in Turtle): such tags are refused before
 * raptor2 reads the text, in every syntax, and tags of 128 characters kept. */
static void long_language_tags_are_refused(void **state) {
    fixture *f = *state;
    static const struct {
        enum rdf_syntax syntax;
        const char *format; /* %s: the tag */
        size_t triples;     /* with a tag of 128 */
        const char *says;   /* with one of 256 */
    } cases[] = {
        {RDF_TURTLE, "<a> <b> \"x\"@%s ; <c> [ <d> <e> ] .\n", 3,
         "doc:1:12: a language tag longer than 128 characters: @"},
        {RDF_NTRIPLES, "<http://a> <http://b> \"x\"@%s .\n", 1, "doc:1:26: a language tag longer than 128 characters"},
        {RDF_RDFXML,
         "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"><rdf:Description rdf:about=\"http://a\">"
         "<rdf:value xml:lang='%s'>x</rdf:value></rdf:Description></rdf:RDF>\n",
         1, "doc:1:115: a language tag longer than 128 characters"},
    };
    char text[800];
    char tag[300];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        for (size_t length = 128; length <= 256; length += 128) {
            memset(tag, 'F', length);
            tag[length] = '\0';
            snprintf(text, sizeof text, cases[i].format, tag);
            size_t count;
            rdf_error err;
            int rc = parse(f, cases[i].syntax, text, strlen(text), &count, &err);
            if (length == 128) {
                assert_int_equal(rc, 0);
                assert_int_equal(count, cases[i].triples);
            } else {
                assert_int_equal(rc, -1);
                assert_string_equal(err.message, cases[i].says);
            }
        }
}

/* Every reader's one nesting bound (rdf/nesting.h): MAX_NESTING levels parse, one more is refused where it
 * opens, and a megabyte of unclosed brackets (which crashed the server: a stack overflow in the Turtle
 * recognizer) or of unclosed RDF/XML elements (quadratic in raptor2) is refused at the same place. */
static void nesting_is_bounded_in_every_syntax(void **state) {
    fixture *f = *state;
    static const struct {
        enum rdf_syntax syntax;
        const char *head, *open, *inner, *close, *tail;
        const char *says;
    } cases[] = {
        {RDF_TURTLE, "<a> <p> ", "(", "<b>", ")", " .\n", NESTING_ERROR},
        {RDF_TURTLE, "<a> <p> ", "[ <p> ", "<b>", " ]", " .\n", NESTING_ERROR},
        {RDF_TRIG, "<g> { <a> <p> ", "( [ <p> ", "<b>", " ] )", " }\n", NESTING_ERROR},
        {RDF_RDFXML,
         "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\" xmlns:e=\"http://e/\">"
         "<rdf:Description rdf:about=\"http://a\" e:note='a/>b'><!-- <e:p> --><e:q>x</e:q><e:r/>",
         "<e:p rdf:parseType=\"Resource\">", "<e:v>x</e:v>", "</e:p>", "</rdf:Description></rdf:RDF>\n",
         "elements " NESTING_ERROR},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        /* RDF/XML's rdf:RDF, rdf:Description and innermost e:v are levels too; TriG's steps two brackets */
        unsigned outer = cases[i].syntax == RDF_RDFXML ? 3 : 0, per = cases[i].syntax == RDF_TRIG ? 2 : 1;
        unsigned fits = (MAX_NESTING - outer) / per;
        for (unsigned steps = fits; steps <= fits + 1; steps++) {
            buf text = {0};
            buf_puts(&text, cases[i].head);
            size_t deepest = 0;
            for (unsigned k = 0; k < steps; k++) {
                deepest = text.len;
                buf_puts(&text, cases[i].open);
            }
            buf_puts(&text, cases[i].inner);
            for (unsigned k = 0; k < steps; k++)
                buf_puts(&text, cases[i].close);
            buf_puts(&text, cases[i].tail);
            size_t count;
            rdf_error err;
            int rc = parse(f, cases[i].syntax, text.data, text.len, &count, &err);
            if (steps == fits && rc != 0)
                fail_msg("case %zu: %u levels refused: %s", i, steps * per + outer, err.message);
            if (steps > fits) {
                assert_int_equal(rc, -1);
                /* the opening that passes the bound: the last step's first (RDF/XML: the innermost e:v) */
                size_t at = deepest + (cases[i].syntax == RDF_RDFXML ? strlen(cases[i].open) : 0);
                char expected[160];
                snprintf(expected, sizeof expected, "doc:1:%zu: %s", at + 1, cases[i].says);
                if (strncmp(err.message, expected, strlen(expected)) != 0)
                    fail_msg("case %zu: expected %s, got %s", i, expected, err.message);
            }
            buf_free(&text);
        }
        /* a megabyte that never closes */
        buf text = {0};
        buf_puts(&text, cases[i].head);
        while (text.len < (1u << 20))
            buf_puts(&text, cases[i].open);
        size_t count;
        rdf_error err;
        assert_int_equal(parse(f, cases[i].syntax, text.data, text.len, &count, &err), -1);
        if (!strstr(err.message, cases[i].says))
            fail_msg("case %zu, 1 MB: %s", i, err.message);
        buf_free(&text);
    }
}

/* U+0000 in a literal is refused by every reader (raptor2's Turtle and N-Triples parsers cut the literal
 * there without a word, the N-Triples and RDF/XML writers cut it, Turtle kept it); an escaped backslash
 * before "u0000" is no escape and parses. */
static void nul_in_literals_is_refused(void **state) {
    fixture *f = *state;
    static const struct {
        enum rdf_syntax syntax;
        const char *text;
        int col;
    } cases[] = {
        {RDF_TURTLE, "<http://a> <http://p> \"a\\u0000b\" .\n", 25},
        {RDF_TURTLE, "<http://a> <http://p> '''a\\U00000000''' .\n", 27},
        {RDF_TRIG, "<http://g> { <http://a> <http://p> \"\\u0000\" }\n", 37},
        {RDF_NTRIPLES, "<http://a> <http://p> \"a\\u0000b\" .\n", 25},
        {RDF_NQUADS, "<http://a> <http://p> \"\\\\\\u0000\" <http://g> .\n", 26},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        size_t count;
        rdf_error err;
        if (parse(f, cases[i].syntax, cases[i].text, strlen(cases[i].text), &count, &err) != -1)
            fail_msg("accepted: %s", cases[i].text);
        char expected[160];
        snprintf(expected, sizeof expected, "doc:1:%d: %s", cases[i].col, RDF_NUL_LITERAL_ERROR);
        if (strncmp(err.message, expected, strlen(expected)) != 0)
            fail_msg("%s: expected %s, got %s", cases[i].text, expected, err.message);
    }
    static const char escaped_backslash[] = "<http://a> <http://p> \"a\\\\u0000b\" .\n";
    enum rdf_syntax both[] = {RDF_TURTLE, RDF_NTRIPLES};
    for (size_t i = 0; i < 2; i++) {
        size_t count;
        rdf_error err;
        assert_int_equal(parse(f, both[i], escaped_backslash, strlen(escaped_backslash), &count, &err), 0);
        assert_int_equal(count, 1);
    }
}

/* An rdf:_ IRI that is no positive ordinal (rdf:_, rdf:_0, rdf:_x) is refused in every syntax: raptor2's
 * N-Triples parser refuses it anywhere, so a resource stored with one could not be read back from its
 * N-Triples form (found by fuzz_ldp_body). rdf:_1 and rdf:_01 read. */
static void bad_ordinals_are_refused(void **state) {
    fixture *f = *state;
    static const char *const bad[] = {"_", "_0", "_x", "_1x", "_000", "_2147483648", "_4294967296"};
    static const char *const good[] = {"_1", "_01", "_2147483647", "_99999999999"};
    enum rdf_syntax syntaxes[] = {RDF_TURTLE, RDF_NTRIPLES};
    char text[200];
    for (size_t s = 0; s < 2; s++) {
        for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
            snprintf(text, sizeof text, "<http://a> <http://p> <http://www.w3.org/1999/02/22-rdf-syntax-ns#%s> .\n", bad[i]);
            size_t count;
            rdf_error err;
            assert_int_equal(parse(f, syntaxes[s], text, strlen(text), &count, &err), -1);
            if (syntaxes[s] == RDF_TURTLE && !strstr(err.message, RDF_BAD_ORDINAL_ERROR))
                fail_msg("%s: %s", text, err.message);
        }
        for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
            snprintf(text, sizeof text, "<http://www.w3.org/1999/02/22-rdf-syntax-ns#%s> <http://p> <http://b> .\n", good[i]);
            size_t count;
            rdf_error err;
            assert_int_equal(parse(f, syntaxes[s], text, strlen(text), &count, &err), 0);
        }
    }
}

/* The RDF/XML depth check reads what hides a '[' or a '>' as libxml2 does: a document type whose system
 * literal holds '[' (once taken for an internal subset running to the end), and N-Triples comments may
 * mention \u0000 (only literals are looked in). */
static void prescans_read_what_parsers_read(void **state) {
    fixture *f = *state;
    buf text = {0};
    buf_puts(&text, "<?xml version=\"1.0\"?>\n<!DOCTYPE rdf:RDF SYSTEM \"x[\">\n"
                    "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\" xmlns:e=\"http://e/\">"
                    "<rdf:Description rdf:about=\"http://a\">");
    for (int i = 0; i < 20000; i++)
        buf_puts(&text, "<e:p rdf:parseType=\"Resource\">");
    size_t count;
    rdf_error err;
    assert_int_equal(parse(f, RDF_RDFXML, text.data, text.len, &count, &err), -1);
    if (!strstr(err.message, "elements " NESTING_ERROR))
        fail_msg("%s", err.message);
    buf_free(&text);
    static const char comment[] = "# a literal may not hold \\u0000\n<http://a> <http://p> \"x\" . # nor \\u0000\n";
    assert_int_equal(parse(f, RDF_NTRIPLES, comment, strlen(comment), &count, &err), 0);
    assert_int_equal(count, 1);
}

/* Every broken document is refused with its error's line and column, in the message too. */
static void errors_are_located(void **state) {
    fixture *f = *state;
    for (size_t i = 0; i < sizeof broken / sizeof *broken; i++) {
        const struct broken *b = &broken[i];
        size_t count;
        rdf_error err;
        if (parse(f, b->syntax, b->text, strlen(b->text), &count, &err) != -1)
            fail_msg("accepted: %s", b->text);
        char prefix[32];
        snprintf(prefix, sizeof prefix, "doc:%d:%d: ", b->line, b->col);
        if (err.line != b->line || err.col != b->col || strncmp(err.message, prefix, strlen(prefix)) != 0 ||
            !strstr(err.message, b->says))
            fail_msg("%s\n  expected %s...%s\n  got %d:%d %s", b->text, prefix, b->says, err.line, err.col,
                     err.message);
    }
}

/* RDF/XML: an undeclared prefix now has the line raptor2's parser was on (it had no position). */
static void rdfxml_undeclared_prefix_has_a_line(void **state) {
    fixture *f = *state;
    const char *xml = "<?xml version=\"1.0\"?>\n"
                      "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">\n"
                      "  <rdf:Description rdf:about=\"http://a\">\n"
                      "    <ex:p>x</ex:p>\n"
                      "  </rdf:Description>\n"
                      "</rdf:RDF>\n";
    size_t count;
    rdf_error err;
    assert_int_equal(parse(f, RDF_RDFXML, xml, strlen(xml), &count, &err), -1);
    assert_int_equal(err.line, 4);
    assert_string_equal(err.message, "doc:4: The namespace prefix in \"ex:p\" was not declared.");
}

/* Documents the recognizer must take as raptor2 does (a recognizer stricter than raptor2 would misplace
 * errors and count names wrongly): every construct, keywords in either case, numbers, escapes. */
static void valid_turtle_scans_clean(void **state) {
    (void)state;
    static const char *const valid[] = {
        "PREFIX : <http://e/>\n:a :b :c ;\n  :d \"x\"@en-GB , 1.5e-3, -.5 , +7, 1.e2 , [ :e ( 1 2 ) ] ;; .\n",
        "prefix p: <http://e/> base <http://f/> p:a a p:C ; p:n true, false .\n",
        "@prefix : <http://e/> .\n:a.b :c-d :e_f, :g\\-h, :i%20j, :123, :k. _:b1 :p _:b.c .\n",
        "[] <p> <o> .\n[ <p> <o> ] .\n( <a> ) <p> () .\n<a> <b> '''x\n'y' ''' , \"\"\"a\"b\"\"\" .\n",
        "<a> <b> \"\\u00e9\\U0001F600\\t\\\\\\\"\" , <http://x/\\u00e9> .\n",
        "@prefix : <http://e/> .\n:a :b :c.\n",
    };
    for (size_t i = 0; i < sizeof valid / sizeof *valid; i++) {
        turtle_scan scan;
        turtle_scan_text(valid[i], strlen(valid[i]), false, 8, SIZE_MAX, &scan);
        if (scan.error_at != SIZE_MAX)
            fail_msg("error at byte %zu of: %s", scan.error_at, valid[i]);
    }
    const char *trig = "@prefix : <http://e/> .\n{ :a :b :c } <g> { :a :b :c . :d :e :f . } :g = { } :s :p :o .\n";
    turtle_scan scan;
    turtle_scan_text(trig, strlen(trig), true, 8, SIZE_MAX, &scan);
    assert_true(scan.error_at == SIZE_MAX);
}

/* A text of `head` followed by `line` n times. */
static char *repeat(const char *head, const char *line, size_t n, size_t *len) {
    size_t head_len = strlen(head), line_len = strlen(line);
    *len = head_len + n * line_len;
    char *text = xmalloc(*len + 1);
    memcpy(text, head, head_len);
    for (size_t i = 0; i < n; i++)
        memcpy(text + head_len + i * line_len, line, line_len);
    text[*len] = '\0';
    return text;
}

/* A name of `n` bytes between `before` and `after`. */
static char *long_name(const char *before, size_t n, const char *after) {
    buf b = {0};
    buf_puts(&b, before);
    for (size_t i = 0; i < n; i++)
        buf_putc(&b, 'n');
    buf_puts(&b, after);
    return buf_cstr(&b);
}

static void expect_refused(fixture *f, enum rdf_syntax syntax, const char *text, size_t len, const char *says) {
    size_t count;
    rdf_error err;
    assert_int_equal(parse(f, syntax, text, len, &count, &err), -1);
    if (!strstr(err.message, says))
        fail_msg("expected '%s' in: %s", says, err.message);
    assert_true(err.line > 1);
    if (syntax != RDF_RDFXML)
        assert_true(err.col >= 1);
}

/* A 100 KB namespace used by 2,000 statements (6,000 names: 600 MB written in full, 232 KB of text) is
 * refused where the names pass the bound, before raptor2 expands them, also after a syntax error; so is a
 * long base. */
static void long_namespace_or_base_used_often_is_refused(void **state) {
    fixture *f = *state;
    char *ns = long_name("@prefix p: <http://example.org/", 100000, "/> .\n");
    size_t len;
    char *text = repeat(ns, "p:a p:b p:c .\n", 2000, &len);
    expect_refused(f, RDF_TURTLE, text, len, "names written in full would add more than");
    free(text);
    text = repeat(ns, "p:a p:b p:c .\n", 2000, &len);
    expect_refused(f, RDF_TRIG, text, len, "names written in full would add more than");
    free(text);
    /* raptor2 parses on after a grammar error, expanding every name after it: counted all the same */
    char *early_error = long_name("<a> <b> .\n@prefix p: <http://example.org/", 100000, "/> .\n");
    text = repeat(early_error, "p:a p:b p:c .\n", 2000, &len);
    expect_refused(f, RDF_TURTLE, text, len, "names written in full would add more than");
    free(text);
    free(early_error);
    char *base = long_name("@base <http://example.org/", 100000, "/> .\n");
    text = repeat(base, "<a> <b> <c> .\n", 2000, &len);
    expect_refused(f, RDF_TURTLE, text, len, "names written in full would add more than");
    free(text);
    free(base);
    free(ns);
}

/* An RDF/XML namespace that every property element expands anew is refused by what the statements hold
 * (RDF/XML is not scanned first). A long Turtle subject written once and repeated by ';' around nested
 * blank nodes is held once (raptor2 repeats the same IRI): read, every triple right. */
static void long_names_held_per_statement(void **state) {
    fixture *f = *state;
    char *subject = long_name("<http://example.org/", 100000, "/s> <http://p> [ <http://q> <http://r> ]");
    size_t len;
    char *text = repeat(subject, " ;\n <http://p> [ <http://q> <http://r> ]", 20000, &len);
    buf doc = {0};
    buf_append(&doc, text, len);
    buf_puts(&doc, " .\n");
    triple *ts;
    size_t count;
    rdf_error err;
    assert_int_equal(rdf_parse_triples(f->io, RDF_TURTLE, doc.data, doc.len, NULL, "doc", &ts, &count, &err), 0);
    assert_int_equal(count, 2 * 20001);
    term_id s = terms_iri(f->t, subject + 1, 100000 + strlen("http://example.org//s"));
    term_id p = terms_iri_cstr(f->t, "http://p"), q = terms_iri_cstr(f->t, "http://q");
    size_t outer = 0, inner = 0;
    for (size_t i = 0; i < count; i++) {
        outer += ts[i].s == s && ts[i].p == p && terms_kind(f->t, ts[i].o) == TERM_BNODE;
        inner += terms_kind(f->t, ts[i].s) == TERM_BNODE && ts[i].p == q;
    }
    assert_int_equal(outer, 20001);
    assert_int_equal(inner, 20001);
    free(ts);
    buf_free(&doc);
    free(text);
    free(subject);
    char *head = long_name("<?xml version=\"1.0\"?>\n<rdf:RDF "
                           "xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\" xmlns:p=\"http://example.org/",
                           100000, "/\">\n");
    text = repeat(head, "<rdf:Description rdf:about=\"http://a\"><p:b>x</p:b></rdf:Description>\n", 20000, &len);
    doc.len = 0;
    buf_append(&doc, text, len);
    buf_puts(&doc, "</rdf:RDF>\n");
    expect_refused(f, RDF_RDFXML, doc.data, doc.len, "its statements would hold more than");
    buf_free(&doc);
    free(text);
    free(head);
}

/* What real documents do stays inside the bound: 20,000 objects named through a 500-byte namespace (10 MB
 * written in full from 170 KB, the widest of the LDP tests), a 4,000-item list, subjects repeated by ';'. */
static void wide_documents_parse(void **state) {
    fixture *f = *state;
    char *ns = long_name("@prefix p: <http://example.org/", 500, "/> .\np:a p:b p:c0");
    buf text = {0};
    buf_puts(&text, ns);
    for (int i = 1; i < 20000; i++)
        buf_printf(&text, ", p:c%d", i);
    buf_puts(&text, " .\n");
    size_t count;
    rdf_error err;
    assert_int_equal(parse(f, RDF_TURTLE, text.data, text.len, &count, &err), 0);
    assert_int_equal(count, 20000);
    buf_free(&text);
    buf_puts(&text, "<#a> <http://example.org/p> (");
    for (int i = 0; i < 4000; i++)
        buf_printf(&text, " <#i%d>", i);
    buf_puts(&text, " ) .\n");
    assert_int_equal(parse(f, RDF_TURTLE, text.data, text.len, &count, &err), 0);
    assert_int_equal(count, 1 + 2 * 4000);
    buf_free(&text);
    free(ns);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(errors_are_located, setup, teardown),
        cmocka_unit_test_setup_teardown(nesting_is_bounded_in_every_syntax, setup, teardown),
        cmocka_unit_test_setup_teardown(nul_in_literals_is_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(bad_ordinals_are_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(prescans_read_what_parsers_read, setup, teardown),
        cmocka_unit_test_setup_teardown(long_language_tags_are_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(rdfxml_undeclared_prefix_has_a_line, setup, teardown),
        cmocka_unit_test(valid_turtle_scans_clean),
        cmocka_unit_test_setup_teardown(long_namespace_or_base_used_often_is_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(long_names_held_per_statement, setup, teardown),
        cmocka_unit_test_setup_teardown(wide_documents_parse, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
