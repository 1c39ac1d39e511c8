/* test_deps.c: the dependency algebra (src/deps): the text syntax (precedence, the paper's signs, errors
 * by line and column), the interval semantics on Example 1 and Observations 1-6, every row of Table 1,
 * the readable forms of Example 3's guards, the path machinery of Definitions 17 and 21, and the policy
 * over occurred sets that `ldgsm deps --gsm` compiles (each function's cover as printed). The rest of
 * the paper's results run through `ldgsm deps` against tests/deps/oracle.py (tests/deps/test_paper.py). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "deps/dep_expr.h"
#include "deps/dep_guard.h"
#include "deps/dep_minimize.h"
#include "deps/dep_parse.h"
#include "deps/dep_policy.h"
#include "deps/dep_residuate.h"
#include "deps/dep_trace.h"
#include "rdf/nesting.h"

static dep_events ev;

static int setup(void **state) {
    (void)state;
    dep_events_init(&ev);
    return 0;
}

static int teardown(void **state) {
    (void)state;
    dep_events_free(&ev);
    return 0;
}

static const dep_expr *parse(const char *text) {
    char err[200];
    const dep_expr *e = dep_parse_expr(&ev, text, err, sizeof err);
    if (!e)
        fail_msg("%s: %s", text, err);
    return e;
}

static void assert_prints(const char *text, const char *printed) {
    char out[400];
    dep_print(&ev, parse(text), out, sizeof out);
    assert_string_equal(out, printed);
}

static void test_syntax(void **state) {
    (void)state;
    /* the paper's binding: ! and ~, then ., then [] and <>, then &, then | */
    assert_prints("[]e.f", "[]e.f");
    assert_int_equal(parse("[]e.f")->kind, DEP_BOX);
    assert_int_equal(parse("[]e.f")->a->kind, DEP_SEQ);
    assert_int_equal(parse("!e.f")->kind, DEP_SEQ);
    assert_int_equal(parse("a | b & c")->kind, DEP_OR);
    assert_int_equal(parse("<>a & b")->kind, DEP_AND);
    assert_prints("(a | b) . c", "(a | b).c");
    assert_prints("a . (b . c)", "a.(b.c)");
    assert_prints("!([]e)", "!([]e)");
    assert_prints("\xe2\x96\xa1(e \xc2\xb7 f) \xe2\x88\xa8 \xc2\xac~f \xe2\x88\xa7 \xe2\x97\x87~e", "[]e.f | !~f & <>~e");
    /* constants fold, nothing else does */
    assert_int_equal(parse("0 & e")->kind, DEP_ZERO);
    assert_int_equal(parse("T | e")->kind, DEP_TOP);
    assert_int_equal(parse("e . 0")->kind, DEP_ZERO);
    assert_int_equal(parse("e | e")->kind, DEP_OR);
}

