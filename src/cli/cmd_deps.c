/* cmd_deps.c: `ldgsm deps`: intertask dependencies (docs/DESIGN.md §6.4, seed 001): each event's guard, alpha of
 * each dependency, the unenforceable ones with the dependencies to blame, and with --trace the scheduler
 * run over attempted events, each guard printed as occurrences and promises residuate it (src/deps). */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "deps/dep_gsm.h"
#include "deps/dep_guard.h"
#include "deps/dep_minimize.h"
#include "deps/dep_parse.h"
#include "deps/dep_policy.h"
#include "deps/dep_schedule.h"
#include "deps/dep_trace.h"
#include "cli/model_out.h"
#include "rdf/rdfio.h"

static const char deps_usage[] =
    "usage: ldgsm deps [--basic] [--trace 'EVENTS'] FILE...\n"
    "       ldgsm deps --gsm MODEL [--order delay|first-come] [--base IRI] [-o OUT] FILE...\n"
    "\n"
    "Reads intertask dependencies (Singh 1997; DESIGN.md 6.4) and prints, for every dependency, alpha: the\n"
    "dependency strengthened by the events' attributes (Definition 21), 0 when it is unenforceable; and for\n"
    "every event and its complement the guard it may happen under (Definitions 9-11 over alpha, each\n"
    "dependency's part simplified to an equivalent in the paper's atoms; a dependency that does not\n"
    "mention an event adds nothing, Theorem 22).\n"
    "\n"
    "FILE holds one statement a line:\n"
    "  D<: ~e | ~f | e . f        a dependency: ~e is e's complement; . sequence, & and, | or; 0, T\n"
    "  inevitable f               delayable, never rejected\n"
    "  immediate ~c_book          never delayed nor rejected: it happens and is announced\n"
    "  triggerable s_book         the scheduler may make it happen\n"
    "Guards read and print [] (has happened), <> (will happen), ! (has not happened yet).\n"
    "\n"
    "options:\n"
    "  --basic           print G_b(W, e) of Definition 11 instead: a dependency that does not mention e\n"
    "                    adds <>alpha(D) (Theorem 18)\n"
    "  --trace 'EVENTS'  attempt the events (literals, in order, e.g. 'f e ~g') and print each scheduler\n"
    "                    decision (accept, reject, delay, trigger, promise, prohibit) and every guard that\n"
    "                    an occurrence or a promise changed (Table 1)\n"
    "  --gsm MODEL       compile the dependencies into the GSM model MODEL (Turtle) and write it, linted,\n"
    "                    to OUT (default: standard output; then the summary goes to standard error).\n"
    "                    An event `book` is the opening of the stage <#book> or the achievement of the\n"
    "                    milestone <#book>, once per instance; a complement happens when the instance\n"
    "                    completes without its event. Each event's guard conditions (or achieving\n"
    "                    sentries) wait for the events the dependencies need; a triggerable event is\n"
    "                    made to happen when the instance needs it; the root's milestones wait until\n"
    "                    every dependency would hold (ontology/README.md, \"Intertask dependencies\")\n"
    "  --order delay     with --gsm (the default): the paper's reading of an order (Example 4, as --trace\n"
    "                    does): of D<: ~e | ~f | e . f, f asked for first waits for e and follows it\n"
    "  --order first-come  with --gsm: whichever comes first goes; f first refuses e for good\n"
    "  --base IRI        where MODEL will be published (default: its file); the output is relative to it\n"
    "  -o OUT            with --gsm: the file to write\n"
    "  -h, --help        this text\n"
    "\n"
    "exit status: 0 enforceable, 1 bad input or an unenforceable set (the message names the dependencies),\n"
    "2 usage error\n";

static char *text_of(const dep_events *ev, const dep_expr *e) {
    char *text = e ? dep_to_string(ev, e) : NULL;
    if (!text) {
        fputs("ldgsm deps: out of memory\n", stderr);
        exit(1);
    }
    return text;
}

static void print_lit(const dep_events *ev, int lit, FILE *out) {
    char name[200];
    dep_print_lit(ev, lit, name, sizeof name);
    fputs(name, out);
}

