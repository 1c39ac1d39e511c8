/* test_rule_index.c: the rule index (rule_index.h) against what it replaces, on random rule programs:
 * patterns with constant and variable predicates and constant objects, builtins (math:lessThan,
 * math:sum), log:notIncludes, log:collectAllIn and log:forAllIn over the working memory, log:notIncludes
 * in a formula, head blank nodes, rules that derive rules (with a variable predicate the body binds,
 * too), the occasional inference fuse, a late stratum and facts added after a first run
 * (reasoner_run_from, as the agent's crawl does).
 *
 * Each program runs twice: with the index choosing the rules of each round, and with every rule in
 * every round (reasoner_options.every_rule_every_round, the engine before the index). Both runs must end
 * alike (status, error) with the same triples in the same order. On the rule set the runs end with, the
 * producers rule_producers_of finds for each pattern must be every rule rule_produces_into holds for (all
 * pairs), and rule_set_assign_late_stratum must give the strata the plain fixpoint over all rules gives.
 *
 * Usage: test_rule_index [COUNT]: COUNT programs (default 3000, or LDGSM_RULE_INDEX_PROGRAMS) from seed
 * LDGSM_RULE_INDEX_SEED (default 1). A failing program prints its seed and text; rerun it alone with
 * LDGSM_RULE_INDEX_SEED=<seed> and a count of 1. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "n3/n3_reader.h"
#include "rdf/buf.h"
#include "rdf/nt_writer.h"
#include "reason/reasoner.h"
#include "reason/rule_index.h"
#include "reason/strata.h"

enum { LATE_STRATUM = 1 };

static unsigned long program_count = 3000, first_seed = 1;

typedef struct rng {
    uint64_t state;
} rng;

/* splitmix64 */
static uint64_t next(rng *r) {
    uint64_t z = (r->state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static unsigned below(rng *r, unsigned n) { return (unsigned)(next(r) % n); }

static bool chance(rng *r, unsigned percent) { return below(r, 100) < percent; }

/* A program: its text, the facts added after the first run, and whether :p3 is late. */
typedef struct program {
    buf text, later;
    bool late;
} program;

/* The variables a body binds, by name: ?x ?y ?z (0-2), ?n ?m (3, 4), ?l (5), ?p (6). */
static const char *const variables[] = {"?x", "?y", "?z", "?n", "?m", "?l", "?p"};
static const char *const constants[] = {":a", ":b", ":c", ":d"};

/* A subject or object: a variable among ?x ?y ?z or a constant; with only_bound, a variable only if bound. */
static const char *node(rng *r, uint32_t bound, bool only_bound) {
    if (chance(r, 75)) {
        unsigned v = below(r, 3);
        if (!only_bound || (bound >> v & 1))
            return variables[v];
    }
    return constants[below(r, 4)];
}

static void mark(uint32_t *bound, const char *term) {
    for (unsigned v = 0; v < sizeof variables / sizeof *variables; v++)
        if (strcmp(term, variables[v]) == 0)
            *bound |= 1u << v;
}

/* One body element; *bound gets the variables it binds. */
static void body_atom(rng *r, buf *b, uint32_t *bound) {
    const char *s = node(r, *bound, false), *o = node(r, *bound, false);
    unsigned kind = below(r, 100);
    if (kind < 40) {
        buf_printf(b, "%s :p%u %s . ", s, below(r, 4), o);
        mark(bound, s);
        mark(bound, o);
    } else if (kind < 62) {
        buf_printf(b, "%s a :C%u . ", s, below(r, 3));
        mark(bound, s);
    } else if (kind < 72) {
        buf_printf(b, "%s ?p %s . ", s, o);
        mark(bound, s);
        mark(bound, o);
        mark(bound, "?p");
    } else if (kind < 80) {
        buf_printf(b, "%s :val ?n . ?n math:lessThan 3 . ( ?n 1 ) math:sum ?m . ", s);
        mark(bound, s);
        *bound |= 3u << 3;
    } else if (kind < 88) {
        buf_printf(b, "?w log:notIncludes { %s :p%u %s } . ", node(r, *bound, false), below(r, 4),
                   node(r, *bound, false));
    } else if (kind < 91) { /* a scope of its own: no negation over the working memory */
        buf_printf(b, "{ :a :p0 :b . :b :p1 :c } log:notIncludes { %s :p%u %s } . ", node(r, *bound, false),
                   below(r, 2), node(r, *bound, false));
    } else if (kind < 95) {
        buf_printf(b, "( ?v { %s :p%u ?v } ?l ) log:collectAllIn ?w2 . ", node(r, *bound, true), below(r, 4));
        *bound |= 1u << 5;
    } else {
        buf_printf(b, "( { %s :p%u ?v } { ?v a :C%u } ) log:forAllIn ?w3 . ", node(r, *bound, true), below(r, 4),
                   below(r, 3));
    }
}

/* One head element over the variables the body binds. */
static void head_atom(rng *r, buf *b, uint32_t bound) {
    const char *s = node(r, bound, true), *o = node(r, bound, true);
    unsigned kind = below(r, 100);
    if (kind < 40)
        buf_printf(b, "%s :p%u %s . ", s, below(r, 4), o);
    else if (kind < 62)
        buf_printf(b, "%s a :C%u . ", s, below(r, 3));
    else if (kind < 70 && (bound >> 4 & 1))
        buf_printf(b, "%s :val ?m . ", s);
    else if (kind < 75 && (bound >> 5 & 1))
        buf_printf(b, ":c :list ?l . ");
    else if (kind < 78)
        buf_printf(b, "%s :p%u [ :q %s ] . ", s, below(r, 4), o);
    else if (kind < 82 && (bound >> 6 & 1))
        buf_printf(b, "%s ?p %s . ", s, o);
    else if (kind < 88 && (bound >> 6 & 1)) /* the predicate the body bound, made transitive */
        buf_printf(b, "{ ?u ?p ?t . ?t ?p ?k } => { ?u ?p ?k } . ");
    else if (kind < 94)
        buf_printf(b, "{ ?u :p%u ?t } => { ?t :p%u %s } . ", below(r, 4), below(r, 4), o);
    else
        buf_printf(b, "{ ?u a :C%u } => { ?u a :C%u } . ", below(r, 3), below(r, 3));
}

static void fact(rng *r, buf *b) {
    unsigned kind = below(r, 10);
    const char *s = constants[below(r, 4)];
    if (kind < 5)
        buf_printf(b, "%s :p%u %s .\n", s, below(r, 4), constants[below(r, 4)]);
    else if (kind < 8)
        buf_printf(b, "%s a :C%u .\n", s, below(r, 3));
    else
        buf_printf(b, "%s :val %u .\n", s, below(r, 3));
}

static void make_program(unsigned long seed, program *p) {
    rng r = {seed};
    *p = (program){.late = chance(&r, 30)};
    buf_puts(&p->text, "@prefix : <http://ex.org/> .\n@prefix math: <http://www.w3.org/2000/10/swap/math#> .\n"
                       "@prefix log: <http://www.w3.org/2000/10/swap/log#> .\n");
    for (unsigned i = 0, n = 4 + below(&r, 14); i < n; i++)
        fact(&r, &p->text);
    for (unsigned i = 0, n = 1 + below(&r, 10); i < n; i++) {
        buf_puts(&p->text, "{ ");
        uint32_t bound = 0;
        for (unsigned k = 0, atoms = 1 + below(&r, 3); k < atoms; k++)
            body_atom(&r, &p->text, &bound);
        if (chance(&r, 2)) {
            buf_puts(&p->text, "} => false .\n");
            continue;
        }
        buf_puts(&p->text, "} => { ");
        for (unsigned k = 0, atoms = 1 + below(&r, 2); k < atoms; k++)
            head_atom(&r, &p->text, bound);
        buf_puts(&p->text, "} .\n");
    }
    buf_puts(&p->later, "@prefix : <http://ex.org/> .\n");
    for (unsigned i = 0, n = below(&r, 4); i < n; i++)
        fact(&r, &p->later);
    buf_cstr(&p->text);
    buf_cstr(&p->later);
}

static void quiet(void *user, enum log_level level, const char *message) {
    (void)user;
    (void)level;
    (void)message;
}

static const log_sink silent = {.write = quiet};

/* Parses N3 text into t: rules into rs (when given), the other statements into st. */
static void load(terms *t, store *st, rule_set *rs, const char *text, const char *name) {
    n3_doc doc = {0};
    n3_error err;
    if (n3_parse(t, text, strlen(text), name, "http://ex.org/", &doc, &err) != 0)
        fail_msg("%s: %s\n%s", name, err.message, text);
    if (rs)
        rule_set_add_program(rs, t, &doc, name, &silent);
    for (size_t i = 0; i < doc.count; i++)
        if (!rule_statement(t, &doc.statements[i].t))
            store_add(st, doc.statements[i].t.s, doc.statements[i].t.p, doc.statements[i].t.o, 0);
    n3_doc_free(&doc);
}

/* How a run ended: its status, error and the store's triples in order, as N-Triples. */
typedef struct outcome {
    int rc;
    bool fuse;
    char error[512];
    buf triples;
} outcome;

/* Runs a stratum, unless an earlier run failed. */
static void run_stratum(reasoner *R, const rule_set *rs, int stratum, uint32_t from, outcome *out) {
    if (out->rc == 0)
        out->rc = reasoner_run_from(R, rs, stratum, from);
}

/* The strata of rs's rules as the fixpoint rule_set_assign_late_stratum replaced gives them: every pass
 * over all rules, until none moves. */
static void reference_strata(const rule_set *rs, term_id late_predicate, int *stratum) {
    u32vec late = {0};
    u32vec_push(&late, late_predicate);
    for (unsigned i = 0; i < rs->count; i++)
        stratum[i] = rs->rules[i]->stratum;
    for (bool changed = true; changed;) {
        changed = false;
        for (unsigned i = 0; i < rs->count; i++) {
            const rule *r = rs->rules[i];
            if (stratum[i] == LATE_STRATUM)
                continue;
            bool reads_late = r->has_negation;
            for (unsigned b = 0; b < r->body_count && !reads_late; b++)
                for (uint32_t k = 0; k < late.len; k++)
                    reads_late |= r->body[b].kind == ATOM_MATCH && r->body[b].pos[1] == (pos_code)late.data[k];
            if (!reads_late)
                continue;
            stratum[i] = LATE_STRATUM;
            changed = true;
            for (unsigned h = 0; h < r->head_count && !r->is_request; h++)
                if (r->head_codes[h].pos[1] > 0)
                    u32vec_push(&late, (uint32_t)r->head_codes[h].pos[1]);
        }
    }
    u32vec_free(&late);
}

/* rule_set_assign_late_stratum against reference_strata. */
static void check_late_stratum(rule_set *rs, term_id late_predicate, unsigned long seed, const program *p) {
    int *expected = xmalloc((rs->count ? rs->count : 1) * sizeof *expected);
    reference_strata(rs, late_predicate, expected);
    rule_set_assign_late_stratum(rs, &late_predicate, 1, LATE_STRATUM);
    for (unsigned i = 0; i < rs->count; i++)
        if (rs->rules[i]->stratum != expected[i])
            fail_msg("seed %lu: rule %s in stratum %d, the plain fixpoint puts it in %d\n%s", seed,
                     rs->rules[i]->name, rs->rules[i]->stratum, expected[i], p->text.data);
    free(expected);
}

/* The producers the index finds for every pattern of rs, against every pair. */
static void check_producers(const rule_set *rs, unsigned long seed, const program *p) {
    rule_producers *producers = rule_producers_new(rs);
    u32vec found = {0};
    for (unsigned i = 0; i < rs->count; i++) {
        const rule *consumer = rs->rules[i];
        for (unsigned b = 0; b < consumer->body_count; b++) {
            const rule_atom *a = &consumer->body[b];
            const rule_atom *patterns = a->kind == ATOM_MATCH ? a : a->group_count ? a->groups[0].atoms : NULL;
            unsigned pattern_count = a->kind == ATOM_MATCH ? 1 : a->group_count ? a->groups[0].count : 0;
            for (unsigned k = 0; k < pattern_count; k++)
                for (int exact = 0; exact < 2; exact++) {
                    rule_producers_of(producers, &patterns[k], exact, &found);
                    uint32_t at = 0;
                    for (unsigned from = 0; from < rs->count; from++) {
                        const rule *r = rs->rules[from];
                        bool produces = !r->disabled && !r->is_request && rule_produces_into(r, &patterns[k], exact);
                        bool listed = at < found.len && found.data[at] == from;
                        at += listed;
                        if (produces != listed)
                            fail_msg("seed %lu: rule %s %s a producer of pattern %u of rule %s (exact_only %d)\n%s",
                                     seed, r->name, produces ? "is, but not listed as," : "is listed as, but is not,",
                                     b, consumer->name, exact, p->text.data);
                    }
                    assert_int_equal(at, found.len);
                }
        }
    }
    u32vec_free(&found);
    rule_producers_free(producers);
}

/* Runs program p as `ldgsm reason` and the agent would: the late stratum assigned, negations layered,
 * stratum 0, the later facts as a continuation of it, the late stratum, and again for as long as the
 * rules derive rules. With `reference`, checks the strata and producers on the way. */
static void run_program(const program *p, unsigned long seed, bool reference, outcome *out) {
    terms *t = terms_new();
    store *st = store_new();
    rule_set rs = {0};
    load(t, st, &rs, p->text.data, "program.n3");
    term_id late = terms_iri_cstr(t, "http://ex.org/p3");
    if (p->late && reference)
        check_late_stratum(&rs, late, seed, p);
    else if (p->late)
        rule_set_assign_late_stratum(&rs, &late, 1, LATE_STRATUM);
    rule_set_layer_negation(&rs);
    reasoner_options opt = {.max_fresh_nodes = 100, .max_derived = 3000, .log = &silent,
                            .derived_graph = terms_iri_cstr(t, "urn:derived"), .every_rule_every_round = reference};
    reasoner *R = reasoner_new(t, st, &opt);
    *out = (outcome){0};
    run_stratum(R, &rs, 0, 0, out);
    uint32_t mark = store_size(st);
    load(t, st, NULL, p->later.data, "later.n3");
    if (store_size(st) > mark)
        run_stratum(R, &rs, 0, mark, out);
    run_stratum(R, &rs, LATE_STRATUM, 0, out);
    for (uint32_t scanned = 0; out->rc == 0 && rule_set_add_derived(&rs, t, st, &scanned, &silent);) {
        rule_set_layer_negation(&rs);
        run_stratum(R, &rs, 0, 0, out);
        run_stratum(R, &rs, LATE_STRATUM, 0, out);
    }
    if (out->rc != 0) {
        snprintf(out->error, sizeof out->error, "%s", reasoner_error(R));
        out->fuse = reasoner_fuse_blown(R);
    }
    triple *all = xmalloc((store_size(st) + 1) * sizeof *all);
    for (uint32_t n = 0; n < store_size(st); n++)
        all[n] = *store_triple(st, n);
    rdf_write_ntriples(t, all, store_size(st), &out->triples);
    buf_cstr(&out->triples);
    free(all);
    if (reference)
        check_producers(&rs, seed, p);
    reasoner_free(R);
    rule_set_free(&rs);
    store_free(st);
    terms_free(t);
}

static void indexed_rounds_match_every_rule_every_round(void **state) {
    (void)state;
    unsigned long ended_by_error = 0, derived_rules = 0;
    for (unsigned long seed = first_seed; seed < first_seed + program_count; seed++) {
        program p;
        make_program(seed, &p);
        outcome indexed, every;
        run_program(&p, seed, false, &indexed);
        run_program(&p, seed, true, &every);
        if (indexed.rc != every.rc || indexed.fuse != every.fuse || strcmp(indexed.error, every.error) != 0 ||
            indexed.triples.len != every.triples.len ||
            memcmp(indexed.triples.data, every.triples.data, indexed.triples.len) != 0)
            fail_msg("seed %lu (rerun: LDGSM_RULE_INDEX_SEED=%lu test_rule_index 1): the indexed run ended "
                     "%d \"%s\" with %zu bytes of triples, every rule every round %d \"%s\" with %zu\n"
                     "program:\n%s\nlater:\n%s\nindexed:\n%s\nevery rule every round:\n%s",
                     seed, seed, indexed.rc, indexed.error, indexed.triples.len, every.rc, every.error,
                     every.triples.len, p.text.data, p.later.data, indexed.triples.data, every.triples.data);
        ended_by_error += every.rc != 0;
        derived_rules += strstr(every.triples.data, "log#implies") != NULL;
        buf_free(&indexed.triples);
        buf_free(&every.triples);
        buf_free(&p.text);
        buf_free(&p.later);
    }
    printf("test_rule_index: %lu programs from seed %lu agree (%lu ended by a cap or a fuse, %lu derived rules)\n",
           program_count, first_seed, ended_by_error, derived_rules);
}

static unsigned long number_from(const char *text, const char *what) {
    char *end;
    unsigned long n = strtoul(text, &end, 10);
    if (!*text || *end) {
        fprintf(stderr, "test_rule_index: %s \"%s\" is not a number\n", what, text);
        exit(2);
    }
    return n;
}

int main(int argc, char **argv) {
    const char *count = argc > 1 ? argv[1] : getenv("LDGSM_RULE_INDEX_PROGRAMS");
    const char *seed = getenv("LDGSM_RULE_INDEX_SEED");
    if (count)
        program_count = number_from(count, "program count");
    if (seed)
        first_seed = number_from(seed, "LDGSM_RULE_INDEX_SEED");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(indexed_rounds_match_every_rule_every_round),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
