/* test_nt_roundtrip.c: the N-Triples writer (nt_writer.h, rdf_write_term_nt) on random terms: IRIs with
 * non-ASCII and non-BMP characters, literals holding quotes, backslashes, control characters, non-BMP
 * text, with language tags or datatypes. Every line written must be N-Triples by the RDF 1.1 grammar
 * (IRIREF and STRING_LITERAL_QUOTE checked character by character, so an IRI's space, <>"{}|^`\ or
 * control character must be a \u escape), its escapes must decode to the original terms, and raptor2
 * (rdfio's reader) must read the same triples back. An IRI holding a character IRIs forbid cannot be
 * read back as an IRI (raptor2 refuses the line, as N3.js does): for those the writer's escaped form
 * is checked by decoding it here, and the reader must refuse the line, never read another term.
 * tests/rdf/run_nt_roundtrip.sh checks the CLI's output with N3.js. Seeded: a failure prints the seed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rdf/buf.h"
#include "rdf/nt_writer.h"
#include "rdf/rdfio.h"

#define ROUNDS 300
#define TRIPLES_PER_ROUND 20

typedef struct rng {
    uint64_t state;
} rng;

static uint64_t next_random(rng *r) { /* splitmix64 */
    uint64_t z = (r->state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static unsigned below(rng *r, unsigned n) { return (unsigned)(next_random(r) % n); }

static void put_utf8(buf *b, uint32_t c) {
    if (c < 0x80) {
        buf_putc(b, (char)c);
    } else if (c < 0x800) {
        buf_putc(b, (char)(0xc0 | c >> 6));
        buf_putc(b, (char)(0x80 | (c & 0x3f)));
    } else if (c < 0x10000) {
        buf_putc(b, (char)(0xe0 | c >> 12));
        buf_putc(b, (char)(0x80 | (c >> 6 & 0x3f)));
        buf_putc(b, (char)(0x80 | (c & 0x3f)));
    } else {
        buf_putc(b, (char)(0xf0 | c >> 18));
        buf_putc(b, (char)(0x80 | (c >> 12 & 0x3f)));
        buf_putc(b, (char)(0x80 | (c >> 6 & 0x3f)));
        buf_putc(b, (char)(0x80 | (c & 0x3f)));
    }
}

/* Characters IRIs may hold, the awkward ones often: reserved ASCII, Latin, CJK, non-BMP (a surrogate pair
 * in UTF-16, four bytes in UTF-8), the last code point. */
static const uint32_t iri_chars[] = {'a', 'z', '0', '9', '#', '/', '%', '~', '-', '.', '_', ':', '?', '=', '&',
                                     '\'', '(', '!', '$', ';', '@', 0xe9, 0x4e2d, 0xfffd, 0x1f600, 0x10348,
                                     0x10ffff};
/* What IRIREF forbids unescaped: controls, space, <>"{}|^`\ (DEL is allowed). */
static const uint32_t forbidden_iri_chars[] = {0x01, 0x09, 0x0a, 0x1f, ' ', '<', '>', '"', '{', '}', '|', '^',
                                               '`', '\\'};
static const uint32_t literal_chars[] = {'a', 'Z', '5', ' ', '"', '\'', '\\', '\n', '\r', '\t', '\b', '\f', 0x01,
                                         0x1b, 0x1f, 0x7f, '<', '>', '^', '@', '{', '}', '|', '`', 0xe9, 0x4e2d,
                                         0x2028, 0xfeff, 0x1f600, 0x10348, 0x10ffff};
static const char *const lang_tags[] = {"en", "en-us", "de-ch-1996", "zh-hant-tw", "x-private"};

static void random_iri_text(rng *r, bool forbidden, buf *out) {
    buf_puts(out, "http://ex.org/");
    unsigned n = below(r, 12);
    for (unsigned i = 0; i < n; i++)
        put_utf8(out, iri_chars[below(r, sizeof iri_chars / sizeof *iri_chars)]);
    if (forbidden) /* at least one, anywhere */
        put_utf8(out, forbidden_iri_chars[below(r, sizeof forbidden_iri_chars / sizeof *forbidden_iri_chars)]);
    n = below(r, 4);
    for (unsigned i = 0; i < n; i++)
        put_utf8(out, forbidden ? forbidden_iri_chars[below(r, sizeof forbidden_iri_chars / sizeof *forbidden_iri_chars)]
                                : iri_chars[below(r, sizeof iri_chars / sizeof *iri_chars)]);
}

static term_id random_iri(terms *t, rng *r, bool forbidden) {
    buf text = {0};
    random_iri_text(r, forbidden, &text);
    term_id id = terms_iri(t, text.data, text.len);
    buf_free(&text);
    return id;
}

static term_id random_literal(terms *t, rng *r) {
    buf lex = {0};
    unsigned n = below(r, 10);
    for (unsigned i = 0; i < n; i++)
        put_utf8(&lex, literal_chars[below(r, sizeof literal_chars / sizeof *literal_chars)]);
    term_id id;
    switch (below(r, 4)) {
    case 0: id = terms_literal(t, lex.data ? lex.data : "", lex.len, 0, NULL, 0); break;
    case 1: {
        const char *tag = lang_tags[below(r, sizeof lang_tags / sizeof *lang_tags)];
        id = terms_literal(t, lex.data ? lex.data : "", lex.len, 0, tag, strlen(tag));
        break;
    }
    case 2: id = terms_literal(t, lex.data ? lex.data : "", lex.len, T_XSD_INTEGER, NULL, 0); break;
    default: id = terms_literal(t, lex.data ? lex.data : "", lex.len, random_iri(t, r, false), NULL, 0); break;
    }
    buf_free(&lex);
    return id;
}

/* ---- the grammar, by hand: N-Triples terms decoded (RDF 1.1 N-Triples, section 6) ---- */

static int hex_run(const char *s, int digits, uint32_t *value) {
    *value = 0;
    for (int i = 0; i < digits; i++) {
        int d = hex_digit_value((unsigned char)s[i]);
        if (d < 0)
            return -1;
        *value = *value << 4 | (uint32_t)d;
    }
    return 0;
}

/* A UCHAR at s (after the backslash): its code point and length, or -1. */
static int uchar(const char *s, uint32_t *c) {
    if (s[0] == 'u' && hex_run(s + 1, 4, c) == 0)
        return 5;
    if (s[0] == 'U' && hex_run(s + 1, 8, c) == 0 && *c <= 0x10ffff)
        return 9;
    return -1;
}

/* Decodes the IRIREF at *s into out and moves *s past it; false when it breaks the grammar. */
static bool decode_iriref(const char **s, buf *out) {
    const char *p = *s;
    if (*p++ != '<')
        return false;
    for (;;) {
        unsigned char c = (unsigned char)*p;
        if (c == '>')
            break;
        if (c == '\\') {
            uint32_t code;
            int n = uchar(p + 1, &code);
            if (n < 0)
                return false;
            put_utf8(out, code);
            p += 1 + n;
            continue;
        }
        if (c <= 0x20 || strchr("<\"{}|^`", c))
            return false;
        buf_putc(out, (char)c);
        p++;
    }
    *s = p + 1;
    return true;
}

/* Decodes a STRING_LITERAL_QUOTE, then its @tag or ^^IRIREF. */
static bool decode_literal(const char **s, buf *lex, buf *tag, buf *datatype) {
    const char *p = *s;
    if (*p++ != '"')
        return false;
    for (;;) {
        unsigned char c = (unsigned char)*p;
        if (c == '"')
            break;
        if (c == '\n' || c == '\r' || c == '\0')
            return false;
        if (c != '\\') {
            buf_putc(lex, (char)c);
            p++;
            continue;
        }
        const char *echar = strchr("tbnrf\"'\\", p[1]);
        if (p[1] && echar) {
            buf_putc(lex, "\t\b\n\r\f\"'\\"[echar - "tbnrf\"'\\"]);
            p += 2;
            continue;
        }
        uint32_t code;
        int n = uchar(p + 1, &code);
        if (n < 0)
            return false;
        put_utf8(lex, code);
        p += 1 + n;
    }
    p++;
    if (*p == '@') {
        p++;
        while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '-')
            buf_putc(tag, *p++);
        if (!tag->len)
            return false;
    } else if (p[0] == '^' && p[1] == '^') {
        p += 2;
        if (!decode_iriref(&p, datatype))
            return false;
    }
    *s = p;
    return true;
}

