/* rdf_serialize.c: triples serialized through raptor2 (Turtle with lists as rdf:first/rest cells, flat
 * RDF/XML), on the rdfio's world, into a buffer that may be bounded. */
#include "rdf/rdfio.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "rdf/hashmap.h"
#include "rdf/raptor_pool.h"

static raptor_term *to_raptor_term(rdfio *io, term_id id) {
    const terms *t = io->t;
    size_t len;
    const char *lex = terms_lex(t, id, &len);
    switch (terms_kind(t, id)) {
    case TERM_IRI:
        return raptor_new_term_from_counted_uri_string(io->world, (const unsigned char *)lex, len);
    case TERM_BNODE: {
        /* named by the term's id: raptor2's Turtle writer spells a label that does not begin with a letter
         * one way as a subject and another as an object (_g1: _:_g1 and _:zg1), which reads back as two nodes */
        char label[32];
        snprintf(label, sizeof label, "b%u", id);
        return raptor_new_term_from_blank(io->world, (const unsigned char *)label);
    }
    case TERM_LITERAL: {
        raptor_uri *datatype = NULL;
        const char *lang = terms_lang(t, id);
        if (!lang && terms_datatype(t, id)) {
            size_t dlen;
            const char *dt = terms_lex(t, terms_datatype(t, id), &dlen);
            datatype = raptor_new_uri_from_counted_string(io->world, (const unsigned char *)dt, dlen);
        }
        raptor_term *rt = raptor_new_term_from_counted_literal(
            io->world, (const unsigned char *)lex, len, datatype, (const unsigned char *)lang,
            lang ? (unsigned char)strlen(lang) : 0);
        if (datatype)
            raptor_free_uri(datatype);
        return rt;
    }
    case TERM_LIST: {
        size_t n;
        terms_list_items(t, id, &n);
        if (n == 0)
            return raptor_new_term_from_uri_string(io->world, (const unsigned char *)NS_RDF "nil");
        char label[32];
        snprintf(label, sizeof label, "list%u", id);
        return raptor_new_term_from_blank(io->world, (const unsigned char *)label);
    }
    default:
        return NULL;
    }
}

static int serialize_triple(rdfio *io, raptor_serializer *ser, term_id s, term_id p, term_id o) {
    raptor_statement st = {0};
    st.world = io->world;
    st.subject = to_raptor_term(io, s);
    st.predicate = to_raptor_term(io, p);
    st.object = to_raptor_term(io, o);
    int rc = -1; /* formulas and variables are not RDF */
    if (st.subject && st.predicate && st.object)
        rc = raptor_serializer_serialize_statement(ser, &st);
    raptor_free_term(st.subject);
    raptor_free_term(st.predicate);
    raptor_free_term(st.object);
    return rc;
}

/* A list term becomes a chain of blank nodes; each cell is a list term of the remaining items, so
 * shared tails are written once. */
static int serialize_list(rdfio *io, raptor_serializer *ser, term_id id, u64map *written) {
    bool inserted;
    u64map_put(written, id, 1, &inserted);
    size_t n;
    const term_id *items = terms_list_items(io->t, id, &n);
    if (!inserted || n == 0)
        return 0;
    term_id rest = terms_list(io->t, items + 1, n - 1);
    items = terms_list_items(io->t, id, &n); /* terms_list may have grown the table */
    int rc = serialize_triple(io, ser, id, T_RDF_FIRST, items[0]);
    if (rc == 0)
        rc = serialize_triple(io, ser, id, T_RDF_REST, rest);
    if (rc == 0 && terms_kind(io->t, items[0]) == TERM_LIST)
        rc = serialize_list(io, ser, items[0], written);
    if (rc == 0)
        rc = serialize_list(io, ser, rest, written);
    return rc;
}

/* Where a raptor2 serializer writes: out, until more than limit bytes were asked for; then nothing more is
 * kept (memory stays bounded) and the serialization is abandoned at the next statement. */
typedef struct bounded_sink {
    buf *out;
    size_t start, limit;
    bool over;
} bounded_sink;

static int sink_write_bytes(void *context, const void *ptr, size_t size, size_t nmemb) {
    bounded_sink *sink = context;
    size_t len = size * nmemb;
    if (sink->over || len > sink->limit - (sink->out->len - sink->start)) {
        sink->over = true;
        return 1;
    }
    buf_append(sink->out, ptr, len);
    return 0;
}

static int sink_write_byte(void *context, const int byte) {
    unsigned char c = (unsigned char)byte;
    return sink_write_bytes(context, &c, 1, 1);
}

/* One serialization path for every raptor2 serializer. Returns 0, -1 when a triple cannot be written or
 * the text would pass limit bytes (*over set, out back as it was). */
/* The first error raptor2 logs while serializing. It logs, skips the statement and goes on (an RDF/XML
 * predicate it cannot split into a namespace and a name): the text written would lack a triple. */
typedef struct serialize_error {
    bool failed;
    char text[200];
} serialize_error;

static void on_serialize_log(void *user, raptor_log_message *message) {
    serialize_error *e = user;
    if (message->level < RAPTOR_LOG_LEVEL_ERROR || e->failed)
        return;
    e->failed = true;
    snprintf(e->text, sizeof e->text, "%s", message->text);
}

