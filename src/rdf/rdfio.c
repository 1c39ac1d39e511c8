/* rdfio.c: raptor2-backed parsing (collect, then commit all-or-nothing), raptor2 Turtle serialization,
 * and the direct N-Triples writer used on hot output paths. */
#include "rdf/rdfio.h"

#include <errno.h>
#include <pthread.h>
#include <raptor2.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rdf/hashmap.h"

struct rdfio {
    raptor_world *world;
    terms *t;
};

/* Statements leave raptor2 as raw text records (the handler copies the terms into a chunk) and are
 * turned into interned terms afterwards. For a large document raptor2 runs in a second thread and hands
 * over full chunks, so parsing and interning overlap; a small one is parsed and converted in line. */
enum { CHUNK_STATEMENTS = 8192, THREADED_PARSE_BYTES = 1 << 20 };

typedef struct raw_chunk {
    buf bytes;
    struct raw_chunk *next;
} raw_chunk;

typedef struct parse_state {
    rdfio *io;
    bool failed; /* set by the log handler, in the parsing thread */
    rdf_error *err;
    const char *source_name;
    /* the parsing side */
    raw_chunk *filling;
    unsigned filled;
    bool threaded;
    /* the hand-over */
    pthread_mutex_t lock;
    pthread_cond_t ready;
    raw_chunk *queue_head, *queue_tail;
    bool done;
    /* the converting side */
    triple *triples;
    size_t count, cap;
    u64map bnode_by_label; /* hash of the document's label -> our fresh blank node */
} parse_state;

rdfio *rdfio_new(terms *t) {
    rdfio *io = xcalloc(1, sizeof *io);
    io->t = t;
    io->world = raptor_new_world();
    /* Our term table interns already; raptor2's own URI interning (a tree lookup per URI) only costs. */
    if (io->world)
        raptor_world_set_flag(io->world, RAPTOR_WORLD_FLAG_URI_INTERNING, 0);
    if (!io->world || raptor_world_open(io->world)) {
        fputs("ldgsm: cannot initialize raptor2\n", stderr);
        abort();
    }
    return io;
}

void rdfio_free(rdfio *io) {
    if (!io)
        return;
    raptor_free_world(io->world);
    free(io);
}

static const struct {
    enum rdf_syntax syntax;
    const char *parser_name, *media_type, *extension;
} syntaxes[] = {
    {RDF_TURTLE, "turtle", "text/turtle", ".ttl"},
    {RDF_NTRIPLES, "ntriples", "application/n-triples", ".nt"},
    {RDF_NQUADS, "nquads", "application/n-quads", ".nq"},
    {RDF_RDFXML, "rdfxml", "application/rdf+xml", ".rdf"},
    {RDF_TRIG, "trig", "application/trig", ".trig"},
};
enum { SYNTAX_COUNT = sizeof syntaxes / sizeof syntaxes[0] };

enum rdf_syntax rdf_syntax_from_filename(const char *path) {
    const char *dot = strrchr(path, '.');
    if (!dot)
        return RDF_SYNTAX_UNKNOWN;
    for (int i = 0; i < SYNTAX_COUNT; i++)
        if (strcasecmp(dot, syntaxes[i].extension) == 0)
            return syntaxes[i].syntax;
    if (strcasecmp(dot, ".owl") == 0 || strcasecmp(dot, ".xml") == 0)
        return RDF_RDFXML;
    return RDF_SYNTAX_UNKNOWN;
}

enum rdf_syntax rdf_syntax_from_media_type(const char *media_type) {
    if (!media_type)
        return RDF_SYNTAX_UNKNOWN;
    size_t len = strcspn(media_type, ";");
    while (len && (media_type[len - 1] == ' ' || media_type[len - 1] == '\t'))
        len--;
    for (int i = 0; i < SYNTAX_COUNT; i++)
        if (strlen(syntaxes[i].media_type) == len && strncasecmp(media_type, syntaxes[i].media_type, len) == 0)
            return syntaxes[i].syntax;
    /* Older names some servers still send. */
    if (len == 16 && strncasecmp(media_type, "application/turtle", 16) == 0)
        return RDF_TURTLE;
    if (len == 10 && strncasecmp(media_type, "text/plain", 10) == 0)
        return RDF_NTRIPLES;
    return RDF_SYNTAX_UNKNOWN;
}

