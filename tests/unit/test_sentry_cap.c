/* test_sentry_cap.c: a sentry of more than SENTRY_MAX_PATTERNS triple patterns (nested groups counted) is
 * refused with a message naming it, one of exactly that many compiles, and its join plans keep the greedy
 * order (most positions bound first, body order among equals) that plan construction had before it was
 * made quadratic. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "reason/sentry.h"

#define EX "http://ex.org/"
#define GSM "http://purl.org/gsm/vocab#"

static term_id iri(terms *t, const char *local, unsigned n) {
    char full[64];
    snprintf(full, sizeof full, EX "%s%u", local, n);
    return terms_iri_cstr(t, full);
}

static term_id var(terms *t, unsigned n) {
    char name[16];
    int len = snprintf(name, sizeof name, "v%u", n);
    return terms_var(t, name, (size_t)len);
}

static sq_node *pattern(term_id s, term_id p, term_id o) {
    sq_node *n = sq_node_new(SQ_PATTERN);
    n->pattern = (triple){s, p, o};
    return n;
}

/* Adds `count` patterns to group: a chain over 50 variables, each pattern its own predicate. */
static void chain(terms *t, sq_node *group, unsigned from, unsigned count) {
    for (unsigned i = from; i < from + count; i++)
        sq_node_add(group, pattern(var(t, i % 50), iri(t, "p", i), var(t, (i + 1) % 50)));
}

/* Compiles where as the agent compiles an artifact's sentry <EX big>: ?this bound to each instance. */
static rule *compile(terms *t, sq_node *where, char *error, size_t error_len) {
    term_id this_var = terms_var(t, "this artifact", 13);
    triple prefix[] = {{this_var, iri(t, "type", 0), iri(t, "Instance", 0)}};
    triple head[] = {{iri(t, "big", 0), iri(t, "holdsFor", 0), this_var}};
    sentry_constant constant = {terms_iri_cstr(t, GSM "thisArtifactInstance"), this_var};
    return sentry_rule_new(t, where, prefix, 1, head, 1, &constant, 1, terms_lex(t, iri(t, "big", 0), NULL), error,
                           error_len);
}

static void test_over_the_cap_refused(void **state) {
    (void)state;
    terms *t = terms_new();
    sq_node *where = sq_node_new(SQ_GROUP);
    chain(t, where, 0, SENTRY_MAX_PATTERNS + 1);
    char error[512] = "";
    assert_null(compile(t, where, error, sizeof error));
    char expected[128];
    snprintf(expected, sizeof expected, "sentry " EX "big0: %d triple patterns, more than %d", SENTRY_MAX_PATTERNS + 1,
             SENTRY_MAX_PATTERNS);
    assert_non_null(strstr(error, expected));
    terms_free(t);
}

/* Patterns inside a UNION's alternatives count too: the cap is on the sentry, not its top level. */
static void test_nested_patterns_count(void **state) {
    (void)state;
    terms *t = terms_new();
    sq_node *where = sq_node_new(SQ_GROUP), *either = sq_node_new(SQ_UNION);
    sq_node *left = sq_node_new(SQ_GROUP), *right = sq_node_new(SQ_GROUP);
    chain(t, where, 0, SENTRY_MAX_PATTERNS / 2);
    chain(t, left, SENTRY_MAX_PATTERNS / 2, SENTRY_MAX_PATTERNS / 4);
    chain(t, right, SENTRY_MAX_PATTERNS, SENTRY_MAX_PATTERNS / 4 + 1);
    sq_node_add(either, left);
    sq_node_add(either, right);
    sq_node_add(where, either);
    char error[512] = "";
    assert_null(compile(t, where, error, sizeof error));
    assert_non_null(strstr(error, "triple patterns, more than"));
    terms_free(t);
}

static void test_at_the_cap_compiles(void **state) {
    (void)state;
    terms *t = terms_new();
    sq_node *where = sq_node_new(SQ_GROUP);
    chain(t, where, 0, SENTRY_MAX_PATTERNS);
    char error[512] = "";
    rule *r = compile(t, where, error, sizeof error);
    if (!r)
        fail_msg("%s", error);
    assert_int_equal(r->matched_count, SENTRY_MAX_PATTERNS + 1);
    /* each plan starts with its own pattern and holds every body element once */
    bool *seen = calloc(r->body_count, sizeof *seen);
    for (unsigned i = 0; i < r->matched_count; i++) {
        assert_int_equal(r->plans[i][0], i);
        memset(seen, 0, r->body_count * sizeof *seen);
        for (unsigned k = 0; k < r->body_count; k++) {
            assert_false(seen[r->plans[i][k]]);
            seen[r->plans[i][k]] = true;
        }
    }
    free(seen);
    rule_free(r);
    terms_free(t);
}

/* Body: 0 the prefix ?this :type0 :Instance0 (two constants), then 1 ?a :p ?b, 2 ?c :q ?d, 3 ?b :r ?c,
 * 4 ?b :s :k, 5 ?d :t ?e. Led by 1 ({a, b} bound): 4 (three positions bound), then 0 and 3 (two each, body
 * order), 3 binds ?c so 2 has two, 2 binds ?d so 5 has two. Led by 2 ({c, d}): 0, 3 (two each), 3 binds ?b
 * so 4 has three and comes before 1 and 5 (two each, body order): a pattern that rises comes back before
 * those the plan passed over. */
static void test_greedy_order(void **state) {
    (void)state;
    terms *t = terms_new();
    term_id a = var(t, 100), b = var(t, 101), c = var(t, 102), d = var(t, 103), e = var(t, 104);
    sq_node *where = sq_node_new(SQ_GROUP);
    sq_node_add(where, pattern(a, iri(t, "p", 0), b));
    sq_node_add(where, pattern(c, iri(t, "q", 0), d));
    sq_node_add(where, pattern(b, iri(t, "r", 0), c));
    sq_node_add(where, pattern(b, iri(t, "s", 0), iri(t, "k", 0)));
    sq_node_add(where, pattern(d, iri(t, "t", 0), e));
    char error[512] = "";
    rule *r = compile(t, where, error, sizeof error);
    if (!r)
        fail_msg("%s", error);
    const unsigned from_1[] = {1, 4, 0, 3, 2, 5}, from_2[] = {2, 0, 3, 4, 1, 5};
    for (unsigned k = 0; k < 6; k++) {
        assert_int_equal(r->plans[1][k], from_1[k]);
        assert_int_equal(r->plans[2][k], from_2[k]);
    }
    rule_free(r);
    terms_free(t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_over_the_cap_refused),
        cmocka_unit_test(test_nested_patterns_count),
        cmocka_unit_test(test_at_the_cap_compiles),
        cmocka_unit_test(test_greedy_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
