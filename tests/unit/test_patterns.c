/* test_patterns.c: the workflow pattern layer (src/patterns): the term syntax read and written back, its
 * errors located by line and column, labels cut on a character boundary, conditions' SPARQL taken apart
 * and renamed, the RDF form read into the same tree as the term, and the compiler's output linting clean
 * for every kernel and policy, with its errors for what the names document does not give, and what a
 * condition says beside its text (ldgsm:readsContainer, ldgsm:reads) carried onto the sentries using it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gsm/lint.h"
#include "patterns/compile.h"
#include "gsm/condition_text.h"
#include "patterns/pattern.h"
#include "patterns/pattern_rdf.h"
#include "patterns/pattern_term.h"
#include "rdf/rdfio.h"

#include "rdf_fixture.h"

#define BASE "http://example.org/m"
#define RDF_TYPE "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
#define GSM "http://purl.org/gsm/vocab#"

/* One term using every kernel and every policy; its names are described by NAMES below. */
#define FULL_TERM                                                                                            \
    "seq(task(a), par(task(b), task(c)), join(all, task(a), task(b)), join(sync_merge, task(a), task(b)), "  \
    "join(first_complete, task(a), task(b)), join(first_n(2), task(a), task(b), task(c)), "                 \
    "join(n_of_m(2, 3), task(a), task(b), task(c)), "                                                       \
    "xor(when(ok, task(a)), when(big, task(b)), else(task(c))), xor(when(ok, task(a)), when(big, task(b))), " \
    "loop(while(more), task(a)), loop(until(ok), task(b)), loop(count(2), task(c)), "                       \
    "defer(on(ev, task(a)), on(big, task(b))), cancel(activity(ev), task(a)), "                             \
    "cancel(region(ev), seq(task(a), task(b))), cancel(case(ev), task(c)), "                                \
    "mi(fixed(3), first_n(2), task(a)), mi(dynamic(items, 1, 3), n_of_m(2, 3), task(b)), "                  \
    "mi(dynamic(items, 0, 2), all, task(c)))"

#define NAMES_PREFIXES                                                                                       \
    "@prefix http: <http://www.w3.org/2011/http#> .\n"                                                       \
    "@prefix httpm: <http://www.w3.org/2011/http-methods#> .\n"                                              \
    "@prefix sp: <http://spinrdf.org/sp#> .\n"                                                               \
    "@prefix pat: <https://w3id.org/ldgsm/patterns#> .\n"

#define REQUEST(name, method)                                                                                \
    "<#" name "> a http:Request ; http:mthd httpm:" method " ; http:requestURI <http://example.org/svc/" name \
    "> ;\n  http:headers ( [ http:fieldName \"Content-Type\" ; http:fieldValue \"text/turtle\" ] ) ;\n"      \
    "  http:body \"<#x> <#y> 1 .\" .\n"

#define NAMES                                                                                                \
    NAMES_PREFIXES REQUEST("a", "POST") REQUEST("b", "PUT") REQUEST("c", "POST")                              \
    /* each reaches its subjects from a constant, as lint asks (DESIGN 8: what the crawl reads can bind them) */ \
    "<#ok> a sp:Ask ; sp:text \"PREFIX ex: <http://example.org/ns#> ASK { ?x ex:status 'ok' ; "              \
    "ex:in <http://example.org/order> }\" .\n"                                                               \
    "<#big> a sp:Ask ; sp:text \"ASK { ?o <http://example.org/ns#total> ?t ; <http://example.org/ns#in> "     \
    "<http://example.org/order> FILTER(?t > 100) }\" .\n"                                                    \
    "<#more> a sp:Ask ; sp:text \"PREFIX ex: <http://example.org/ns#>\\nASK WHERE { $x ex:more true . "      \
    "_:b ex:of $x . $x ex:in <http://example.org/order> }\" .\n"                                            \
    "<#ev> a sp:Ask ; sp:text \"PREFIX ev: <http://example.org/ev#> ASK { ?e a ev:Cancel }\" .\n"            \
    "<#items> a pat:ItemList ; pat:listOf <http://example.org/order> ; "                                     \
    "pat:listProperty <http://example.org/ns#lines> .\n"


static void parse_turtle(fixture *f, const char *turtle) {
    rdf_error err;
    int rc = rdf_parse(f->io, f->st, RDF_TURTLE, turtle, strlen(turtle), BASE, 0, "doc", &err);
    if (rc != 0)
        print_error("%s\n", err.message);
    assert_int_equal(rc, 0);
}

static pattern *parse(const char *text, char *err, size_t err_len) {
    return pattern_parse_term(text, strlen(text), BASE, err, err_len);
}

/* pattern_format of p (no cut), malloc'd. */
static char *formatted(const pattern *p) {
    buf b = {0};
    pattern_format(p, BASE, 0, &b);
    return buf_cstr(&b);
}

/* ---- 1. the term syntax, read and written back ---- */