static int write_with_raptor(rdfio *io, const char *serializer, const triple *ts, size_t n, const char *base,
                             const char *const *prefixes, size_t limit, buf *out, bool *over,
                             serialize_error *error) {
    static const raptor_iostream_handler sink_handler = {
        .version = 2, .write_byte = sink_write_byte, .write_bytes = sink_write_bytes};
    raptor_serializer *ser = raptor_new_serializer(io->world, serializer);
    if (!ser)
        return -1;
    *error = (serialize_error){0};
    raptor_world_set_log_handler(io->world, error, on_serialize_log);
    /* No @base line: relative IRIs then resolve against wherever the text is stored, which is the base
     * given here (the resource a PUT writes, the member a POST creates). */
    raptor_serializer_set_option(ser, RAPTOR_OPTION_WRITE_BASE_URI, NULL, 0);
    for (size_t i = 0; prefixes && prefixes[i]; i += 2) {
        raptor_uri *ns = raptor_new_uri(io->world, (const unsigned char *)prefixes[i + 1]);
        if (ns) {
            raptor_serializer_set_namespace(ser, ns, (const unsigned char *)prefixes[i]);
            raptor_free_uri(ns);
        }
    }
    raptor_uri *base_uri = base ? raptor_new_uri(io->world, (const unsigned char *)base) : NULL;
    bounded_sink sink = {.out = out, .start = out->len, .limit = limit};
    raptor_iostream *stream = raptor_new_iostream_from_handler(io->world, &sink, &sink_handler);
    int rc = stream ? raptor_serializer_start_to_iostream(ser, base_uri, stream) : -1;
    u64map lists_written = {0};
    for (size_t i = 0; rc == 0 && !sink.over && i < n; i++) {
        triple tr = ts[i];
        rc = serialize_triple(io, ser, tr.s, tr.p, tr.o);
        if (rc == 0 && terms_kind(io->t, tr.s) == TERM_LIST)
            rc = serialize_list(io, ser, tr.s, &lists_written);
        if (rc == 0 && terms_kind(io->t, tr.o) == TERM_LIST)
            rc = serialize_list(io, ser, tr.o, &lists_written);
    }
    u64map_free(&lists_written);
    if (raptor_serializer_serialize_end(ser) != 0 || error->failed)
        rc = -1;
    raptor_free_serializer(ser);
    raptor_world_set_log_handler(io->world, NULL, NULL);
    if (stream)
        raptor_free_iostream(stream);
    if (base_uri)
        raptor_free_uri(base_uri);
    *over = sink.over;
    if (rc != 0 || sink.over) {
        out->len = sink.start;
        return -1;
    }
    return 0;
}

int rdf_write_turtle(rdfio *io, const triple *ts, size_t n, const char *base, buf *out) {
    return rdf_write_turtle_prefixed(io, ts, n, base, NULL, out);
}

int rdf_write_turtle_prefixed(rdfio *io, const triple *ts, size_t n, const char *base, const char *const *prefixes,
                              buf *out) {
    bool over;
    serialize_error error;
    return write_with_raptor(io, "turtle", ts, n, base, prefixes, SIZE_MAX, out, &over, &error);
}

/* The work raptor2's RDF/XML serializer may do per byte of its limit splitting predicates: a statement of
 * a common vocabulary costs a few hundred checks, 30 or so per byte of Turtle; at about 10^9 checks a
 * second, 16 MiB of Turtle allowed 32 times its size may take 4 s. */
enum { RDFXML_CHECKS_PER_BYTE = 8 };

/* What raptor2's RDF/XML serializer spends splitting an IRI into a namespace and a name, in characters
 * checked: from each start position in turn it checks the rest of the IRI as a name, up to the first
 * character that cannot be in one, until a whole rest passes; so every run of name characters but the
 * last costs about its length squared over two (bytes beyond ASCII count as name characters). */
static uint64_t qname_split_cost(const terms *t, term_id iri) {
    size_t len;
    const char *s = terms_lex(t, iri, &len);
    uint64_t cost = len, run = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x80 || isalnum(c) || c == '-' || c == '.' || c == '_' || c == ':') {
            run++;
        } else {
            cost += run * (run + 1) / 2;
            run = 0;
        }
    }
    return cost;
}

int rdf_write_rdfxml(rdfio *io, const triple *ts, size_t n, const char *base, size_t limit, buf *out, char *why,
                     size_t why_size) {
    /* Split per statement, a long predicate IRI makes a small document take minutes (a 2,000-character
     * name through a prefix, 20,000 times: 20 s): the work is bounded as the text is. */
    u64map cost_by_predicate = {0};
    uint64_t work = 0;
    for (size_t i = 0; i < n && work <= (uint64_t)limit * RDFXML_CHECKS_PER_BYTE; i++) {
        bool inserted;
        uint32_t *cost = u64map_put(&cost_by_predicate, ts[i].p, 0, &inserted);
        if (inserted) {
            uint64_t split = qname_split_cost(io->t, ts[i].p);
            *cost = split > UINT32_MAX ? UINT32_MAX : (uint32_t)split;
        }
        work += *cost;
    }
    u64map_free(&cost_by_predicate);
    if (work > (uint64_t)limit * RDFXML_CHECKS_PER_BYTE)
        return 1;
    bool over;
    serialize_error error;
    int rc = write_with_raptor(io, "rdfxml", ts, n, base, NULL, limit, out, &over, &error);
    if (rc == -1 && !over)
        snprintf(why, why_size, "%s", error.failed ? error.text : "raptor2's serializer failed");
    return over ? 1 : rc;
}
