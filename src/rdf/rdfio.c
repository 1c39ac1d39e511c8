/* rdfio.c: parsing through raptor2 (the text checked first by rdf_checks.c, statements collected, then
 * committed all-or-nothing; large documents parsed beside the interning, line-based ones in two parts at
 * once), the syntaxes and media types read, and reading files. The raptor2 worlds come from
 * raptor_pool.c; writing is term_write.c's (without raptor2) and rdf_serialize.c's (through it). */
#include "rdf/rdfio.h"

#include <errno.h>
#include <pthread.h>
#include <raptor2.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "rdf/hashmap.h"
#include "rdf/raptor_pool.h"
#include "rdf/rdf_checks.h"
#include "rdf/turtle_scan.h"

/* Statements leave raptor2 as raw text records (the handler copies the terms into a chunk) and are
 * turned into interned terms afterwards. For a large document raptor2 runs in a thread of its own and
 * hands over full chunks, so parsing and interning overlap; a small one is parsed and converted in line.
 * A large line-based document (N-Triples, N-Quads: no line depends on another) is split at a line break
 * into two parts that two raptor2 parsers read at once, each with its own world (a raptor2 world is not
 * shared between threads); its triples are still interned in document order, so one document's blank
 * node labels still name one node. raptor2 was the slowest stage of loading: two thirds of it. */
enum {
    CHUNK_STATEMENTS = 8192,
    THREADED_PARSE_BYTES = 1 << 20,
    SPLIT_PARSE_BYTES = 2 << 20,
    MAX_PARTS = RDFIO_MAX_PARTS
};

/* raptor2 copies what it is given into a buffer of its own before parsing it; given a document in pieces
 * of this size, that copy stays small and in cache (the line-based parsers keep only a partial last line
 * between pieces). */
enum { RAPTOR_PIECE_BYTES = 64 << 10 };

typedef struct raw_chunk {
    buf bytes;
    struct raw_chunk *next;
} raw_chunk;

struct parse_state;

/* One part of a document and its raptor2 parser's side. */
typedef struct parse_part {
    struct parse_state *ps;
    raptor_world *world;
    raptor_parser *parser;
    const char *data;
    size_t len;
    int first_line; /* of the part in the document, from 1 */
    raw_chunk *filling; /* the parsing side */
    unsigned filled;
    size_t previous_at[3], previous_len[3]; /* each position's last term written out in filling */
    raptor_term *previous_terms[3]; /* each position's last term, held so that its IRI keeps its address */
    size_t held; /* bytes of statements past RDF_STATEMENT_ALLOWANCE each (see on_statement) */
    raw_chunk *queue_head, *queue_tail; /* the hand-over, under ps->lock */
    bool done;
    bool failed; /* set by the log handler, in the parsing thread */
    rdf_error err;
    char text[400]; /* raptor2's own words, for locate_error */
} parse_part;

typedef struct parse_state {
    rdfio *io;
    const char *source_name, *parser_name, *base;
    size_t held_limit; /* the most bytes a part's statements may hold past their allowance */
    bool count_repeats; /* a term repeated from the previous statement counts in full, see on_statement */
    bool threaded;
    pthread_mutex_t lock;
    pthread_cond_t ready;
    parse_part parts[MAX_PARTS];
    unsigned part_count;
    /* the converting side */
    triple *triples;
    size_t count, cap;
    u64map bnode_by_label; /* hash of the document's label -> our fresh blank node */
} parse_state;
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

/* raptor2's words made fit for a one-line message (answers of the LDP server carry them): a line break as
 * \n, other control characters as spaces, and a byte that is not UTF-8 (raptor2 quotes the single byte
 * it stopped at, which may be half a character) as '?'. */
static void copy_message_text(char *out, size_t size, const char *text) {
    size_t n = 0, len = strlen(text), i = 0;
    bool cut = false;
    while (i < len && !cut) {
        size_t valid_end = i + rdf_utf8_invalid_at((const unsigned char *)text + i, len - i);
        for (; i < valid_end && !cut; i++) {
            unsigned char c = (unsigned char)text[i];
            cut = n + 2 >= size;
            if (cut)
                break;
            if (c == '\n') {
                out[n++] = '\\';
                out[n++] = 'n';
            } else {
                out[n++] = c < 0x20 || c == 0x7F ? ' ' : (char)c;
            }
        }
        if (i < len && !cut) {
            cut = n + 2 >= size;
            if (!cut) {
                out[n++] = '?';
                i++;
            }
        }
    }
    if (cut) { /* no half character at the end */
        while (n && ((unsigned char)out[n - 1] & 0xC0) == 0x80)
            n--;
        if (n && (unsigned char)out[n - 1] >= 0xC0)
            n--;
    }
    out[n] = '\0';
}