const char *rdf_syntax_media_type(enum rdf_syntax syntax) {
    for (int i = 0; i < SYNTAX_COUNT; i++)
        if (syntaxes[i].syntax == syntax)
            return syntaxes[i].media_type;
    return "application/octet-stream";
}

const char *rdf_accept_header(void) {
    return "text/turtle, application/n-triples;q=0.9, application/n-quads;q=0.8, "
           "application/trig;q=0.8, application/rdf+xml;q=0.7";
}

static const char *parser_name(enum rdf_syntax syntax) {
    for (int i = 0; i < SYNTAX_COUNT; i++)
        if (syntaxes[i].syntax == syntax)
            return syntaxes[i].parser_name;
    return NULL;
}

static void on_log(void *user, raptor_log_message *message) {
    parse_state *ps = user;
    if (message->level < RAPTOR_LOG_LEVEL_ERROR || ps->failed)
        return;
    ps->failed = true;
    int line = message->locator ? message->locator->line : -1;
    int col = message->locator ? message->locator->column : -1;
    ps->err->line = line > 0 ? line : 0;
    ps->err->col = col > 0 ? col : 0;
    /* raptor2 often knows the line but not the column; say what is known. */
    if (line > 0 && col > 0)
        snprintf(ps->err->message, sizeof ps->err->message, "%s:%d:%d: %s", ps->source_name, line, col,
                 message->text);
    else if (line > 0)
        snprintf(ps->err->message, sizeof ps->err->message, "%s:%d: %s", ps->source_name, line, message->text);
    else
        snprintf(ps->err->message, sizeof ps->err->message, "%s: %s", ps->source_name, message->text);
}

enum { RAW_URI, RAW_BLANK, RAW_LITERAL };

static void put_text(buf *b, const void *text, uint32_t len) {
    buf_append(b, &len, sizeof len);
    buf_append(b, text, len);
}

static void encode_term(buf *b, const raptor_term *rt) {
    size_t len;
    switch (rt->type) {
    case RAPTOR_TERM_TYPE_URI: {
        const unsigned char *s = raptor_uri_as_counted_string(rt->value.uri, &len);
        buf_putc(b, RAW_URI);
        put_text(b, s, (uint32_t)len);
        break;
    }
    case RAPTOR_TERM_TYPE_BLANK:
        buf_putc(b, RAW_BLANK);
        put_text(b, rt->value.blank.string, rt->value.blank.string_len);
        break;
    default: {
        buf_putc(b, RAW_LITERAL);
        put_text(b, rt->value.literal.string, rt->value.literal.string_len);
        const unsigned char *dt = rt->value.literal.datatype
                                      ? raptor_uri_as_counted_string(rt->value.literal.datatype, &len)
                                      : (len = 0, (const unsigned char *)"");
        put_text(b, dt, (uint32_t)len);
        put_text(b, rt->value.literal.language ? rt->value.literal.language : (const unsigned char *)"",
                 rt->value.literal.language_len);
    }
    }
}

static void push_chunk(parse_state *ps) {
    raw_chunk *c = ps->filling;
    ps->filling = NULL;
    ps->filled = 0;
    if (!c)
        return;
    if (ps->threaded)
        pthread_mutex_lock(&ps->lock);
    if (ps->queue_tail)
        ps->queue_tail->next = c;
    else
        ps->queue_head = c;
    ps->queue_tail = c;
    if (ps->threaded) {
        pthread_cond_signal(&ps->ready);
        pthread_mutex_unlock(&ps->lock);
    }
}

static void on_statement(void *user, raptor_statement *statement) {
    parse_state *ps = user;
    if (ps->failed)
        return;
    if (!ps->filling)
        ps->filling = xcalloc(1, sizeof *ps->filling);
    encode_term(&ps->filling->bytes, statement->subject);
    encode_term(&ps->filling->bytes, statement->predicate);
    encode_term(&ps->filling->bytes, statement->object);
    if (++ps->filled == CHUNK_STATEMENTS)
        push_chunk(ps);
}

