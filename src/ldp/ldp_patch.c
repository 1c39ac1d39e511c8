/* ldp_patch.c: N3 Patch: the patch read with the N3 reader and checked, its where clause matched against
 * the resource's triples (a backtracking join over an indexed store), then deletes and inserts applied. */
#define _GNU_SOURCE /* memmem */
#include "ldp/ldp_patch.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "n3/n3_reader.h"
#include "rdf/rdfio.h"
#include "rdf/store.h"
#include "rdf/term_rules.h"
#include "rdf/vocab_ns.h"

enum { MAX_VARS = 3 * LDP_PATCH_MAX_WHERE };

static int refuse(char *message, size_t size, int status, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int refuse(char *message, size_t size, int status, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    vsnprintf(message, size, fmt, args);
    va_end(args);
    return status;
}

/* The patch's three formulas; 0 for a clause left out (the empty formula). */
typedef struct clauses {
    term_id inserts, deletes, where;
} clauses;

/* Finds the one solid:InsertDeletePatch node and its clauses. 0 or 422. */
static int read_clauses(terms *t, const n3_doc *doc, clauses *c, char *message, size_t size) {
    term_id patch_type = terms_iri_cstr(t, NS_SOLID "InsertDeletePatch");
    term_id predicates[3] = {terms_iri_cstr(t, NS_SOLID "inserts"), terms_iri_cstr(t, NS_SOLID "deletes"),
                             terms_iri_cstr(t, NS_SOLID "where")};
    static const char *const names[3] = {"solid:inserts", "solid:deletes", "solid:where"};
    term_id patch = 0;
    for (size_t i = 0; i < doc->count; i++) {
        const triple *s = &doc->statements[i].t;
        if (s->p != T_RDF_TYPE || s->o != patch_type)
            continue;
        if (patch && patch != s->s)
            return refuse(message, size, 422, "the patch holds more than one solid:InsertDeletePatch");
        patch = s->s;
    }
    if (!patch)
        return refuse(message, size, 422, "the patch holds no solid:InsertDeletePatch");
    term_id *slots[3] = {&c->inserts, &c->deletes, &c->where};
    *c = (clauses){0};
    for (size_t i = 0; i < doc->count; i++) {
        const n3_statement *s = &doc->statements[i];
        for (int k = 0; k < 3; k++) {
            if (s->t.s != patch || s->t.p != predicates[k])
                continue;
            if (*slots[k])
                return refuse(message, size, 422, "line %u: %s is given twice", s->line, names[k]);
            if (terms_kind(t, s->t.o) != TERM_FORMULA)
                return refuse(message, size, 422, "line %u: the object of %s is not a formula { ... }", s->line,
                              names[k]);
            *slots[k] = s->t.o;
        }
    }
    return 0;
}

static bool is_var(const terms *t, term_id id) { return terms_kind(t, id) == TERM_VAR; }

/* Checks one clause's terms: no nested formula or list, no blank node. 0 or 422. */
static int check_terms(const terms *t, term_id formula, const char *name, char *message, size_t size) {
    size_t n;
    const triple *ts = formula ? terms_formula_triples(t, formula, &n) : NULL;
    for (size_t i = 0; ts && i < n; i++) {
        term_id terms_of[3] = {ts[i].s, ts[i].p, ts[i].o};
        for (int k = 0; k < 3; k++) {
            enum term_kind kind = terms_kind(t, terms_of[k]);
            if (kind == TERM_FORMULA || kind == TERM_LIST)
                return refuse(message, size, 422, "%s holds a %s; only triples and triple patterns may stand there",
                              name, kind == TERM_FORMULA ? "nested formula" : "list");
            if (kind == TERM_BNODE)
                return refuse(message, size, 422, "%s holds a blank node; name it with an IRI", name);
            /* what a body could not hold a patch cannot put there (term_rules.h; the N3 reader refuses the
             * characters no IRI may hold) */
            size_t len;
            const char *iri = kind == TERM_IRI ? terms_lex(t, terms_of[k], &len) : NULL;
            if (iri && rdf_iri_bad_ordinal(iri, len))
                return refuse(message, size, 422, "%s holds %s", name, RDF_BAD_ORDINAL_ERROR);
            const char *lang = kind == TERM_LITERAL ? terms_lang(t, terms_of[k]) : NULL;
            if (lang && strlen(lang) > RDF_MAX_LANGTAG)
                return refuse(message, size, 422, "%s holds a language tag longer than %d characters", name,
                              RDF_MAX_LANGTAG);
        }
    }
    return 0;
}

/* A where clause's variables and a mapping of them; values[i] is 0 while vars[i] is unbound. */
typedef struct mapping {
    term_id vars[MAX_VARS];
    term_id values[MAX_VARS];
    size_t count;
} mapping;

static size_t var_slot(const mapping *m, term_id var) {
    for (size_t i = 0; i < m->count; i++)
        if (m->vars[i] == var)
            return i;
    return SIZE_MAX;
}

/* Every variable of inserts and deletes must be one of where's. 0 or 422. */
static int check_bound(const terms *t, term_id formula, const mapping *m, const char *name, char *message,
                       size_t size) {
    size_t n;
    const triple *ts = formula ? terms_formula_triples(t, formula, &n) : NULL;
    for (size_t i = 0; ts && i < n; i++) {
        term_id terms_of[3] = {ts[i].s, ts[i].p, ts[i].o};
        for (int k = 0; k < 3; k++)
            if (is_var(t, terms_of[k]) && var_slot(m, terms_of[k]) == SIZE_MAX)
                return refuse(message, size, 422, "%s uses ?%s, which solid:where does not bind", name,
                              terms_lex(t, terms_of[k], NULL));
    }
    return 0;
}

/* The where clause's evaluation: how many mappings make every pattern a triple of the store (counting
 * stops at two), and the first one. */
typedef struct matcher {
    const terms *t;
    store *st;
    const triple *patterns;
    size_t pattern_count;
    mapping m;
    term_id first[MAX_VARS];
    unsigned solutions;
    unsigned long steps;
} matcher;

static term_id bound_value(const matcher *mt, term_id id) {
    if (!is_var(mt->t, id))
        return id;
    return mt->m.values[var_slot(&mt->m, id)];
}

/* Extends the mapping over patterns i.. in every way; -1 when the step budget runs out. */
static int match_from(matcher *mt, size_t i) {
    if (i == mt->pattern_count) {
        if (++mt->solutions == 1)
            memcpy(mt->first, mt->m.values, mt->m.count * sizeof *mt->first);
        return 0;
    }
    const triple *p = &mt->patterns[i];
    store_iter it;
    store_match(mt->st, bound_value(mt, p->s), bound_value(mt, p->p), bound_value(mt, p->o), 0, UINT32_MAX, &it);
    const triple *found;
    uint32_t n;
    while (mt->solutions < 2 && (found = store_next(&it, &n))) {
        if (++mt->steps > LDP_PATCH_MAX_STEPS)
            return -1;
        term_id pattern[3] = {p->s, p->p, p->o}, value[3] = {found->s, found->p, found->o};
        size_t bound_here[3], bound_count = 0;
        bool consistent = true;
        for (int k = 0; k < 3 && consistent; k++) {
            if (!is_var(mt->t, pattern[k]))
                continue;
            size_t slot = var_slot(&mt->m, pattern[k]);
            if (!mt->m.values[slot]) {
                mt->m.values[slot] = value[k];
                bound_here[bound_count++] = slot;
            } else {
                consistent = mt->m.values[slot] == value[k]; /* ?x :p ?x */
            }
        }
        int rc = consistent ? match_from(mt, i + 1) : 0;
        for (size_t k = 0; k < bound_count; k++)
            mt->m.values[bound_here[k]] = 0;
        if (rc)
            return rc;
    }
    return 0;
}

/* Appends a clause's triples with the mapping applied; 422 when one is not RDF (a literal subject, a
 * predicate other than an IRI). */
static int instantiate(const terms *t, term_id formula, const mapping *m, const term_id *values, triple **out,
                       size_t *count, const char *name, char *message, size_t size) {
    size_t n;
    const triple *ts = formula ? terms_formula_triples(t, formula, &n) : NULL;
    if (!ts)
        return 0;
    *out = xrealloc(*out, (*count + n) * sizeof **out);
    for (size_t i = 0; i < n; i++) {
        term_id v[3] = {ts[i].s, ts[i].p, ts[i].o};
        for (int k = 0; k < 3; k++)
            if (is_var(t, v[k]))
                v[k] = values[var_slot(m, v[k])];
        enum term_kind subject = terms_kind(t, v[0]);
        if ((subject != TERM_IRI && subject != TERM_BNODE) || terms_kind(t, v[1]) != TERM_IRI)
            return refuse(message, size, 422, "%s would state a triple with a %s", name,
                          terms_kind(t, v[1]) != TERM_IRI ? "predicate that is not an IRI" : "literal as subject");
        (*out)[(*count)++] = (triple){v[0], v[1], v[2]};
    }
    return 0;
}

/* Reads a resource this server's writer wrote (ldp_patch_apply's own_writing) with the N3 reader, a third
 * of raptor2's work: that writer's Turtle (prefixes, `a`, IRIs, literals, `;` and `,`) reads as the same
 * triples in N3. False, with nothing in *out, for anything but plain triples: raptor2 reads it then. */
static bool read_own_writing(terms *t, const char *turtle, size_t len, const char *base, triple **out,
                             size_t *count) {
    n3_doc doc = {0};
    if (n3_parse(t, turtle, len, "the stored resource", base, &doc, NULL) != 0)
        return false;
    *out = xmalloc((doc.count ? doc.count : 1) * sizeof **out);
    bool plain = true;
    for (size_t i = 0; i < doc.count && plain; i++) {
        const triple *tr = &doc.statements[i].t;
        enum term_kind s = terms_kind(t, tr->s), p = terms_kind(t, tr->p), o = terms_kind(t, tr->o);
        plain = !doc.statements[i].backward && (s == TERM_IRI || s == TERM_BNODE) && p == TERM_IRI &&
                (o == TERM_IRI || o == TERM_BNODE || o == TERM_LITERAL);
        (*out)[i] = *tr;
    }
    if (plain) {
        *count = doc.count;
    } else {
        free(*out);
        *out = NULL;
    }
    n3_doc_free(&doc);
    return plain;
}

/* The resource's triples, sorted by triples_canonical (none when it does not exist). 0 or 500. */
static int read_resource(terms *t, const char *turtle, size_t len, bool own_writing, const char *base,
                         triple **out, size_t *count, char *message, size_t size) {
    *out = NULL;
    *count = 0;
    if (!len)
        return 0;
    if (own_writing && read_own_writing(t, turtle, len, base, out, count)) {
        *count = triples_canonical(*out, *count);
        return 0;
    }
    rdfio *io = rdfio_new(t);
    rdf_error err;
    int rc = rdf_parse_triples(io, RDF_TURTLE, turtle, len, base, "the stored resource", out, count, &err);
    rdfio_free(io);
    if (rc)
        return refuse(message, size, 500, "%s", err.message);
    *count = triples_canonical(*out, *count);
    return 0;
}

static void describe_triple(const terms *t, const triple *tr, char *message, size_t size) {
    buf text = {0};
    rdf_write_term_nt(t, tr->s, &text);
    buf_putc(&text, ' ');
    rdf_write_term_nt(t, tr->p, &text);
    buf_putc(&text, ' ');
    rdf_write_term_nt(t, tr->o, &text);
    snprintf(message, size, "the triple to delete %.400s is not in the resource", buf_cstr(&text));
    buf_free(&text);
}

/* Steps 1-3 of the header on a checked patch, current sorted by triples_canonical; fills *result (caller
 * frees). 0, 409 or 422. Only a where clause needs the resource indexed: without one (a patch of ground
 * triples, what agents send) the deletions are looked up in current. */
static int evaluate(terms *t, const clauses *c, const triple *current, size_t current_count, triple **result,
                    size_t *result_count, char *message, size_t size) {
    matcher mt = {.t = t};
    size_t n = 0;
    mt.patterns = c->where ? terms_formula_triples(t, c->where, &n) : NULL;
    mt.pattern_count = n;
    if (n) {
        mt.st = store_new();
        for (size_t i = 0; i < current_count; i++)
            store_add(mt.st, current[i].s, current[i].p, current[i].o, 0);
    }
    if (n > LDP_PATCH_MAX_WHERE) {
        store_free(mt.st);
        return refuse(message, size, 422, "solid:where holds %zu patterns; at most %d are evaluated", n,
                      LDP_PATCH_MAX_WHERE);
    }
    for (size_t i = 0; i < n; i++) {
        term_id v[3] = {mt.patterns[i].s, mt.patterns[i].p, mt.patterns[i].o};
        for (int k = 0; k < 3; k++)
            if (is_var(t, v[k]) && var_slot(&mt.m, v[k]) == SIZE_MAX)
                mt.m.vars[mt.m.count++] = v[k];
    }
    int status = 0;
    triple *deleted = NULL;
    size_t deleted_count = 0;
    if ((status = check_bound(t, c->inserts, &mt.m, "solid:inserts", message, size)) ||
        (status = check_bound(t, c->deletes, &mt.m, "solid:deletes", message, size)))
        goto done;
    if (match_from(&mt, 0) != 0) {
        status = refuse(message, size, 422, "solid:where takes more than %d match steps to evaluate",
                        LDP_PATCH_MAX_STEPS);
        goto done;
    }
    if (mt.solutions != 1) {
        status = refuse(message, size, 409, "solid:where matches the resource %s",
                        mt.solutions ? "in more than one way" : "in no way");
        goto done;
    }
    if ((status = instantiate(t, c->deletes, &mt.m, mt.first, &deleted, &deleted_count, "solid:deletes", message,
                              size)))
        goto done;
    for (size_t i = 0; i < deleted_count; i++)
        if (!bsearch(&deleted[i], current, current_count, sizeof *current, triple_compare)) {
            describe_triple(t, &deleted[i], message, size);
            status = 409;
            goto done;
        }
    if (deleted_count)
        deleted_count = triples_canonical(deleted, deleted_count);
    *result = xmalloc((current_count ? current_count : 1) * sizeof **result);
    *result_count = 0;
    for (size_t i = 0; i < current_count; i++)
        if (!deleted_count || !bsearch(&current[i], deleted, deleted_count, sizeof *deleted, triple_compare))
            (*result)[(*result_count)++] = current[i];
    status = instantiate(t, c->inserts, &mt.m, mt.first, result, result_count, "solid:inserts", message, size);
done:
    free(deleted);
    if (mt.st)
        store_free(mt.st);
    return status;
}

/* Whether the patch only inserts and the stored text is this writer's with the prefixes it would write now
 * (header of the .h, "Appended"): then its text is kept and the inserts' statements follow it. */
static bool appends(const clauses *c, const char *turtle, size_t len, bool own_writing, const char *const *prefixes) {
    if (!own_writing || c->where || c->deletes)
        return false;
    buf prefix_block = {0};
    rdf_write_compact_prefixes(prefixes, &prefix_block);
    bool same = len >= prefix_block.len && memcmp(turtle, prefix_block.data, prefix_block.len) == 0;
    buf_free(&prefix_block);
    return same;
}

/* Whether the text states something of subject: the writer puts a subject at the start of a line. */
static bool states_of(const terms *t, term_id subject, const char *turtle, size_t len, const char *base,
                      const char *const *prefixes) {
    buf line_start = {0};
    buf_putc(&line_start, '\n');
    rdf_write_compact_subject(t, subject, base, prefixes, &line_start);
    buf_putc(&line_start, ' ');
    bool found = memmem(turtle, len, line_start.data, line_start.len) != NULL;
    buf_free(&line_start);
    return found;
}

/* Writes the stored text, then the inserts' statements (checked as evaluate checks them). 0 or 422; -1,
 * with nothing written, when the text states something of an inserted triple's subject already: read
 * whole then, so that no text states a triple twice. */
static int append_inserts(terms *t, const clauses *c, const char *turtle, size_t len, const char *base,
                          const char *const *prefixes, buf *out, char *message, size_t size) {
    mapping none = {0};
    triple *inserted = NULL;
    size_t count = 0;
    int status = check_bound(t, c->inserts, &none, "solid:inserts", message, size);
    if (!status)
        status = instantiate(t, c->inserts, &none, NULL, &inserted, &count, "solid:inserts", message, size);
    if (!status)
        count = triples_canonical(inserted, count);
    for (size_t i = 0; !status && i < count; i++)
        if ((!i || inserted[i].s != inserted[i - 1].s) && states_of(t, inserted[i].s, turtle, len, base, prefixes))
            status = -1;
    if (!status) {
        buf_append(out, turtle, len);
        if (turtle[len - 1] != '\n')
            buf_putc(out, '\n');
        rdf_write_compact_statements(t, inserted, count, base, prefixes, out);
    }
    free(inserted);
    return status;
}

int ldp_patch_apply(const char *patch, size_t patch_len, const char *turtle, size_t turtle_len, bool own_writing,
                    const char *base, const char *const *prefixes, buf *out, char *message, size_t size) {
    terms *t = terms_new();
    n3_doc doc = {0};
    n3_error err;
    clauses c;
    triple *current = NULL, *result = NULL;
    size_t current_count = 0, result_count = 0;
    int status;
    if (n3_parse(t, patch, patch_len, "patch", base, &doc, &err) != 0)
        status = refuse(message, size, 422, "%s", err.message);
    else if ((status = read_clauses(t, &doc, &c, message, size)) ||
             (status = check_terms(t, c.inserts, "solid:inserts", message, size)) ||
             (status = check_terms(t, c.deletes, "solid:deletes", message, size)) ||
             (status = check_terms(t, c.where, "solid:where", message, size)))
        ;
    else if (turtle_len && appends(&c, turtle, turtle_len, own_writing, prefixes) &&
             (status = append_inserts(t, &c, turtle, turtle_len, base, prefixes, out, message, size)) != -1)
        ;
    else if (!(status = read_resource(t, turtle, turtle_len, own_writing, base, &current, &current_count, message,
                                      size)) &&
             !(status = evaluate(t, &c, current, current_count, &result, &result_count, message, size))) {
        result_count = triples_canonical(result, result_count);
        rdf_write_turtle_compact(t, result, result_count, base, prefixes, out);
    }
    free(result);
    free(current);
    n3_doc_free(&doc);
    terms_free(t);
    return status;
}

int ldp_patch_edit(void *user, const char *turtle, size_t len, bool own_writing, const char *base, buf *out,
                   char *message, size_t size) {
    const ldp_patch_request *request = user;
    return ldp_patch_apply(request->text, request->len, turtle, len, own_writing, base, request->prefixes, out,
                           message, size);
}