static void test_term_round_trip(void **state) {
    (void)state;
    static const struct {
        const char *text, *canonical;
    } cases[] = {
        {"task(a)", "task(a)"},
        {"  task( <" BASE "#a> )  # the full IRI of a name", "task(a)"},
        {"task(<http://other.org/t>)", "task(<http://other.org/t>)"},
        /* only base#x is abbreviated: base followed by anything but '#' is another IRI */
        {"task(<" BASE "m#a>)", "task(<" BASE "m#a>)"},
        {"task(<" BASE "/x#a>)", "task(<" BASE "/x#a>)"},
        {"task(quote-a_1)", "task(quote-a_1)"},
        {"seq(task(a))", "seq(task(a))"},
        {"seq( task(a) ,task(b),\n\ttask(c) ) # done", "seq(task(a), task(b), task(c))"},
        {"par(task(a),task(b))", "par(task(a), task(b))"},
        {"join(all,task(a),task(b))", "join(all, task(a), task(b))"},
        {"join( sync_merge , task(a), task(b))", "join(sync_merge, task(a), task(b))"},
        {"join(first_complete, task(a), task(b))", "join(first_complete, task(a), task(b))"},
        {"join(first_n( 2 ), task(a), task(b), task(c))", "join(first_n(2), task(a), task(b), task(c))"},
        {"join(n_of_m(2,3), task(a), task(b), task(c))", "join(n_of_m(2, 3), task(a), task(b), task(c))"},
        {"xor(when(c1, task(a)), when(<http://other.org/c>, task(b)), else(task(c)))",
         "xor(when(c1, task(a)), when(<http://other.org/c>, task(b)), else(task(c)))"},
        {"xor(when(c1,task(a)),when(c2,task(b)))", "xor(when(c1, task(a)), when(c2, task(b)))"},
        {"loop(while(more), task(a))", "loop(while(more), task(a))"},
        {"loop(until(done), seq(task(a), task(b)))", "loop(until(done), seq(task(a), task(b)))"},
        {"loop(count(0), task(a))", "loop(count(0), task(a))"},
        {"loop(count(1000), task(a))", "loop(count(1000), task(a))"},
        {"defer(on(e1, task(a)), on(e2, task(b)))", "defer(on(e1, task(a)), on(e2, task(b)))"},
        {"cancel(activity(e), task(a))", "cancel(activity(e), task(a))"},
        {"cancel(region(e), par(task(a), task(b)))", "cancel(region(e), par(task(a), task(b)))"},
        {"cancel(case(e), task(a))", "cancel(case(e), task(a))"},
        {"mi(fixed(3), first_n(2), task(a))", "mi(fixed(3), first_n(2), task(a))"},
        {"mi(fixed(1000), sync_merge, task(a))", "mi(fixed(1000), sync_merge, task(a))"},
        {"mi(dynamic(items, 0, 5), n_of_m(2, 5), task(a))", "mi(dynamic(items, 0, 5), n_of_m(2, 5), task(a))"},
        {"mi(dynamic(<http://other.org/l>, 2, 2), first_complete, task(a))",
         "mi(dynamic(<http://other.org/l>, 2, 2), first_complete, task(a))"},
        {"# a workflow\nseq(task(a), # first\n    par(task(b), task(c)) # then both\n)\n",
         "seq(task(a), par(task(b), task(c)))"},
        {FULL_TERM, FULL_TERM},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char err[256] = "";
        pattern *p = parse(cases[i].text, err, sizeof err);
        if (!p)
            print_error("%s: %s\n", cases[i].text, err);
        assert_non_null(p);
        char *text = formatted(p);
        assert_string_equal(text, cases[i].canonical);
        pattern *again = parse(text, err, sizeof err);
        assert_non_null(again);
        char *text_again = formatted(again);
        assert_string_equal(text_again, text);
        free(text_again);
        free(text);
        pattern_free(again);
        pattern_free(p);
    }
}

/* The tree the parser builds: kinds, policies, names as IRIs, guards, and where each term starts. */
static void test_term_tree(void **state) {
    (void)state;
    char err[256];
    pattern *p = parse("seq(task(a),\n  join(n_of_m(2, 3), task(b), task(c), task(<urn:x>)),\n"
                       "  xor(when(c1, task(a)), else(task(b))), mi(dynamic(l, 1, 4), first_n(3), task(a)))",
                       err, sizeof err);
    assert_non_null(p);
    assert_int_equal(p->kind, PAT_SEQ);
    assert_int_equal(p->n, 4);
    assert_string_equal(p->children[0]->name, BASE "#a");
    const pattern *j = p->children[1];
    assert_int_equal(j->kind, PAT_JOIN);
    assert_int_equal(j->policy, JOIN_N_OF_M);
    assert_int_equal(j->k, 2);
    assert_int_equal(j->m, 3);
    assert_int_equal(j->written_as_par, 0);
    assert_int_equal(j->line, 2);
    assert_int_equal(j->col, 3);
    assert_string_equal(j->children[2]->name, "urn:x");
    assert_int_equal(j->children[2]->line, 2);
    assert_int_equal(j->children[2]->col, 40);
    const pattern *x = p->children[2];
    assert_int_equal(x->kind, PAT_XOR);
    assert_string_equal(x->guards[0], BASE "#c1");
    assert_null(x->guards[1]);
    const pattern *mi = p->children[3];
    assert_true(mi->mi_dynamic);
    assert_string_equal(mi->name, BASE "#l");
    assert_int_equal(mi->min, 1);
    assert_int_equal(mi->max, 4);
    assert_int_equal(mi->policy, JOIN_FIRST_N);
    assert_int_equal(mi->k, 3);
    pattern_free(p);
}

/* ---- 2. errors, located ---- */

static void expect_error(const char *text, const char *message) {
    char err[512] = "";
    pattern *p = parse(text, err, sizeof err);
    if (p)
        print_error("parsed, but should not: %s\n", text);
    assert_null(p);
    assert_string_equal(err, message);
}

#define KINDS "(task, seq, par, join, xor, loop, defer, cancel, mi)"

static void test_term_errors(void **state) {
    (void)state;
    expect_error("seq(task(a), foo(x))", "1:14: unknown term 'foo' " KINDS);
    expect_error("seq(task(a)", "1:12: expected ')', found the end of the term");
    expect_error("seq(task(a) task(b))", "1:13: expected ')', found 't'");
    expect_error("task(a) task(b)", "1:9: text after the term");
    expect_error("task(a))", "1:8: text after the term");
    expect_error("", "1:1: expected a term, found the end of the text");
    expect_error("task()", "1:6: expected a task (a name of the names file, or <iri>)");
    expect_error("task(<http://x y>)", "1:6: an IRI in < > must end with '>' on its line, without spaces");
    expect_error("xor(else(task(a)), when(c, task(b)))", "1:18: else(...) must be the last branch of a xor");
    expect_error("xor(when(c, task(a)), on(e, task(b)))", "1:23: expected when(CONDITION, TERM) or else(TERM)");
    expect_error("par(task(a))", "1:1: par needs at least two branches (PAR-FORK)");
    expect_error("seq(task(a), join(all, task(b)))", "1:14: join needs at least two branches (PAR-FORK)");
    expect_error("xor(when(c, task(a)))", "1:1: xor needs at least two branches");
    expect_error("defer(on(e, task(a)))", "1:1: defer needs at least two branches");
    expect_error("join(first_n(0), task(a), task(b))",
                 "1:1: first_n(0 ...) needs 1 <= 0 <= 2, the number of branches");
    expect_error("join(first_n(3), task(a), task(b))",
                 "1:1: first_n(3 ...) needs 1 <= 3 <= 2, the number of branches");
    expect_error("join(first_n, task(a), task(b))", "1:13: expected '(', found ','");
    expect_error("join(most, task(a), task(b))",
                 "1:6: expected a join policy: all, sync_merge, first_complete, first_n(K) or n_of_m(N, M)");
    expect_error("join(n_of_m(1, 3), task(a), task(b))", "1:1: n_of_m(1, 3): M must be the number of branches, 2");
    expect_error("join(n_of_m(3, 2), task(a), task(b))",
                 "1:1: n_of_m(3 ...) needs 1 <= 3 <= 2, the number of branches");
    expect_error("mi(fixed(3), n_of_m(2, 2), task(a))",
                 "1:1: n_of_m(2, 2): M must be the number of instances (MAX for dynamic), 3");
    expect_error("mi(fixed(2), first_n(3), task(a))",
                 "1:1: first_n(3 ...) needs 1 <= 3 <= 2, the number of instances");
    expect_error("loop(count(1001), task(a))", "1:1: count(1001): at most 1000 (the body is copied N times)");
    expect_error("loop(count(1234567890), task(a))", "1:12: count's N is too large");
    expect_error("loop(count(x), task(a))", "1:12: expected count's N (a number)");
    expect_error("loop(forever, task(a))",
                 "1:6: expected a loop policy: while(CONDITION), until(CONDITION) or count(N)");
    expect_error("mi(fixed(0), all, task(a))", "1:1: fixed(0): N must be between 1 and 1000 (MI-SPAWN-FIXED)");
    expect_error("mi(fixed(1001), all, task(a))",
                 "1:1: fixed(1001): N must be between 1 and 1000 (MI-SPAWN-FIXED)");
    expect_error("mi(dynamic(l, 3, 2), all, task(a))",
                 "1:1: dynamic(..., 3, 2): needs 0 <= MIN <= MAX, 1 <= MAX <= 50");
    expect_error("mi(dynamic(l, 0, 0), all, task(a))",
                 "1:1: dynamic(..., 0, 0): needs 0 <= MIN <= MAX, 1 <= MAX <= 50");
    expect_error("mi(dynamic(l, 1, 51), all, task(a))",
                 "1:1: dynamic(..., 1, 51): needs 0 <= MIN <= MAX, 1 <= MAX <= 50");
    expect_error("cancel(activity(e), seq(task(a)))",
                 "1:1: cancel(activity(...), T): T must be a task (use region for more)");
    expect_error("cancel(scope(e), task(a))",
                 "1:8: expected a cancel scope: activity(EVENT), region(EVENT) or case(EVENT)");
    /* the error is at the line and column where it is, past comments and several lines */
    expect_error("seq(task(a),   # first ( with ) parens\n"
                 "    task(b),   # then\n"
                 "  bogus(c))",
                 "3:3: unknown term 'bogus' " KINDS);
    expect_error("seq(task(a),\n  par(task(b)))", "2:3: par needs at least two branches (PAR-FORK)");
    expect_error("seq(task(a),\n\n    task(b)", "3:12: expected ')', found the end of the term");
}