static const char *take_text(const char **p, uint32_t *len) {
    memcpy(len, *p, sizeof *len);
    const char *text = *p + sizeof *len;
    *p = text + *len;
    return text;
}

static term_id decode_term(parse_state *ps, const char **p) {
    terms *t = ps->io->t;
    int kind = *(*p)++;
    uint32_t len;
    const char *text = take_text(p, &len);
    if (kind == RAW_URI)
        return terms_iri(t, text, len);
    if (kind == RAW_BLANK) {
        bool inserted;
        uint32_t *slot = u64map_put(&ps->bnode_by_label, hash_bytes(text, len, 0x62), 0, &inserted);
        if (inserted)
            *slot = terms_fresh_bnode(t);
        return *slot;
    }
    uint32_t dt_len, lang_len;
    const char *dt = take_text(p, &dt_len);
    const char *lang = take_text(p, &lang_len);
    return terms_literal(t, text, len, dt_len ? terms_iri(t, dt, dt_len) : 0, lang_len ? lang : NULL, lang_len);
}

static void convert_chunk(parse_state *ps, raw_chunk *c) {
    const char *p = c->bytes.data, *end = c->bytes.data + c->bytes.len;
    while (p < end) {
        if (ps->count == ps->cap) {
            ps->cap = ps->cap ? ps->cap * 2 : 256;
            ps->triples = xrealloc(ps->triples, ps->cap * sizeof *ps->triples);
        }
        term_id s = decode_term(ps, &p);
        term_id pr = decode_term(ps, &p);
        term_id o = decode_term(ps, &p);
        ps->triples[ps->count++] = (triple){s, pr, o};
    }
    buf_free(&c->bytes);
    free(c);
}

typedef struct parse_job {
    parse_state *ps;
    const char *parser_name, *data, *base;
    size_t len;
} parse_job;

static void *run_raptor(void *arg) {
    parse_job *job = arg;
    parse_state *ps = job->ps;
    rdfio *io = ps->io;
    raptor_parser *parser = raptor_new_parser(io->world, job->parser_name);
    raptor_uri *base_uri = raptor_new_uri(io->world, (const unsigned char *)(job->base ? job->base : "file:///"));
    raptor_parser_set_statement_handler(parser, ps, on_statement);
    if (raptor_parser_parse_start(parser, base_uri) == 0)
        raptor_parser_parse_chunk(parser, (const unsigned char *)job->data, job->len, 1);
    else
        ps->failed = true;
    raptor_free_parser(parser);
    raptor_free_uri(base_uri);
    push_chunk(ps);
    if (ps->threaded)
        pthread_mutex_lock(&ps->lock);
    ps->done = true;
    if (ps->threaded) {
        pthread_cond_signal(&ps->ready);
        pthread_mutex_unlock(&ps->lock);
    }
    return NULL;
}

/* Converts chunks as they arrive until the parser is done. */
static void convert_all(parse_state *ps) {
    for (;;) {
        if (ps->threaded)
            pthread_mutex_lock(&ps->lock);
        while (ps->threaded && !ps->queue_head && !ps->done)
            pthread_cond_wait(&ps->ready, &ps->lock);
        raw_chunk *c = ps->queue_head;
        ps->queue_head = ps->queue_tail = NULL;
        bool done = ps->done;
        if (ps->threaded)
            pthread_mutex_unlock(&ps->lock);
        while (c) {
            raw_chunk *next = c->next;
            if (ps->failed) { /* the document is refused whole: skip the work */
                buf_free(&c->bytes);
                free(c);
            } else {
                convert_chunk(ps, c);
            }
            c = next;
        }
        if (done)
            return;
    }
}

