/* cmd_reason.c: `ldgsm reason`: loads RDF files and N3 rule programs, runs the rules to a fixpoint and
 * prints the closure or only what was derived. */
#define _GNU_SOURCE /* qsort_r */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/commands.h"
#include "n3/n3_reader.h"
#include "rdf/nt_writer.h"
#include "rdf/rdfio.h"
#include "reason/backward.h"
#include "reason/reasoner.h"
#include "reason/strata.h"

static const char reason_usage[] =
    "usage: ldgsm reason [--pass | --pass-only-new] [-o ntriples|turtle] [options] FILE...\n"
    "\n"
    "Loads every FILE, runs the N3 rules they contain to a fixpoint (semi-naive forward chaining) and\n"
    "prints the result on standard output.\n"
    "Files ending in .n3 are N3 programs: their rules are run, their other statements are data.\n"
    "Other files are RDF, by extension: .ttl Turtle, .nt N-Triples, .nq N-Quads, .rdf/.owl/.xml RDF/XML,\n"
    ".trig TriG.\n"
    "\n"
    "options:\n"
    "  --pass             print the closure: the input data and everything derived (default)\n"
    "  --pass-only-new    print only the triples derived that were not in the input\n"
    "  --pass-all         print the closure and the rules of the N3 programs\n"
    "  --pass-merged      print the input data and rules as read, without running the rules\n"
    "  --strings          print only the log:outputString texts of the closure, ordered by their\n"
    "                     subjects (as EYE's --strings)\n"
    "  --query FILE       print only the answers of FILE's rules `{ pattern } => { answer }`, run over\n"
    "                     the closure (as EYE's --query)\n"
    "  -o, --output FMT   ntriples (default) or turtle; triples holding N3 formulas are printed in N3\n"
    "                     notation by the ntriples writer, and Turtle refuses them\n"
    "  --max-derived N    stop with an error after N derived triples (default: one per KiB of the memory\n"
    "                     ldgsm may use, the least of RAM, cgroup limit and ulimit -v; a derived triple\n"
    "                     takes 70-250 bytes, so the cap comes before a quarter of it)\n"
    "  --max-fresh N      stop with an error after N fresh blank nodes from head existentials\n"
    "                     (default 1000000); the error names the rule whose chase did not terminate\n"
    "  -v, --verbose      print counts and timings on standard error\n"
    "  -h, --help         this text\n"
    "\n"
    "A rule that derives a rule (a head holding `{ ... } => { ... }`) adds it to the program, and the\n"
    "rules run again. `{ ... } => false.` is an inference fuse: when its body holds, the run stops.\n"
    "N-Triples are written while the rules run (each round's triples as the next round runs), so after\n"
    "an error exit the output is incomplete.\n"
    "\n"
    "exit status: 0 success, 1 bad input (the error names file:line:col) or a cap reached, 2 usage error,\n"
    "3 an inference fuse fired (the error names the rule and its binding)\n";

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static bool ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static term_id file_graph(terms *t, const char *path) {
    char *iri = rdf_file_iri(path);
    term_id g = terms_iri_cstr(t, iri);
    free(iri);
    return g;
}

/* The rule statements of the programs as written (`{H} <= {B}` as log:isImpliedBy), for --pass-all and
 * --pass-merged. */
typedef struct written_rules {
    triple *rules;
    size_t count, cap;
} written_rules;

/* Loads an N3 program: rules into rs (and, as written, into `written`), other statements into the store
 * as data of graph g (a query file's statements other than its rules are not data: st is NULL for it). */
static int load_program(terms *t, store *st, rule_set *rs, written_rules *written, const char *path, term_id g,
                        const log_sink *log) {
    size_t len;
    char *text = read_file(path, &len);
    if (!text) {
        fprintf(stderr, "ldgsm reason: %s: %s\n", path, strerror(errno));
        return -1;
    }
    n3_doc doc = {0};
    n3_error err;
    size_t base_len;
    const char *base = terms_lex(t, g, &base_len);
    int rc = n3_parse(t, text, len, path, base, &doc, &err);
    free(text);
    if (rc != 0) {
        fprintf(stderr, "ldgsm reason: %s\n", err.message);
        return -1;
    }
    rule_set_add_program(rs, t, &doc, path, log);
    for (size_t i = 0; i < doc.count && st; i++) {
        const n3_statement *s = &doc.statements[i];
        if (!rule_statement(t, &s->t)) {
            store_add(st, s->t.s, s->t.p, s->t.o, g);
            continue;
        }
        if (written->count == written->cap) {
            written->cap = written->cap ? written->cap * 2 : 16;
            written->rules = xrealloc(written->rules, written->cap * sizeof *written->rules);
        }
        written->rules[written->count++] = s->backward ? (triple){s->t.o, T_LOG_IS_IMPLIED_BY, s->t.s} : s->t;
    }
    n3_doc_free(&doc);
    return 0;
}