/* PATTERN_MAX_DEPTH nested terms inside the outermost parse; one more is refused where it starts. */
static void test_term_depth(void **state) {
    (void)state;
    buf text = {0};
    for (int i = 0; i < PATTERN_MAX_DEPTH; i++)
        buf_puts(&text, "seq(");
    buf_puts(&text, "task(a)");
    for (int i = 0; i < PATTERN_MAX_DEPTH; i++)
        buf_putc(&text, ')');
    char err[256] = "";
    pattern *p = parse(buf_cstr(&text), err, sizeof err);
    if (!p)
        print_error("%s\n", err);
    assert_non_null(p);
    pattern_free(p);

    text.len = 0;
    for (int i = 0; i < PATTERN_MAX_DEPTH + 6; i++)
        buf_puts(&text, "seq(");
    buf_puts(&text, "task(a)");
    for (int i = 0; i < PATTERN_MAX_DEPTH + 6; i++)
        buf_putc(&text, ')');
    char expected[64];
    snprintf(expected, sizeof expected, "1:%d: terms nested deeper than %d levels", (PATTERN_MAX_DEPTH + 1) * 4 + 1,
             PATTERN_MAX_DEPTH);
    expect_error(buf_cstr(&text), expected);
    buf_free(&text);
}

/* ---- 3. labels: cut with "...", never inside a UTF-8 sequence ---- */

static bool valid_utf8(const char *s, size_t len) {
    for (size_t i = 0; i < len;) {
        unsigned char c = (unsigned char)s[i];
        size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
        if (n == 0 || i + n > len)
            return false;
        for (size_t k = 1; k < n; k++)
            if (((unsigned char)s[i + k] & 0xC0) != 0x80)
                return false;
        i += n;
    }
    return true;
}

static void test_format_cut(void **state) {
    (void)state;
    /* é is two bytes, € three, 🙂 four */
    const char *term = "seq(task(<http://x/\xC3\xA9\xC3\xA9\xE2\x82\xAC\xF0\x9F\x99\x82\xC3\xA9>), task(b))";
    char err[256];
    pattern *p = parse(term, err, sizeof err);
    assert_non_null(p);
    char *full = formatted(p);
    size_t full_len = strlen(full);
    assert_string_equal(full, term);
    for (size_t max = 1; max <= full_len + 2; max++) {
        buf b = {0};
        buf_puts(&b, "label: "); /* the cut counts from where the term starts */
        pattern_format(p, BASE, max, &b);
        buf_cstr(&b);
        const char *text = b.data + strlen("label: ");
        size_t len = b.len - strlen("label: ");
        assert_memory_equal(b.data, "label: ", strlen("label: "));
        if (max >= full_len) {
            assert_string_equal(text, full);
        } else {
            assert_true(len >= 3);
            assert_memory_equal(text + len - 3, "...", 3);
            size_t kept = len - 3;
            assert_true(kept <= max);
            assert_true(max - kept < 4); /* at most a partial character is dropped */
            assert_memory_equal(text, full, kept);
            if (!valid_utf8(text, kept))
                print_error("max %zu: cut inside a character: %s\n", max, text);
            assert_true(valid_utf8(text, kept));
        }
        buf_free(&b);
    }
    /* the two bytes of the first é sit at 19 and 20: a cut at 20 keeps the term before it */
    buf b = {0};
    pattern_format(p, BASE, 20, &b);
    assert_string_equal(buf_cstr(&b), "seq(task(<http://x/...");
    b.len = 0;
    pattern_format(p, BASE, 21, &b);
    assert_string_equal(buf_cstr(&b), "seq(task(<http://x/\xC3\xA9...");
    b.len = 0;
    pattern_format(p, BASE, 27, &b); /* inside the four bytes of 🙂 (26..29) */
    assert_string_equal(buf_cstr(&b), "seq(task(<http://x/\xC3\xA9\xC3\xA9\xE2\x82\xAC...");
    buf_free(&b);
    free(full);
    pattern_free(p);
}

/* ---- 4. conditions' SPARQL: prefixes, the group renamed ---- */