int rdf_parse_triples(rdfio *io, enum rdf_syntax syntax, const char *data, size_t len, const char *base,
                      const char *source_name, triple **out, size_t *count, rdf_error *err) {
    *out = NULL;
    *count = 0;
    memset(err, 0, sizeof *err);
    const char *name = parser_name(syntax);
    if (!name) {
        snprintf(err->message, sizeof err->message, "%s: not an RDF syntax this reader parses", source_name);
        return -1;
    }
    parse_state ps = {.io = io, .err = err, .source_name = source_name, .threaded = len >= THREADED_PARSE_BYTES};
    parse_job job = {.ps = &ps, .parser_name = name, .data = data, .base = base, .len = len};
    raptor_world_set_log_handler(io->world, &ps, on_log);
    pthread_t worker;
    if (ps.threaded) {
        pthread_mutex_init(&ps.lock, NULL);
        pthread_cond_init(&ps.ready, NULL);
        if (pthread_create(&worker, NULL, run_raptor, &job) != 0) {
            pthread_cond_destroy(&ps.ready);
            pthread_mutex_destroy(&ps.lock);
            ps.threaded = false;
        }
    }
    if (!ps.threaded)
        run_raptor(&job);
    convert_all(&ps);
    if (ps.threaded) {
        pthread_join(worker, NULL);
        pthread_cond_destroy(&ps.ready);
        pthread_mutex_destroy(&ps.lock);
    }
    raptor_world_set_log_handler(io->world, NULL, NULL);
    u64map_free(&ps.bnode_by_label);
    if (ps.failed) {
        if (!err->message[0])
            snprintf(err->message, sizeof err->message, "%s: syntax error", source_name);
        free(ps.triples);
        return -1;
    }
    *out = ps.triples;
    *count = ps.count;
    return 0;
}

int rdf_parse(rdfio *io, store *st, enum rdf_syntax syntax, const char *data, size_t len, const char *base,
              term_id g, const char *source_name, rdf_error *err) {
    triple *ts;
    size_t n;
    if (rdf_parse_triples(io, syntax, data, len, base, source_name, &ts, &n, err) != 0)
        return -1;
    for (size_t i = 0; i < n; i++)
        store_add(st, ts[i].s, ts[i].p, ts[i].o, g);
    free(ts);
    return 0;
}

char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    buf b = {0};
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        buf_append(&b, chunk, n);
    int failed = ferror(f);
    fclose(f);
    if (failed) {
        buf_free(&b);
        errno = EIO;
        return NULL;
    }
    *len = b.len;
    return buf_cstr(&b);
}

char *rdf_file_iri(const char *path) {
    char *real = realpath(path, NULL);
    buf iri = {0};
    buf_puts(&iri, "file://");
    buf_puts(&iri, real ? real : path);
    free(real);
    return buf_cstr(&iri);
}

int rdf_parse_file(rdfio *io, store *st, const char *path, term_id g, rdf_error *err) {
    memset(err, 0, sizeof *err);
    enum rdf_syntax syntax = rdf_syntax_from_filename(path);
    if (syntax == RDF_SYNTAX_UNKNOWN) {
        snprintf(err->message, sizeof err->message, "%s: unknown RDF syntax (expected .ttl, .nt, .nq, .rdf or .trig)",
                 path);
        return -1;
    }
    size_t len;
    char *data = read_file(path, &len);
    if (!data) {
        snprintf(err->message, sizeof err->message, "%s: %s", path, strerror(errno));
        return -1;
    }
    char *base = rdf_file_iri(path);
    int rc = rdf_parse(io, st, syntax, data, len, base, g, path, err);
    free(base);
    free(data);
    return rc;
}

/* N-Triples escaping: IRIs escape what IRIREF forbids; literals use ECHAR for the usual controls. */
static bool iri_char_needs_escape(unsigned char c) {
    return c <= 0x20 || c == '<' || c == '>' || c == '"' || c == '{' || c == '}' || c == '|' || c == '^' ||
           c == '`' || c == '\\';
}

static void write_iri(const char *s, size_t len, buf *out) {
    buf_reserve(out, len + 2);
    out->data[out->len++] = '<';
    size_t start = 0;
    for (size_t i = 0; i < len; i++) {
        if (!iri_char_needs_escape((unsigned char)s[i]))
            continue;
        buf_append(out, s + start, i - start);
        buf_printf(out, "\\u%04X", (unsigned char)s[i]);
        start = i + 1;
    }
    buf_append(out, s + start, len - start);
    buf_putc(out, '>');
}