/* Phi of the conjunction of the chosen dependencies: 1 enforceable, 0 not, -1 too many events, -2 out of
 * memory. */
static int jointly_enforceable(dep_set *set, const bool *chosen) {
    const dep_expr *conj = dep_top();
    for (size_t d = 0; d < set->count; d++)
        if (chosen[d])
            conj = dep_and(&set->ev, conj, set->deps[d].expr);
    if (!conj)
        return -2;
    int symbols[DEP_SYMBOLS_MAX + 1];
    if (dep_symbols(conj, symbols, DEP_SYMBOLS_MAX + 1) > DEP_SYMBOLS_MAX)
        return -1;
    dep_paths psi, safe;
    char why[160];
    if (dep_psi(conj, &psi, why, sizeof why) != 0)
        return -2;
    int rc = dep_safe_paths(&psi, set, &safe);
    dep_paths_free(&psi);
    if (rc != 0)
        return -2;
    int enforceable = safe.count > 0;
    dep_paths_free(&safe);
    return enforceable;
}

/* Dependencies linked by shared events are checked together (Example 11: each enforceable, the two not);
 * the blame is a smallest part of the group that still fails, found by dropping one at a time. Returns
 * the number of unenforceable groups. */
static int check_jointly(dep_set *set) {
    size_t n = set->count;
    int *group = malloc((n + 1) * sizeof *group);
    bool *chosen = calloc(n + 1, 1);
    if (!group || !chosen) {
        free(group);
        free(chosen);
        return 0;
    }
    int (*symbols)[DEP_SYMBOLS_MAX] = calloc(n + 1, sizeof *symbols);
    size_t *symbol_count = calloc(n + 1, sizeof *symbol_count);
    if (!symbols || !symbol_count) {
        free(group);
        free(chosen);
        free(symbols);
        free(symbol_count);
        return 0;
    }
    for (size_t d = 0; d < n; d++) {
        group[d] = (int)d;
        symbol_count[d] = dep_symbols(set->deps[d].expr, symbols[d], DEP_SYMBOLS_MAX);
    }
    /* union of dependencies that share an event, to a fixpoint */
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t a = 0; a < n; a++)
            for (size_t b = a + 1; b < n; b++) {
                if (group[a] == group[b])
                    continue;
                bool shared = false; /* the scheduler refused a dependency over more events */
                for (size_t i = 0; i < symbol_count[a] && !shared; i++)
                    for (size_t j = 0; j < symbol_count[b] && !shared; j++)
                        shared = symbols[a][i] == symbols[b][j];
                if (shared) {
                    int to = group[a] < group[b] ? group[a] : group[b];
                    int from = group[a] < group[b] ? group[b] : group[a];
                    for (size_t d = 0; d < n; d++)
                        if (group[d] == from)
                            group[d] = to;
                    changed = true;
                }
            }
    }
    int failing = 0;
    for (size_t g = 0; g < n; g++) {
        size_t members = 0;
        for (size_t d = 0; d < n; d++) {
            chosen[d] = group[d] == (int)g;
            members += chosen[d];
        }
        if (members < 2)
            continue;
        int rc = jointly_enforceable(set, chosen);
        if (rc == -2) {
            fputs("ldgsm deps: out of memory\n", stderr);
            exit(1);
        }
        if (rc < 0) {
            printf("# not checked together (over %d events): the dependencies with", DEP_SYMBOLS_MAX);
            for (size_t d = 0; d < n; d++)
                if (chosen[d])
                    printf(" %s", set->deps[d].name);
            printf("\n");
            continue;
        }
        if (rc == 1)
            continue;
        for (size_t d = 0; d < n; d++) {
            if (!chosen[d])
                continue;
            chosen[d] = false;
            if (jointly_enforceable(set, chosen) != 0)
                chosen[d] = true;
        }
        size_t blamed = 0;
        for (size_t d = 0; d < n; d++)
            blamed += chosen[d];
        if (blamed < 2)
            continue; /* one dependency alone: print_dependencies named it */
        printf("unenforceable together:");
        for (size_t d = 0; d < n; d++)
            if (chosen[d])
                printf(" %s", set->deps[d].name);
        printf(" (no safe path satisfies them all with the events' attributes)\n");
        failing++;
    }
    free(group);
    free(chosen);
    free(symbols);
    free(symbol_count);
    return failing;
}