static void test_syntax_errors(void **state) {
    (void)state;
    char err[200];
    assert_null(dep_parse_expr(&ev, "e | ", err, sizeof err));
    assert_string_equal(err, "4: expected an event, 0, T or '('"); /* where the operand is missing */
    assert_null(dep_parse_expr(&ev, "(e . f", err, sizeof err));
    assert_string_equal(err, "7: expected ')' to close the '(' at 1:1");
    assert_null(dep_parse_expr(&ev, "~(e)", err, sizeof err));
    assert_string_equal(err, "2: expected an event name after '~' (T and 0 are constants, not events)");
    assert_null(dep_parse_expr(&ev, "T | ~T", err, sizeof err));
    assert_string_equal(err, "6: expected an event name after '~' (T and 0 are constants, not events)");
    /* columns count characters: the paper's signs are several bytes */
    assert_null(dep_parse_expr(&ev, "\xe2\x96\xa1" "e \xe2\x88\xa7 )", err, sizeof err));
    assert_string_equal(err, "6: expected an event, 0, T or '('");
    /* the algebra recurses over trees: their depth and size are bounded, with a message */
    char deep[700], wide[8200];
    memset(deep, '(', 300);
    strcpy(deep + 300, "e");
    assert_null(dep_parse_expr(&ev, deep, err, sizeof err));
    assert_string_equal(err, "129: " NESTING_ERROR);
    memset(deep, '!', 300);
    assert_null(dep_parse_expr(&ev, deep, err, sizeof err));
    assert_string_equal(err, "129: " NESTING_ERROR);
    for (size_t i = 0; i < 2100; i++)
        memcpy(wide + 2 * i, i ? "|e" : " e", 2);
    wide[4200] = '\0';
    assert_null(dep_parse_expr(&ev, wide, err, sizeof err));
    assert_string_equal(err, "2002: more than 2000 events and operators in one statement");

    static const struct {
        const char *text, *error;
    } files[] = {
        {"D: e |\n  f\nE: (e .\n f) g\n", "x.deps:4:5: expected an operator or the end of the line"},
        {"D: e\nD: f\n", "x.deps:2:1: a second dependency named D"},
        {"D: a & !b\n", "x.deps:1:8: a dependency is an expression of events (no [], <> or !: those are for guards)"},
        {"D: a .\n\n\n", "x.deps:1:7: expected an event, 0, T or '('"},
        {"D: (a | b\nE: c\n", "x.deps:2:1: expected ')' to close the '(' at 1:4"},
        {"inevitable\n", "x.deps:1:11: expected events after 'inevitable'"},
        {"inevitable e\nimmediate e\n",
         "x.deps:2:11: an event is inevitable or immediate, not both (immediate is already nonrejectable)"},
        {"e . f\n", "x.deps:1:3: expected ':' after the dependency's name"},
        {"D: e\x01\n", "x.deps:1:5: expected an operator or the end of the line"},
    };
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        dep_set set;
        dep_set_init(&set);
        assert_int_equal(dep_set_read(&set, "x.deps", files[i].text, strlen(files[i].text), err, sizeof err), -1);
        assert_string_equal(err, files[i].error);
        dep_set_free(&set);
    }
    dep_set set;
    dep_set_init(&set);
    assert_int_equal(dep_set_read(&set, "x.deps", "D: e\nE:\0 f", 10, err, sizeof err), -1);
    assert_string_equal(err, "x.deps:2:3: a NUL byte: not a text file");
    dep_set_free(&set);
    /* nothing to read is a mistake (a wrong path, a cut file), not an empty workflow */
    static const char *const empty[] = {"", "\n  \n", "# only\n# comments\n"};
    for (size_t i = 0; i < sizeof empty / sizeof *empty; i++) {
        dep_set_init(&set);
        assert_int_equal(dep_set_read(&set, "x.deps", empty[i], strlen(empty[i]), err, sizeof err), -1);
        assert_non_null(strstr(err, ": no dependency or attribute: the file is empty or only comments"));
        assert_memory_equal(err, "x.deps:", 7);
        dep_set_free(&set);
    }
}

/* An attribute whose event no dependency mentions (in any of the files) is a misspelt name, named where
 * it stands; one in another file than its dependency is fine. */
static void test_attribute_of_no_dependency(void **state) {
    (void)state;
    dep_set set;
    dep_set_init(&set);
    char err[200];
    const char *deps = "D6: ~pay | ~ship . pay\n", *attributes = "# attributes\ninevitable pay shipp\n";
    assert_int_equal(dep_set_read(&set, "a.deps", attributes, strlen(attributes), err, sizeof err), 0);
    assert_int_equal(dep_set_read(&set, "b.deps", deps, strlen(deps), err, sizeof err), 0);
    assert_int_equal(dep_set_check(&set, err, sizeof err), -1);
    assert_string_equal(err, "a.deps:2:16: shipp has an attribute but no dependency mentions it (a misspelt name?)");
    dep_set_free(&set);
    dep_set_init(&set);
    const char *complement = "D: ~a | b\ntriggerable  b ~bb\n";
    assert_int_equal(dep_set_read(&set, "c.deps", complement, strlen(complement), err, sizeof err), 0);
    assert_int_equal(dep_set_check(&set, err, sizeof err), -1);
    assert_string_equal(err, "c.deps:2:16: ~bb has an attribute but no dependency mentions it (a misspelt name?)");
    dep_set_free(&set);
    dep_set_init(&set);
    const char *good = "inevitable pay\n";
    assert_int_equal(dep_set_read(&set, "a.deps", good, strlen(good), err, sizeof err), 0);
    assert_int_equal(dep_set_read(&set, "b.deps", deps, strlen(deps), err, sizeof err), 0);
    assert_int_equal(dep_set_check(&set, err, sizeof err), 0);
    dep_set_free(&set);
}