static void write_string(const char *s, size_t len, buf *out) {
    buf_putc(out, '"');
    size_t start = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        const char *escape = NULL;
        switch (c) {
        case '"': escape = "\\\""; break;
        case '\\': escape = "\\\\"; break;
        case '\n': escape = "\\n"; break;
        case '\r': escape = "\\r"; break;
        case '\t': escape = "\\t"; break;
        case '\b': escape = "\\b"; break;
        case '\f': escape = "\\f"; break;
        default:
            if (c < 0x20) {
                buf_append(out, s + start, i - start);
                buf_printf(out, "\\u%04X", c);
                start = i + 1;
            }
            continue;
        }
        buf_append(out, s + start, i - start);
        buf_puts(out, escape);
        start = i + 1;
    }
    buf_append(out, s + start, len - start);
    buf_putc(out, '"');
}

void rdf_write_term_nt(const terms *t, term_id id, buf *out) {
    size_t len;
    const char *lex = terms_lex(t, id, &len);
    switch (terms_kind(t, id)) {
    case TERM_IRI:
        write_iri(lex, len, out);
        break;
    case TERM_BNODE:
        buf_puts(out, "_:");
        buf_append(out, lex, len);
        break;
    case TERM_LITERAL: {
        write_string(lex, len, out);
        const char *lang = terms_lang(t, id);
        term_id datatype = terms_datatype(t, id);
        if (lang) {
            buf_putc(out, '@');
            buf_puts(out, lang);
        } else if (datatype) {
            buf_puts(out, "^^");
            size_t dlen;
            const char *dt = terms_lex(t, datatype, &dlen);
            write_iri(dt, dlen, out);
        }
        break;
    }
    case TERM_VAR:
        buf_putc(out, '?');
        buf_append(out, lex, len);
        break;
    case TERM_FORMULA: {
        size_t n;
        const triple *ts = terms_formula_triples(t, id, &n);
        buf_puts(out, "{ ");
        for (size_t i = 0; i < n; i++) {
            rdf_write_term_nt(t, ts[i].s, out);
            buf_putc(out, ' ');
            rdf_write_term_nt(t, ts[i].p, out);
            buf_putc(out, ' ');
            rdf_write_term_nt(t, ts[i].o, out);
            buf_puts(out, " . ");
        }
        buf_putc(out, '}');
        break;
    }
    case TERM_LIST: {
        size_t n;
        terms_list_items(t, id, &n);
        if (n == 0) {
            write_iri(NS_RDF "nil", strlen(NS_RDF "nil"), out);
            break;
        }
        buf_printf(out, "_:list%u", id);
        break;
    }
    default:
        buf_puts(out, "<urn:ldgsm:none>");
    }
}

/* The length of the scheme and authority of an IRI ("http://host:port"), 0 when it has none. */
static size_t authority_length(const char *iri, size_t len) {
    const char *colon = memchr(iri, ':', len);
    if (!colon || (size_t)(colon - iri) + 3 > len || colon[1] != '/' || colon[2] != '/')
        return 0;
    const char *path = memchr(colon + 3, '/', len - (size_t)(colon + 3 - iri));
    return path ? (size_t)(path - iri) : len;
}

/* Appends <iri> relative to base (a document IRI without fragment): the document itself and its
 * fragments as <> and <#f>, IRIs of the same host with ../ steps as needed, others absolute. */