/* Copies the triples numbered [from, to) into `into`, followed by extra[0..extra_n); their count. The
 * goals of backward rules are left out, and their answers unless they were input (numbered below
 * derived_from), as EYE prints what forward rules derive. */
static size_t copy_triples(const store *st, const rule_set *rs, uint32_t derived_from, uint32_t from, uint32_t to,
                           const triple *extra, size_t extra_n, triple *into) {
    size_t n = 0;
    for (uint32_t i = from; i < to; i++) {
        term_id p = store_triple(st, i)->p;
        if (!rule_set_hides(rs, p) && (i < derived_from || !rule_set_on_demand(rs, p)))
            into[n++] = *store_triple(st, i);
    }
    if (extra_n)
        memcpy(into + n, extra, extra_n * sizeof *extra);
    return n + extra_n;
}

/* N-Triples output goes to a writer thread as the rules run: the input (for --pass) at once, then each
 * round's derivations while the next round runs. */
typedef struct nt_output {
    const store *st;
    const rule_set *rs;
    uint32_t derived_from;
    nt_stream *stream;
    triple *selected;
    size_t selected_cap;
} nt_output;

static void output_range(void *user, uint32_t from, uint32_t to) {
    nt_output *o = user;
    if (to - from > o->selected_cap) {
        o->selected_cap = to - from;
        o->selected = xrealloc(o->selected, o->selected_cap * sizeof *o->selected);
    }
    nt_stream_push(o->stream, o->selected, copy_triples(o->st, o->rs, o->derived_from, from, to, NULL, 0, o->selected));
}

/* Writes the triples of st numbered from `from` on, then extra[0..extra_n), as Turtle or N-Triples. */
static int write_all(rdfio *io, terms *t, store *st, const rule_set *rs, uint32_t derived_from, uint32_t from,
                     const triple *extra, size_t extra_n, bool turtle) {
    uint32_t total = store_size(st);
    triple *selected = xmalloc(((size_t)(total - from) + extra_n + 1) * sizeof *selected);
    size_t n = copy_triples(st, rs, derived_from, from, total, extra, extra_n, selected);
    buf out = {0};
    int rc = 0;
    if (turtle)
        rc = rdf_write_turtle(io, selected, n, NULL, &out);
    else
        rdf_write_ntriples(t, selected, n, &out);
    if (rc != 0)
        fputs("ldgsm reason: the output holds N3 formulas or variables, which Turtle cannot express; "
              "use -o ntriples\n", stderr);
    else if (fwrite(out.data, 1, out.len, stdout) != out.len || fflush(stdout) != 0) {
        fprintf(stderr, "ldgsm reason: writing the output: %s\n", strerror(errno));
        rc = -1;
    }
    buf_free(&out);
    free(selected);
    return rc;
}

/* --strings: the objects of the log:outputString triples, ordered by subject (by its text, then by the
 * object's), written one after the other. */
static int by_subject_text(const void *a, const void *b, void *term_table) {
    const terms *t = term_table;
    const triple *x = a, *y = b;
    int order = strcmp(terms_lex(t, x->s, NULL), terms_lex(t, y->s, NULL));
    return order ? order : strcmp(terms_lex(t, x->o, NULL), terms_lex(t, y->o, NULL));
}

static int write_strings(terms *t, store *st) {
    term_id output_string = terms_iri_cstr(t, NS_LOG "outputString");
    store_iter it;
    store_match(st, 0, output_string, 0, 0, store_size(st), &it);
    triple *found = NULL;
    size_t n = 0, cap = 0;
    uint32_t number;
    for (const triple *tr; (tr = store_next(&it, &number));) {
        if (terms_kind(t, tr->o) != TERM_LITERAL)
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            found = xrealloc(found, cap * sizeof *found);
        }
        found[n++] = *tr;
    }
    if (n)
        qsort_r(found, n, sizeof *found, by_subject_text, t);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        size_t len;
        const char *text = terms_lex(t, found[i].o, &len);
        if (fwrite(text, 1, len, stdout) != len)
            rc = -1;
    }
    if (rc != 0 || fflush(stdout) != 0) {
        fprintf(stderr, "ldgsm reason: writing the output: %s\n", strerror(errno));
        rc = -1;
    }
    free(found);
    return rc;
}