static int print_dependencies(dep_set *set, const dep_scheduler *s) {
    int unenforceable = 0;
    printf("# alpha of each dependency (Definition 21, sigma to its fixpoint): what the events' attributes leave "
           "of it\n");
    for (size_t d = 0; d < set->count; d++) {
        const dep_paths *safe = dep_scheduler_safe(s, d);
        size_t psi_count = dep_scheduler_psi_count(s, d);
        char *dep = text_of(&set->ev, set->deps[d].expr);
        /* unchanged: the dependency as written */
        char *alpha = text_of(&set->ev, safe->count == psi_count ? set->deps[d].expr : dep_paths_alpha(&set->ev, safe));
        printf("%s: %s\n  alpha: %s", set->deps[d].name, dep, alpha);
        if (safe->count == 0) {
            printf("   unenforceable: no path of it keeps the attributes");
            unenforceable++;
        } else if (safe->count == psi_count) {
            printf("   (the attributes change nothing)");
        } else {
            printf("   (%zu of its %zu paths are safe)", safe->count, psi_count);
        }
        printf("\n");
        free(dep);
        free(alpha);
    }
    return unenforceable;
}

static const char *attribute_words(unsigned a) {
    if (a & DEP_IMMEDIATE)
        return (a & DEP_TRIGGERABLE) ? "immediate, triggerable" : "immediate";
    if (a & DEP_INEVITABLE)
        return (a & DEP_TRIGGERABLE) ? "inevitable, triggerable" : "inevitable";
    return (a & DEP_TRIGGERABLE) ? "triggerable" : NULL;
}

static void print_guards(const dep_scheduler *s, dep_set *set, bool basic) {
    printf("# guards (Definitions 9-11 over alpha%s)\n",
           basic ? "; <>alpha(D) for a dependency that does not mention the event, Theorem 18"
                 : "; a dependency that does not mention the event adds nothing, Theorem 22");
    for (size_t l = 0; l < 2 * set->ev.count; l++) {
        const dep_expr *guard = dep_scheduler_guard(s, (int)l);
        for (size_t d = 0; basic && d < set->count; d++) {
            const dep_paths *safe = dep_scheduler_safe(s, d);
            if (!dep_paths_mention(safe, (int)l))
                guard = dep_and(&set->ev, guard, dep_unary(&set->ev, DEP_DIA, dep_paths_alpha(&set->ev, safe)));
        }
        if (!guard) {
            fputs("ldgsm deps: out of memory\n", stderr);
            exit(1);
        }
        char *g = text_of(&set->ev, guard);
        printf("G(");
        print_lit(&set->ev, (int)l, stdout);
        printf(") = %s", g);
        const char *words = attribute_words(dep_attributes(set, (int)l));
        if (words)
            printf("   [%s]", words);
        printf("\n");
        free(g);
    }
}

typedef struct {
    dep_set *set;
    dep_scheduler *s;
} trace_view;

/* The guards of the events still to happen that an occurrence or a promise changed. */
static void print_changed_guards(trace_view *v) {
    const int *history;
    size_t n = dep_scheduler_history(v->s, &history);
    for (size_t l = 0; l < 2 * v->set->ev.count; l++) {
        if (!dep_scheduler_take_changed(v->s, (int)l))
            continue;
        bool happened = false;
        for (size_t h = 0; h < n; h++)
            happened |= DEP_SYMBOL(history[h]) == DEP_SYMBOL((int)l);
        if (happened)
            continue;
        char *g = text_of(&v->set->ev, dep_scheduler_guard(v->s, (int)l));
        printf("    G(");
        print_lit(&v->set->ev, (int)l, stdout);
        printf(") = %s\n", g);
        free(g);
    }
}

static void on_step(void *ctx, const dep_step *step) {
    trace_view *v = ctx;
    printf("  %s ", dep_decision_name(step->decision));
    print_lit(&v->set->ev, step->lit, stdout);
    if (step->other >= 0) {
        printf(step->decision == DEP_PROMISE ? " to " : " ");
        print_lit(&v->set->ev, step->other, stdout);
    }
    printf(": %s\n", step->why);
    print_changed_guards(v);
}