static void write_relative_iri(const char *iri, size_t len, const char *base, size_t base_len, buf *out) {
    size_t auth = authority_length(base, base_len);
    if (len >= base_len && memcmp(iri, base, base_len) == 0 && (len == base_len || iri[base_len] == '#')) {
        write_iri(iri + base_len, len - base_len, out);
        return;
    }
    if (!auth || authority_length(iri, len) != auth || memcmp(iri, base, auth) != 0 || memchr(iri, '?', len) ||
        memchr(base, '?', base_len)) {
        write_iri(iri, len, out);
        return;
    }
    /* the longest common directory prefix, then one ../ per base directory below it */
    size_t common = auth;
    for (size_t i = auth; i < len && i < base_len && iri[i] == base[i]; i++)
        if (iri[i] == '/')
            common = i + 1;
    buf rel = {0};
    for (size_t i = common; i < base_len; i++)
        if (base[i] == '/')
            buf_puts(&rel, "../");
    buf_append(&rel, iri + common, len - common);
    if (rel.len == 0 || rel.data[0] == '#')
        buf_puts(&rel, "./"); /* never confuse a path with the document itself */
    write_iri(rel.data, rel.len, out);
    buf_free(&rel);
}

void rdf_write_turtle_lines(const terms *t, const triple *ts, size_t n, const char *base, buf *out) {
    size_t base_len = strlen(base);
    for (size_t i = 0; i < n; i++) {
        const term_id parts[3] = {ts[i].s, ts[i].p, ts[i].o};
        for (int k = 0; k < 3; k++) {
            size_t len;
            const char *lex = terms_lex(t, parts[k], &len);
            if (terms_kind(t, parts[k]) == TERM_IRI)
                write_relative_iri(lex, len, base, base_len, out);
            else
                rdf_write_term_nt(t, parts[k], out);
            buf_putc(out, k < 2 ? ' ' : '\n');
        }
        out->data[out->len - 1] = ' ';
        buf_puts(out, ".\n");
    }
}

static raptor_term *to_raptor_term(rdfio *io, term_id id) {
    const terms *t = io->t;
    size_t len;
    const char *lex = terms_lex(t, id, &len);
    switch (terms_kind(t, id)) {
    case TERM_IRI:
        return raptor_new_term_from_counted_uri_string(io->world, (const unsigned char *)lex, len);
    case TERM_BNODE:
        return raptor_new_term_from_counted_blank(io->world, (const unsigned char *)lex, len);
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

/* One serialization path for every raptor2 serializer. */
static int write_with_raptor(rdfio *io, const char *serializer, const triple *ts, size_t n, const char *base,
                             buf *out) {
    raptor_serializer *ser = raptor_new_serializer(io->world, serializer);
    if (!ser)
        return -1;
    /* No @base line: relative IRIs then resolve against wherever the text is stored, which is the base
     * given here (the resource a PUT writes, the member a POST creates). */
    raptor_serializer_set_option(ser, RAPTOR_OPTION_WRITE_BASE_URI, NULL, 0);
    raptor_uri *base_uri = base ? raptor_new_uri(io->world, (const unsigned char *)base) : NULL;
    void *string = NULL;
    size_t length = 0;
    int rc = raptor_serializer_start_to_string(ser, base_uri, &string, &length);
    u64map lists_written = {0};
    for (size_t i = 0; rc == 0 && i < n; i++) {
        triple tr = ts[i];
        rc = serialize_triple(io, ser, tr.s, tr.p, tr.o);
        if (rc == 0 && terms_kind(io->t, tr.s) == TERM_LIST)
            rc = serialize_list(io, ser, tr.s, &lists_written);
        if (rc == 0 && terms_kind(io->t, tr.o) == TERM_LIST)
            rc = serialize_list(io, ser, tr.o, &lists_written);
    }
    u64map_free(&lists_written);
    if (raptor_serializer_serialize_end(ser) != 0)
        rc = -1;
    raptor_free_serializer(ser);
    if (base_uri)
        raptor_free_uri(base_uri);
    if (string) {
        if (rc == 0)
            buf_append(out, string, length);
        raptor_free_memory(string);
    }
    return rc;
}

int rdf_write_turtle(rdfio *io, const triple *ts, size_t n, const char *base, buf *out) {
    return write_with_raptor(io, "turtle", ts, n, base, out);
}

int rdf_write_rdfxml(rdfio *io, const triple *ts, size_t n, const char *base, buf *out) {
    return write_with_raptor(io, "rdfxml-abbrev", ts, n, base, out);
}