static bool same_text(const buf *b, const char *text, size_t len) {
    return b->len == len && (len == 0 || memcmp(b->data, text, len) == 0);
}

/* Does the N-Triples term at *s decode to term id? Moves *s past it. */
static bool decodes_to(terms *t, const char **s, term_id id) {
    buf text = {0}, tag = {0}, datatype = {0};
    size_t len;
    const char *lex = terms_lex(t, id, &len);
    bool ok;
    if (terms_kind(t, id) == TERM_IRI) {
        ok = decode_iriref(s, &text) && same_text(&text, lex, len);
    } else {
        ok = decode_literal(s, &text, &tag, &datatype) && same_text(&text, lex, len);
        const char *lang = terms_lang(t, id);
        term_id dt = terms_datatype(t, id);
        if (lang) {
            ok = ok && same_text(&tag, lang, strlen(lang)) && !datatype.len;
        } else if (dt && dt != T_XSD_STRING) {
            size_t dlen;
            const char *dtext = terms_lex(t, dt, &dlen);
            ok = ok && !tag.len && same_text(&datatype, dtext, dlen);
        } else {
            ok = ok && !tag.len && (!datatype.len || same_text(&datatype, NS_XSD "string", strlen(NS_XSD "string")));
        }
    }
    buf_free(&text);
    buf_free(&tag);
    buf_free(&datatype);
    return ok;
}

