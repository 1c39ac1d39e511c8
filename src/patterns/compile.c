/* compile.c: pattern terms to GSM stages, guards, milestones and sentries (the scheme of
 * ontology/README.md, "What each kernel compiles to").
 *
 * A term at path P is the stage <#sP>. Its parent decides its guard (what lets it start: true in a par,
 * the previous part ended in a seq, a condition in a xor ...); the term itself decides its milestones
 * (done, failed, cancelled). Sentries are SPARQL ASK text over the status of gsm:thisArtifactInstance:
 * "milestone X is achieved" is a milestone instance of X with isAchieved true, negation is OPTIONAL with
 * !bound (the sentry evaluator has no NOT EXISTS), and a pattern's own conditions are pasted in as groups
 * (condition_text.h renames their variables apart), what they say beside their text (ldgsm:readsContainer,
 * ldgsm:reads) said of the sentry. */
#include "patterns/compile.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/sentries.h"
#include "agent/vocab.h"
#include "gsm/condition_text.h"
#include "gsm/model_terms.h"
#include "rdf/buf.h"
#include "rdf/rdf_list.h"
#include "rdf/rdfio.h"
#include "rdf/vocab_ns.h"
#include "reason/rule.h"
#include "reason/sentry_ast.h"

/* A milestone takes at most this many achieving sentries: a join of K out of M branches needs one per
 * K-subset, and past this the model is too big to read or to evaluate every poll. */
enum { MAX_SENTRIES_PER_MILESTONE = 2000 };

/* Room for a stage path ("1.2.1"), cut short it would name another stage: a term adds at most five
 * characters to its children's paths (".1000", or a loop's ".1.1") and the readers nest terms at most
 * PATTERN_MAX_DEPTH deep; twice that, for room. A sentry's id is "s", the path and a suffix. */
enum { PATH_SIZE = 2 * (1 + 5 * (PATTERN_MAX_DEPTH + 1)), ID_SIZE = PATH_SIZE + 32 };

typedef struct {
    terms *t;
    store *names;
    const char *base;
    triple *out;
    size_t count, cap;
    char *err;
    size_t err_len;
    bool failed;
    term_id rdf_type, rdfs_label, rdfs_comment, rdf_first, rdf_rest;
    gsm_model_terms g;
    char **case_cancels; /* paths of cancel(case(...)) terms: the root's `cancelled` milestone reads them */
    size_t case_cancel_count;
    char **tasks; /* task IRIs used, each once */
    size_t task_count;
    const char *within_copy; /* the path of the mi copy the stages being compiled are nested in (NULL: none) */
    const char **fails_up; /* paths of the stages a failure of the stage being compiled fails at once (nearest last) */
    size_t fails_up_count;
    struct extra_sentry { char *path; const char *part; term_id sentry; } *extras; /* more of <#sPATH-PART>'s */
    size_t extra_count;
    char **counted; /* paths of the terms a join short of its K counts as ended in the poll they end */
    size_t counted_count;
    agent_vocab agent;          /* what the agent compiles a sentry with, to know that it will */
    sentry_text_parser *parser; /* made on the first sentry */
} compiler;

static void fail(compiler *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(compiler *c, const char *fmt, ...) {
    if (c->failed)
        return;
    c->failed = true;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err, c->err_len, fmt, ap);
    va_end(ap);
}

static void emit(compiler *c, term_id s, term_id p, term_id o) {
    if (c->count == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 256;
        c->out = xrealloc(c->out, c->cap * sizeof *c->out);
    }
    c->out[c->count++] = (triple){s, p, o};
}