static void test_file(void **state) {
    (void)state;
    const char *text = "# Example 15's attributes\nD<: ~e | ~f | e . f  # the order\ninevitable: e\n"
                       "immediate ~c\ntriggerable s t\n";
    dep_set set;
    dep_set_init(&set);
    char err[200];
    assert_int_equal(dep_set_read(&set, "x.deps", text, strlen(text), err, sizeof err), 0);
    assert_int_equal(set.count, 2);
    assert_string_equal(set.deps[0].name, "D<");
    assert_string_equal(set.deps[1].name, "inevitable"); /* a dependency may be named like an attribute */
    int c = dep_events_find(&set.ev, "c");
    assert_int_equal(dep_attributes(&set, 2 * c + 1), DEP_IMMEDIATE);
    assert_int_equal(dep_attributes(&set, 2 * c), 0);
    assert_int_equal(dep_attributes(&set, 2 * dep_events_find(&set.ev, "t")), DEP_TRIGGERABLE);
    dep_set_free(&set);
}

/* u = e f g: its literals, by name */
static dep_trace trace_of(const char *names) {
    dep_trace u = {0};
    char copy[100];
    snprintf(copy, sizeof copy, "%s", names);
    for (char *save = NULL, *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        bool complement = w[0] == '~';
        int s = dep_events_symbol(&ev, w + complement, strlen(w + complement));
        u.lits[u.n++] = 2 * s + complement;
    }
    return u;
}

static void test_example_1(void **state) {
    (void)state;
    dep_trace u = trace_of("e f g");
    assert_true(dep_holds(parse("<>g"), &u, 0, 0));
    assert_false(dep_holds(parse("<>(g . f)"), &u, 0, 0));
    assert_true(dep_holds(parse("[]e & !f & !g"), &u, 0, 1));
    assert_false(dep_holds(parse("e . g"), &u, 0, 1));
    assert_true(dep_holds(parse("e . g"), &u, 0, 3));
    /* Semantics 5: the two halves do not share an index */
    assert_false(dep_holds(parse("e . e"), &u, 0, 3));
}

static void assert_equivalent(const char *a, const char *b, dep_equivalence how) {
    dep_witness w;
    if (!dep_equivalent(parse(a), parse(b), how, &w))
        fail_msg("%s and %s differ at i=%zu k=%zu", a, b, w.i, w.k);
}

static void test_observations(void **state) {
    (void)state;
    /* Observation 1 */
    assert_false(dep_equivalent(parse("T"), parse("e | ~e"), DEP_EQ_INTERVALS, NULL));
    assert_equivalent("0", "e & ~e", DEP_EQ_INTERVALS);
    assert_equivalent("T", "<>e | <>~e", DEP_EQ_INTERVALS);
    /* Observation 3 and 4 */
    assert_equivalent("[]e", "e", DEP_EQ_INTERVALS);
    assert_false(dep_equivalent(parse("[]!e"), parse("!e"), DEP_EQ_INTERVALS, NULL));
    /* Observations 5 and 6 */
    assert_equivalent("<>(e.f) & []f", "[](e.f)", DEP_EQ_INTERVALS);
    assert_equivalent("<>(e.f) & !e", "<>(e.f) & !e & !f", DEP_EQ_INTERVALS);
    /* Example 2 */
    assert_false(dep_equivalent(parse("[]e | []~e"), parse("T"), DEP_EQ_INTERVALS, NULL));
    assert_equivalent("<>e & <>~e", "0", DEP_EQ_INTERVALS);
    assert_equivalent("!e | []e", "T", DEP_EQ_INTERVALS);
    assert_equivalent("!e | []~e", "!e", DEP_EQ_INTERVALS);
    /* a guard and a dependency compared only where they are used */
    assert_false(dep_equivalent(parse("e.f | ~e"), parse("f"), DEP_EQ_WHOLE, NULL));
    assert_equivalent("~e | ~f | e.f | f.e", "T", DEP_EQ_WHOLE);
}

static const dep_expr *residuate(const char *guard, dep_kind kind, const char *first, const char *second) {
    dep_message m = {kind, dep_parse_lit(&ev, first), second ? dep_parse_lit(&ev, second) : -1};
    assert_true(m.first >= 0);
    return dep_residuate(&ev, dep_two_sequences(&ev, parse(guard)), m);
}

static void assert_row(const char *guard, dep_kind kind, const char *first, const char *second, dep_kind want) {
    const dep_expr *got = residuate(guard, kind, first, second);
    char out[200];
    dep_print(&ev, got, out, sizeof out);
    if (got->kind != want)
        fail_msg("%s ÷ %s%s%s%s gave %s", guard, kind == DEP_BOX ? "[]" : "<>", first, second ? "." : "",
                 second ? second : "", out);
}

