/* body.c: request bodies: placeholder substitution, then Turtle through raptor2 with the right base;
 * N3 Patch bodies of composed updates. */
#include "agent/body.h"

#include <stdlib.h>
#include <string.h>

#include "agent/vocab.h"
#include "rdf/vocab_ns.h"

const char *const body_prefixes[] = {"gsm", NS_GSM, "ldgsm", NS_LDGSM, "wsm", NS_WSM, NULL};

/* The placeholder namespace without its '#': the document `this:` IRIs are fragments of. */
static const char placeholder_document[] = NS_THIS_DOCUMENT;

term_id body_resolve_placeholder(terms *t, term_id id, const char *target_url) {
    if (terms_kind(t, id) != TERM_IRI)
        return id;
    size_t len;
    const char *iri = terms_lex(t, id, &len);
    size_t ns = strlen(NS_THIS);
    if (len < ns || strncmp(iri, NS_THIS, ns) != 0)
        return id;
    buf b = {0};
    buf_puts(&b, target_url);
    if (len > ns) {
        buf_putc(&b, '#');
        buf_append(&b, iri + ns, len - ns);
    }
    term_id result = terms_iri(t, b.data, b.len);
    buf_free(&b);
    return result;
}

int body_document(rdfio *io, terms *t, const triple *ts, size_t n, const char *target_url, buf *out) {
    /* plain RDF (what servers hold) goes through the direct writer; lists from a rule's ldgsm:add need
     * raptor2's, which writes their rdf:first/rest cells */
    for (size_t i = 0; i < n; i++) {
        const term_id parts[3] = {ts[i].s, ts[i].p, ts[i].o};
        for (int k = 0; k < 3; k++)
            if (terms_kind(t, parts[k]) == TERM_LIST || terms_kind(t, parts[k]) == TERM_FORMULA ||
                terms_kind(t, parts[k]) == TERM_VAR)
                return rdf_write_turtle(io, ts, n, target_url, out);
    }
    rdf_write_turtle_compact(t, ts, n, target_url, body_prefixes, out);
    return 0;
}

int body_bytes(rdfio *io, terms *t, term_id body, const char *target_url, bool relative, buf *out, bool *is_rdf) {
    *is_rdf = false;
    if (terms_kind(t, body) == TERM_LITERAL) {
        size_t len;
        const char *lex = terms_lex(t, body, &len);
        buf_append(out, lex, len);
        return 0;
    }
    if (terms_kind(t, body) != TERM_FORMULA)
        return -1;
    *is_rdf = true;
    size_t n;
    const triple *ts = terms_formula_triples(t, body, &n);
    triple *copy = xmalloc((n ? n : 1) * sizeof *copy);
    memcpy(copy, ts, n * sizeof *copy);
    if (relative)
        for (size_t i = 0; i < n; i++)
            copy[i] = (triple){body_resolve_placeholder(t, copy[i].s, target_url),
                               body_resolve_placeholder(t, copy[i].p, target_url),
                               body_resolve_placeholder(t, copy[i].o, target_url)};
    /* A POST keeps the placeholder and writes it relative to the placeholder document, so `this:it` becomes
     * <#it>, resolved by the server against the new member; other IRIs do not share that prefix. */
    int rc = rdf_write_turtle(io, copy, n, relative ? target_url : placeholder_document, out);
    free(copy);
    return rc;
}

static bool patchable(const terms *t, const triple *tr) {
    const term_id parts[3] = {tr->s, tr->p, tr->o};
    for (int k = 0; k < 3; k++) {
        enum term_kind kind = terms_kind(t, parts[k]);
        if (kind != TERM_IRI && kind != TERM_LITERAL)
            return false;
    }
    return true;
}

/* The triples of `from` that `other` lacks (both sorted), into *out; false when one cannot be patched. */
static bool only_in(const terms *t, const triple *from, size_t from_count, const triple *other, size_t other_count,
                    triple *out, size_t *out_count) {
    size_t j = 0;
    *out_count = 0;
    for (size_t i = 0; i < from_count; i++) {
        while (j < other_count && triple_compare(&other[j], &from[i]) < 0)
            j++;
        if (j < other_count && triple_compare(&other[j], &from[i]) == 0)
            continue;
        if (!patchable(t, &from[i]))
            return false;
        out[(*out_count)++] = from[i];
    }
    return true;
}

static void clause(const terms *t, const char *name, const triple *ts, size_t n, const char *target_url, buf *out) {
    if (!n)
        return;
    buf_printf(out, ";\n  solid:%s {\n", name);
    rdf_write_compact_statements(t, ts, n, target_url, body_prefixes, out);
    buf_puts(out, "  }");
}

int body_patch(const terms *t, const triple *before, size_t before_count, const triple *after, size_t after_count,
               const char *target_url, buf *out) {
    triple *deletes = xmalloc((before_count + 1) * sizeof *deletes);
    triple *inserts = xmalloc((after_count + 1) * sizeof *inserts);
    size_t delete_count, insert_count;
    int rc = -1;
    if (only_in(t, before, before_count, after, after_count, deletes, &delete_count) &&
        only_in(t, after, after_count, before, before_count, inserts, &insert_count)) {
        rdf_write_compact_prefixes(body_prefixes, out);
        buf_puts(out, "@prefix solid: <http://www.w3.org/ns/solid/terms#> .\n_:patch a solid:InsertDeletePatch");
        clause(t, "deletes", deletes, delete_count, target_url, out);
        clause(t, "inserts", inserts, insert_count, target_url, out);
        buf_puts(out, " .\n");
        rc = 0;
    }
    free(deletes);
    free(inserts);
    return rc;
}