static void test_condition_split(void **state) {
    (void)state;
    condition_text c;
    char err[256] = "";
    const char *text = "# a condition\n"
                       "PREFIX ex: <http://example.org/ns#>\n"
                       "prefix : <urn:d#> PREFIX e_2: <http://example.org/e?x=1#>\n"
                       "ask WHERE {\n"
                       "  ?x ex:p $y . _:b ex:q \"?x } # \" ; ex:r '$y' , \"\"\"a\n} ?z\"\"\" .\n"
                       "  ?x ex:s <http://example.org/a?x=1> . _:b2 ex:t :d , e_2:w , pre_:v .\n"
                       "  # a comment with } and ?x\n"
                       "  FILTER(?a < ?b) { ?x9 ex:u 1.5 }\n"
                       "}  # trailing\n";
    int rc = condition_text_split(text, "c3_", &c, err, sizeof err);
    if (rc)
        print_error("%s\n", err);
    assert_int_equal(rc, 0);
    assert_int_equal(c.prefix_count, 3);
    assert_string_equal(c.prefix_names[0], "ex:");
    assert_string_equal(c.prefix_iris[0], "http://example.org/ns#");
    assert_string_equal(c.prefix_names[1], ":");
    assert_string_equal(c.prefix_iris[1], "urn:d#");
    assert_string_equal(c.prefix_names[2], "e_2:");
    assert_string_equal(c.prefix_iris[2], "http://example.org/e?x=1#");
    assert_string_equal(c.group, "\n"
                                 "  ?c3_x ex:p ?c3_y . _:c3_b ex:q \"?x } # \" ; ex:r '$y' , \"\"\"a\n} ?z\"\"\" .\n"
                                 "  ?c3_x ex:s <http://example.org/a?x=1> . _:c3_b2 ex:t :d , e_2:w , pre_:v .\n"
                                 "  \n"
                                 "  FILTER(?c3_a < ?c3_b) { ?c3_x9 ex:u 1.5 }\n");
    condition_text_free(&c);

    /* ASK without WHERE, no prefixes, an escaped quote inside a string */
    assert_int_equal(condition_text_split("ASK{?s ?p \"a\\\"?b\"}", "q1_", &c, err, sizeof err), 0);
    assert_int_equal(c.prefix_count, 0);
    assert_string_equal(c.group, "?q1_s ?q1_p \"a\\\"?b\"");
    condition_text_free(&c);

    static const struct {
        const char *text, *message;
    } errors[] = {
        {"BASE <http://x/> ASK { ?s ?p ?o }",
         "BASE is not supported in a condition (relative IRIs resolve against the compiled model)"},
        {"PREFIX ex: <http://x/> BASE <http://x/> ASK { ?s ?p ?o }",
         "BASE is not supported in a condition (relative IRIs resolve against the compiled model)"},
        {"SELECT * WHERE { ?s ?p ?o }", "a condition is a SPARQL ASK query (PREFIX ... ASK { ... })"},
        {"PREFIX ex: <http://x/> SELECT ?s { ?s ?p ?o }", "a condition is a SPARQL ASK query (PREFIX ... ASK { ... })"},
        {"ASK { { ?s ?p ?o }", "the group after ASK is not closed with '}'"},
        {"ASK { ?s ?p \"}\" ", "the group after ASK is not closed with '}'"},
        {"ASK { ?s ?p \"open }", "a string is not closed"},
        {"ASK { ?s ?p ?o } }", "text after the ASK query's group (a condition is one ASK query)"},
        {"ASK { ?s ?p ?o } ASK { ?s ?p ?o }", "text after the ASK query's group (a condition is one ASK query)"},
        {"ASK ?s", "ASK must be followed by a group { ... }"},
        {"PREFIX ex <http://x/> ASK { }", "PREFIX must be followed by a prefix name and ':'"},
        {"PREFIX ex: ASK { }", "PREFIX ex: must be followed by <iri>"},
    };
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++) {
        err[0] = '\0';
        rc = condition_text_split(errors[i].text, "q1_", &c, err, sizeof err);
        if (rc == 0)
            print_error("split, but should not: %s\n", errors[i].text);
        assert_int_equal(rc, -1);
        assert_string_equal(err, errors[i].message);
        /* a failed split leaves nothing to free */
        assert_int_equal(c.prefix_count, 0);
        assert_null(c.group);
    }
}

/* ---- 5. the RDF form ---- */

#define T(x) "[ a pat:Task ; pat:task <#" x "> ]"

#define WORKFLOW_TTL                                                                                         \
    NAMES_PREFIXES                                                                                           \
    "<#w> a pat:Workflow ; pat:body <#top> .\n"                                                              \
    "<#top> a pat:Seq ; pat:parts (\n"                                                                       \
    "  " T("a") "\n"                                                                                         \
    "  [ a pat:Par ; pat:branches ( " T("b") " " T("c") " ) ]\n"                                             \
    "  [ a pat:Join ; pat:policy pat:all ; pat:branches ( " T("a") " " T("b") " ) ]\n"                       \
    "  [ a pat:Join ; pat:policy pat:syncMerge ; pat:branches ( " T("a") " " T("b") " ) ]\n"                 \
    "  [ a pat:Join ; pat:policy pat:firstComplete ; pat:branches ( " T("a") " " T("b") " ) ]\n"             \
    "  [ a pat:Join ; pat:policy [ a pat:FirstN ; pat:k 2 ] ; pat:branches ( " T("a") " " T("b") " " T(      \
        "c") " ) ]\n"                                                                                        \
    "  [ a pat:Join ; pat:policy [ a pat:NOfM ; pat:k 2 ; pat:m 3 ] ; pat:branches ( " T("a") " " T(         \
        "b") " " T("c") " ) ]\n"                                                                             \
    "  [ a pat:Xor ; pat:branches ( [ pat:when <#ok> ; pat:do " T("a") " ] [ pat:when <#big> ; pat:do " T(   \
        "b") " ] ) ;\n"                                                                                      \
    "    pat:else " T("c") " ]\n"                                                                            \
    "  [ a pat:Xor ; pat:branches ( [ pat:when <#ok> ; pat:do " T("a") " ] [ pat:when <#big> ; pat:do " T(   \
        "b") " ] ) ]\n"                                                                                      \
    "  [ a pat:Loop ; pat:while <#more> ; pat:body " T("a") " ]\n"                                           \
    "  [ a pat:Loop ; pat:until <#ok> ; pat:body " T("b") " ]\n"                                             \
    "  [ a pat:Loop ; pat:count 2 ; pat:body " T("c") " ]\n"                                                 \
    "  [ a pat:Defer ; pat:branches ( [ pat:on <#ev> ; pat:do " T("a") " ] [ pat:on <#big> ; pat:do " T(     \
        "b") " ] ) ]\n"                                                                                      \
    "  [ a pat:Cancel ; pat:activity <#ev> ; pat:body " T("a") " ]\n"                                        \
    "  [ a pat:Cancel ; pat:region <#ev> ; pat:body [ a pat:Seq ; pat:parts ( " T("a") " " T("b") " ) ] ]\n" \
    "  [ a pat:Cancel ; pat:case <#ev> ; pat:body " T("c") " ]\n"                                            \
    "  [ a pat:MI ; pat:instances 3 ; pat:policy [ a pat:FirstN ; pat:k 2 ] ; pat:body " T("a") " ]\n"       \
    "  [ a pat:MI ; pat:items <#items> ; pat:min 1 ; pat:max 3 ;\n"                                          \
    "    pat:policy [ a pat:NOfM ; pat:k 2 ; pat:m 3 ] ; pat:body " T("b") " ]\n"                            \
    "  [ a pat:MI ; pat:items <#items> ; pat:min 0 ; pat:max 2 ; pat:policy pat:all ; pat:body " T("c") " ]\n" \
    ") .\n"