static void test_table_1(void **state) {
    (void)state;
    parse("e | f | g"); /* the events */
    assert_row("[]e | []f", DEP_BOX, "e", NULL, DEP_TOP);
    assert_row("[]e & []f", DEP_BOX, "e", NULL, DEP_BOX);
    assert_row("[]e", DEP_BOX, "e", NULL, DEP_TOP);
    assert_row("[]e", DEP_DIA, "e", NULL, DEP_BOX); /* a promise is not an occurrence */
    assert_row("[]~e", DEP_BOX, "e", NULL, DEP_ZERO);
    assert_row("[]~e", DEP_DIA, "e", NULL, DEP_ZERO);
    assert_row("<>e", DEP_BOX, "e", NULL, DEP_TOP);
    assert_row("<>e", DEP_DIA, "e", NULL, DEP_TOP);
    assert_row("<>~e", DEP_BOX, "e", NULL, DEP_ZERO);
    assert_row("<>~e", DEP_DIA, "e", NULL, DEP_ZERO);
    assert_row("[]e.f", DEP_BOX, "e", "f", DEP_TOP);
    assert_row("[]e.f", DEP_BOX, "f", "e", DEP_ZERO);
    assert_row("[]e.f", DEP_DIA, "e", "f", DEP_BOX);
    assert_row("[]e.f", DEP_BOX, "~e", NULL, DEP_ZERO);
    assert_row("[]e.f", DEP_DIA, "~f", NULL, DEP_ZERO);
    assert_row("<>e.f", DEP_BOX, "e", "f", DEP_TOP);
    assert_row("<>e.f", DEP_DIA, "e", "f", DEP_TOP);
    assert_row("<>e.f", DEP_BOX, "f", "e", DEP_ZERO);
    assert_row("<>e.f", DEP_DIA, "f", "e", DEP_ZERO);
    assert_row("<>e.f", DEP_BOX, "~f", NULL, DEP_ZERO);
    assert_row("<>e.f", DEP_DIA, "~e", NULL, DEP_ZERO);
    assert_row("!e", DEP_BOX, "e", NULL, DEP_ZERO);
    assert_row("!e", DEP_DIA, "e", NULL, DEP_NOT);
    assert_row("!~e", DEP_BOX, "e", NULL, DEP_TOP);
    assert_row("!~e", DEP_DIA, "e", NULL, DEP_TOP);
    /* otherwise unchanged */
    assert_row("[]f", DEP_BOX, "e", NULL, DEP_BOX);
    assert_row("<>e.f", DEP_BOX, "e", NULL, DEP_DIA);
    /* longer sequences are split into chains of two first */
    char out[200];
    dep_print(&ev, dep_two_sequences(&ev, parse("<>e.f.g")), out, sizeof out);
    assert_string_equal(out, "<>e.f & <>f.g");
    assert_equivalent("<>e.f.g", "<>e.f & <>f.g", DEP_EQ_INTERVALS);
    assert_equivalent("[]e.f.g", "[]e.f & []f.g", DEP_EQ_INTERVALS);
}

static const char *minimal(const char *guard) {
    static char out[300];
    dep_print(&ev, dep_minimize_guard(&ev, parse(guard)), out, sizeof out);
    return out;
}

static void test_readable_guards(void **state) {
    (void)state;
    /* Example 3's G_b as Definition 11 builds it, and as it reads */
    assert_string_equal(minimal("!f & !~f & <>(~f | f) | []~f"), "!f");
    assert_string_equal(minimal("!e & !~e & <>~e | []e | []~e"), "[]e | <>~e");
    assert_string_equal(minimal("[]e & []f & <>e.f | []e.f"), "[]e.f");
    assert_string_equal(minimal("[]e & []f"), "[]f & []e"); /* events in the order they were first read */
    assert_string_equal(minimal("<>e & <>~e"), "0");
    char out[200];
    dep_print(&ev, dep_minimize_dependency(&ev, parse("e.f | f.e | ~e.f | f.~e | ~e.~f")), out, sizeof out);
    assert_string_equal(out, "f | ~e.~f");
}