static void on_log(void *user, raptor_log_message *message) {
    parse_part *part = user;
    if (message->level < RAPTOR_LOG_LEVEL_ERROR || part->failed)
        return;
    part->failed = true;
    const char *source_name = part->ps->source_name;
    /* Some errors come without a locator (an undeclared prefix, in Turtle and RDF/XML); the parser's
     * own then still says where it is. */
    raptor_locator *locator = message->locator ? message->locator
                              : part->parser   ? raptor_parser_get_locator(part->parser)
                                               : NULL;
    int line = locator ? locator->line : -1;
    /* raptor2 counts columns from 0 (N-Triples, N-Quads) or not at all (-1); ours count from 1 */
    int col = locator && locator->column >= 0 ? locator->column + 1 : -1;
    copy_message_text(part->text, sizeof part->text, message->text);
    if (line > 0)
        line += part->first_line - 1;
    rdf_error *err = &part->err;
    err->line = line > 0 ? line : 0;
    err->col = col > 0 ? col : 0;
    /* raptor2 often knows the line but not the column; say what is known. */
    if (line > 0 && col > 0)
        snprintf(err->message, sizeof err->message, "%s:%d:%d: %s", source_name, line, col, part->text);
    else if (line > 0)
        snprintf(err->message, sizeof err->message, "%s:%d: %s", source_name, line, part->text);
    else
        snprintf(err->message, sizeof err->message, "%s: %s", source_name, part->text);
}

/* RAW_SAME: the term at this position of the chunk's previous statement (a subject or predicate that ';'
 * or ',' repeat is held once). */
enum { RAW_URI, RAW_BLANK, RAW_LITERAL, RAW_SAME };

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

/* Hands the filled chunk over (and, when `done`, says the part is parsed). */
static void push_chunk(parse_part *part, bool done) {
    parse_state *ps = part->ps;
    raw_chunk *c = part->filling;
    part->filling = NULL;
    part->filled = 0;
    if (ps->threaded)
        pthread_mutex_lock(&ps->lock);
    if (c && part->queue_tail)
        part->queue_tail->next = c;
    else if (c)
        part->queue_head = c;
    if (c)
        part->queue_tail = c;
    part->done |= done;
    if (ps->threaded) {
        pthread_cond_broadcast(&ps->ready);
        pthread_mutex_unlock(&ps->lock);
    }
}

/* Refuses the document as raptor2 refuses a syntax error: through the log handler, at the parser's
 * position. */
static void refuse_statement(parse_part *part, const char *text) {
    raptor_log_message message = {.level = RAPTOR_LOG_LEVEL_ERROR,
                                  .locator = raptor_parser_get_locator(part->parser),
                                  .text = text};
    on_log(part, &message);
    raptor_parser_parse_abort(part->parser);
}

static void on_statement(void *user, raptor_statement *statement) {
    parse_part *part = user;
    if (part->failed)
        return;
    if (!part->filling)
        part->filling = xcalloc(1, sizeof *part->filling);
    buf *b = &part->filling->bytes;
    size_t statement_start = b->len, made = 0;
    raptor_term *positions[] = {statement->subject, statement->predicate, statement->object};
    for (int i = 0; i < 3; i++) {
        raptor_term *previous = part->previous_terms[i];
        /* A subject or predicate that ';' or ',' repeat is the same IRI object in raptor2: known by its
         * address without reading it (a 100 KB subject repeated 20,000 times is no work); other repeats
         * by their bytes. */
        if (part->filled && previous && previous->type == RAPTOR_TERM_TYPE_URI &&
            positions[i]->type == RAPTOR_TERM_TYPE_URI && previous->value.uri == positions[i]->value.uri) {
            made += part->previous_len[i];
            buf_putc(b, RAW_SAME);
            continue;
        }
        /* checked where written out: a repeated term was checked when first written */
        char text[80];
        const char *refusal = rdf_term_refusal(positions[i], text, sizeof text);
        if (refusal) {
            refuse_statement(part, refusal);
            return;
        }
        size_t start = b->len;
        encode_term(b, positions[i]);
        size_t len = b->len - start;
        made += len;
        if (part->filled && len == part->previous_len[i] &&
            memcmp(b->data + start, b->data + part->previous_at[i], len) == 0) {
            b->len = start;
            buf_putc(b, RAW_SAME);
        } else {
            part->previous_at[i] = start;
            part->previous_len[i] = len;
        }
        if (previous)
            raptor_free_term(previous);
        part->previous_terms[i] = raptor_term_copy(positions[i]);
    }
    /* What a document may make raptor2 do and us hold: its names written in full (a long namespace or base
     * used by many names) are bounded, the names a parser makes itself (rdf:first, datatypes, blank node
     * labels) fit each statement's allowance. RDF/XML names are expanded anew for every statement, so
     * all three terms count; Turtle's expansion was bounded by the scan, and what we hold counts. */
    size_t statement_len = part->ps->count_repeats ? made : b->len - statement_start;
    if (statement_len > RDF_STATEMENT_ALLOWANCE)
        part->held += statement_len - RDF_STATEMENT_ALLOWANCE;
    if (part->held > part->ps->held_limit) {
        char text[160];
        snprintf(text, sizeof text,
                 "its statements would hold more than %zu bytes of names written in full (the document, %d times "
                 "its size and %d MiB)",
                 part->ps->held_limit, RDF_EXPANSION_FACTOR, RDF_EXPANSION_SLACK >> 20);
        raptor_log_message message = {.level = RAPTOR_LOG_LEVEL_ERROR,
                                      .locator = raptor_parser_get_locator(part->parser),
                                      .text = text};
        on_log(part, &message);
        raptor_parser_parse_abort(part->parser);
        return;
    }
    if (++part->filled == CHUNK_STATEMENTS)
        push_chunk(part, false);
}