/* --query: the answers' triples, each once. */
typedef struct answers {
    const terms *t;
    store *st;
} answers;

static void collect_answer(void *user, const rule *r, const triple *head, size_t n) {
    (void)r;
    answers *a = user;
    for (size_t i = 0; i < n; i++)
        store_add(a->st, head[i].s, head[i].p, head[i].o, 0);
}

int cmd_reason(int argc, char **argv) {
    enum {
        OPT_PASS = 256,
        OPT_PASS_ONLY_NEW,
        OPT_PASS_ALL,
        OPT_PASS_MERGED,
        OPT_STRINGS,
        OPT_MAX_DERIVED,
        OPT_MAX_FRESH,
        OPT_QUERY
    };
    static const struct option options[] = {
        {"pass", no_argument, NULL, OPT_PASS},
        {"pass-only-new", no_argument, NULL, OPT_PASS_ONLY_NEW},
        {"pass-all", no_argument, NULL, OPT_PASS_ALL},
        {"pass-merged", no_argument, NULL, OPT_PASS_MERGED},
        {"strings", no_argument, NULL, OPT_STRINGS},
        {"query", required_argument, NULL, OPT_QUERY},
        {"output", required_argument, NULL, 'o'},
        {"max-derived", required_argument, NULL, OPT_MAX_DERIVED},
        {"max-fresh", required_argument, NULL, OPT_MAX_FRESH},
        {"verbose", no_argument, NULL, 'v'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    enum { PASS, PASS_ONLY_NEW, PASS_ALL, PASS_MERGED, STRINGS } pass = PASS;
    bool turtle = false, verbose = false;
    const char *query = NULL;
    reasoner_options ropt = {0};
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, "o:vh", options, NULL)) != -1) {
        switch (c) {
        case OPT_PASS: pass = PASS; break;
        case OPT_PASS_ONLY_NEW: pass = PASS_ONLY_NEW; break;
        case OPT_PASS_ALL: pass = PASS_ALL; break;
        case OPT_PASS_MERGED: pass = PASS_MERGED; break;
        case OPT_STRINGS: pass = STRINGS; break;
        case OPT_QUERY: query = optarg; break;
        case 'o':
            if (strcmp(optarg, "turtle") == 0 || strcmp(optarg, "ttl") == 0)
                turtle = true;
            else if (strcmp(optarg, "ntriples") == 0 || strcmp(optarg, "nt") == 0)
                turtle = false;
            else {
                fprintf(stderr, "ldgsm reason: unknown output format '%s' (ntriples or turtle)\n", optarg);
                return 2;
            }
            break;
        case OPT_MAX_DERIVED:
        case OPT_MAX_FRESH: {
            char *end;
            unsigned long v = strtoul(optarg, &end, 10);
            if (*end || v == 0 || v > UINT32_MAX) {
                fprintf(stderr, "ldgsm reason: %s needs a positive number, not '%s'\n",
                        c == OPT_MAX_DERIVED ? "--max-derived" : "--max-fresh", optarg);
                return 2;
            }
            *(c == OPT_MAX_DERIVED ? &ropt.max_derived : &ropt.max_fresh_nodes) = (uint32_t)v;
            break;
        }
        case 'v': verbose = true; break;
        case 'h': fputs(reason_usage, stdout); return 0;
        default: fputs(reason_usage, stderr); return 2;
        }
    }
    if (optind >= argc) {
        fputs("ldgsm reason: no input files\n\n", stderr);
        fputs(reason_usage, stderr);
        return 2;
    }

    double start = now_ms();
    terms *t = terms_new();
    store *st = store_new();
    rdfio *io = rdfio_new(t);
    rule_set rs = {0};
    written_rules written = {0};
    log_sink log = {.threshold = verbose ? LOG_DEBUG : LOG_WARN};
    int status = 0;
    for (int i = optind; i < argc && status == 0; i++) {
        term_id g = file_graph(t, argv[i]);
        if (ends_with(argv[i], ".n3")) {
            if (load_program(t, st, &rs, &written, argv[i], g, &log) != 0)
                status = 1;
        } else {
            rdf_error err;
            if (rdf_parse_file(io, st, argv[i], g, &err) != 0) {
                fprintf(stderr, "ldgsm reason: %s\n", err.message);
                status = 1;
            }
        }
    }
    /* the query's rules answer over the closure: a stratum after it, their heads to collect_answer */
    enum { QUERY_STRATUM = 1 };
    unsigned program_rules = rs.count;
    if (status == 0 && query && load_program(t, NULL, &rs, NULL, query, file_graph(t, query), &log) != 0)
        status = 1;
    for (unsigned i = program_rules; i < rs.count; i++) {
        rs.rules[i]->stratum = QUERY_STRATUM;
        rs.rules[i]->is_request = true;
    }
    rule_set_compile_backward(&rs, t, &log);
    answers query_answers = {.t = t, .st = store_new()};
    uint32_t input_size = store_size(st);
    double loaded = now_ms();
    rule_set_layer_negation(&rs);
    if (status == 0) {
        ropt.derived_graph = terms_iri_cstr(t, LDGSM_DERIVED_GRAPH);
        ropt.log = &log;
        ropt.request_sink = collect_answer;
        ropt.request_sink_user = &query_answers;
        nt_output out = {.st = st, .rs = &rs, .derived_from = input_size};
        if (!turtle && !query && pass != STRINGS) {
            fflush(stdout);
            out.stream = nt_stream_start(t, fileno(stdout));
            if (!out.stream) {
                fputs("ldgsm reason: cannot start the output thread\n", stderr);
                status = 1;
            }
            ropt.on_derived = output_range;
            ropt.on_derived_user = &out;
        }
        /* Room for a closure of several times the input at once: grown by doubling, the duplicate check's
         * table was rebuilt and its pages faulted in at every size on the way (9% of a deep RDFS run). At
         * most a million triples more (about 50 MB): a large input that derives little must not pay for a
         * closure it does not make. */
        store_reserve(st, input_size < 128 * 1024 ? input_size * 8 : 1024 * 1024);
        reasoner *r = reasoner_new(t, st, &ropt);
        if (out.stream && pass != PASS_ONLY_NEW)
            output_range(&out, 0, input_size);
        /* rules derived by rules join the program, which runs again over everything */
        uint32_t scanned = input_size;
        do {
            if (pass == PASS_MERGED)
                break;
            if (reasoner_run(r, &rs, 0) != 0) {
                fprintf(stderr, "ldgsm reason: %s\n", reasoner_error(r));
                status = reasoner_fuse_blown(r) ? 3 : 1;
            }
        } while (status == 0 && rule_set_add_derived(&rs, t, st, &scanned, &log) && (rule_set_layer_negation(&rs), true));
        if (status == 0 && query && reasoner_run(r, &rs, QUERY_STRATUM) != 0) {
            fprintf(stderr, "ldgsm reason: %s\n", reasoner_error(r));
            status = reasoner_fuse_blown(r) ? 3 : 1;
        }
        const reasoner_stats *stats = reasoner_get_stats(r);
        double reasoned = now_ms();
        bool print_rules = pass == PASS_ALL || pass == PASS_MERGED;
        if (out.stream && print_rules)
            nt_stream_push(out.stream, written.rules, written.count);
        if (out.stream && nt_stream_finish(out.stream) != 0) {
            fprintf(stderr, "ldgsm reason: writing the output: %s\n", strerror(errno));
            status = 1;
        }
        free(out.selected);
        if (status == 0 && query && write_all(io, t, query_answers.st, &rs, 0, 0, NULL, 0, turtle) != 0)
            status = 1;
        else if (status == 0 && pass == STRINGS && write_strings(t, st) != 0)
            status = 1;
        else if (status == 0 && turtle && !query && pass != STRINGS &&
                 write_all(io, t, st, &rs, input_size, pass == PASS_ONLY_NEW ? input_size : 0, written.rules,
                           print_rules ? written.count : 0, true) != 0)
            status = 1;
        if (verbose)
            fprintf(stderr,
                    "ldgsm reason: %u rules, %u input triples, %llu derived (%llu attempts) in %llu rounds, %llu fresh nodes; "
                    "load %.1f ms, reason %.1f ms, then writing %.1f ms\n",
                    rs.count, input_size, (unsigned long long)stats->derived, (unsigned long long)stats->attempts,
                    (unsigned long long)stats->rounds,
                    (unsigned long long)stats->fresh_nodes, loaded - start, reasoned - loaded, now_ms() - reasoned);
        reasoner_free(r);
    }
    store_free(query_answers.st);
    free(written.rules);
    rule_set_free(&rs);
    rdfio_free(io);
    store_free(st);
    terms_free(t);
    return status;
}