static void test_paths(void **state) {
    (void)state;
    dep_set set;
    dep_set_init(&set);
    char err[200];
    const char *text = "D<: ~e | ~f | e . f\ninevitable e\n";
    assert_int_equal(dep_set_read(&set, "x", text, strlen(text), err, sizeof err), 0);
    dep_paths psi, safe;
    assert_int_equal(dep_psi(set.deps[0].expr, &psi, err, sizeof err), 0);
    assert_int_equal(psi.count, 7); /* every order and sign of e and f but f e */
    assert_int_equal(dep_safe_paths(&psi, &set, &safe), 0);
    assert_int_equal(safe.count, 6); /* Figure 2: f ~e goes */
    int f = dep_events_find(&set.ev, "f"), e = dep_events_find(&set.ev, "e");
    for (size_t w = 0; w < safe.count; w++)
        assert_false(safe.lits[2 * w] == 2 * f && safe.lits[2 * w + 1] == 2 * e + 1);
    char out[200];
    dep_print(&set.ev, dep_minimize_guard(&set.ev, dep_paths_guard(&set.ev, &safe, 2 * f)), out, sizeof out);
    assert_string_equal(out, "[]e | []~e");
    dep_paths_free(&psi);
    dep_paths_free(&safe);
    const char *wide = "V: a\nW: a.b.c.d.e.f.g.h\n";
    dep_set wide_set;
    dep_set_init(&wide_set);
    assert_int_equal(dep_set_read(&wide_set, "x", wide, strlen(wide), err, sizeof err), -1);
    assert_string_equal(err, "x:2:1: W relates 8 events; a dependency relates at most 5 (its paths are n! 2^n traces): "
                             "split it");
    assert_int_equal(dep_psi(parse("a.b.c.d.e.f"), &psi, err, sizeof err), -1);
    assert_string_equal(err, "over 6 events (at most 5: its paths are n! 2^n traces)");
    dep_set_free(&wide_set);
    dep_set_free(&set);
}

/* The policy of a dependency file's text (the paper's delaying order): 0 and the covers, or -1 with the
 * error in err. */
static int policy_in(dep_order order, const char *text, dep_set *set, dep_policy *p, char *err, size_t err_len) {
    dep_set_init(set);
    assert_int_equal(dep_set_read(set, "t.deps", text, strlen(text), err, err_len), 0);
    return dep_policy_compute(set, order, p, err, err_len);
}

static int policy_of(const char *text, dep_set *set, dep_policy *p, char *err, size_t err_len) {
    return policy_in(DEP_ORDER_DELAY, text, set, p, err, err_len);
}

static void assert_cover(const dep_set *set, const dep_policy *p, const char *event, int which, const char *want) {
    size_t index;
    size_t from = 0;
    const dep_group *g = dep_policy_next_group(p, dep_events_find(&set->ev, event), &from, &index);
    assert_non_null(g);
    buf got = {0};
    dep_cover_print(&set->ev, g, which == 0 ? &g->allowed_cover[index] : which == 1 ? &g->trigger_cover[index]
                                                                           : &g->final_cover, &got);
    if (strcmp(buf_cstr(&got), want) != 0)
        fail_msg("%s: got %s, want %s", event, buf_cstr(&got), want);
    buf_free(&got);
}