static const char *take_text(const char **p, uint32_t *len) {
    memcpy(len, *p, sizeof *len);
    const char *text = *p + sizeof *len;
    *p = text + *len;
    return text;
}

static term_id decode_term(parse_state *ps, const char **p, term_id previous) {
    terms *t = ps->io->t;
    int kind = *(*p)++;
    if (kind == RAW_SAME)
        return previous;
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
    triple previous = {0};
    while (p < end) {
        if (ps->count == ps->cap) {
            ps->cap = ps->cap ? ps->cap * 2 : 256;
            ps->triples = xrealloc(ps->triples, ps->cap * sizeof *ps->triples);
        }
        previous.s = decode_term(ps, &p, previous.s);
        previous.p = decode_term(ps, &p, previous.p);
        previous.o = decode_term(ps, &p, previous.o);
        ps->triples[ps->count++] = previous;
    }
    buf_free(&c->bytes);
    free(c);
}

/* Every raptor2 parser made here: it reads the text it is given and nothing else (no network, no
 * files, no external entities). */
static raptor_parser *new_parser(raptor_world *world, const char *name) {
    raptor_parser *parser = raptor_new_parser(world, name);
    if (!parser) {
        fprintf(stderr, "ldgsm: raptor2 has no %s parser\n", name);
        abort();
    }
    raptor_parser_set_option(parser, RAPTOR_OPTION_NO_NET, NULL, 1);
    raptor_parser_set_option(parser, RAPTOR_OPTION_NO_FILE, NULL, 1);
    raptor_parser_set_option(parser, RAPTOR_OPTION_LOAD_EXTERNAL_ENTITIES, NULL, 0);
    return parser;
}

static void *run_raptor(void *arg) {
    parse_part *part = arg;
    parse_state *ps = part->ps;
    raptor_world_set_log_handler(part->world, part, on_log);
    raptor_parser *parser = new_parser(part->world, ps->parser_name);
    part->parser = parser;
    raptor_uri *base_uri = raptor_new_uri(part->world, (const unsigned char *)(ps->base ? ps->base : "file:///"));
    raptor_parser_set_statement_handler(parser, part, on_statement);
    if (raptor_parser_parse_start(parser, base_uri) == 0) {
        size_t at = 0;
        do {
            size_t piece = part->len - at < RAPTOR_PIECE_BYTES ? part->len - at : RAPTOR_PIECE_BYTES;
            bool last = at + piece == part->len;
            if (raptor_parser_parse_chunk(parser, (const unsigned char *)part->data + at, piece, last) != 0)
                break;
            at += piece;
        } while (at < part->len && !part->failed);
    } else {
        part->failed = true;
    }
    for (int i = 0; i < 3; i++)
        if (part->previous_terms[i])
            raptor_free_term(part->previous_terms[i]);
    raptor_free_parser(parser);
    raptor_free_uri(base_uri);
    raptor_world_set_log_handler(part->world, NULL, NULL);
    push_chunk(part, true);
    return NULL;
}

/* Converts the parts' chunks in document order as they arrive, until every part is parsed. A document
 * with an error is refused whole, so once a part failed the rest is only drained. */