/* Each line of out is `s p o .` with the terms of ts[i], by the grammar. */
static void assert_lines_decode(terms *t, const triple *ts, size_t n, const char *out, unsigned long seed) {
    const char *p = out;
    for (size_t i = 0; i < n; i++) {
        const char *line = p;
        const char *end = strchr(line, '\n');
        bool ok = decodes_to(t, &p, ts[i].s) && *p++ == ' ' && decodes_to(t, &p, ts[i].p) && *p++ == ' ' &&
                  decodes_to(t, &p, ts[i].o) && strncmp(p, " .\n", 3) == 0;
        if (!ok)
            fail_msg("seed %lu: line %zu is not N-Triples of the triple written (at byte %td):\n%.*s", seed, i + 1,
                     p - line, end ? (int)(end - line) : (int)strlen(line), line);
        p = end + 1;
    }
    assert_int_equal(*p, '\0');
}

/* ---- the tests ---- */

typedef struct world {
    terms *t;
    rdfio *io;
} world;

static int setup(void **state) {
    world *w = xcalloc(1, sizeof *w);
    w->t = terms_new();
    w->io = rdfio_new(w->t);
    *state = w;
    return 0;
}

static int teardown(void **state) {
    world *w = *state;
    rdfio_free(w->io);
    terms_free(w->t);
    free(w);
    return 0;
}