static void test_rdf_every_kernel(void **state) {
    fixture *f = *state;
    parse_turtle(f, WORKFLOW_TTL);
    char err[512] = "";
    pattern *p = pattern_read_rdf(f->t, f->st, BASE, err, sizeof err);
    if (!p)
        print_error("%s\n", err);
    assert_non_null(p);
    char *text = formatted(p);
    assert_string_equal(text, FULL_TERM);
    free(text);
    /* read from RDF, a term has no position */
    assert_int_equal(p->line, 0);
    assert_int_equal(p->children[1]->written_as_par, 1);
    pattern_free(p);
}

static void test_rdf_term_text(void **state) {
    fixture *f = *state;
    parse_turtle(f, NAMES_PREFIXES "<#w> a pat:Workflow ; pat:term \"\"\"seq(task(a), # the first\n"
                                   "  par(task(b), task(<http://other.org/c>)))\"\"\" .\n");
    char err[512] = "";
    pattern *p = pattern_read_rdf(f->t, f->st, BASE, err, sizeof err);
    assert_non_null(p);
    assert_string_equal(p->children[0]->name, BASE "#a");
    char *text = formatted(p);
    assert_string_equal(text, "seq(task(a), par(task(b), task(<http://other.org/c>)))");
    free(text);
    pattern_free(p);
}

static void expect_rdf_error(const char *turtle, const char *message) {
    fixture f;
    f.t = terms_new();
    f.st = store_new();
    f.io = rdfio_new(f.t);
    parse_turtle(&f, turtle);
    char err[512] = "";
    pattern *p = pattern_read_rdf(f.t, f.st, BASE, err, sizeof err);
    if (p)
        print_error("read, but should not: %s\n", turtle);
    assert_null(p);
    assert_string_equal(err, message);
    rdfio_free(f.io);
    store_free(f.st);
    terms_free(f.t);
}

static void test_rdf_errors(void **state) {
    (void)state;
    expect_rdf_error(NAMES_PREFIXES "<#t> a pat:Task ; pat:task <#a> .\n",
                     "the document describes no pat:Workflow (give the term with --term)");
    expect_rdf_error(NAMES_PREFIXES "<#w> a pat:Workflow ; pat:body <#t> .\n<#w2> a pat:Workflow ; pat:body <#t> .\n"
                                    "<#t> a pat:Task ; pat:task <#a> .\n",
                     "the document describes more than one pat:Workflow");
    expect_rdf_error(NAMES_PREFIXES "<#w> a pat:Workflow ; pat:body <#x> .\n<#x> a pat:Thing ; pat:task <#a> .\n",
                     "<" BASE "#x> is no pattern term (a pat:Task, Seq, Par, Join, Xor, Loop, Defer, Cancel or MI)");
    expect_rdf_error(NAMES_PREFIXES "<#w> a pat:Workflow .\n", "<" BASE "#w> has no pat:body");
    expect_rdf_error(NAMES_PREFIXES "<#w> a pat:Workflow ; pat:body <#s> .\n<#s> a pat:Seq ; pat:parts <#t> .\n"
                                    "<#t> a pat:Task ; pat:task <#a> .\n",
                     "pat:parts of <" BASE "#s> must be a list ( ... )");
    expect_rdf_error(NAMES_PREFIXES "<#w> a pat:Workflow ; pat:body <#j> .\n"
                                    "<#j> a pat:Join ; pat:policy pat:most ;\n"
                                    "  pat:branches ( " T("a") " " T("b") " ) .\n",
                     "the pat:policy of <" BASE "#j> is none of pat:all, pat:syncMerge, pat:firstComplete, a "
                     "pat:FirstN, a pat:NOfM");
    expect_rdf_error(NAMES_PREFIXES "<#w> a pat:Workflow ; pat:body <#t> .\n<#t> a pat:Task ; pat:task <#a>, <#b> .\n",
                     "<" BASE "#t> has pat:task twice");
    expect_rdf_error(NAMES_PREFIXES "<#w> a pat:Workflow ; pat:body <#t> .\n<#t> a pat:Task ; pat:task \"a\" .\n",
                     "pat:task of <" BASE "#t> must be an IRI (a request, condition or item list of the names)");
    expect_rdf_error(NAMES_PREFIXES "<#w> a pat:Workflow ; pat:body <#l> .\n"
                                    "<#l> a pat:Loop ; pat:count -1 ; pat:body " T("a") " .\n",
                     "pat:count of <" BASE "#l> must be a non-negative integer");
    /* the checks of the term syntax, without a position */
    expect_rdf_error(NAMES_PREFIXES "<#w> a pat:Workflow ; pat:body <#p> .\n<#p> a pat:Par ; pat:branches ( " T(
                         "a") " ) .\n",
                     "par needs at least two branches (PAR-FORK)");
    /* a cycle is a nesting too deep */
    expect_rdf_error(NAMES_PREFIXES "<#w> a pat:Workflow ; pat:body <#l> .\n<#l> a pat:Loop ; pat:while <#c> ; "
                                    "pat:body <#l> .\n",
                     "terms " NESTING_ERROR " at <" BASE "#l> (a cycle?)");
    expect_rdf_error(NAMES_PREFIXES "<#w> a pat:Workflow ; pat:term \"seq(task(a)\" .\n",
                     "pat:term: 1:12: expected ')', found the end of the term");
    /* properties that contradict each other are errors, not silently one of them */
    expect_rdf_error(NAMES_PREFIXES "<#w> a pat:Workflow ; pat:body <#l> .\n"
                                    "<#l> a pat:Loop ; pat:count 2 ; pat:until <#c> ; pat:body " T("a") " .\n",
                     "<" BASE "#l> gives more than one of pat:count, pat:until and pat:while");
    expect_rdf_error(NAMES_PREFIXES "<#w> a pat:Workflow ; pat:body <#x> .\n"
                                    "<#x> a pat:Cancel ; pat:region <#c> ; pat:case <#c> ; pat:body " T("a") " .\n",
                     "<" BASE "#x> gives more than one of pat:activity, pat:region and pat:case");
    expect_rdf_error(NAMES_PREFIXES "<#w> a pat:Workflow ; pat:body <#m> .\n"
                                    "<#m> a pat:MI ; pat:instances 2 ; pat:items <#l> ; pat:min 1 ; pat:max 2 ;\n"
                                    "  pat:policy pat:all ; pat:body " T("a") " .\n",
                     "<" BASE "#m> gives both pat:items and pat:instances");
    expect_rdf_error(NAMES_PREFIXES "<#w> a pat:Workflow ; pat:body <#p> .\n"
                                    "<#p> a pat:Par ; pat:policy pat:firstComplete ; pat:branches ( " T("a") " " T(
                                        "b") " ) .\n",
                     "<" BASE "#p> is a pat:Par, which joins all branches: give a pat:Join for a pat:policy");
    expect_rdf_error(NAMES_PREFIXES "<#w> a pat:Workflow ; pat:body <#d> .\n"
                                    "<#d> a pat:Defer ; pat:else " T("a") " ;\n"
                                    "  pat:branches ( [ pat:on <#c> ; pat:do " T("a") " ] [ pat:on <#c> ; pat:do " T(
                                        "b") " ] ) .\n",
                     "<" BASE "#d> is a pat:Defer, which waits for an event: it has no pat:else");
}