static void convert_all(parse_state *ps) {
    bool failed = false;
    for (unsigned i = 0; i < ps->part_count; i++) {
        parse_part *part = &ps->parts[i];
        for (bool done = false; !done;) {
            if (ps->threaded)
                pthread_mutex_lock(&ps->lock);
            while (ps->threaded && !part->queue_head && !part->done)
                pthread_cond_wait(&ps->ready, &ps->lock);
            raw_chunk *c = part->queue_head;
            part->queue_head = part->queue_tail = NULL;
            done = part->done;
            for (unsigned k = 0; k < ps->part_count; k++)
                failed |= ps->parts[k].failed;
            if (ps->threaded)
                pthread_mutex_unlock(&ps->lock);
            while (c) {
                raw_chunk *next = c->next;
                if (failed) {
                    buf_free(&c->bytes);
                    free(c);
                } else {
                    convert_chunk(ps, c);
                }
                c = next;
            }
        }
    }
}

/* Where a line-based document is split: the line break nearest its middle (0: not split). */
static size_t split_point(enum rdf_syntax syntax, const char *data, size_t len) {
    if ((syntax != RDF_NTRIPLES && syntax != RDF_NQUADS) || len < SPLIT_PARSE_BYTES)
        return 0;
    const char *newline = memchr(data + len / 2, '\n', len - len / 2);
    return newline ? (size_t)(newline - data) + 1 : 0;
}

static int count_lines(const char *data, size_t len) {
    int lines = 0;
    for (const char *p = data, *end = data + len; (p = memchr(p, '\n', (size_t)(end - p))); p++)
        lines++;
    return lines;
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
    if (rdf_check_text(syntax, data, len, source_name, err) != 0)
        return -1;
    size_t limit = rdf_expansion_limit(len);
    bool turtle = syntax == RDF_TURTLE || syntax == RDF_TRIG;
    turtle_scan scan;
    if (turtle && rdf_check_turtle(data, len, syntax == RDF_TRIG, base, limit, &scan, source_name, err) != 0)
        return -1;
    parse_state ps = {.io = io, .source_name = source_name, .parser_name = name, .base = base,
                      .held_limit = limit > SIZE_MAX - len ? SIZE_MAX : limit + len, .count_repeats = !turtle,
                      .threaded = len >= THREADED_PARSE_BYTES};
    size_t split = split_point(syntax, data, len);
    ps.parts[0] = (parse_part){.ps = &ps, .world = io->world, .data = data, .len = split ? split : len,
                               .first_line = 1};
    ps.part_count = 1;
    if (split) {
        if (!io->part_worlds[0])
            io->part_worlds[0] = rdfio_world_take();
        ps.parts[1] = (parse_part){.ps = &ps, .world = io->part_worlds[0], .data = data + split,
                                   .len = len - split, .first_line = 1 + count_lines(data, split)};
        ps.part_count = 2;
    }
    pthread_t workers[MAX_PARTS];
    unsigned started = 0;
    if (ps.threaded) {
        pthread_mutex_init(&ps.lock, NULL);
        pthread_cond_init(&ps.ready, NULL);
        while (started < ps.part_count && pthread_create(&workers[started], NULL, run_raptor, &ps.parts[started]) == 0)
            started++;
    }
    if (started < ps.part_count) { /* no threads (a small document, or none could start): in line */
        for (unsigned i = started; i < ps.part_count; i++)
            run_raptor(&ps.parts[i]);
    }
    convert_all(&ps);
    for (unsigned i = 0; i < started; i++)
        pthread_join(workers[i], NULL);
    if (ps.threaded) {
        pthread_cond_destroy(&ps.ready);
        pthread_mutex_destroy(&ps.lock);
    }
    u64map_free(&ps.bnode_by_label);
    for (unsigned i = 0; i < ps.part_count; i++)
        if (ps.parts[i].failed) { /* the first error in document order */
            *err = ps.parts[i].err;
            if (turtle)
                rdf_locate_error(data, len, &scan, &ps.parts[i].err, ps.parts[i].text, source_name, err);
            else if (!err->message[0])
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
    store_reserve(st, (uint32_t)n);
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
    /* a regular file is read into one block of its size (appending in pieces copied a large input twice
     * over into fresh pages), on huge pages when large (a page fault per 2 MiB, not per 4 KiB); anything
     * else, or a file that grows meanwhile, in pieces */
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        b.cap = (size_t)st.st_size + 1;
        b.data = xmalloc_huge(b.cap);
    }
    size_t n;
    while (b.data && b.len + 1 < b.cap && (n = fread(b.data + b.len, 1, b.cap - 1 - b.len, f)) > 0)
        b.len += n;
    char chunk[65536];
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
