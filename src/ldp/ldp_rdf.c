/* ldp_rdf.c: body checking and representation conversion for the LDP server over rdf/rdfio. */
#include "ldp/ldp_rdf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdf/nt_writer.h"
#include "rdf/rdfio.h"
#include "rdf/vocab_ns.h"

/* N-Triples are written this many triples at a time, the size bound checked between. */
enum { NTRIPLES_SLICE = 4096 };

static size_t size_bound(size_t len) {
    return len > (SIZE_MAX - LDP_RDF_SIZE_SLACK) / LDP_RDF_SIZE_FACTOR ? SIZE_MAX
                                                                       : len * LDP_RDF_SIZE_FACTOR + LDP_RDF_SIZE_SLACK;
}

/* One operation's private term table and rdfio. */
typedef struct rdf_session {
    terms *t;
    rdfio *io;
} rdf_session;

static rdf_session session_open(void) {
    rdf_session s = {.t = terms_new()};
    s.io = rdfio_new(s.t);
    return s;
}

static void session_close(rdf_session *s) {
    rdfio_free(s->io);
    terms_free(s->t);
}

/* An N-Triples body is stored as sent and read back as Turtle, so Turtle's parser must read it too:
 * raptor2's N-Triples parser lets through what Turtle's refuses (a statement without its final '.'). */
static bool reads_as_turtle(rdf_session *s, const char *data, size_t len, const char *base, const char *source_name,
                            char *message, size_t size) {
    triple *ts = NULL;
    size_t n;
    rdf_error err;
    int rc = rdf_parse_triples(s->io, RDF_TURTLE, data, len, base, source_name, &ts, &n, &err);
    free(ts);
    if (rc != 0)
        snprintf(message, size, "%s (not N-Triples: the body is stored as Turtle, which cannot read it)", err.message);
    return rc == 0;
}

enum ldp_rdf_result ldp_rdf_check_body(enum ldp_media media, const char *data, size_t len, const char *base,
                                       const char *source_name, bool forbid_containment,
                                       const char *const *prefixes, buf *stored, char *message, size_t size) {
    rdf_session s = session_open();
    triple *ts;
    size_t n;
    rdf_error err;
    enum ldp_rdf_result result = LDP_RDF_OK;
    if (rdf_parse_triples(s.io, ldp_media_syntax(media), data, len, base, source_name, &ts, &n, &err) != 0) {
        snprintf(message, size, "%s", err.message);
        session_close(&s);
        return LDP_RDF_SYNTAX_ERROR;
    }
    if (media == LDP_MEDIA_NTRIPLES && !reads_as_turtle(&s, data, len, base, source_name, message, size)) {
        free(ts);
        session_close(&s);
        return LDP_RDF_SYNTAX_ERROR;
    }
    term_id contains = forbid_containment ? terms_iri_cstr(s.t, LDP_contains) : 0;
    for (size_t i = 0; contains && i < n; i++)
        if (ts[i].p == contains) {
            snprintf(message, size, "ldp:contains is managed by the server; a container's body cannot state it");
            result = LDP_RDF_CONTAINMENT;
            break;
        }
    if (result == LDP_RDF_OK && media == LDP_MEDIA_RDFXML) {
        /* Relative to base and without an @base line, so the stored text does not pin the server's
         * address (a restart may use another port). */
        size_t start = stored->len;
        rdf_write_turtle_compact(s.t, ts, n, base, prefixes, stored);
        if (stored->len - start > size_bound(len)) {
            snprintf(message, size, "%s: its %zu triples would be %zu bytes of Turtle, more than %d times the body",
                     source_name, n, stored->len - start, LDP_RDF_SIZE_FACTOR);
            stored->len = start;
            result = LDP_RDF_SYNTAX_ERROR;
        }
    } else if (result == LDP_RDF_OK) {
        buf_append(stored, data, len);
    }
    free(ts);
    session_close(&s);
    return result;
}

/* N-Triples a slice at a time, so that an expanding text stops near the bound. Returns 1 past it. */
static int write_ntriples_bounded(const terms *t, const triple *ts, size_t n, size_t limit, buf *out) {
    size_t start = out->len;
    for (size_t i = 0; i < n; i += NTRIPLES_SLICE) {
        rdf_write_ntriples(t, ts + i, n - i < NTRIPLES_SLICE ? n - i : NTRIPLES_SLICE, out);
        if (out->len - start > limit) {
            out->len = start;
            return 1;
        }
    }
    return 0;
}

int ldp_rdf_convert(const char *turtle, size_t len, const char *base, enum ldp_media to, buf *out, char *message,
                    size_t size) {
    rdf_session s = session_open();
    triple *ts;
    size_t n;
    rdf_error err;
    size_t limit = size_bound(len);
    int rc = rdf_parse_triples(s.io, RDF_TURTLE, turtle, len, base, "stored", &ts, &n, &err);
    if (rc != 0) {
        snprintf(message, size, "%s", err.message);
    } else if (to == LDP_MEDIA_NTRIPLES) {
        rc = write_ntriples_bounded(s.t, ts, n, limit, out);
    } else if (to == LDP_MEDIA_RDFXML) {
        char why[200] = "";
        rc = rdf_write_rdfxml(s.io, ts, n, base, limit, out, why, sizeof why);
        if (rc == -1) { /* a representation that does not exist (raptor2 would drop a triple), not a failure */
            snprintf(message, size, "Not Acceptable: this resource cannot be written as RDF/XML (%s); ask for "
                     "text/turtle", why);
            free(ts);
            session_close(&s);
            return 1;
        }
    } else {
        snprintf(message, size, "%s is not served", ldp_media_type(to));
        rc = -1;
    }
    if (rc == 1)
        snprintf(message, size, "Not Acceptable: as %s this resource would pass %zu bytes (%d times its %zu bytes of Turtle); ask for text/turtle",
                 ldp_media_type(to), limit, LDP_RDF_SIZE_FACTOR, len);
    free(ts);
    session_close(&s);
    return rc;
}