/* ---- 6. the compiler ---- */

static int compile(fixture *f, const char *names, const char *term, triple **out, size_t *count, char *err,
                   size_t err_len) {
    parse_turtle(f, names);
    char why[256] = "";
    pattern *p = parse(term, why, sizeof why);
    if (!p)
        print_error("%s\n", why);
    assert_non_null(p);
    int rc = pattern_compile(f->t, f->st, BASE, p, out, count, err, err_len);
    pattern_free(p);
    return rc;
}

static bool has_triple(fixture *f, const triple *ts, size_t n, const char *s, const char *p, term_id o) {
    term_id si = terms_iri_cstr(f->t, s), pi = terms_iri_cstr(f->t, p);
    for (size_t i = 0; i < n; i++)
        if (ts[i].s == si && ts[i].p == pi && ts[i].o == o)
            return true;
    return false;
}

static void test_compile_lints_clean(void **state) {
    fixture *f = *state;
    triple *model = NULL;
    size_t count = 0;
    char err[512] = "";
    int rc = compile(f, NAMES, FULL_TERM, &model, &count, err, sizeof err);
    if (rc)
        print_error("%s\n", err);
    assert_int_equal(rc, 0);
    assert_true(count > 0);

    buf text = {0};
    assert_int_equal(rdf_write_turtle(f->io, model, count, BASE, &text), 0);
    gsm_lint *l = gsm_lint_new(NULL);
    assert_int_equal(gsm_lint_load_text(l, "compiled.ttl", BASE, RDF_TURTLE, text.data, text.len), 0);
    gsm_lint_check(l);
    for (size_t i = 0; i < gsm_lint_message_count(l); i++)
        print_error("%s\n", gsm_lint_message(l, i)->line);
    assert_int_equal(gsm_lint_count(l, LINT_ERROR), 0);
    assert_int_equal(gsm_lint_count(l, LINT_WARNING), 0);
    gsm_lint_free(l);
    buf_free(&text);

    /* the root has one child, <#s1>, the term's stage, labelled with its term */
    term_id stage_class = terms_iri_cstr(f->t, GSM "Stage");
    assert_true(has_triple(f, model, count, BASE "#s1", RDF_TYPE, stage_class));
    assert_true(has_triple(f, model, count, BASE "#root", RDF_TYPE, stage_class));
    assert_true(has_triple(f, model, count, BASE "#root", GSM "hasChildStage", terms_iri_cstr(f->t, BASE "#s1")));
    term_id root = terms_iri_cstr(f->t, BASE "#root"), has_child = terms_iri_cstr(f->t, GSM "hasChildStage");
    size_t root_children = 0;
    for (size_t i = 0; i < count; i++)
        root_children += model[i].s == root && model[i].p == has_child;
    assert_int_equal(root_children, 1);
    char label[128];
    snprintf(label, sizeof label, "%.60s...", FULL_TERM);
    assert_true(has_triple(f, model, count, BASE "#s1", "http://www.w3.org/2000/01/rdf-schema#label",
                           terms_string(f->t, label)));
    /* the seq's second part, the par, at path 1.2, with its own label; its branches at 1.2.1 and 1.2.2 */
    assert_true(has_triple(f, model, count, BASE "#s1.2", "http://www.w3.org/2000/01/rdf-schema#label",
                           terms_string(f->t, "par(task(b), task(c)) (part 2 of 19)")));
    assert_true(has_triple(f, model, count, BASE "#s1.2", GSM "hasChildStage", terms_iri_cstr(f->t, BASE "#s1.2.2")));
    assert_true(has_triple(f, model, count, BASE "#s1.2.2", GSM "hasHttpRequest", terms_iri_cstr(f->t, BASE "#c")));
    free(model);
}

/* How many triples of ts have subject s and predicate p. */
static size_t objects_of(fixture *f, const triple *ts, size_t n, term_id s, const char *p) {
    term_id pi = terms_iri_cstr(f->t, p);
    size_t found = 0;
    for (size_t i = 0; i < n; i++)
        found += ts[i].s == s && ts[i].p == pi;
    return found;
}

/* Compiles term at base with NAMES, checks that every generated node is written once (a sentry has one
 * text, a stage and a milestone one label, a non-root stage one guard) and that lint finds nothing. */