static void test_policy(void **state) {
    (void)state;
    dep_set set;
    dep_policy p;
    char err[300];
    /* Example 4 on Example 2's D<: buy waits for book (never before it), book any time; both may stay away */
    assert_int_equal(policy_of("D: ~book | ~buy | book . buy\n", &set, &p, err, sizeof err), 0);
    assert_cover(&set, &p, "book", 0, "!book");
    assert_cover(&set, &p, "buy", 0, "[]book & !buy");
    assert_cover(&set, &p, "buy", 2, "T");
    dep_policy_free(&p);
    dep_set_free(&set);
    /* first come: after buy, book never; buy any time */
    assert_int_equal(policy_in(DEP_ORDER_FIRST_COME, "D: ~book | ~buy | book . buy\n", &set, &p, err, sizeof err), 0);
    assert_cover(&set, &p, "book", 0, "!book & !buy");
    assert_cover(&set, &p, "buy", 0, "!buy");
    dep_policy_free(&p);
    dep_set_free(&set);
    /* an inevitable event waits only for what the agent can count on: f, waiting for a normal e, could
     * wait until completion rejected it; so f goes when asked and e gives way */
    assert_int_equal(policy_of("D: ~e | ~f | e . f\ninevitable f\n", &set, &p, err, sizeof err), 0);
    assert_cover(&set, &p, "e", 0, "!e & !f");
    assert_cover(&set, &p, "f", 0, "!f");
    dep_policy_free(&p);
    dep_set_free(&set);
    /* a triggerable event that would wait for a normal one is no way on: x (which needs t) waits for a too */
    assert_int_equal(policy_of("D1: ~a | ~t | a . t\nD2: ~x | t\ntriggerable t\n", &set, &p, err, sizeof err), 0);
    assert_cover(&set, &p, "x", 0, "[]a & !x");
    assert_cover(&set, &p, "t", 1, "!t & []x");
    dep_policy_free(&p);
    dep_set_free(&set);
    /* mutual exclusion: whichever comes first */
    assert_int_equal(policy_of("X: ~cancel | ~ship\n", &set, &p, err, sizeof err), 0);
    assert_cover(&set, &p, "cancel", 0, "!cancel & !ship");
    assert_cover(&set, &p, "ship", 0, "!cancel & !ship");
    dep_policy_free(&p);
    dep_set_free(&set);
    /* D-> with f normal: e waits for f; triggerable: e goes, f is made to follow, and completion waits */
    assert_int_equal(policy_of("I: ~e | f\n", &set, &p, err, sizeof err), 0);
    assert_cover(&set, &p, "e", 0, "!e & []f");
    assert_cover(&set, &p, "f", 1, "0");
    dep_policy_free(&p);
    dep_set_free(&set);
    assert_int_equal(policy_of("I: ~e | f\ntriggerable f\n", &set, &p, err, sizeof err), 0);
    assert_cover(&set, &p, "e", 0, "!e");
    assert_cover(&set, &p, "f", 1, "[]e & !f");
    assert_cover(&set, &p, "e", 2, "!e | []f");
    dep_policy_free(&p);
    dep_set_free(&set);
    /* a dependency no run keeps, an immediate event, a complement's attribute */
    assert_int_equal(policy_of("N: e . f\n", &set, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "t.deps:1: N: no run of the instance satisfies it"));
    dep_set_free(&set);
    /* a dependency over no event: 0 is refused, T changes nothing */
    assert_int_equal(policy_of("D: ~a | b\nZ: 0\n", &set, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "t.deps:2: Z: no run of the instance satisfies it"));
    dep_set_free(&set);
    assert_int_equal(policy_of("D: ~a | b\nZ: T\n", &set, &p, err, sizeof err), 0);
    assert_int_equal(p.count, 1);
    dep_policy_free(&p);
    dep_set_free(&set);
    assert_int_equal(policy_of("N: ~e | f\nimmediate f\n", &set, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "f is immediate"));
    dep_set_free(&set);
    assert_int_equal(policy_of("N: ~e | f\ninevitable ~f\n", &set, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "~f has an attribute"));
    dep_set_free(&set);
    /* seven related events: a group per dependency; b is in two, each with its own cover */
    assert_int_equal(policy_of("A: ~a | b\nB: ~b | c\nC: ~c | d\nD: ~d | e\nT: T\nE: ~e | f . g\n", &set, &p,
                               err, sizeof err), 0);
    assert_int_equal(p.count, 5);
    assert_true(p.groups[0].split && p.groups[4].split);
    size_t from = 0, index, groups_of_b = 0;
    int b = dep_events_find(&set.ev, "b");
    for (; dep_policy_next_group(&p, b, &from, &index); from++) {
        buf got = {0};
        dep_cover_print(&set.ev, &p.groups[from], &p.groups[from].allowed_cover[index], &got);
        assert_string_equal(buf_cstr(&got), groups_of_b++ ? "!b & []c" : "!b");
        buf_free(&got);
    }
    assert_int_equal(groups_of_b, 2);
    dep_policy_free(&p);
    dep_set_free(&set);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_syntax, setup, teardown),
        cmocka_unit_test_setup_teardown(test_syntax_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_attribute_of_no_dependency, setup, teardown),
        cmocka_unit_test_setup_teardown(test_example_1, setup, teardown),
        cmocka_unit_test_setup_teardown(test_observations, setup, teardown),
        cmocka_unit_test_setup_teardown(test_table_1, setup, teardown),
        cmocka_unit_test_setup_teardown(test_readable_guards, setup, teardown),
        cmocka_unit_test_setup_teardown(test_paths, setup, teardown),
        cmocka_unit_test_setup_teardown(test_policy, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