static int run_trace(dep_set *set, dep_scheduler *s, const char *events) {
    trace_view v = {set, s};
    int status = 0;
    char *copy = strdup(events);
    if (!copy) {
        fputs("ldgsm deps: out of memory\n", stderr);
        return 1;
    }
    for (char *save = NULL, *word = strtok_r(copy, " \t\n,", &save); word; word = strtok_r(NULL, " \t\n,", &save)) {
        int lit = dep_parse_lit(&set->ev, word);
        if (lit < 0) {
            fprintf(stderr, "ldgsm deps: --trace: %s is not an event of the dependencies\n", word);
            status = 1;
            break;
        }
        printf("attempt %s\n", word);
        const int *history;
        size_t happened = dep_scheduler_history(s, &history), h = 0;
        while (h < happened && DEP_SYMBOL(history[h]) != DEP_SYMBOL(lit))
            h++;
        if (h < happened) { /* triggered, or its complement happened: the attempt comes too late */
            printf("  ignored %s: ", word);
            print_lit(&set->ev, history[h], stdout);
            printf(" already happened\n");
            continue;
        }
        char err[256];
        /* each decision prints as it comes, with the guards it changed */
        if (dep_scheduler_attempt(s, lit, on_step, &v, err, sizeof err) != 0) {
            fprintf(stderr, "ldgsm deps: --trace: %s\n", err);
            status = 1;
            break;
        }
    }
    const int *lits;
    size_t n = dep_scheduler_history(s, &lits);
    printf("history:");
    for (size_t h = 0; h < n; h++) {
        printf(" ");
        print_lit(&set->ev, lits[h], stdout);
    }
    n = dep_scheduler_waiting(s, &lits);
    printf("\nwaiting:");
    for (size_t w = 0; w < n; w++) {
        printf(" ");
        print_lit(&set->ev, lits[w], stdout);
    }
    printf("\n");
    free(copy);
    return status;
}

/* --gsm: the policy of the set compiled into the model, linted, written. */
static int compile_into_model(dep_set *set, dep_order order, const char *model_path, const char *base_option,
                              const char *output) {
    int status = 1;
    char err[700];
    dep_policy policy;
    if (dep_policy_compute(set, order, &policy, err, sizeof err) != 0) {
        fprintf(stderr, "ldgsm deps: %s\n", err);
        return 1;
    }
    terms *t = terms_new();
    store *model = store_new();
    rdfio *io = rdfio_new(t);
    char *base = base_option ? strdup(base_option) : rdf_file_iri(model_path);
    char *text = NULL;
    triple *out = NULL;
    size_t out_count = 0, len;
    buf summary = {0}, turtle = {0};
    rdf_error perr;
    if (!(text = read_file(model_path, &len))) {
        fprintf(stderr, "ldgsm deps: %s: cannot read: %s\n", model_path, strerror(errno));
        goto done;
    }
    if (rdf_parse(io, model, RDF_TURTLE, text, len, base, 0, model_path, &perr) != 0) {
        fprintf(stderr, "ldgsm deps: %s\n", perr.message);
        goto done;
    }
    for (size_t g = 0; g < policy.count; g++)
        if (policy.groups[g].split) {
            fprintf(stderr, "ldgsm deps: note: more than %d events are related by the dependencies: each "
                            "dependency among them is kept on its own (a run may wait where the whole set, "
                            "enumerated together, would see a way)\n", DEP_POLICY_EVENTS_MAX);
            break;
        }
    if (dep_gsm_compile(t, model, base, set, &policy, &out, &out_count, &summary, err, sizeof err) != 0) {
        fprintf(stderr, "ldgsm deps: %s\n", err);
        goto done;
    }
    buf_printf(&turtle, "# %s with intertask dependencies compiled in by `ldgsm deps --gsm`\n", model_path);
    buf_puts(&turtle, "# (the scheme: ontology/README.md, \"Intertask dependencies\"). What each event waits for:\n#   ");
    for (size_t i = 0; i < summary.len; i++)
        buf_puts(&turtle, summary.data[i] == '\n' ? (i + 1 < summary.len ? "\n#   " : "\n") : (char[2]){summary.data[i], 0});
    if (model_out_write("deps", io, out, out_count, base, &turtle, output) != 0)
        goto done;
    fputs(buf_cstr(&summary), output ? stdout : stderr);
    status = 0;
done:
    buf_free(&summary);
    buf_free(&turtle);
    free(out);
    free(text);
    free(base);
    rdfio_free(io);
    store_free(model);
    terms_free(t);
    dep_policy_free(&policy);
    return status;
}