static void expect_clean_with(const char *names, const char *base, const char *term) {
    fixture f = {.t = terms_new(), .st = store_new()};
    f.io = rdfio_new(f.t);
    rdf_error perr;
    int parsed = rdf_parse(f.io, f.st, RDF_TURTLE, names, strlen(names), base, 0, "names", &perr);
    if (parsed)
        print_error("%s\n", perr.message);
    assert_int_equal(parsed, 0);
    char err[512] = "";
    pattern *p = pattern_parse_term(term, strlen(term), base, err, sizeof err);
    if (!p)
        print_error("%s\n", err);
    assert_non_null(p);
    triple *model = NULL;
    size_t count = 0;
    int rc = pattern_compile(f.t, f.st, base, p, &model, &count, err, sizeof err);
    if (rc)
        print_error("%s\n", err);
    assert_int_equal(rc, 0);

    term_id type = terms_iri_cstr(f.t, RDF_TYPE), ask = terms_iri_cstr(f.t, "http://spinrdf.org/sp#Ask"),
            stage = terms_iri_cstr(f.t, GSM "Stage"), milestone = terms_iri_cstr(f.t, GSM "Milestone"),
            failure = terms_iri_cstr(f.t, "https://w3id.org/ldgsm#FailureMilestone");
    buf root_iri = {0};
    buf_printf(&root_iri, "%s#root", base);
    term_id root = terms_iri_cstr(f.t, buf_cstr(&root_iri));
    buf_free(&root_iri);
    size_t stages = 0, failure_milestones = 0;
    term_id failed_root = 0;
    for (size_t i = 0; i < count; i++)
        if (model[i].p == type && model[i].o == failure)
            failed_root = model[i].s;
    for (size_t i = 0; i < count; i++) {
        size_t len;
        const char *lex = terms_lex(f.t, model[i].o, &len);
        if (!valid_utf8(lex, len))
            print_error("not UTF-8: \"%s\"\n", lex);
        assert_true(valid_utf8(lex, len));
        if (model[i].p != type)
            continue;
        const char *node = terms_lex(f.t, model[i].s, NULL);
        if (model[i].o == failure) { /* the root's failed milestone's second type, and only its */
            assert_true(strncmp(node, base, strlen(base)) == 0);
            assert_string_equal(node + strlen(base), "#root-failed");
            failure_milestones++;
            continue;
        }
        if (strncmp(node, base, strlen(base)) != 0 || node[strlen(base)] != '#')
            print_error("a generated node outside the model: <%s>\n", node);
        assert_true(strncmp(node, base, strlen(base)) == 0 && node[strlen(base)] == '#');
        size_t types = objects_of(&f, model, count, model[i].s, RDF_TYPE) - (model[i].s == failed_root);
        if (types != 1)
            print_error("<%s> written %zu times\n", node, types);
        assert_int_equal(types, 1);
        if (model[i].o == ask)
            assert_int_equal(objects_of(&f, model, count, model[i].s, "http://spinrdf.org/sp#text"), 1);
        if (model[i].o == stage || model[i].o == milestone)
            assert_int_equal(objects_of(&f, model, count, model[i].s, "http://www.w3.org/2000/01/rdf-schema#label"), 1);
        if (model[i].o == stage) {
            stages++;
            assert_int_equal(objects_of(&f, model, count, model[i].s, GSM "hasGuard"), model[i].s != root);
        }
    }
    assert_true(stages >= 2);
    assert_int_equal(failure_milestones, 1); /* --until complete tells a failed workflow by it */

    buf text = {0};
    assert_int_equal(rdf_write_turtle(f.io, model, count, base, &text), 0);
    gsm_lint *l = gsm_lint_new(NULL);
    assert_int_equal(gsm_lint_load_text(l, "compiled.ttl", base, RDF_TURTLE, text.data, text.len), 0);
    gsm_lint_check(l);
    for (size_t i = 0; i < gsm_lint_message_count(l); i++)
        print_error("%s\n", gsm_lint_message(l, i)->line);
    assert_int_equal(gsm_lint_message_count(l), 0);
    gsm_lint_free(l);
    buf_free(&text);
    free(model);
    pattern_free(p);
    rdfio_free(f.io);
    store_free(f.st);
    terms_free(f.t);
}

static void expect_clean(const char *base, const char *term) { expect_clean_with(NAMES, base, term); }

static void test_compile_shapes(void **state) {
    (void)state;
    expect_clean(BASE, FULL_TERM);
    expect_clean(BASE, "task(a)");
    expect_clean(BASE, "seq(loop(count(0), task(a)), task(b))");
    expect_clean(BASE, "loop(while(more), loop(until(ok), xor(when(ok, task(a)), else(cancel(case(ev), task(b))))))");
    expect_clean(BASE, "par(cancel(case(ev), task(a)), cancel(case(big), seq(task(b), task(c))))");
    expect_clean(BASE,
                 "mi(dynamic(items, 2, 4), first_n(2), defer(on(ev, task(a)), on(ok, mi(fixed(2), all, task(b)))))");
    /* a seq whose 12th part nests 40 levels deep: long stage paths (s1.12.12.12...) */
    buf deep = {0};
    for (int i = 0; i < 40; i++)
        buf_puts(&deep, "seq(task(a), task(b), task(c), task(a), task(b), task(c), task(a), task(b), task(c), "
                        "task(a), task(b), ");
    buf_puts(&deep, "task(c)");
    for (int i = 0; i < 40; i++)
        buf_putc(&deep, ')');
    expect_clean(BASE, buf_cstr(&deep));
    buf_free(&deep);
    /* loops nested as deep as a term may nest: each adds two path steps (iteration, body) */
    buf loops = {0};
    for (int i = 0; i < PATTERN_MAX_DEPTH; i++)
        buf_puts(&loops, "loop(until(ok), ");
    buf_puts(&loops, "task(a)");
    for (int i = 0; i < PATTERN_MAX_DEPTH; i++)
        buf_putc(&loops, ')');
    expect_clean(BASE, buf_cstr(&loops));
    buf_free(&loops);
    /* a long condition name, not ASCII: the guard's label keeps whole characters */
    buf name = {0}, names = {0}, term = {0};
    buf_puts(&name, "http://example.org/x");
    for (int i = 0; i < 200; i++)
        buf_puts(&name, "\xC3\xA9");
    buf_printf(&names, NAMES "<%s> a sp:Ask ; sp:text \"ASK { ?s ?p <http://example.org/order> }\" .\n", buf_cstr(&name));
    buf_printf(&term, "xor(when(<%s>, task(a)), else(task(b)))", buf_cstr(&name));
    expect_clean_with(buf_cstr(&names), BASE, buf_cstr(&term));
    buf_free(&name);
    buf_free(&names);
    buf_free(&term);
    /* a long base: every generated IRI is base#..., however long base is */
    buf base = {0};
    buf_puts(&base, "http://example.org/");
    for (int i = 0; i < 110; i++)
        buf_puts(&base, "long/path/");
    buf_puts(&base, "model");
    expect_clean(buf_cstr(&base), "seq(task(a), par(task(b), task(c)))");
    buf_free(&base);
}

/* Conditions that say what the crawl must GET for them (ldgsm:readsContainer, ldgsm:reads) beside their
 * text: <#orders> reads a container's members, <#stock> the same container, a resource of its own and has
 * a note of another vocabulary. */
#define NAMES_READING                                                                                        \
    NAMES "@prefix ldgsm: <https://w3id.org/ldgsm#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n" \
    "<#orders> a sp:Ask ; rdfs:label \"orders\" ; rdfs:comment \"an order is paid\" ;\n"                  \
    "  ldgsm:readsContainer </orders/> ; ldgsm:reads </x> ;\n"                                               \
    "  sp:text \"ASK { ?o <http://example.org/ns#paid> true }\" .\n"                                        \
    "<#stock> a sp:Ask ; ldgsm:readsContainer </orders/> ; ldgsm:reads </stock> ;\n"                        \
    "  <http://example.org/ns#note> <http://example.org/notes/stock> ;\n"                                  \
    "  sp:text \"ASK { ?i <http://example.org/ns#inStock> true }\" .\n"

/* How many times ts holds the triple (s p o). */
static size_t triple_count(fixture *f, const triple *ts, size_t n, const char *s, const char *p, term_id o) {
    term_id si = terms_iri_cstr(f->t, s), pi = terms_iri_cstr(f->t, p);
    size_t found = 0;
    for (size_t i = 0; i < n; i++)
        found += ts[i].s == si && ts[i].p == pi && ts[i].o == o;
    return found;
}

