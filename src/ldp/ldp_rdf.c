/* ldp_rdf.c: body checking and representation conversion for the LDP server over rdf/rdfio. */
#include "ldp/ldp_rdf.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdf/nt_writer.h"
#include "rdf/rdfio.h"

#define LDP_CONTAINS "http://www.w3.org/ns/ldp#contains"

struct ldp_rdf {
    pthread_mutex_t lock;
};

ldp_rdf *ldp_rdf_new(void) {
    ldp_rdf *rdf = xcalloc(1, sizeof *rdf);
    pthread_mutex_init(&rdf->lock, NULL);
    return rdf;
}

void ldp_rdf_free(ldp_rdf *rdf) {
    if (!rdf)
        return;
    pthread_mutex_destroy(&rdf->lock);
    free(rdf);
}

void ldp_rdf_lock(ldp_rdf *rdf) { pthread_mutex_lock(&rdf->lock); }

void ldp_rdf_unlock(ldp_rdf *rdf) { pthread_mutex_unlock(&rdf->lock); }

/* One operation's private term table and raptor world. */
typedef struct rdf_session {
    terms *t;
    rdfio *io;
} rdf_session;

static rdf_session session_open(ldp_rdf *rdf) {
    pthread_mutex_lock(&rdf->lock);
    rdf_session s = {.t = terms_new()};
    s.io = rdfio_new(s.t);
    return s;
}

static void session_close(ldp_rdf *rdf, rdf_session *s) {
    rdfio_free(s->io);
    terms_free(s->t);
    pthread_mutex_unlock(&rdf->lock);
}

enum ldp_rdf_result ldp_rdf_check_body(ldp_rdf *rdf, enum ldp_media media, const char *data, size_t len,
                                       const char *base, const char *source_name, bool forbid_containment,
                                       buf *stored, char *message, size_t size) {
    rdf_session s = session_open(rdf);
    triple *ts;
    size_t n;
    rdf_error err;
    enum ldp_rdf_result result = LDP_RDF_OK;
    if (rdf_parse_triples(s.io, ldp_media_syntax(media), data, len, base, source_name, &ts, &n, &err) != 0) {
        snprintf(message, size, "%s", err.message);
        session_close(rdf, &s);
        return LDP_RDF_SYNTAX_ERROR;
    }
    term_id contains = forbid_containment ? terms_iri_cstr(s.t, LDP_CONTAINS) : 0;
    for (size_t i = 0; contains && i < n; i++)
        if (ts[i].p == contains) {
            snprintf(message, size, "ldp:contains is managed by the server; a container's body cannot state it");
            result = LDP_RDF_CONTAINMENT;
            break;
        }
    if (result == LDP_RDF_OK) {
        if (media == LDP_MEDIA_RDFXML) {
            /* Relative to base and without an @base line, so the stored text does not pin the
             * server's address (a restart may use another port). */
            if (rdf_write_turtle(s.io, ts, n, base, stored) != 0) {
                snprintf(message, size, "%s: cannot be written as Turtle", source_name);
                result = LDP_RDF_SYNTAX_ERROR;
            }
        } else {
            buf_append(stored, data, len);
        }
    }
    free(ts);
    session_close(rdf, &s);
    return result;
}

int ldp_rdf_convert(ldp_rdf *rdf, const char *turtle, size_t len, const char *base, enum ldp_media to, buf *out,
                    char *message, size_t size) {
    rdf_session s = session_open(rdf);
    triple *ts;
    size_t n;
    rdf_error err;
    int rc = rdf_parse_triples(s.io, RDF_TURTLE, turtle, len, base, "stored", &ts, &n, &err);
    if (rc != 0) {
        snprintf(message, size, "%s", err.message);
    } else if (to == LDP_MEDIA_NTRIPLES) {
        rdf_write_ntriples(s.t, ts, n, out);
    } else if (to == LDP_MEDIA_RDFXML) {
        if (rdf_write_rdfxml(s.io, ts, n, base, out) != 0) {
            snprintf(message, size, "cannot be written as RDF/XML");
            rc = -1;
        }
    } else {
        snprintf(message, size, "%s is not served", ldp_media_type(to));
        rc = -1;
    }
    free(ts);
    session_close(rdf, &s);
    return rc;
}