int cmd_deps(int argc, char **argv) {
    static const struct option options[] = {
        {"trace", required_argument, NULL, 't'}, {"basic", no_argument, NULL, 'b'},
        {"gsm", required_argument, NULL, 'g'},   {"base", required_argument, NULL, 'B'},
        {"order", required_argument, NULL, 'O'}, {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    const char *trace = NULL, *model = NULL, *base = NULL, *output = NULL, *order = NULL;
    bool basic = false;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "ho:", options, NULL)) != -1) {
        switch (c) {
        case 't': trace = optarg; break;
        case 'b': basic = true; break;
        case 'g': model = optarg; break;
        case 'B': base = optarg; break;
        case 'o': output = optarg; break;
        case 'O': order = optarg; break;
        case 'h': fputs(deps_usage, stdout); return 0;
        default: fputs(deps_usage, stderr); return 2;
        }
    }
    bool order_known = !order || strcmp(order, "delay") == 0 || strcmp(order, "first-come") == 0;
    if (optind >= argc || (model && (trace || basic)) || (!model && (base || output || order)) ||
        (base && strchr(base, '#')) || !order_known) {
        fputs(optind >= argc                ? "ldgsm deps: give a dependency FILE\n"
              : model && (trace || basic)   ? "ldgsm deps: --gsm does not take --trace or --basic\n"
              : !model                      ? "ldgsm deps: --base, -o and --order go with --gsm\n"
              : !order_known                ? "ldgsm deps: --order is delay or first-come\n"
                                            : "ldgsm deps: --base is a document IRI, without '#'\n",
              stderr);
        fputs(deps_usage, stderr);
        return 2;
    }
    dep_set set;
    dep_set_init(&set);
    int status = 0;
    dep_scheduler *s = NULL;
    for (int a = optind; a < argc; a++) {
        size_t len;
        char *text = read_file(argv[a], &len);
        if (!text) {
            fprintf(stderr, "ldgsm deps: %s: cannot read: %s\n", argv[a], strerror(errno));
            status = 1;
            goto done;
        }
        char err[512];
        int rc = dep_set_read(&set, argv[a], text, len, err, sizeof err);
        free(text);
        if (rc != 0) {
            fprintf(stderr, "ldgsm deps: %s\n", err);
            status = 1;
            goto done;
        }
    }
    char err[512];
    if (dep_set_check(&set, err, sizeof err) != 0) {
        fprintf(stderr, "ldgsm deps: %s\n", err);
        status = 1;
        goto done;
    }
    if (model) {
        status = compile_into_model(&set, order && strcmp(order, "first-come") == 0 ? DEP_ORDER_FIRST_COME : DEP_ORDER_DELAY,
                                    model, base, output);
        goto done;
    }
    s = dep_scheduler_new(&set, err, sizeof err);
    if (!s) {
        fprintf(stderr, "ldgsm deps: %s\n", err);
        status = 1;
        goto done;
    }
    int unenforceable = print_dependencies(&set, s);
    unenforceable += check_jointly(&set);
    print_guards(s, &set, basic);
    if (unenforceable) {
        fprintf(stderr, "ldgsm deps: %d unenforceable: no schedule can keep every dependency\n", unenforceable);
        status = 1;
        goto done;
    }
    if (trace) {
        printf("# the scheduler: each attempt, its decisions, and the guards they changed (Table 1)\n");
        status = run_trace(&set, s, trace);
    }
done:
    dep_scheduler_free(s);
    dep_set_free(&set);
    return status;
}