/* A generated sentry carries what its conditions, held or negated, say beside their text: the crawl GETs a
 * container's members only for a sentry that declares it (rules/ldp-crawl.n3), so a branch whose condition
 * reads one would otherwise wait forever. Each triple once per sentry; not the conditions' type, text,
 * label or comment. */
static void test_compile_carries_reads(void **state) {
    fixture *f = *state;
    triple *model = NULL;
    size_t count = 0;
    char err[512] = "";
    int rc = compile(f, NAMES_READING, "xor(when(orders, task(a)), when(stock, task(b)), else(task(c)))", &model,
                     &count, err, sizeof err);
    if (rc)
        print_error("%s\n", err);
    assert_int_equal(rc, 0);
    const char *contains = "https://w3id.org/ldgsm#readsContainer", *reads = "https://w3id.org/ldgsm#reads",
               *note = "http://example.org/ns#note";
    term_id orders = terms_iri_cstr(f->t, "http://example.org/orders/"),
            x = terms_iri_cstr(f->t, "http://example.org/x"), stock = terms_iri_cstr(f->t, "http://example.org/stock"),
            stock_note = terms_iri_cstr(f->t, "http://example.org/notes/stock");
    /* s1.1 holds orders; s1.2 holds stock and not orders; s1.3 (else) neither */
    static const char *const starts[] = {BASE "#s1.1-start", BASE "#s1.2-start", BASE "#s1.3-start"};
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(triple_count(f, model, count, starts[i], contains, orders), 1);
        assert_int_equal(triple_count(f, model, count, starts[i], reads, x), 1);
        assert_int_equal(triple_count(f, model, count, starts[i], reads, stock), i > 0);
        assert_int_equal(triple_count(f, model, count, starts[i], note, stock_note), i > 0);
        term_id sentry = terms_iri_cstr(f->t, starts[i]);
        assert_int_equal(objects_of(f, model, count, sentry, RDF_TYPE), 1);
        assert_int_equal(objects_of(f, model, count, sentry, "http://spinrdf.org/sp#text"), 1);
        assert_int_equal(objects_of(f, model, count, sentry, "http://www.w3.org/2000/01/rdf-schema#label"), 0);
        assert_int_equal(objects_of(f, model, count, sentry, "http://www.w3.org/2000/01/rdf-schema#comment"), 1);
    }
    free(model);
    expect_clean_with(NAMES_READING, BASE, "xor(when(orders, task(a)), when(stock, task(b)), else(task(c)))");
    expect_clean_with(NAMES_READING, BASE, "loop(until(orders), cancel(activity(stock), task(a)))");
}

static void expect_compile_error(const char *names, const char *term, const char *message) {
    fixture f;
    f.t = terms_new();
    f.st = store_new();
    f.io = rdfio_new(f.t);
    triple *model = NULL;
    size_t count = 0;
    char err[512] = "";
    int rc = compile(&f, names, term, &model, &count, err, sizeof err);
    if (rc == 0)
        print_error("compiled, but should not: %s\n", term);
    assert_int_equal(rc, -1);
    if (!strstr(err, message))
        print_error("expected \"%s\" in \"%s\"\n", message, err);
    assert_non_null(strstr(err, message));
    rdfio_free(f.io);
    store_free(f.st);
    terms_free(f.t);
}

static void test_compile_errors(void **state) {
    (void)state;
    expect_compile_error(NAMES, "seq(task(a), task(nope))",
                         "task nope: the names document describes no request by that name (an http:Request with "
                         "http:mthd, or an ldgsm:Call with ldgsm:alternatives)");
    expect_compile_error(NAMES "<#notext> a sp:Ask .\n", "xor(when(notext, task(a)), else(task(b)))",
                         "condition notext: the names document gives it no sp:text (a SPARQL ASK query)");
    expect_compile_error(NAMES, "loop(while(<http://other.org/c>), task(a))",
                         "condition <http://other.org/c>: the names document gives it no sp:text");
    expect_compile_error(NAMES "<#sel> a sp:Ask ; sp:text \"SELECT * WHERE { ?s ?p ?o }\" .\n",
                         "loop(until(sel), task(a))",
                         "condition sel: a condition is a SPARQL ASK query (PREFIX ... ASK { ... })");
    expect_compile_error(NAMES "<#ok2> a sp:Ask ; sp:text \"PREFIX ex: <http://other.org/ns#> ASK { ?x ex:s 1 }\" .\n",
                         "xor(when(ok, task(a)), when(ok2, task(b)))",
                         "PREFIX ex: <http://example.org/ns#> differs from <http://other.org/ns#> of another "
                         "condition or of the compiled sentries; use another prefix name");
    expect_compile_error(NAMES "<#g> a sp:Ask ; sp:text \"PREFIX gsm: <http://other.org/gsm#> ASK { ?x gsm:s 1 }\" .\n",
                         "loop(while(g), task(a))",
                         "condition g: PREFIX gsm: <http://other.org/gsm#> differs from <http://purl.org/gsm/vocab#>");
    expect_compile_error(NAMES,
                         "join(first_n(6), task(a), task(b), task(c), task(a), task(b), task(c), task(a), task(b), "
                         "task(c), task(a), task(b), task(c), task(a), task(b), task(c), task(a))",
                         "a milestone would need more than 2000 sentries (a join of K out of M branches needs one "
                         "per K-subset): nest smaller joins");
    expect_compile_error(NAMES "<#nolist> a pat:ItemList ; pat:listProperty <http://example.org/ns#lines> .\n",
                         "mi(dynamic(nolist, 1, 2), all, task(a))",
                         "item list nolist: the names document must give it pat:listOf (an IRI) and "
                         "pat:listProperty");
    expect_compile_error(NAMES "<#noted> a sp:Ask ; <http://example.org/ns#note> [ <http://example.org/ns#by> 1 ] ;"
                         " sp:text \"ASK { ?s ?p ?o }\" .\n",
                         "xor(when(noted, task(a)), else(task(b)))",
                         "condition noted: its <http://example.org/ns#note> is a blank node, which the sentries made "
                         "of the condition cannot carry: give it an IRI");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_term_round_trip),
        cmocka_unit_test(test_term_tree),
        cmocka_unit_test(test_term_errors),
        cmocka_unit_test(test_term_depth),
        cmocka_unit_test(test_format_cut),
        cmocka_unit_test(test_condition_split),
        cmocka_unit_test_setup_teardown(test_rdf_every_kernel, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rdf_term_text, setup, teardown),
        cmocka_unit_test(test_rdf_errors),
        cmocka_unit_test_setup_teardown(test_compile_lints_clean, setup, teardown),
        cmocka_unit_test(test_compile_shapes),
        cmocka_unit_test(test_compile_errors),
        cmocka_unit_test_setup_teardown(test_compile_carries_reads, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