static void raptor_reads_back_the_terms_written(void **state) {
    world *w = *state;
    for (unsigned long seed = 1; seed <= ROUNDS; seed++) {
        rng r = {seed};
        triple ts[TRIPLES_PER_ROUND];
        for (size_t i = 0; i < TRIPLES_PER_ROUND; i++)
            ts[i] = (triple){random_iri(w->t, &r, false), random_iri(w->t, &r, false),
                             below(&r, 3) ? random_literal(w->t, &r) : random_iri(w->t, &r, false)};
        buf out = {0};
        rdf_write_ntriples(w->t, ts, TRIPLES_PER_ROUND, &out);
        assert_lines_decode(w->t, ts, TRIPLES_PER_ROUND, buf_cstr(&out), seed);

        triple *back;
        size_t count;
        rdf_error err;
        if (rdf_parse_triples(w->io, RDF_NTRIPLES, out.data, out.len, NULL, "written", &back, &count, &err) != 0)
            fail_msg("seed %lu: raptor2 refuses the output: %s\n%s", seed, err.message, out.data);
        assert_int_equal(count, TRIPLES_PER_ROUND);
        for (size_t i = 0; i < count; i++)
            if (memcmp(&back[i], &ts[i], sizeof *ts) != 0)
                fail_msg("seed %lu: triple %zu reads back as other terms:\n%s", seed, i + 1, out.data);
        free(back);
        buf_free(&out);
    }
}

static void an_iri_with_forbidden_characters_is_escaped(void **state) {
    world *w = *state;
    for (unsigned long seed = 1; seed <= ROUNDS; seed++) {
        rng r = {seed};
        triple tr = {random_iri(w->t, &r, below(&r, 2)), random_iri(w->t, &r, below(&r, 2)), 0};
        tr.o = below(&r, 2) ? random_iri(w->t, &r, true) : random_literal(w->t, &r);
        if (terms_kind(w->t, tr.o) == TERM_LITERAL && !terms_lang(w->t, tr.o)) /* the datatype too */
            tr.o = terms_literal(w->t, terms_lex(w->t, tr.o, NULL), strlen(terms_lex(w->t, tr.o, NULL)),
                                 random_iri(w->t, &r, true), NULL, 0);
        buf out = {0};
        rdf_write_ntriples(w->t, &tr, 1, &out);
        assert_lines_decode(w->t, &tr, 1, buf_cstr(&out), seed);
        /* such an IRI cannot be read back; the reader refuses the line rather than reading other terms */
        triple *back = NULL;
        size_t count = 0;
        rdf_error err;
        int rc = rdf_parse_triples(w->io, RDF_NTRIPLES, out.data, out.len, NULL, "written", &back, &count, &err);
        if (rc == 0 && (count != 1 || memcmp(&back[0], &tr, sizeof tr) != 0))
            fail_msg("seed %lu: raptor2 read other terms than were written:\n%s", seed, out.data);
        free(back);
        buf_free(&out);
    }
}

/* The streaming writer (ldgsm reason's output) writes the same text as the one-call writer. */
static void the_stream_writes_what_the_writer_writes(void **state) {
    world *w = *state;
    rng r = {42};
    triple ts[TRIPLES_PER_ROUND];
    for (size_t i = 0; i < TRIPLES_PER_ROUND; i++)
        ts[i] = (triple){random_iri(w->t, &r, i % 2), random_iri(w->t, &r, false), random_literal(w->t, &r)};
    buf expected = {0};
    rdf_write_ntriples(w->t, ts, TRIPLES_PER_ROUND, &expected);
    FILE *file = tmpfile();
    assert_non_null(file);
    nt_stream *s = nt_stream_start(w->t, fileno(file));
    assert_non_null(s);
    nt_stream_push(s, ts, TRIPLES_PER_ROUND / 2);
    nt_stream_push(s, ts + TRIPLES_PER_ROUND / 2, TRIPLES_PER_ROUND - TRIPLES_PER_ROUND / 2);
    assert_int_equal(nt_stream_finish(s), 0);
    rewind(file);
    buf written = {0};
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, file)) > 0)
        buf_append(&written, chunk, n);
    fclose(file);
    assert_string_equal(buf_cstr(&written), buf_cstr(&expected));
    buf_free(&written);
    buf_free(&expected);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(raptor_reads_back_the_terms_written, setup, teardown),
        cmocka_unit_test_setup_teardown(an_iri_with_forbidden_characters_is_escaped, setup, teardown),
        cmocka_unit_test_setup_teardown(the_stream_writes_what_the_writer_writes, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