static term_id iri(compiler *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static term_id iri(compiler *c, const char *fmt, ...) {
    /* sized to the text: the model's base is the user's, of any length, and a cut IRI names another node */
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *text = xmalloc((size_t)len + 1);
    va_start(ap, fmt);
    vsnprintf(text, (size_t)len + 1, fmt, ap);
    va_end(ap);
    term_id id = terms_iri_cstr(c->t, text);
    free(text);
    return id;
}

/* <model#sP>, <model#sP-done> ... */
static term_id stage_iri(compiler *c, const char *path) { return iri(c, "%s#s%s", c->base, path); }
static term_id part_iri(compiler *c, const char *path, const char *part) {
    return iri(c, "%s#s%s-%s", c->base, path, part);
}

/* PATH_SIZE holds the deepest path the parsers allow, so a path is never cut; were it, two stages would
 * share an IRI, so that is checked, not assumed. */
static void child_path(char *out, size_t size, const char *path, size_t i) {
    int n = snprintf(out, size, "%s.%zu", path, i + 1);
    if (n < 0 || (size_t)n >= size)
        abort();
}

/* The fragment a name has in the names document, for messages: x for <model#x>, else <iri>. */
static void name_for_message(compiler *c, const char *name, buf *out) {
    size_t n = strlen(c->base);
    if (strncmp(name, c->base, n) == 0 && name[n] == '#')
        buf_puts(out, name + n + 1);
    else
        buf_printf(out, "<%s>", name);
}

/* ---- sentries ---- */

typedef struct {
    compiler *c;
    buf body;
    int vars;
    int named; /* variables fresh made, alternatives of a union counted as its widest: at most as many as it has */
    char **prefix_names, **prefix_iris;
    size_t prefix_count;
    term_id *conditions; /* the names document's conditions its text holds or negates, each once */
    size_t condition_count;
    /* The unions a sentry too big for a rule is split at (split_sentry): the alternative taken at each of
     * the first `chosen` sites met, all of them at the others; `open` is how many the site after those has. */
    const size_t *choice;
    size_t chosen, sites, open;
} sentry;

static void sentry_begin(compiler *c, sentry *s) { *s = (sentry){.c = c}; }

static void sentry_free(sentry *s) {
    for (size_t i = 0; i < s->prefix_count; i++) {
        free(s->prefix_names[i]);
        free(s->prefix_iris[i]);
    }
    free(s->prefix_names);
    free(s->prefix_iris);
    free(s->conditions);
    buf_free(&s->body);
}

/* Every variable is ?vN (a negation's probe ?nN), N counted by the sentry: one name a number, so that the
 * alternatives of a union, which start numbering where it started, reuse each other's names (union_begin). */
static int fresh(sentry *s) {
    s->named++;
    return ++s->vars;
}

/* Which alternative of the next union that split_sentry may split the sentry at (a site, of that many
 * alternatives) it takes: SIZE_MAX for all of them. */
static size_t site(sentry *s, size_t alternatives) {
    size_t i = s->sites++;
    if (i < s->chosen)
        return s->choice[i];
    if (i == s->chosen)
        s->open = alternatives;
    return SIZE_MAX;
}

/* The triples that make a milestone instance of <#sP-part> achieved, the variable ?vN bound to it. */
static int put_achieved(sentry *s, const char *path, const char *part) {
    int v = fresh(s);
    buf_printf(&s->body,
               "?v%d gsm:inArtifactInstance gsm:thisArtifactInstance ; gsm:isInstanceOf <#s%s-%s> ; "
               "gsm:isAchieved true .\n",
               v, path, part);
    return v;
}

static void achieved(sentry *s, const char *path, const char *part) {
    buf_puts(&s->body, "  ");
    put_achieved(s, path, part);
}

static void not_achieved(sentry *s, const char *path, const char *part) {
    buf_puts(&s->body, "  OPTIONAL { ");
    int v = put_achieved(s, path, part);
    buf_printf(&s->body, "  } FILTER(!bound(?v%d))\n", v);
}

/* The stage instance of <#sP> in state `state` (gsm:active) or completed (state NULL). */
static int put_stage(sentry *s, const char *path, const char *state) {
    int v = fresh(s);
    buf_printf(&s->body, "?v%d gsm:inArtifactInstance gsm:thisArtifactInstance ; gsm:isInstanceOf <#s%s> ; ", v,
               path);
    if (state)
        buf_printf(&s->body, "gsm:hasState %s .\n", state);
    else
        buf_puts(&s->body, "ldgsm:isCompleted true .\n");
    return v;
}

static void stage_active(sentry *s, const char *path) {
    buf_puts(&s->body, "  ");
    put_stage(s, path, "gsm:active");
}

static void stage_not(sentry *s, const char *path, const char *state) {
    buf_puts(&s->body, "  OPTIONAL { ");
    int v = put_stage(s, path, state);
    buf_printf(&s->body, "  } FILTER(!bound(?v%d))\n", v);
}

/* No child of <#sP> other than <#sP.except> (0: none excepted) is in `state` ("gsm:hasState gsm:active",
 * "ldgsm:isCompleted true"). Read through the model's hasChildStage, so that the query has the same few
 * variables however many children there are. */
static void no_child_except(sentry *s, const char *path, size_t except, const char *state) {
    int S = fresh(s), v = fresh(s);
    buf_printf(&s->body, "  OPTIONAL { <#s%s> gsm:hasChildStage ?v%d . ", path, S);
    if (except)
        buf_printf(&s->body, "FILTER(?v%d != <#s%s.%zu>) ", S, path, except);
    buf_printf(&s->body, "?v%d gsm:inArtifactInstance gsm:thisArtifactInstance ; gsm:isInstanceOf ?v%d ; %s .\n", v, S,
               state);
    buf_printf(&s->body, "  } FILTER(!bound(?v%d))\n", v);
}

static void no_child_in(sentry *s, const char *path, const char *state) { no_child_except(s, path, 0, state); }

/* No child of <#sP> other than <#sP.except> (0: none) has started: none is active or completed (a stage
 * closed by a milestone of its own is completed). */
static void no_child_started(sentry *s, const char *path, size_t except) {
    no_child_except(s, path, except, "gsm:hasState gsm:active");
    no_child_except(s, path, except, "ldgsm:isCompleted true");
}

/* <#sP> has started: it is active or completed. */
static void started(sentry *s, const char *path) {
    buf_puts(&s->body, "  { ");
    put_stage(s, path, "gsm:active");
    buf_puts(&s->body, "  } UNION { ");
    put_stage(s, path, NULL);
    buf_puts(&s->body, "  }\n");
}

/* A child of <#sP> has an achieved milestone of those the model marks `property` (pat:endedBy,
 * pat:failedBy), or (negated) none has. */
static void child_milestone(sentry *s, const char *path, const char *property, bool exists) {
    int S = fresh(s), M = fresh(s), m = fresh(s);
    buf_printf(&s->body,
               "  %s<#s%s> gsm:hasChildStage ?v%d . ?v%d %s ?v%d .\n"
               "  ?v%d gsm:inArtifactInstance gsm:thisArtifactInstance ; gsm:isInstanceOf ?v%d ; gsm:isAchieved true .\n",
               exists ? "" : "OPTIONAL { ", path, S, S, property, M, m, M);
    if (!exists)
        buf_printf(&s->body, "  } FILTER(!bound(?v%d))\n", m);
}

static void some_child_ended(sentry *s, const char *path) { child_milestone(s, path, "pat:endedBy", true); }
static void no_child_failed(sentry *s, const char *path) { child_milestone(s, path, "pat:failedBy", false); }

/* Every child of <#sP> has ended: no child lacks an achieved milestone of those the model marks
 * pat:endedBy. Few variables for any number of children. */
static void every_child_ended(sentry *s, const char *path) {
    int S = fresh(s), M = fresh(s), m = fresh(s);
    buf_printf(&s->body, "  OPTIONAL { <#s%s> gsm:hasChildStage ?v%d .\n", path, S);
    buf_printf(&s->body,
               "    OPTIONAL { ?v%d pat:endedBy ?v%d . ?v%d gsm:inArtifactInstance gsm:thisArtifactInstance ; "
               "gsm:isInstanceOf ?v%d ; gsm:isAchieved true . }\n"
               "    FILTER(!bound(?v%d))\n  } FILTER(!bound(?v%d))\n",
               S, M, m, M, m, S);
}

/* The call of the task stage `stage` (<#sP>, or a variable bound to one) is in call state `state`
 * (answered, exhausted); `active`: and the stage instance is open, so that an exhausted call of an
 * earlier activation is not read as this one's. */
static void call_state(sentry *s, const char *stage, const char *state, bool active) {
    int call = fresh(s), instance = fresh(s);
    buf_printf(&s->body,
               "  ?v%d ldgsm:callState ldgsm:%s ; ldgsm:ofStage ?v%d .\n"
               "  ?v%d gsm:isInstanceOf %s ; gsm:inArtifactInstance gsm:thisArtifactInstance%s .\n",
               call, state, instance, instance, stage, active ? " ; gsm:hasState gsm:active" : "");
}

/* The answer to the call of the task stage `stage` the agent reports in this iteration: a success (2xx
 * but 202, to any attempt of the current alternative), or a refusal (a 4xx but 408, 409 and 429, to the
 * current attempt of alternative number `last`, a number or a variable), as the call rules read them. */
static void answer_now(sentry *s, const char *stage, const char *last, bool refusal) {
    int call = fresh(s), key = fresh(s), instance = fresh(s), answer = fresh(s), code = fresh(s);
    buf_printf(&s->body, "  ?v%d ldgsm:callState ldgsm:calling ; ldgsm:idempotencyKey ?v%d ; ldgsm:ofStage ?v%d", call,
               key, instance);
    int at = refusal ? fresh(s) : 0;
    if (refusal)
        buf_printf(&s->body, " ; ldgsm:calledAt ?v%d ; ldgsm:alternative %s", at, last);
    buf_printf(&s->body,
               " .\n  ?v%d gsm:inArtifactInstance gsm:thisArtifactInstance ; gsm:isInstanceOf %s .\n"
               "  ?v%d ldgsm:answerTo ?v%d ; ldgsm:answerKey ?v%d ; ldgsm:answerStatus ?v%d",
               instance, stage, answer, call, key, code);
    if (refusal)
        buf_printf(&s->body,
                   " ; ldgsm:answerAttempt ?v%d .\n  FILTER(?v%d >= 400 && ?v%d < 500 && ?v%d != 408 && "
                   "?v%d != 409 && ?v%d != 429)\n",
                   at, code, code, code, code, code);
    else
        buf_printf(&s->body, " .\n  FILTER(?v%d >= 200 && ?v%d < 300 && ?v%d != 202)\n", code, code, code);
}

/* <#sP> as the text of a sentry. */
static const char *stage_ref(char *out, size_t size, const char *path) {
    snprintf(out, size, "<#s%s>", path);
    return out;
}

/* Disjunctions inside a sentry: `{ A } UNION { B } ...`. An alternative's variables are its own, so each
 * starts numbering where the union started and the union needs only its widest alternative's numbers:
 * a formula's variables do not add up over its alternatives (a sentry holds at most RULE_MAX_VARS). */
typedef struct {
    int base, top, count;
    int named_base, named_top;
} alternatives_of;

static void union_begin(sentry *s, alternatives_of *a) {
    *a = (alternatives_of){.base = s->vars, .top = s->vars, .named_base = s->named, .named_top = s->named};
}

static void union_next(sentry *s, alternatives_of *a) {
    if (s->vars > a->top)
        a->top = s->vars;
    if (s->named > a->named_top)
        a->named_top = s->named;
    buf_puts(&s->body, a->count++ ? "  } UNION {\n" : "  {\n");
    s->vars = a->base;
    s->named = a->named_base;
}

static void union_end(sentry *s, alternatives_of *a) {
    if (s->vars > a->top)
        a->top = s->vars;
    if (s->named > a->named_top)
        a->named_top = s->named;
    s->vars = a->top;
    s->named = a->named_top;
    buf_puts(&s->body, "  }\n");
}

/* How many alternatives the task's call has: its ldgsm:alternatives list, or 1 for a plain request. */
static long alternatives(compiler *c, term_id request) {
    term_id head = store_first_object(c->names, request, iri(c, LDGSM_alternatives));
    term_id list = head ? rdf_list_read(c->t, c->names, head) : 0;
    size_t n = 0;
    if (list)
        terms_list_items(c->t, list, &n);
    return n ? (long)n : 1;
}

/* ended(T): done, or for a region or activity cancel also cancelled (what lets the next term go on). */
static void ended(sentry *s, const pattern *p, const char *path) {
    if (p->kind == PAT_CANCEL && p->scope != CANCEL_CASE) {
        buf_puts(&s->body, "  { ");
        put_achieved(s, path, "done");
        buf_puts(&s->body, "  } UNION { ");
        put_achieved(s, path, "cancelled");
        buf_puts(&s->body, "  }\n");
    } else {
        achieved(s, path, "done");
    }
}

static void not_ended(sentry *s, const pattern *p, const char *path) {
    not_achieved(s, path, "done");
    if (p->kind == PAT_CANCEL && p->scope != CANCEL_CASE)
        not_achieved(s, path, "cancelled");
}

/* The namespace of a prefix every generated sentry declares, or NULL. */
static const char *our_prefix(const char *name) {
    static const char *const ours[] = {"gsm:", NS_GSM, "ldgsm:", NS_LDGSM, "rdf:", NS_RDF, "pat:", NS_PAT};
    for (size_t i = 0; i < sizeof ours / sizeof *ours; i += 2)
        if (strcmp(name, ours[i]) == 0)
            return ours[i + 1];
    return NULL;
}

/* Reads a condition's text from the names document and merges its prefixes into the sentry's. */
static int condition(sentry *s, const char *name, condition_text *out) {
    compiler *c = s->c;
    term_id node = terms_iri_cstr(c->t, name);
    term_id text = store_first_object(c->names, node, c->g.text);
    buf shown = {0};
    name_for_message(c, name, &shown);
    if (!text || terms_kind(c->t, text) != TERM_LITERAL) {
        fail(c, "condition %s: the names document gives it no sp:text (a SPARQL ASK query)", buf_cstr(&shown));
        buf_free(&shown);
        return -1;
    }
    term_id blank = gsm_model_carried_blank(&c->g, c->t, c->names, node);
    if (blank) {
        fail(c, "condition %s: its <%s> is a blank node, which the sentries made of the condition cannot carry: "
                "give it an IRI", buf_cstr(&shown), terms_lex(c->t, blank, NULL));
        buf_free(&shown);
        return -1;
    }
    char rename[32], why[256];
    snprintf(rename, sizeof rename, "q%d_", ++s->vars);
    if (condition_text_split(terms_lex(c->t, text, NULL), rename, out, why, sizeof why) != 0) {
        fail(c, "condition %s: %s", buf_cstr(&shown), why);
        buf_free(&shown);
        return -1;
    }
    for (size_t i = 0; i < out->prefix_count; i++) {
        size_t j = 0;
        while (j < s->prefix_count && strcmp(s->prefix_names[j], out->prefix_names[i]) != 0)
            j++;
        const char *known = j < s->prefix_count ? s->prefix_iris[j] : our_prefix(out->prefix_names[i]);
        if (known && strcmp(known, out->prefix_iris[i]) != 0) {
            fail(c, "condition %s: PREFIX %s <%s> differs from <%s> of another condition or of the compiled "
                    "sentries; use another prefix name",
                 buf_cstr(&shown), out->prefix_names[i], out->prefix_iris[i], known);
            buf_free(&shown);
            condition_text_free(out);
            return -1;
        }
        if (!known) {
            s->prefix_names = xrealloc(s->prefix_names, (s->prefix_count + 1) * sizeof *s->prefix_names);
            s->prefix_iris = xrealloc(s->prefix_iris, (s->prefix_count + 1) * sizeof *s->prefix_iris);
            s->prefix_names[s->prefix_count] = xstrndup(out->prefix_names[i], strlen(out->prefix_names[i]));
            s->prefix_iris[s->prefix_count] = xstrndup(out->prefix_iris[i], strlen(out->prefix_iris[i]));
            s->prefix_count++;
        }
    }
    size_t k = 0;
    while (k < s->condition_count && s->conditions[k] != node)
        k++;
    if (k == s->condition_count) {
        s->conditions = xrealloc(s->conditions, (s->condition_count + 1) * sizeof *s->conditions);
        s->conditions[s->condition_count++] = node;
    }
    buf_free(&shown);
    return 0;
}

static void holds(sentry *s, const char *name) {
    condition_text q;
    if (condition(s, name, &q) != 0)
        return;
    buf_printf(&s->body, "  { %s }\n", q.group);
    condition_text_free(&q);
}

/* Negation as failure: the condition's group, joined with a triple the instance always has, is optional;
 * the probe variable unbound means the group has no solution. */
static void does_not_hold(sentry *s, const char *name) {
    condition_text q;
    if (condition(s, name, &q) != 0)
        return;
    int v = fresh(s); /* ?nN, never ?vN: a variable the instance reaches is a link the crawl follows where it
                       * is a subject, and another alternative's ?vN may be one */
    buf_printf(&s->body, "  OPTIONAL { gsm:thisArtifactInstance gsm:hasState ?n%d . %s } FILTER(!bound(?n%d))\n", v,
               q.group, v);
    condition_text_free(&q);
}

/* The item list's i-th item (1-based) exists, or (negated) does not. */
/* The subject and property of an item list, or 0 (and the compile fails) when the names lack them. */
static bool list_parts(compiler *c, const char *list, term_id *of, term_id *property) {
    term_id node = terms_iri_cstr(c->t, list);
    *of = store_first_object(c->names, node, iri(c, NS_PAT "listOf"));
    *property = store_first_object(c->names, node, iri(c, NS_PAT "listProperty"));
    if (*of && *property && terms_kind(c->t, *of) == TERM_IRI && terms_kind(c->t, *property) == TERM_IRI)
        return true;
    buf shown = {0};
    name_for_message(c, list, &shown);
    fail(c, "item list %s: the names document must give it pat:listOf (an IRI) and pat:listProperty", buf_cstr(&shown));
    buf_free(&shown);
    return false;
}

/* `<of> <property> ?lV_1 . ?lV_1 rdf:rest ?lV_2 ... ?lV_n` : the list's n-th cell (1-based). */
static int list_cell(sentry *s, const char *list, long n) {
    compiler *c = s->c;
    term_id of, property;
    if (!list_parts(c, list, &of, &property))
        return 0;
    int v = ++s->vars;
    rdf_write_relative_iri(terms_lex(c->t, of, NULL), c->base, &s->body);
    buf_printf(&s->body, " <%s> ?l%d_1 . ", terms_lex(c->t, property, NULL), v);
    for (long k = 1; k < n; k++)
        buf_printf(&s->body, "?l%d_%ld rdf:rest ?l%d_%ld . ", v, k, v, k + 1);
    return v;
}

/* The item list's i-th item (1-based) exists, or (negated) does not. */
static void item(sentry *s, const char *list, long i, bool exists) {
    buf_puts(&s->body, exists ? "  " : "  OPTIONAL { ");
    int v = list_cell(s, list, i);
    buf_printf(&s->body, "?l%d_%ld rdf:first ?i%d .", v, i, v);
    if (exists)
        buf_putc(&s->body, '\n');
    else
        buf_printf(&s->body, " } FILTER(!bound(?i%d))\n", v);
}

/* The item list has exactly n items: its (n+1)-th cell has no rdf:first (it is rdf:nil). */
static void items_exactly(sentry *s, const char *list, long n) {
    buf_puts(&s->body, "  ");
    int v = list_cell(s, list, n + 1);
    buf_printf(&s->body, "OPTIONAL { ?l%d_%ld rdf:first ?i%d } FILTER(!bound(?i%d))\n", v, n + 1, v, v);
}

static void literal(compiler *c, term_id s, term_id p, const char *text) {
    emit(c, s, p, terms_string(c->t, text));
}

/* What the sentry's conditions say beside their query (gsm_model_carried: ldgsm:readsContainer,
 * ldgsm:reads ...), said of the sentry node: the crawl GETs what a sentry declares, not what a condition
 * the model never names does. Each triple once, though several conditions give it. */
static void carry_conditions(sentry *s, term_id node) {
    compiler *c = s->c;
    size_t from = c->count;
    for (size_t i = 0; i < s->condition_count; i++) {
        store_iter it;
        store_match(c->names, s->conditions[i], 0, 0, 0, store_size(c->names), &it);
        const triple *tr;
        uint32_t n;
        while ((tr = store_next(&it, &n))) {
            if (!gsm_model_carried(&c->g, c->t, tr->p))
                continue;
            size_t k = from;
            while (k < c->count && !(c->out[k].s == node && c->out[k].p == tr->p && c->out[k].o == tr->o))
                k++;
            if (k < c->count)
                continue;
            emit(c, node, tr->p, tr->o);
        }
    }
}

/* The sentry's text: its prefixes and its body as an ASK query. */
static void sentry_text(sentry *s, buf *text) {
    buf_puts(text, "PREFIX gsm: <" NS_GSM ">\nPREFIX ldgsm: <" NS_LDGSM ">\nPREFIX rdf: <" NS_RDF ">\n"
                   "PREFIX pat: <" NS_PAT ">\n");
    for (size_t i = 0; i < s->prefix_count; i++)
        buf_printf(text, "PREFIX %s <%s>\n", s->prefix_names[i], s->prefix_iris[i]);
    buf_puts(text, "ASK {\n");
    buf_append(text, s->body.data, s->body.len);
    buf_puts(text, "}");
}

/* Whether the agent can evaluate the sentry s, of text text: compiled as the agent and lint compile it
 * (sentry_table_rule), so that what is counted (variables, patterns) is what the reasoner counts. */
static bool evaluable(const sentry *s, const char *id, const char *text, char *why, size_t why_len) {
    compiler *c = s->c;
    /* what has more variables than a rule holds need not be parsed to be refused (a split sentry is
     * tried many times, and parsing a big one is slow) */
    if (s->named > RULE_MAX_VARS) {
        snprintf(why, why_len, "more than %d variables", RULE_MAX_VARS);
        return false;
    }
    if (!c->parser && !(c->parser = sentry_text_parser_new(c->t))) {
        snprintf(why, why_len, "rasqal did not start");
        return false;
    }
    term_id node = iri(c, "%s#%s", c->base, id);
    sq_node *tree = NULL;
    if (sentry_from_text(c->parser, node, text, c->base, &tree, why, why_len) != 0)
        return false;
    rule *r = sentry_table_rule(c->t, &c->agent, tree, node, SENTRY_OF_ARTIFACT, why, why_len);
    if (!r)
        return false;
    rule_free(r);
    return true;
}

/* Writes the sentry <#id> (an sp:Ask with its text text), comment, and returns its IRI. */
static term_id sentry_write(sentry *s, const char *id, const char *comment, const char *text) {
    compiler *c = s->c;
    term_id node = iri(c, "%s#%s", c->base, id);
    emit(c, node, c->rdf_type, c->g.ask);
    if (comment)
        literal(c, node, c->rdfs_comment, comment);
    literal(c, node, c->g.text, text);
    carry_conditions(s, node);
    return node;
}

/* Writes the sentry <#id>, comment, and returns its IRI; the compile fails when the agent could not
 * evaluate it. */
static term_id sentry_end(sentry *s, const char *id, const char *comment) {
    compiler *c = s->c;
    buf text = {0};
    sentry_text(s, &text);
    char why[512];
    term_id node = 0;
    if (evaluable(s, id, buf_cstr(&text), why, sizeof why))
        node = sentry_write(s, id, comment, buf_cstr(&text));
    else
        fail(c, "the sentry <#%s> cannot be evaluated: %s", id, why);
    buf_free(&text);
    sentry_free(s);
    return node;
}

/* ---- stages, guards, milestones ---- */

/* Sentries of one milestone or guard, collected before the node itself is written. */
typedef struct {
    term_id *items;
    size_t n;
} sentry_list;

static void sentry_list_add(compiler *c, sentry_list *l, term_id node) {
    if (l->n == MAX_SENTRIES_PER_MILESTONE)
        fail(c, "a milestone would need more than %d sentries (a join of K out of M branches needs one per "
                "K-subset): nest smaller joins",
             MAX_SENTRIES_PER_MILESTONE);
    l->items = xrealloc(l->items, (l->n + 1) * sizeof *l->items);
    l->items[l->n++] = node;
}

static void sentry_id(char *out, size_t size, const char *path, const char *what, size_t n) {
    if (n)
        snprintf(out, size, "s%s-%s-%zu", path, what, n);
    else
        snprintf(out, size, "s%s-%s", path, what);
}

/* Ends the sentry s as <#sPATH-WHAT> (<#sPATH-WHAT-N> when N is not 0) and adds it to l. */
static void add_sentry(sentry *s, sentry_list *l, const char *path, const char *what, size_t n, const char *comment) {
    char id[ID_SIZE];
    sentry_id(id, sizeof id, path, what, n);
    sentry_list_add(s->c, l, sentry_end(s, id, comment));
}

/* A sentry's body, written by a function of the sentry and what it reads (split_sentry). */
typedef void (*sentry_body)(sentry *s, const void *ctx);

typedef struct {
    sentry_body body;
    const void *ctx;
    const char *id, *comment;
    sentry_list *into;
    size_t *choice, made, tried;
} splitting;

/* The ways split_sentry may try for one sentry: each is a parse, and the product of nested unions'
 * alternatives grows fast, so a term that needs more fails at once instead of stalling the compile. */
enum { MAX_SPLIT_TRIES = 4 * MAX_SENTRIES_PER_MILESTONE };

static void split_at(compiler *c, splitting *x, size_t chosen) {
    if (++x->tried > MAX_SPLIT_TRIES) {
        fail(c, "the sentry <#%s> is too big for a rule and %d ways of splitting it did not do: nest smaller "
                "joins, or fewer joins of joins", x->id, MAX_SPLIT_TRIES);
        return;
    }
    sentry s;
    sentry_begin(c, &s);
    s.choice = x->choice;
    s.chosen = chosen;
    x->body(&s, x->ctx);
    char id[ID_SIZE + 24], why[512];
    if (x->made)
        snprintf(id, sizeof id, "%s-or%zu", x->id, x->made + 1);
    else
        snprintf(id, sizeof id, "%s", x->id);
    buf text = {0};
    sentry_text(&s, &text);
    bool fits = !c->failed && evaluable(&s, id, buf_cstr(&text), why, sizeof why);
    if (fits) {
        sentry_list_add(c, x->into, sentry_write(&s, id, x->comment, buf_cstr(&text)));
        x->made++;
    }
    size_t open = s.open;
    buf_free(&text);
    sentry_free(&s);
    if (fits || c->failed)
        return;
    if (!open && !chosen) /* not too big for want of splitting: the compile fails as sentry_end's */
        fail(c, "the sentry <#%s> cannot be evaluated: %s", id, why);
    if (open)
        x->choice = xrealloc(x->choice, (chosen + 1) * sizeof *x->choice);
    for (size_t j = 0; j < open && !c->failed; j++) {
        x->choice[chosen] = j;
        split_at(c, x, chosen + 1);
    }
}

/* Writes the sentry body(ctx) as <#id> into `into`; too big for a rule (a conjunction's parts add their
 * variables, a union's alternatives do not), as several whose disjunction it is: split at the first
 * union that split sites (site) in pre-order, an alternative a sentry, each split again while too big.
 * What is too big whatever it takes (as many failures in one poll as the sentry has parts to read, each
 * read as it happens) is left out: that conjunction holds a poll later, when those parts' failed
 * milestones are achieved, which the alternative of each site that reads them reads. */
static void split_sentry(compiler *c, sentry_body body, const void *ctx, const char *id, const char *comment,
                         sentry_list *into) {
    splitting x = {.body = body, .ctx = ctx, .id = id, .comment = comment, .into = into};
    split_at(c, &x, 0);
    free(x.choice);
    if (!x.made && !c->failed)
        fail(c, "the sentry <#%s> cannot be evaluated whichever way it is split", id);
}

/* The milestone m of stage (when it has achieving sentries), and frees the lists. */
static void milestone_node(compiler *c, term_id stage, term_id m, const char *label, sentry_list *achieving,
                           sentry_list *invalidating) {
    if (achieving->n) {
        emit(c, stage, c->g.has_milestone, m);
        emit(c, m, c->rdf_type, c->g.milestone);
        literal(c, m, c->rdfs_label, label);
        for (size_t i = 0; i < achieving->n; i++)
            emit(c, m, c->g.achieving, achieving->items[i]);
        for (size_t i = 0; invalidating && i < invalidating->n; i++)
            emit(c, m, c->g.invalidating, invalidating->items[i]);
    }
    free(achieving->items);
    if (invalidating)
        free(invalidating->items);
}

/* The milestone <#sP-part> of a term's stage, with what the parent's sentries read of it. */
static void milestone(compiler *c, const char *path, const char *part, const char *label, sentry_list *achieving,
                      sentry_list *invalidating) {
    term_id stage = stage_iri(c, path), m = part_iri(c, path, part);
    for (size_t i = 0; i < c->extra_count; i++)
        if (strcmp(c->extras[i].part, part) == 0 && strcmp(c->extras[i].path, path) == 0)
            sentry_list_add(c, achieving, c->extras[i].sentry);
    bool written = achieving->n > 0;
    milestone_node(c, stage, m, label, achieving, invalidating);
    if (written && strcmp(part, "done") == 0)
        emit(c, stage, iri(c, NS_PAT "endedBy"), m);
    else if (written && strcmp(part, "failed") == 0)
        emit(c, stage, iri(c, NS_PAT "failedBy"), m);
}

/* What the parent gives a child to start it: the guard's conditions (a disjunction) are written by the
 * parent; the guard node and its label here. */
static void guard(compiler *c, const char *path, const char *label, term_id *conditions, size_t n) {
    term_id g = part_iri(c, path, "guard");
    emit(c, stage_iri(c, path), c->g.has_guard, g);
    emit(c, g, c->rdf_type, c->g.guard);
    literal(c, g, c->rdfs_label, label);
    for (size_t i = 0; i < n; i++)
        emit(c, g, c->g.has_condition, conditions[i]);
}

/* A guard that holds whenever the parent is active. */
static void guard_always(compiler *c, const char *path) {
    sentry s;
    sentry_begin(c, &s);
    char id[ID_SIZE];
    snprintf(id, sizeof id, "s%s-start", path);
    term_id cond = sentry_end(&s, id, "always: the stage starts when its parent does");
    guard(c, path, "starts with its parent", &cond, 1);
}

static void compile_term(compiler *c, const pattern *p, const char *path, const char *label_suffix);

/* The stages a failure fails at once, outermost first, as compile_term descends. */
typedef struct {
    const char **paths;
    size_t count;
} fail_chain;

/* Says that <#sPATH> fails every stage of the chain at once (pat:failsUpTo), and makes the chain its
 * parts': the chain and itself when a failed part fails it (`with_parts`), else none. Returns the chain
 * to give back to fails_up_leave. */
static fail_chain fails_up_enter(compiler *c, const char *path, bool with_parts) {
    fail_chain outer = {c->fails_up, c->fails_up_count};
    term_id stage = stage_iri(c, path), fails_up = iri(c, NS_PAT "failsUpTo");
    for (size_t i = 0; i < outer.count; i++)
        emit(c, stage, fails_up, stage_iri(c, outer.paths[i]));
    c->fails_up = NULL;
    c->fails_up_count = 0;
    if (with_parts) {
        c->fails_up = xmalloc((outer.count + 1) * sizeof *c->fails_up);
        for (size_t i = 0; i < outer.count; i++)
            c->fails_up[i] = outer.paths[i];
        c->fails_up[outer.count] = path;
        c->fails_up_count = outer.count + 1;
    }
    return outer;
}

static void fails_up_leave(compiler *c, fail_chain outer) {
    free(c->fails_up);
    c->fails_up = outer.paths;
    c->fails_up_count = outer.count;
}

/* `stage a gsm:Stage` labelled with its term: prefix, the term (cut at 60 bytes), suffix. */
static void stage_header(compiler *c, term_id stage, const char *prefix, const pattern *p, const char *suffix) {
    emit(c, stage, c->rdf_type, c->g.stage);
    buf label = {0};
    buf_puts(&label, prefix);
    pattern_format(p, c->base, 60, &label);
    buf_puts(&label, suffix);
    literal(c, stage, c->rdfs_label, buf_cstr(&label));
    buf_free(&label);
}

/* A stage nested in an mi copy names the copy (pat:withinCopy), whose item, index and results are its own
 * (rules/gsm-call.n3). */
static void add_child(compiler *c, const char *path, const char *child) {
    emit(c, stage_iri(c, path), c->g.has_child, stage_iri(c, child));
    if (c->within_copy)
        emit(c, stage_iri(c, child), iri(c, NS_PAT "withinCopy"), stage_iri(c, c->within_copy));
}

/* ---- failure and joins, shared by several kernels ---- */

/* The K-subsets of {0..n-1} in lexicographic order: calls visit(c, chosen, k, ctx) for each. */
static void subsets(compiler *c, size_t n, size_t k, void (*visit)(compiler *, const size_t *, size_t, void *),
                    void *ctx) {
    size_t *chosen = xcalloc(k ? k : 1, sizeof *chosen);
    for (size_t i = 0; i < k; i++)
        chosen[i] = i;
    for (;;) {
        visit(c, chosen, k, ctx);
        if (c->failed)
            break;
        size_t i = k;
        while (i > 0 && chosen[i - 1] == n - k + i - 1)
            i--;
        if (i == 0)
            break;
        chosen[i - 1]++;
        for (size_t j = i; j < k; j++)
            chosen[j] = chosen[j - 1] + 1;
    }
    free(chosen);
}

/* ---- what ends or fails a term in the poll it happens (seed 004 5.4: a failure, or a join that has its
 * K, stops every token it ends in that step) ---- */

/* Whether a failure of one part fails p whatever else holds: p needs all its parts (seq, loops, par and
 * every join or mi that needs all) or runs one (xor, defer). Not a join that can still reach its K, nor a
 * cancel, whose event, holding, cancels it instead. */
static bool fails_with_any_part(const pattern *p) {
    switch (p->kind) {
    case PAT_SEQ:
    case PAT_XOR:
    case PAT_DEFER:
    case PAT_LOOP: return true;
    case PAT_JOIN:
    case PAT_MI: {
        long parts = p->kind == PAT_JOIN ? (long)p->n : p->mi_dynamic ? p->max : p->count;
        return p->policy == JOIN_ALL || p->policy == JOIN_SYNC_MERGE || (!p->mi_dynamic && p->k == parts);
    }
    case PAT_TASK:
    case PAT_CANCEL: return false;
    }
    return false;
}

/* A term whose failure needs more than one part's (a join short of its K) or a condition (a cancel). */
static bool barrier(const pattern *p) { return p->kind != PAT_TASK && !fails_with_any_part(p); }

/* How many parts p has as compiled, the term of part i and its path (a while or until loop's body sits
 * in its iteration stage, P.1.1). */
static size_t part_count(const pattern *p) {
    if (p->kind == PAT_LOOP)
        return p->loop == LOOP_COUNT ? (size_t)p->count : 1;
    if (p->kind == PAT_MI)
        return (size_t)(p->mi_dynamic ? p->max : p->count);
    return p->kind == PAT_TASK ? 0 : p->n;
}

static const pattern *part(const pattern *p, size_t i, const char *path, char *out, size_t size) {
    if (p->kind == PAT_LOOP && p->loop != LOOP_COUNT) {
        char iteration[PATH_SIZE];
        child_path(iteration, sizeof iteration, path, 0);
        child_path(out, size, iteration, 0);
    } else {
        child_path(out, size, path, i);
    }
    return p->kind == PAT_JOIN || p->kind == PAT_SEQ || p->kind == PAT_XOR || p->kind == PAT_DEFER ? p->children[i]
                                                                                                      : p->children[0];
}

/* How many of p's parts must end for it to end (a join's or mi's K; all for the others). */
static size_t parts_needed(const pattern *p) {
    bool all = p->policy == JOIN_ALL || p->policy == JOIN_SYNC_MERGE;
    return (p->kind == PAT_JOIN || p->kind == PAT_MI) && !all ? (size_t)p->k : part_count(p);
}

/* "A stage whose failure fails <stage> at once has failed": through the model's pat:failsUpTo. */
static void failed_below(sentry *s, const char *stage) {
    int X = fresh(s), M = fresh(s), m = fresh(s);
    buf_printf(&s->body,
               "  ?v%d pat:failsUpTo %s ; pat:failedBy ?v%d .\n"
               "  ?v%d gsm:inArtifactInstance gsm:thisArtifactInstance ; gsm:isInstanceOf ?v%d ; gsm:isAchieved true .\n",
               X, stage, M, m, M);
}

/* "A task whose failure fails <stage> at once fails in this poll": its call, open, is exhausted, or its
 * last alternative refused it in this poll (the task's own failed sentries, read through pat:failsUpTo). */
static void task_failing_below(sentry *s, const char *stage, bool refused) {
    char task[24], last[24];
    snprintf(task, sizeof task, "?v%d", fresh(s));
    snprintf(last, sizeof last, "?v%d", fresh(s));
    buf_printf(&s->body, "  %s pat:failsUpTo %s", task, stage);
    if (refused)
        buf_printf(&s->body, " ; pat:lastAlternative %s", last);
    buf_puts(&s->body, " .\n");
    if (refused)
        answer_now(s, task, last, true);
    else
        call_state(s, task, "exhausted", true);
}

static void ended_now(sentry *s, const pattern *p, const char *path);
static void failed_now(sentry *s, const pattern *p, const char *path);
static void failing(sentry *s, const pattern *p, const char *path);

/* One alternative of a union: a K-subset of p's parts, each ended (or failed) in this poll; for a
 * dynamic mi's failure, of the first `spawned` copies, exactly that many having spawned. */
typedef struct {
    sentry *s;
    alternatives_of *union_of;
    const pattern *p;
    const char *path;
    bool failing;
    long spawned; /* 0: any */
    size_t only, index; /* the one subset written (SIZE_MAX: all), and this one's number */
} part_subset;

static void part_subset_alternative(compiler *c, const size_t *chosen, size_t k, void *ctxp) {
    (void)c;
    part_subset *x = ctxp;
    if (x->only != SIZE_MAX && x->index++ != x->only)
        return;
    union_next(x->s, x->union_of);
    for (size_t i = 0; i < k; i++) {
        char child[PATH_SIZE];
        const pattern *term = part(x->p, chosen[i], x->path, child, sizeof child);
        if (x->failing)
            failed_now(x->s, term, child);
        else
            ended_now(x->s, term, child);
    }
    if (x->spawned) {
        char copy[PATH_SIZE];
        child_path(copy, sizeof copy, x->path, (size_t)x->spawned - 1);
        started(x->s, copy);
        if (x->spawned < x->p->max) {
            child_path(copy, sizeof copy, x->path, (size_t)x->spawned);
            stage_not(x->s, copy, "gsm:active");
            stage_not(x->s, copy, NULL);
        }
    }
}

/* ended(T), or T ends in this poll by what the agent reads in it (a task's answer), through every term
 * that ends with it: what a join short of its K counts, so that the poll recording its K-th part's end
 * closes the rest. */
static void ended_now(sentry *s, const pattern *p, const char *path) {
    char ref[PATH_SIZE + 8], child[PATH_SIZE];
    alternatives_of a;
    union_begin(s, &a);
    union_next(s, &a);
    ended(s, p, path);
    size_t n = part_count(p), k = parts_needed(p);
    switch (p->kind) {
    case PAT_TASK:
        union_next(s, &a); /* its stage open: a call of an earlier activation may be answered */
        call_state(s, stage_ref(ref, sizeof ref, path), "answered", true);
        union_next(s, &a);
        answer_now(s, ref, NULL, false);
        break;
    case PAT_SEQ:
    case PAT_LOOP:
        if (p->kind == PAT_LOOP && p->loop != LOOP_COUNT) {
            union_next(s, &a);
            if (p->loop == LOOP_WHILE)
                does_not_hold(s, p->name);
            else
                holds(s, p->name);
            ended_now(s, part(p, 0, path, child, sizeof child), child);
        } else if (n) {
            union_next(s, &a);
            ended_now(s, part(p, n - 1, path, child, sizeof child), child);
        }
        break;
    case PAT_JOIN:
    case PAT_MI:
        if (k < n || !p->mi_dynamic) { /* a dynamic mi over all: its copies spawned are known a poll later */
            part_subset x = {.s = s, .union_of = &a, .p = p, .path = path, .only = SIZE_MAX};
            subsets(s->c, n, k, part_subset_alternative, &x);
        }
        break;
    case PAT_XOR:
    case PAT_DEFER:
        for (size_t i = 0; i < n; i++) {
            union_next(s, &a);
            ended_now(s, part(p, i, path, child, sizeof child), child);
        }
        break;
    case PAT_CANCEL:
        union_next(s, &a);
        ended_now(s, part(p, 0, path, child, sizeof child), child);
        if (p->scope != CANCEL_CASE) {
            union_next(s, &a);
            holds(s, p->name);
            stage_active(s, path);
        }
        break;
    }
    union_end(s, &a);
}

/* The barriers below p whose failure fails p at once: those reached through parts that fail with any
 * of theirs; the `only`-th of them (SIZE_MAX: every one), *seen counting them. */
static void barriers_below(sentry *s, alternatives_of *a, const pattern *p, const char *path, size_t only,
                           size_t *seen) {
    for (size_t i = 0; i < part_count(p) && !s->c->failed; i++) {
        char child[PATH_SIZE];
        const pattern *term = part(p, i, path, child, sizeof child);
        if (barrier(term)) {
            if (only != SIZE_MAX && (*seen)++ != only)
                continue;
            union_next(s, a);
            stage_active(s, child);
            failing(s, term, child);
        } else if (term->kind != PAT_TASK) {
            barriers_below(s, a, term, child, only, seen);
        }
    }
}

/* How many barriers barriers_below reaches below p. */
static size_t barrier_count(const pattern *p) {
    size_t n = 0;
    for (size_t i = 0; i < part_count(p); i++) {
        char child[PATH_SIZE];
        const pattern *term = part(p, i, "1", child, sizeof child);
        n += barrier(term) ? 1 : term->kind != PAT_TASK ? barrier_count(term) : 0;
    }
    return n;
}

/* T's failed milestone is achieved, or T fails in this poll: a task's call refused or exhausted, read
 * through every term that fails with it (pat:failsUpTo), and every barrier below whose count or
 * condition is met in this poll. A split site: the milestone; the failure in this poll but through a
 * barrier; each barrier's. */
static void failed_now(sentry *s, const pattern *p, const char *path) {
    char ref[PATH_SIZE + 8];
    stage_ref(ref, sizeof ref, path);
    size_t below = fails_with_any_part(p) ? barrier_count(p) : 0;
    /* a task's or a term's failure read through pat:failsUpTo costs a few variables whichever way */
    size_t only = barrier(p) || below ? site(s, 2 + below) : SIZE_MAX;
    alternatives_of a;
    union_begin(s, &a);
    if (only == SIZE_MAX || only == 0) {
        union_next(s, &a);
        achieved(s, path, "failed");
    }
    if ((only == SIZE_MAX || only == 1) && p->kind == PAT_TASK) {
        union_next(s, &a);
        call_state(s, ref, "exhausted", true);
        union_next(s, &a);
        char last[24];
        snprintf(last, sizeof last, "%ld", alternatives(s->c, terms_iri_cstr(s->c->t, p->name)));
        answer_now(s, ref, last, true);
    } else if ((only == SIZE_MAX || only == 1) && fails_with_any_part(p)) {
        union_next(s, &a);
        failed_below(s, ref);
        union_next(s, &a);
        task_failing_below(s, ref, false);
        union_next(s, &a);
        task_failing_below(s, ref, true);
    } else if (only == SIZE_MAX || only == 1) {
        union_next(s, &a);
        stage_active(s, path);
        failing(s, p, path);
    }
    size_t seen = 0;
    if (below && (only == SIZE_MAX || only >= 2))
        barriers_below(s, &a, p, path, only == SIZE_MAX ? SIZE_MAX : only - 2, &seen);
    union_end(s, &a);
}

/* How many k-subsets n things have. */
static size_t choose(size_t n, size_t k) {
    size_t r = 1;
    for (size_t i = 1; i <= k; i++)
        r = r * (n - k + i) / i;
    return r;
}

/* A barrier's own failure, its parts read as failed in this poll: a cancel's body failed and its event
 * does not hold; N - K + 1 of a join's N parts failed (of a dynamic mi's spawned copies). A split site:
 * each subset. */
static void failing(sentry *s, const pattern *p, const char *path) {
    char child[PATH_SIZE];
    if (p->kind == PAT_CANCEL) {
        failed_now(s, part(p, 0, path, child, sizeof child), child);
        does_not_hold(s, p->name);
        return;
    }
    size_t k = parts_needed(p), n = part_count(p), alternatives = 0;
    if (!p->mi_dynamic)
        alternatives = choose(n, n - k + 1);
    else
        for (long spawned = (long)k; spawned <= p->max; spawned++)
            alternatives += choose((size_t)spawned, (size_t)spawned - k + 1);
    alternatives_of a;
    union_begin(s, &a);
    part_subset x = {.s = s, .union_of = &a, .p = p, .path = path, .failing = true, .only = site(s, alternatives)};
    if (!p->mi_dynamic) {
        subsets(s->c, n, n - k + 1, part_subset_alternative, &x);
    } else {
        for (x.spawned = (long)k; x.spawned <= p->max && !s->c->failed; x.spawned++)
            subsets(s->c, (size_t)x.spawned, (size_t)x.spawned - k + 1, part_subset_alternative, &x);
    }
    union_end(s, &a);
}

/* The failed milestone's sentries of a term that fails with any of its parts: a stage below whose failure
 * fails it failed, or a task so below fails in this poll (read through pat:failsUpTo: the same three
 * sentries however big the term), or a barrier so below does (its sentry, given by compile_term). */
static void failures(compiler *c, const char *path, sentry_list *l) {
    char ref[PATH_SIZE + 8];
    stage_ref(ref, sizeof ref, path);
    sentry s;
    sentry_begin(c, &s);
    failed_below(&s, ref);
    add_sentry(&s, l, path, "failed-if", 0, "a part failed, or a term below that fails it");
    sentry_begin(c, &s);
    task_failing_below(&s, ref, false);
    add_sentry(&s, l, path, "failed-if", 2, "a task below that fails it: its call is exhausted (TASK-ERROR)");
    sentry_begin(c, &s);
    task_failing_below(&s, ref, true);
    add_sentry(&s, l, path, "failed-if", 3, "a task below that fails it: its last alternative refused it in this poll");
}

typedef struct {
    const pattern *body; /* the child's term when all children are copies of one (mi, count); else NULL */
    const pattern *parent;
    const char *path;
    const char *what; /* "done-if" or "failed-if" */
    bool failing;
    sentry_list *into;
    bool spawned; /* mi dynamic: also require that exactly `exactly` copies spawned */
    long exactly;
    size_t counter;
} subset_ctx;

typedef struct {
    const subset_ctx *x;
    const size_t *chosen;
    size_t k;
} subset_body;

static void subset_sentry_body(sentry *s, const void *ctxp) {
    const subset_body *b = ctxp;
    const subset_ctx *x = b->x;
    for (size_t i = 0; i < b->k; i++) {
        char child[PATH_SIZE];
        child_path(child, sizeof child, x->path, b->chosen[i]);
        const pattern *term = x->body ? x->body : x->parent->children[b->chosen[i]];
        if (x->failing)
            failed_now(s, term, child);
        else
            ended_now(s, term, child);
    }
    if (x->spawned) {
        char copy[PATH_SIZE];
        child_path(copy, sizeof copy, x->path, (size_t)x->exactly - 1);
        started(s, copy);
        if (x->exactly < x->parent->max) {
            child_path(copy, sizeof copy, x->path, (size_t)x->exactly);
            stage_not(s, copy, "gsm:active");
            stage_not(s, copy, NULL);
        }
    }
}

static void subset_sentry(compiler *c, const size_t *chosen, size_t k, void *ctxp) {
    subset_ctx *x = ctxp;
    subset_body b = {.x = x, .chosen = chosen, .k = k};
    char id[ID_SIZE];
    sentry_id(id, sizeof id, x->path, x->what, ++x->counter);
    char comment[128];
    snprintf(comment, sizeof comment, "%zu of the parts %s", k, x->failing ? "failed" : "ended");
    split_sentry(c, subset_sentry_body, &b, id, comment, x->into);
}

/* done and failed of a join over n parts (children[i], or n copies of body) with p's policy. For mi
 * dynamic the parts are copies 1..MAX, of which those past the list's length never start. */
static void join_milestones(compiler *c, const pattern *p, const char *path, size_t n, const pattern *body) {
    sentry_list done = {0}, failed = {0};
    bool all = p->policy == JOIN_ALL || p->policy == JOIN_SYNC_MERGE;
    size_t k = all ? n : (size_t)p->k;
    const char *list = p->kind == PAT_MI && p->mi_dynamic ? p->name : NULL;
    if (all && !list) {
        sentry s;
        sentry_begin(c, &s);
        every_child_ended(&s, path);
        add_sentry(&s, &done, path, "done-if", 0, "every part ended");
        failures(c, path, &failed);
    } else if (all) {
        /* the copies spawned (all at once) ended: some ended, none runs, none failed; or there were none */
        sentry s;
        sentry_begin(c, &s);
        some_child_ended(&s, path);
        no_child_in(&s, path, "gsm:hasState gsm:active");
        no_child_failed(&s, path);
        add_sentry(&s, &done, path, "done-if", 0, "the copies spawned ended");
        if (p->min == 0) {
            sentry_begin(c, &s);
            items_exactly(&s, list, 0);
            no_child_started(&s, path, 0);
            add_sentry(&s, &done, path, "done-if", 2, "the item list is empty at the spawn");
        }
        failures(c, path, &failed);
    } else {
        subset_ctx x = {.body = body, .parent = p, .path = path, .what = "done-if", .into = &done};
        subsets(c, n, k, subset_sentry, &x);
        if (!list) {
            subset_ctx y = {.body = body, .parent = p, .path = path, .what = "failed-if", .failing = true,
                            .into = &failed};
            subsets(c, n, n - k + 1, subset_sentry, &y);
        } else {
            /* N copies spawned (copy N started, copy N + 1 did not): N - K + 1 of them failed leave fewer
             * than K to end */
            subset_ctx y = {.body = body, .parent = p, .path = path, .what = "failed-if", .failing = true,
                            .into = &failed, .spawned = true};
            for (long spawned = (long)k; spawned <= p->max && !c->failed; spawned++) {
                y.exactly = spawned;
                subsets(c, (size_t)spawned, (size_t)spawned - k + 1, subset_sentry, &y);
            }
        }
    }
    if (list) {
        /* at the spawn: fewer items than MIN (or than K), or more than MAX */
        long need = all ? p->min : (p->min > (long)k ? p->min : (long)k);
        if (need > 0) {
            sentry s;
            sentry_begin(c, &s);
            item(&s, list, need, false);
            no_child_started(&s, path, 0);
            add_sentry(&s, &failed, path, "too-few", 0, "at the spawn, the item list is shorter than MIN (or K)");
        }
        sentry s;
        sentry_begin(c, &s);
        item(&s, list, p->max + 1, true);
        no_child_started(&s, path, 0);
        add_sentry(&s, &failed, path, "too-many", 0, "at the spawn, the item list is longer than MAX");
    }
    milestone(c, path, "done", "done", &done, NULL);
    milestone(c, path, "failed", "failed", &failed, NULL);
}

/* ---- the kernels ---- */

static void compile_task(compiler *c, const pattern *p, const char *path) {
    term_id stage = stage_iri(c, path);
    term_id request = terms_iri_cstr(c->t, p->name);
    bool described = store_first_object(c->names, request, iri(c, HTTP_mthd)) ||
                     store_first_object(c->names, request, iri(c, LDGSM_alternatives));
    if (!described) {
        buf shown = {0};
        name_for_message(c, p->name, &shown);
        fail(c, "task %s: the names document describes no request by that name (an http:Request with "
                "http:mthd, or an ldgsm:Call with ldgsm:alternatives)",
             buf_cstr(&shown));
        buf_free(&shown);
        return;
    }
    emit(c, stage, c->g.has_request, request);
    char last[24]; /* the alternative whose refusal fails the task, for the sentries above it */
    snprintf(last, sizeof last, "%ld", alternatives(c, request));
    emit(c, stage, iri(c, NS_PAT "lastAlternative"), terms_literal(c->t, last, strlen(last), T_XSD_INTEGER, NULL, 0));
    size_t i = 0;
    while (i < c->task_count && strcmp(c->tasks[i], p->name) != 0)
        i++;
    if (i == c->task_count) {
        c->tasks = xrealloc(c->tasks, (c->task_count + 1) * sizeof *c->tasks);
        c->tasks[c->task_count++] = xstrndup(p->name, strlen(p->name));
    }
    sentry_list done = {0}, failed = {0};
    sentry s;
    sentry_begin(c, &s);
    char ref[PATH_SIZE + 8];
    call_state(&s, stage_ref(ref, sizeof ref, path), "answered", false);
    add_sentry(&s, &done, path, "done-if", 0, "the task's call was answered (2xx)");
    /* The answer the agent reports into the iteration after the send ends the task in the same write
     * that records it on the call, a poll sooner than reading the record back: a 2xx (202 aside) under
     * the call's current key is Response (Success) of rules/calls.n3; a 4xx it does not retry (all
     * but 408, 409, 429) to the current attempt of the last alternative exhausts the call. */
    sentry_begin(c, &s);
    answer_now(&s, ref, NULL, false);
    add_sentry(&s, &done, path, "done-if", 2, "a 2xx answer to the task's call came in this poll");
    sentry_begin(c, &s);
    call_state(&s, ref, "exhausted", false);
    add_sentry(&s, &failed, path, "failed-if", 0, "the task's call is exhausted (TASK-ERROR)");
    sentry_begin(c, &s);
    answer_now(&s, ref, last, true);
    add_sentry(&s, &failed, path, "failed-if", 2, "its last alternative refused the task in this poll (TASK-ERROR)");
    milestone(c, path, "done", "done", &done, NULL);
    milestone(c, path, "failed", "failed", &failed, NULL);
}

/* Children in sequence: the first starts with the parent, each next when the one before ended. */
static void sequence(compiler *c, const pattern *p, const char *path, size_t n, const pattern *body) {
    for (size_t i = 0; i < n && !c->failed; i++) {
        char child[PATH_SIZE], previous[PATH_SIZE], suffix[64];
        child_path(child, sizeof child, path, i);
        add_child(c, path, child);
        const pattern *term = body ? body : p->children[i];
        snprintf(suffix, sizeof suffix, " (%s %zu of %zu)", body ? "copy" : "part", i + 1, n);
        compile_term(c, term, child, suffix);
        if (i == 0) {
            guard_always(c, child);
        } else {
            child_path(previous, sizeof previous, path, i - 1);
            sentry s;
            sentry_begin(c, &s);
            ended(&s, body ? body : p->children[i - 1], previous);
            char id[ID_SIZE];
            sentry_id(id, sizeof id, child, "start", 0);
            term_id cond = sentry_end(&s, id, "the part before it ended");
            guard(c, child, "after the part before it", &cond, 1);
        }
    }
    sentry_list done = {0}, failed = {0};
    sentry s;
    sentry_begin(c, &s);
    if (n) {
        char last[PATH_SIZE];
        child_path(last, sizeof last, path, n - 1);
        ended(&s, body ? body : p->children[n - 1], last);
    }
    add_sentry(&s, &done, path, "done-if", 0, n ? "the last part ended" : "nothing to do");
    failures(c, path, &failed);
    milestone(c, path, "done", "done", &done, NULL);
    milestone(c, path, "failed", "failed", &failed, NULL);
}

static void parallel(compiler *c, const pattern *p, const char *path, size_t n, const pattern *body,
                     const char *dynamic_list) {
    for (size_t i = 0; i < n && !c->failed; i++) {
        char child[PATH_SIZE], suffix[64];
        child_path(child, sizeof child, path, i);
        const char *outer_copy = c->within_copy;
        if (body) /* a copy has an index and item of its own, not those of a copy around it */
            c->within_copy = NULL;
        add_child(c, path, child);
        snprintf(suffix, sizeof suffix, " (%s %zu of %zu)", body ? "copy" : "branch", i + 1, n);
        if (body)
            c->within_copy = child;
        compile_term(c, body ? body : p->children[i], child, suffix);
        c->within_copy = outer_copy;
        if (body) { /* the copy's index and item, for pat:thisIndex and pat:thisItem (docs/DESIGN.md §8.5) */
            char index[24];
            snprintf(index, sizeof index, "%zu", i + 1);
            emit(c, stage_iri(c, child), iri(c, NS_PAT "copyIndex"),
                 terms_literal(c->t, index, strlen(index), T_XSD_INTEGER, NULL, 0));
            term_id of, property;
            if (dynamic_list && list_parts(c, dynamic_list, &of, &property)) {
                emit(c, stage_iri(c, child), iri(c, NS_PAT "itemsOf"), of);
                emit(c, stage_iri(c, child), iri(c, NS_PAT "itemsProperty"), property);
            }
        }
        if (!dynamic_list) {
            guard_always(c, child);
            continue;
        }
        /* MI-SPAWN-DYNAMIC computes N once: every copy with an item starts in the one poll after the mi
         * opens, and none after a copy started */
        sentry s;
        sentry_begin(c, &s);
        item(&s, dynamic_list, (long)i + 1, true);
        no_child_started(&s, path, 0);
        char id[ID_SIZE];
        sentry_id(id, sizeof id, child, "start", 0);
        term_id cond = sentry_end(&s, id, "the item list has this copy's item, and the copies have not started");
        guard(c, child, "the item list has this copy's item (at the spawn)", &cond, 1);
    }
    join_milestones(c, p, path, n, body);
}

/* xor and defer: branch i starts when its condition (event) holds, no earlier one does, and no other
 * branch started; a xor's else when none holds. */
static void choice(compiler *c, const pattern *p, const char *path) {
    for (size_t i = 0; i < p->n && !c->failed; i++) {
        char child[PATH_SIZE], id[ID_SIZE];
        child_path(child, sizeof child, path, i);
        add_child(c, path, child);
        compile_term(c, p->children[i], child, " (branch)");
        sentry s;
        sentry_begin(c, &s);
        if (p->guards[i])
            holds(&s, p->guards[i]);
        for (size_t j = 0; j < (p->guards[i] ? i : p->n); j++)
            if (p->guards[j])
                does_not_hold(&s, p->guards[j]);
        no_child_started(&s, path, i + 1);
        sentry_id(id, sizeof id, child, "start", 0);
        term_id cond = sentry_end(&s, id,
                                  p->guards[i] ? "its condition holds, no earlier one does, no other branch started"
                                               : "no condition holds and no other branch started");
        /* the whole name: a label cut to a fixed size could end inside a UTF-8 sequence */
        buf label = {0};
        buf_printf(&label, "%s ", p->guards[i] ? (p->kind == PAT_XOR ? "when" : "on") : "else");
        if (p->guards[i])
            name_for_message(c, p->guards[i], &label);
        guard(c, child, buf_cstr(&label), &cond, 1);
        buf_free(&label);
    }
    sentry_list done = {0}, failed = {0};
    sentry s;
    sentry_begin(c, &s);
    some_child_ended(&s, path);
    add_sentry(&s, &done, path, "done-if", 0, "the chosen branch ended");
    failures(c, path, &failed);
    bool has_else = p->kind == PAT_XOR && !p->guards[p->n - 1];
    if (p->kind == PAT_XOR && !has_else && !c->failed) {
        sentry_begin(c, &s);
        for (size_t j = 0; j < p->n; j++)
            does_not_hold(&s, p->guards[j]);
        no_child_started(&s, path, 0);
        add_sentry(&s, &failed, path, "no-choice", 0, "no branch's condition holds, and there is no else");
    }
    milestone(c, path, "done", "done", &done, NULL);
    milestone(c, path, "failed", "failed", &failed, NULL);
}

/* while and until: the iteration stage P.1 holds the body P.1.1 and runs again when its done milestone
 * is invalidated (while: the condition holds; until: it does not), both only while the loop is active. */
static void loop_conditional(compiler *c, const pattern *p, const char *path) {
    char iteration[PATH_SIZE], body[PATH_SIZE], id[ID_SIZE];
    child_path(iteration, sizeof iteration, path, 0);
    child_path(body, sizeof body, iteration, 0);
    bool is_while = p->loop == LOOP_WHILE;
    add_child(c, path, iteration);
    stage_header(c, stage_iri(c, iteration), "iteration of ", p, "");
    if (is_while) {
        sentry s;
        sentry_begin(c, &s);
        holds(&s, p->name);
        sentry_id(id, sizeof id, iteration, "start", 0);
        term_id cond = sentry_end(&s, id, "the loop's condition holds (LOOP-WHILE)");
        guard(c, iteration, "while the condition holds", &cond, 1);
    } else {
        guard_always(c, iteration);
    }
    add_child(c, iteration, body);
    fail_chain outer = fails_up_enter(c, iteration, true);
    compile_term(c, p->children[0], body, " (loop body)");
    fails_up_leave(c, outer);
    guard_always(c, body);
    sentry_list done = {0}, again = {0}, failed = {0};
    sentry s;
    sentry_begin(c, &s);
    ended(&s, p->children[0], body);
    add_sentry(&s, &done, iteration, "done-if", 0, "the body ended");
    sentry_begin(c, &s);
    if (is_while)
        holds(&s, p->name);
    else
        does_not_hold(&s, p->name);
    stage_active(&s, path);
    add_sentry(&s, &again, iteration, "again-if", 0,
               is_while ? "the condition still holds: run the body again"
                        : "the condition does not hold yet: run the body again");
    failures(c, iteration, &failed);
    milestone(c, iteration, "done", "done", &done, &again);
    milestone(c, iteration, "failed", "failed", &failed, NULL);

    sentry_list loop_done = {0}, loop_failed = {0};
    sentry_begin(c, &s);
    if (is_while) {
        does_not_hold(&s, p->name);
        stage_not(&s, iteration, "gsm:active");
        not_achieved(&s, iteration, "failed");
    } else {
        achieved(&s, iteration, "done");
        holds(&s, p->name);
    }
    add_sentry(&s, &loop_done, path, "done-if", 0,
               is_while ? "the condition does not hold and no iteration runs"
                        : "an iteration ended and the condition holds");
    failures(c, path, &loop_failed);
    milestone(c, path, "done", "done", &loop_done, NULL);
    milestone(c, path, "failed", "failed", &loop_failed, NULL);
}

/* A term and its path, what a sentry body reads. */
typedef struct {
    const pattern *p;
    const char *path;
} term_at;

static void cancel_failed(sentry *s, const void *ctx) {
    const term_at *at = ctx;
    char child[PATH_SIZE];
    failed_now(s, part(at->p, 0, at->path, child, sizeof child), child);
    does_not_hold(s, at->p->name);
}

static void barrier_failing(sentry *s, const void *ctx) {
    const term_at *at = ctx;
    stage_active(s, at->path);
    failing(s, at->p, at->path);
}

static void cancel(compiler *c, const pattern *p, const char *path) {
    char body[PATH_SIZE];
    child_path(body, sizeof body, path, 0);
    add_child(c, path, body);
    compile_term(c, p->children[0], body, " (cancel scope)");
    guard_always(c, body);
    sentry_list done = {0}, cancelled = {0}, failed = {0};
    sentry s;
    sentry_begin(c, &s);
    ended(&s, p->children[0], body);
    add_sentry(&s, &done, path, "done-if", 0, "the body ended");
    /* done wins over cancelled, cancelled over failed, when they come in one poll */
    sentry_begin(c, &s);
    holds(&s, p->name);
    not_ended(&s, p->children[0], body);
    add_sentry(&s, &cancelled, path, "cancelled-if", 0, "the cancelling event holds (CANCEL-PROPAGATE)");
    char id[ID_SIZE];
    sentry_id(id, sizeof id, path, "failed-if", 0);
    split_sentry(c, cancel_failed, &(term_at){p, path}, id, "the body failed (in this poll, or before)", &failed);
    milestone(c, path, "done", "done", &done, NULL);
    milestone(c, path, "cancelled", "cancelled", &cancelled, NULL);
    milestone(c, path, "failed", "failed", &failed, NULL);
    if (p->scope != CANCEL_CASE) /* a cancelled region or activity lets what follows it go on */
        emit(c, stage_iri(c, path), iri(c, NS_PAT "endedBy"), part_iri(c, path, "cancelled"));
    if (p->scope == CANCEL_CASE) {
        c->case_cancels = xrealloc(c->case_cancels, (c->case_cancel_count + 1) * sizeof *c->case_cancels);
        c->case_cancels[c->case_cancel_count++] = xstrndup(path, strlen(path));
    }
}

static void compile_term(compiler *c, const pattern *p, const char *path, const char *label_suffix) {
    if (c->failed)
        return;
    stage_header(c, stage_iri(c, path), "", p, label_suffix ? label_suffix : "");
    fail_chain outer = fails_up_enter(c, path, fails_with_any_part(p));
    size_t k = 0;
    while (k < c->counted_count && strcmp(c->counted[k], path) != 0)
        k++;
    if (k < c->counted_count) {
        sentry s;
        sentry_begin(c, &s);
        ended_now(&s, p, path);
        char id[ID_SIZE];
        sentry_id(id, sizeof id, path, "ends-now", 0);
        term_id node = sentry_end(&s, id, "it ends in this poll, which a join around it counts");
        c->extras = xrealloc(c->extras, (c->extra_count + 1) * sizeof *c->extras);
        c->extras[c->extra_count++] = (struct extra_sentry){xstrndup(path, strlen(path)), "done", node};
    }
    switch (p->kind) {
    case PAT_TASK: compile_task(c, p, path); break;
    case PAT_SEQ: sequence(c, p, path, p->n, NULL); break;
    case PAT_JOIN: parallel(c, p, path, p->n, NULL, NULL); break;
    case PAT_XOR:
    case PAT_DEFER: choice(c, p, path); break;
    case PAT_LOOP:
        if (p->loop == LOOP_COUNT)
            sequence(c, p, path, (size_t)p->count, p->children[0]);
        else
            loop_conditional(c, p, path);
        break;
    case PAT_CANCEL: cancel(c, p, path); break;
    case PAT_MI: {
        size_t copies = (size_t)(p->mi_dynamic ? p->max : p->count);
        char count[24];
        snprintf(count, sizeof count, "%zu", copies);
        /* how many copies it has (a dynamic mi: at most): the rules record how many spawned (pat:spawned) */
        emit(c, stage_iri(c, path), iri(c, NS_PAT "copyCount"),
             terms_literal(c->t, count, strlen(count), T_XSD_INTEGER, NULL, 0));
        parallel(c, p, path, copies, p->children[0], p->mi_dynamic ? p->name : NULL);
        break;
    }
    }
    fails_up_leave(c, outer);
    if (barrier(p) && outer.count && !c->failed) {
        /* its failure in this poll fails at once the stages its own failure does: their failed
         * milestones take this sentry too (failures) */
        char id[ID_SIZE];
        sentry_id(id, sizeof id, path, "failing", 0);
        sentry_list nodes = {0};
        split_sentry(c, barrier_failing, &(term_at){p, path}, id,
                     "it fails in this poll, and so do the terms around it that fail with it", &nodes);
        c->extras = xrealloc(c->extras, (c->extra_count + outer.count * nodes.n) * sizeof *c->extras);
        for (size_t i = 0; i < outer.count; i++)
            for (size_t j = 0; j < nodes.n; j++)
                c->extras[c->extra_count++] =
                    (struct extra_sentry){xstrndup(outer.paths[i], strlen(outer.paths[i])), "failed", nodes.items[j]};
        free(nodes.items);
    }
}

/* The terms whose end a join short of its K reads in the poll it happens (ended_now's descent): its parts,
 * and below them what ends with them (a seq's last part, every part of a join, the branches of a xor or
 * defer, a loop's or cancel's body). Their done milestones are achieved in that poll too, so that the
 * status shows what the join counted. */
static void mark_counted(compiler *c, const pattern *p, const char *path, bool counted) {
    bool joins_some = (p->kind == PAT_JOIN || p->kind == PAT_MI) && parts_needed(p) < part_count(p);
    if (counted && p->kind != PAT_TASK && !joins_some) {
        c->counted = xrealloc(c->counted, (c->counted_count + 1) * sizeof *c->counted);
        c->counted[c->counted_count++] = xstrndup(path, strlen(path));
    }
    bool dynamic_all = p->kind == PAT_MI && p->mi_dynamic && !joins_some;
    size_t n = part_count(p);
    for (size_t i = 0; i < n; i++) {
        char child[PATH_SIZE];
        const pattern *term = part(p, i, path, child, sizeof child);
        bool ends_with_it = !dynamic_all && !((p->kind == PAT_SEQ || p->kind == PAT_LOOP) && i + 1 < n);
        mark_counted(c, term, child, joins_some || (counted && ends_with_it));
    }
}

/* The root: one child, the term's stage <#s1>; done when it ended, failed when it failed, cancelled
 * when a case cancel was. */
static void compile_root(compiler *c, const pattern *p) {
    term_id root = iri(c, "%s#root", c->base);
    stage_header(c, root, "workflow ", p, "");
    emit(c, root, c->g.has_child, stage_iri(c, "1"));
    mark_counted(c, p, "1", false);
    compile_term(c, p, "1", NULL);
    guard_always(c, "1");
    if (c->failed)
        return;
    /* The root's milestones exclude each other, cancelled first, then failed, then done, so that a
     * workflow ends one way even when the events come in one poll. */
    sentry_list done = {0}, failed = {0}, cancelled = {0};
    sentry s;
    sentry_begin(c, &s);
    ended(&s, p, "1");
    not_achieved(&s, "1", "failed");
    for (size_t i = 0; i < c->case_cancel_count; i++)
        not_achieved(&s, c->case_cancels[i], "cancelled");
    sentry_list_add(c, &done, sentry_end(&s, "root-done-if", "the workflow's term ended"));
    sentry_begin(c, &s);
    achieved(&s, "1", "failed");
    for (size_t i = 0; i < c->case_cancel_count; i++)
        not_achieved(&s, c->case_cancels[i], "cancelled");
    sentry_list_add(c, &failed, sentry_end(&s, "root-failed-if", "the workflow's term failed"));
    for (size_t i = 0; i < c->case_cancel_count; i++) {
        char id[ID_SIZE];
        sentry_begin(c, &s);
        achieved(&s, c->case_cancels[i], "cancelled");
        snprintf(id, sizeof id, "root-cancelled-if-%zu", i + 1);
        sentry_list_add(c, &cancelled, sentry_end(&s, id, "a case cancel was cancelled (the whole case ends)"));
    }
    milestone_node(c, root, iri(c, "%s#root-done", c->base), "done", &done, NULL);
    term_id root_failed = iri(c, "%s#root-failed", c->base);
    if (failed.n) /* --until complete tells a failed workflow by it (exit 5) */
        emit(c, root_failed, c->rdf_type, iri(c, LDGSM_FailureMilestone));
    milestone_node(c, root, root_failed, "failed", &failed, NULL);
    milestone_node(c, root, iri(c, "%s#root-cancelled", c->base), "cancelled", &cancelled, NULL);
}

/* The triples describing a task: its own, its blank nodes' (headers), its alternatives' when it is a
 * call, and its argument queries' and results' (docs/DESIGN.md §8.3, §8.4), recursively; each subject once. */
static void copy_description(compiler *c, term_id node, term_id **seen, size_t *seen_count) {
    for (size_t i = 0; i < *seen_count; i++)
        if ((*seen)[i] == node)
            return;
    *seen = xrealloc(*seen, (*seen_count + 1) * sizeof **seen);
    (*seen)[(*seen_count)++] = node;
    term_id alternatives = iri(c, LDGSM_alternatives), arguments = iri(c, LDGSM_arguments),
            results = iri(c, LDGSM_results);
    store_iter it;
    store_match(c->names, node, 0, 0, 0, store_size(c->names), &it);
    const triple *tr;
    uint32_t n;
    term_id *objects = NULL;
    size_t object_count = 0;
    while ((tr = store_next(&it, &n))) {
        emit(c, tr->s, tr->p, tr->o);
        if (terms_kind(c->t, tr->o) == TERM_BNODE || tr->p == alternatives || tr->p == arguments ||
            tr->p == results || tr->p == c->rdf_first || tr->p == c->rdf_rest) {
            objects = xrealloc(objects, (object_count + 1) * sizeof *objects);
            objects[object_count++] = tr->o;
        }
    }
    /* an alternatives list's cells name requests: their descriptions come too */
    for (size_t i = 0; i < object_count; i++)
        if (terms_kind(c->t, objects[i]) == TERM_BNODE || terms_kind(c->t, objects[i]) == TERM_IRI)
            copy_description(c, objects[i], seen, seen_count);
    free(objects);
}

/* ---- the model's size, counted on the term before anything is built ---- */

/* a + b and a * b, saturating at UINT64_MAX (nested copies multiply: 64 levels of 1000 overflow) */
static uint64_t add_sat(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }
static uint64_t mul_sat(uint64_t a, uint64_t b) { return b && a > UINT64_MAX / b ? UINT64_MAX : a * b; }

/* The stages term p compiles to, its own and all below (the kernels above: a loop by count and an mi are
 * their body's stages once per copy, a while/until loop adds its iteration stage). *over becomes the
 * innermost term whose stages pass limit, so the error points at what multiplies. */
static uint64_t stage_count(const pattern *p, uint64_t limit, const pattern **over) {
    uint64_t below = 0;
    for (size_t i = 0; i < p->n; i++)
        below = add_sat(below, stage_count(p->children[i], limit, over));
    uint64_t stages = 1;
    if (p->kind == PAT_LOOP && p->loop == LOOP_COUNT)
        stages = add_sat(stages, mul_sat((uint64_t)p->count, below));
    else if (p->kind == PAT_MI)
        stages = add_sat(stages, mul_sat((uint64_t)(p->mi_dynamic ? p->max : p->count), below));
    else
        stages = add_sat(stages + (p->kind == PAT_LOOP), below);
    if (stages > limit && !*over)
        *over = p;
    return stages;
}

int pattern_compile(terms *t, store *names, const char *model_base, const pattern *p, triple **out,
                    size_t *count, char *err, size_t err_len) {
    return pattern_compile_bounded(t, names, model_base, p, PATTERN_DEFAULT_MAX_STAGES, out, count, err, err_len);
}

int pattern_compile_bounded(terms *t, store *names, const char *model_base, const pattern *p, size_t max_stages,
                            triple **out, size_t *count, char *err, size_t err_len) {
    const pattern *over = NULL;
    /* the root is a stage too; stage_count sets over whenever the total passes */
    uint64_t stages = add_sat(1, stage_count(p, max_stages > 0 ? max_stages - 1 : 0, &over));
    if (stages > max_stages) {
        buf term = {0};
        pattern_format(over, model_base, 80, &term);
        if (over->line)
            buf_printf(&term, " at %d:%d", over->line, over->col);
        char figure[32];
        if (stages == UINT64_MAX) /* saturated: the count passed 1.8e19 */
            snprintf(figure, sizeof figure, "more than 10^19");
        else
            snprintf(figure, sizeof figure, "%" PRIu64, stages);
        snprintf(err, err_len, "the term %s makes the model %s stages; it may have %zu (--max-stages): fewer "
                 "copies or iterations, or a loop until a condition", buf_cstr(&term), figure, max_stages);
        buf_free(&term);
        return -1;
    }
    compiler c = {.t = t, .names = names, .base = model_base, .err = err, .err_len = err_len};
    c.rdf_type = iri(&c, RDF_type);
    c.rdf_first = iri(&c, RDF_first);
    c.rdf_rest = iri(&c, RDF_rest);
    c.rdfs_label = iri(&c, RDFS_label);
    c.rdfs_comment = iri(&c, RDFS_comment);
    gsm_model_terms_init(&c.g, t);
    agent_vocab_init(&c.agent, t);
    compile_root(&c, p);
    sentry_text_parser_free(c.parser);
    term_id *seen = NULL;
    size_t seen_count = 0;
    for (size_t i = 0; i < c.task_count && !c.failed; i++)
        copy_description(&c, terms_iri_cstr(t, c.tasks[i]), &seen, &seen_count);
    free(seen);
    for (size_t i = 0; i < c.task_count; i++)
        free(c.tasks[i]);
    free(c.tasks);
    for (size_t i = 0; i < c.case_cancel_count; i++)
        free(c.case_cancels[i]);
    free(c.case_cancels);
    for (size_t i = 0; i < c.extra_count; i++)
        free(c.extras[i].path);
    free(c.extras);
    for (size_t i = 0; i < c.counted_count; i++)
        free(c.counted[i]);
    free(c.counted);
    if (c.failed) {
        free(c.out);
        return -1;
    }
    *out = c.out;
    *count = c.count;
    return 0;
}
