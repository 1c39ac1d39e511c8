/* rdfio.c: raptor2-backed parsing (collect, then commit all-or-nothing; text checked first, no parser
 * reading anything but the text), raptor2 Turtle serialization, and the term-level N-Triples and
 * relative Turtle-line formatting that nt_writer.c and PUT bodies use. */
#define _GNU_SOURCE /* memmem */
#include "rdf/rdfio.h"

#include <errno.h>
#include <libxml/parser.h>
#include <pthread.h>
#include <raptor2.h>
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "rdf/hashmap.h"
#include "rdf/nesting.h"
#include "rdf/term_rules.h"
#include "rdf/turtle_scan.h"

struct rdfio {
    raptor_world *world;
    raptor_world *part_worlds[1]; /* for the second part of a split document, made when first needed */
    terms *t;
};

/* Statements leave raptor2 as raw text records (the handler copies the terms into a chunk) and are
 * turned into interned terms afterwards. For a large document raptor2 runs in a thread of its own and
 * hands over full chunks, so parsing and interning overlap; a small one is parsed and converted in line.
 * A large line-based document (N-Triples, N-Quads: no line depends on another) is split at a line break
 * into two parts that two raptor2 parsers read at once, each with its own world (a raptor2 world is not
 * shared between threads); its triples are still interned in document order, so one document's blank
 * node labels still name one node. raptor2 was the slowest stage of loading: two thirds of it. */
enum { CHUNK_STATEMENTS = 8192, THREADED_PARSE_BYTES = 1 << 20, SPLIT_PARSE_BYTES = 2 << 20, MAX_PARTS = 2 };

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

/* libxml2, under raptor2's RDF/XML parser, opens external entities and DTDs through one process-wide
 * loader, and parameter entities reach it whatever raptor2's options say (with NO_FILE set, one naming a
 * local file was still read into the document); this loader opens nothing, so no document makes the
 * process fetch a URL or read a file. */
static xmlParserInputPtr refuse_external_entity(const char *url, const char *id, xmlParserCtxtPtr ctxt) {
    (void)url;
    (void)id;
    (void)ctxt;
    return NULL;
}

/* libxml2 is set up once for the process, before any world opens: xmlInitParser is not safe to race, and
 * the refusing loader is process-wide. Called again after code outside rdfio freed a raptor world (which
 * cleans libxml2 up, see below); both steps do nothing when already done. */
void rdfio_prepare_libxml(void) {
    xmlInitParser();
    xmlSetExternalEntityLoader(refuse_external_entity);
}

/* Raptor worlds are pooled for the process and never freed: raptor_free_world calls xmlCleanupParser,
 * which tears down libxml2's process-wide state (its dictionary lock, input callbacks, the key of every
 * thread's state) under any other thread parsing at that moment, and leaks those threads' state. So an
 * rdfio takes an idle world (opening one only when none is idle) and gives it back: no more worlds than
 * were ever in use at once, any number of threads parsing on worlds of their own, and no 35 us world
 * opening per operation. A pooled world moves between threads, so it keeps no thread's libxml2 error
 * handlers (raptor2 sets them on the opening thread by default); parse errors reach it through each
 * parser's own context. */
static pthread_mutex_t world_pool_lock = PTHREAD_MUTEX_INITIALIZER;
static raptor_world **idle_worlds;
static size_t idle_world_count, idle_world_cap;

static void prepare_once(void) { rdfio_prepare_libxml(); }

static raptor_world *take_world(void) {
    static pthread_once_t prepared = PTHREAD_ONCE_INIT;
    pthread_once(&prepared, prepare_once);
    pthread_mutex_lock(&world_pool_lock);
    raptor_world *world = idle_world_count ? idle_worlds[--idle_world_count] : NULL;
    pthread_mutex_unlock(&world_pool_lock);
    if (world)
        return world;
    world = raptor_new_world();
    if (world) {
        /* Our term table interns already; raptor2's own URI interning (a tree lookup per URI) only costs. */
        raptor_world_set_flag(world, RAPTOR_WORLD_FLAG_URI_INTERNING, 0);
        raptor_world_set_flag(world, RAPTOR_WORLD_FLAG_LIBXML_GENERIC_ERROR_SAVE, 0);
        raptor_world_set_flag(world, RAPTOR_WORLD_FLAG_LIBXML_STRUCTURED_ERROR_SAVE, 0);
        /* libcurl is never used (no parser reads the network) and is set up by the HTTP client. */
        raptor_world_set_flag(world, RAPTOR_WORLD_FLAG_WWW_SKIP_INIT_FINISH, 1);
    }
    if (!world || raptor_world_open(world)) {
        fputs("ldgsm: cannot initialize raptor2\n", stderr);
        abort();
    }
    return world;
}

static void give_world(raptor_world *world) {
    if (!world)
        return;
    raptor_world_set_log_handler(world, NULL, NULL);
    pthread_mutex_lock(&world_pool_lock);
    if (idle_world_count == idle_world_cap) {
        idle_world_cap = idle_world_cap ? idle_world_cap * 2 : 8;
        idle_worlds = xrealloc(idle_worlds, idle_world_cap * sizeof *idle_worlds);
    }
    idle_worlds[idle_world_count++] = world;
    pthread_mutex_unlock(&world_pool_lock);
}

raptor_world *rdfio_world_take(void) { return take_world(); }

void rdfio_world_give(raptor_world *world) { give_world(world); }

rdfio *rdfio_new(terms *t) {
    rdfio *io = xcalloc(1, sizeof *io);
    io->t = t;
    io->world = take_world();
    return io;
}

void rdfio_free(rdfio *io) {
    if (!io)
        return;
    for (int i = 0; i < MAX_PARTS - 1; i++)
        give_world(io->part_worlds[i]);
    give_world(io->world);
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

static size_t utf8_invalid_at(const unsigned char *s, size_t len);

/* raptor2's words made fit for a one-line message (answers of the LDP server carry them): a line break as
 * \n, other control characters as spaces, and a byte that is not UTF-8 (raptor2 quotes the single byte
 * it stopped at, which may be half a character) as '?'. */
static void copy_message_text(char *out, size_t size, const char *text) {
    size_t n = 0, len = strlen(text), i = 0;
    bool cut = false;
    while (i < len && !cut) {
        size_t valid_end = i + utf8_invalid_at((const unsigned char *)text + i, len - i);
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

/* The first character of an IRI that RDF 1.1 forbids in one (controls, space, <>"{}|^`\\), or NULL.
 * raptor2's N-Triples parser lets them through; Turtle, where a stored N-Triples body is read back, and
 * every N-Triples reader downstream refuse them. */
static const unsigned char *forbidden_in_iri(const raptor_term *rt) {
    size_t len = 0;
    const unsigned char *s = NULL;
    if (rt->type == RAPTOR_TERM_TYPE_URI)
        s = raptor_uri_as_counted_string(rt->value.uri, &len);
    else if (rt->type == RAPTOR_TERM_TYPE_LITERAL && rt->value.literal.datatype)
        s = raptor_uri_as_counted_string(rt->value.literal.datatype, &len);
    size_t at = s ? rdf_iri_forbidden_at((const char *)s, len) : len;
    return at < len ? s + at : NULL;
}

/* Whether a literal holds U+0000 (from an escape: the text itself holds no NUL byte). Refused in every
 * reader: N-Triples, RDF/XML and C strings cannot carry it, so keeping it in one place would let two
 * readers of the same resource disagree. */
static bool literal_holds_nul(const raptor_term *rt) {
    return rt->type == RAPTOR_TERM_TYPE_LITERAL && memchr(rt->value.literal.string, '\0', rt->value.literal.string_len);
}

static bool bad_ordinal(const raptor_term *rt) {
    size_t len;
    const unsigned char *s = rt->type == RAPTOR_TERM_TYPE_URI ? raptor_uri_as_counted_string(rt->value.uri, &len) : NULL;
    return s && rdf_iri_bad_ordinal((const char *)s, len);
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
        const unsigned char *bad = forbidden_in_iri(positions[i]);
        if (bad) {
            char text[80];
            snprintf(text, sizeof text, "an IRI cannot contain the character 0x%02X", *bad);
            refuse_statement(part, text);
            return;
        }
        if (literal_holds_nul(positions[i])) {
            refuse_statement(part, RDF_NUL_LITERAL_ERROR);
            return;
        }
        if (bad_ordinal(positions[i])) {
            refuse_statement(part, RDF_BAD_ORDINAL_ERROR);
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

/* The offset of the first byte that does not begin a well-formed UTF-8 character (RFC 3629: no overlong
 * form, no surrogate, nothing above U+10FFFF), or len when all of s is UTF-8. ASCII is skipped a word
 * at a time: this runs over every document read. */
static size_t utf8_invalid_at(const unsigned char *s, size_t len) {
    size_t i = 0;
    while (i < len) {
        uint64_t word;
        if (len - i >= sizeof word && (memcpy(&word, s + i, sizeof word), !(word & 0x8080808080808080u))) {
            i += sizeof word;
            continue;
        }
        unsigned char c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t continuations;
        unsigned char low = 0x80, high = 0xBF; /* the range of the second byte */
        if (c >= 0xC2 && c <= 0xDF) {
            continuations = 1;
        } else if (c >= 0xE0 && c <= 0xEF) {
            continuations = 2;
            low = c == 0xE0 ? 0xA0 : 0x80;  /* not overlong */
            high = c == 0xED ? 0x9F : 0xBF; /* not a surrogate */
        } else if (c >= 0xF0 && c <= 0xF4) {
            continuations = 3;
            low = c == 0xF0 ? 0x90 : 0x80;  /* not overlong */
            high = c == 0xF4 ? 0x8F : 0xBF; /* not above U+10FFFF */
        } else {
            return i;
        }
        if (len - i <= continuations || s[i + 1] < low || s[i + 1] > high)
            return i;
        for (size_t k = 2; k <= continuations; k++)
            if ((s[i + k] & 0xC0) != 0x80)
                return i;
        i += continuations + 1;
    }
    return len;
}

/* The encoding an XML declaration names (the text after encoding=, up to its quote), or NULL. */
static const char *xml_declared_encoding(const char *data, size_t len, size_t *name_len) {
    size_t start = len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    if (len - start < 5 || memcmp(data + start, "<?xml", 5) != 0)
        return NULL;
    const char *end = memmem(data + start, len - start, "?>", 2);
    const char *at = end ? memmem(data + start, (size_t)(end - data) - start, "encoding", 8) : NULL;
    if (!at)
        return NULL;
    at += 8;
    while (at < end && (*at == ' ' || *at == '\t' || *at == '\r' || *at == '\n' || *at == '='))
        at++;
    if (at == end || (*at != '"' && *at != '\''))
        return NULL;
    const char *close = memchr(at + 1, *at, (size_t)(end - at - 1));
    if (!close)
        return NULL;
    *name_len = (size_t)(close - at - 1);
    return at + 1;
}

static bool xml_encoding_keeps_ascii(const char *name, size_t len) {
    static const char *const names[] = {"UTF-8", "UTF8", "US-ASCII", "ASCII", "ISO-8859-1", "ISO-LATIN-1"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strlen(names[i]) == len && strncasecmp(name, names[i], len) == 0)
            return true;
    return false;
}

/* The line and column (in characters, both from 1) of the byte offset `at`, as the N3 reader counts. */
static void text_position(const char *data, size_t at, int *line, int *col) {
    const char *line_start = data;
    *line = 1;
    for (const char *p = data; (p = memchr(p, '\n', (size_t)(data + at - p))); p++) {
        (*line)++;
        line_start = p + 1;
    }
    *col = 1;
    for (const char *p = line_start; p < data + at; p++)
        *col += (*p & 0xC0) != 0x80;
}

/* Fails a document by what it is, at the byte offset `at`. */
static int refuse_at(const char *data, size_t at, const char *source_name, rdf_error *err, const char *what) {
    text_position(data, at, &err->line, &err->col);
    snprintf(err->message, sizeof err->message, "%s:%d:%d: %s", source_name, err->line, err->col, what);
    return -1;
}

/* The offset of the first token on a line (its first byte that is not a space or tab), len past the end. */
static size_t line_first_token(const char *data, size_t len, int line) {
    size_t at = 0;
    for (int l = 1; l < line && at < len; l++) {
        const char *eol = memchr(data + at, '\n', len - at);
        at = eol ? (size_t)(eol - data) + 1 : len;
    }
    while (at < len && (data[at] == ' ' || data[at] == '\t' || data[at] == '\v'))
        at++;
    return at;
}

/* Completes where a Turtle or TriG error is. raptor2 reports a grammar error with the line of the token it
 * could not take and no column, and an undeclared prefix with no position at all. The recognizer
 * (turtle_scan.h) follows the same lexer and grammar, so its first error is that token: it is taken when
 * raptor2 names no line or a line the token spans; otherwise (an error only raptor2 sees) raptor2's line
 * and its first token. raptor2's own words are kept: they say what it expected there. */
static void locate_error(const char *data, size_t len, const turtle_scan *scan, const parse_part *part,
                         const char *source_name, rdf_error *err) {
    int line = part->err.line, col = part->err.col;
    if (line && col)
        return;
    size_t at = SIZE_MAX;
    if (scan->error_at != SIZE_MAX) {
        int first, last, unused;
        text_position(data, scan->error_at, &first, &unused);
        text_position(data, scan->error_end, &last, &unused);
        if (!line || (line >= first && line <= last))
            at = scan->error_at;
    }
    if (at == SIZE_MAX)
        at = line ? line_first_token(data, len, line) : 0;
    text_position(data, at, &err->line, &err->col);
    snprintf(err->message, sizeof err->message, "%s:%d:%d: %s", source_name, err->line, err->col,
             part->text[0] ? part->text : "syntax error");
}

/* Refuses a Turtle or TriG text at the recognizer's first error, in its words.
 * raptor2 never sees such a text: 2.0.15 leaks the tokens it holds when its grammar refuses one (a
 * string, an IRI, a prefixed name: each as long as the body may be, so bad bodies sent again and again
 * would exhaust the server's memory), and the recognizer refuses what raptor2 refuses (every Turtle and
 * TriG file of the W3C test suite alike). */
static int refuse_scanned(const char *data, size_t len, const turtle_scan *scan, const char *source_name,
                          rdf_error *err) {
    return refuse_at(data, scan->error_at < len ? scan->error_at : len, source_name, err, scan->error_what);
}

/* RDF_EXPANSION_FACTOR times len plus RDF_EXPANSION_SLACK, saturating. */
static size_t expansion_limit(size_t len) {
    if (len > (SIZE_MAX - RDF_EXPANSION_SLACK) / RDF_EXPANSION_FACTOR)
        return SIZE_MAX;
    return len * RDF_EXPANSION_FACTOR + RDF_EXPANSION_SLACK;
}

/* The offset of a language tag longer than RDF_MAX_LANGTAG in an N-Triples, N-Quads or RDF/XML text, or
 * len (Turtle's are the recognizer's). Looked for in the bytes, so it may also find one in a comment:
 * `"@` followed by tag characters (N-Triples escapes every quote inside a string), or an xml:lang value
 * (RDF/XML may not declare entities, so its bytes are the value or longer). */
/* The next mark at or after p: memmem for RDF/XML's `xml:lang`; for the other syntaxes, whose mark `"@`
 * is two bytes, the next '@' preceded by '"', which memchr finds far faster (the scan passes over every
 * byte of every document read: memmem was 2.5% of reading a large N-Triples file). */
static const char *next_mark(const char *p, const char *end, const char *data, bool xml, const char *mark,
                             size_t mark_len) {
    if (xml)
        return memmem(p, (size_t)(end - p), mark, mark_len);
    for (const char *at = p + 1; at < end && (at = memchr(at, '@', (size_t)(end - at))); at++)
        if (at - 1 >= data && at[-1] == '"')
            return at - 1;
    return NULL;
}

static size_t long_language_tag_at(enum rdf_syntax syntax, const char *data, size_t len) {
    bool xml = syntax == RDF_RDFXML;
    const char *mark = xml ? "xml:lang" : "\"@";
    size_t mark_len = strlen(mark);
    const char *end = data + len;
    for (const char *p = data; (p = next_mark(p, end, data, xml, mark, mark_len)); p++) {
        const char *tag = p + mark_len;
        if (xml) { /* the text ends anywhere: no NUL to stop strspn */
            while (tag < end && *tag && strchr(" \t\r\n", *tag))
                tag++;
            if (tag >= end || *tag != '=')
                continue;
            for (tag++; tag < end && *tag && strchr(" \t\r\n", *tag);)
                tag++;
            if (tag >= end || (*tag != '"' && *tag != '\''))
                continue;
            const char *close = memchr(tag + 1, *tag, (size_t)(end - tag - 1));
            if ((close ? (size_t)(close - tag - 1) : (size_t)(end - tag - 1)) > RDF_MAX_LANGTAG)
                return (size_t)(p - data);
        } else {
            size_t run = 0;
            while (tag + run < end && (isalnum((unsigned char)tag[run]) || tag[run] == '-'))
                run++;
            if (run > RDF_MAX_LANGTAG)
                return (size_t)(p + 1 - data);
        }
    }
    return len;
}

/* The end of what starts at p and ends with the first `close` after it, or end. */
static const char *past(const char *p, const char *end, const char *close) {
    const char *hit = memmem(p, (size_t)(end - p), close, strlen(close));
    return hit ? hit + strlen(close) : end;
}

/* The offset of the start tag that opens an element deeper than MAX_NESTING in an XML text, or len.
 * raptor2's RDF/XML parser looks up xml:base through every open element for each new one, quadratic in
 * the depth (10,000 unclosed elements 0.5 s, 40,000 22 s), and libxml2's push parser sets no bound, so
 * the depth is bounded here first. Comments, CDATA, processing instructions, the document type and quoted
 * attribute values are skipped; malformed XML may be counted deeper than it is, never shallower. */
static size_t xml_too_deep_at(const char *data, size_t len) {
    const char *p = data, *end = data + len;
    unsigned depth = 0;
    while ((p = memchr(p, '<', (size_t)(end - p)))) {
        const char *tag = p;
        size_t left = (size_t)(end - p);
        if (left >= 4 && memcmp(p, "<!--", 4) == 0) {
            p = past(p + 4, end, "-->");
        } else if (left >= 9 && memcmp(p, "<![CDATA[", 9) == 0) {
            p = past(p + 9, end, "]]>");
        } else if (left >= 2 && p[1] == '?') {
            p = past(p + 2, end, "?>");
        } else if (left >= 2 && p[1] == '!') { /* <!DOCTYPE ... [ internal subset ]>: quoted literals skipped */
            char quote = 0;
            bool subset = false;
            for (p += 2; p < end && (quote || subset || *p != '>'); p++) {
                if (quote ? *p == quote : (*p == '"' || *p == '\''))
                    quote = quote ? 0 : *p;
                else if (!quote && (*p == '[' || *p == ']'))
                    subset = *p == '[';
            }
        } else if (left >= 2 && p[1] == '/') {
            depth -= depth > 0;
            p += 2;
        } else {
            char quote = 0;
            for (p++; p < end && (quote || *p != '>'); p++)
                if (quote ? *p == quote : (*p == '"' || *p == '\''))
                    quote = quote ? 0 : *p;
            if (p < end && p[-1] == '/')
                continue; /* an empty element */
            if (++depth > MAX_NESTING)
                return (size_t)(tag - data);
        }
    }
    return len;
}

/* What every document must be before a parser sees it. RDF text is UTF-8 without NUL (raptor2 takes a
 * NUL for the end of the text and passes other bytes into terms unchecked), with no language tag raptor2
 * cannot hold (long_language_tag_at). RDF/XML may not declare entities:
 * raptor2 2.0.15 expands internal ones in full on a libxml2 2.9 context it does not expose, whose only
 * check is the density of references (one 20 KB entity referenced 500 times passed it: 21 KB of body, a
 * 10 MB literal, 900 MB of memory), so no cap can be set; refusing them is the bound. The declaration is
 * looked for in the bytes, so the document must also not name an encoding that spells ASCII otherwise:
 * libxml2 decodes a document declared UTF-7 (through iconv), where "+ADwAIQ-ENTITY" is "<!ENTITY". */
static int check_text(enum rdf_syntax syntax, const char *data, size_t len, const char *source_name, rdf_error *err) {
    const char *nul = memchr(data, '\0', len);
    if (nul)
        return refuse_at(data, (size_t)(nul - data), source_name, err, "a NUL byte: RDF text holds none");
    size_t invalid = utf8_invalid_at((const unsigned char *)data, len);
    if (invalid < len) {
        char what[64];
        snprintf(what, sizeof what, "byte 0x%02X is not UTF-8: RDF text is UTF-8", (unsigned char)data[invalid]);
        return refuse_at(data, invalid, source_name, err, what);
    }
    size_t long_tag = syntax == RDF_TURTLE || syntax == RDF_TRIG ? len : long_language_tag_at(syntax, data, len);
    if (long_tag < len)
        return refuse_at(data, long_tag, source_name, err, "a language tag longer than " RDF_MAX_LANGTAG_TEXT " characters");
    size_t nul_escape = syntax == RDF_NTRIPLES || syntax == RDF_NQUADS ? rdf_nt_nul_escape_at(data, len) : len;
    if (nul_escape < len)
        return refuse_at(data, nul_escape, source_name, err, RDF_NUL_LITERAL_ERROR);
    if (syntax != RDF_RDFXML)
        return 0;
    size_t encoding_len;
    const char *encoding = xml_declared_encoding(data, len, &encoding_len);
    if (encoding && !xml_encoding_keeps_ascii(encoding, encoding_len))
        return refuse_at(data, (size_t)(encoding - data), source_name, err,
                         "RDF/XML is accepted in UTF-8, US-ASCII or ISO-8859-1 only; this document declares "
                         "another encoding");
    const char *entity = memmem(data, len, "<!ENTITY", 8);
    if (entity)
        return refuse_at(data, (size_t)(entity - data), source_name, err,
                         "RDF/XML with entity declarations is not accepted");
    size_t too_deep = xml_too_deep_at(data, len);
    if (too_deep < len)
        return refuse_at(data, too_deep, source_name, err, "elements " NESTING_ERROR);
    return 0;
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
    if (check_text(syntax, data, len, source_name, err) != 0)
        return -1;
    size_t limit = expansion_limit(len);
    bool turtle = syntax == RDF_TURTLE || syntax == RDF_TRIG;
    turtle_scan scan;
    if (turtle) { /* before raptor2, which expands every name of the whole text before it parses */
        turtle_scan_text(data, len, syntax == RDF_TRIG, strlen(base ? base : "file:///"), limit, &scan);
        if (scan.limit_passed_at != SIZE_MAX) {
            char what[200];
            snprintf(what, sizeof what,
                     "names written in full would add more than %zu bytes to the document (%d times its size "
                     "and %d MiB): a namespace or base too long for how often it is used",
                     limit, RDF_EXPANSION_FACTOR, RDF_EXPANSION_SLACK >> 20);
            return refuse_at(data, scan.limit_passed_at, source_name, err, what);
        }
        if (scan.error_at != SIZE_MAX)
            return refuse_scanned(data, len, &scan, source_name, err);
    }
    parse_state ps = {.io = io, .source_name = source_name, .parser_name = name, .base = base,
                      .held_limit = limit > SIZE_MAX - len ? SIZE_MAX : limit + len, .count_repeats = !turtle,
                      .threaded = len >= THREADED_PARSE_BYTES};
    size_t split = split_point(syntax, data, len);
    ps.parts[0] = (parse_part){.ps = &ps, .world = io->world, .data = data, .len = split ? split : len,
                               .first_line = 1};
    ps.part_count = 1;
    if (split) {
        if (!io->part_worlds[0])
            io->part_worlds[0] = take_world();
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
                locate_error(data, len, &scan, &ps.parts[i], source_name, err);
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

static bool is_hex_upper(char c) { return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F'); }

/* A variable's name as N3 can read it: a name of letters, digits and '_' as it is; any other (an
 * @forAll variable is named by its IRI) with each character but letters and digits written _XX. A name
 * holding `_XX` is escaped too, so two names never print the same. */
static void write_variable_name(const char *name, size_t len, buf *out) {
    bool escape = false;
    for (size_t i = 0; i < len && !escape; i++) {
        unsigned char c = (unsigned char)name[i];
        escape = !(isalnum(c) || c == '_') ||
                 (c == '_' && i + 2 < len && is_hex_upper(name[i + 1]) && is_hex_upper(name[i + 2]));
    }
    if (!escape) {
        buf_append(out, name, len);
        return;
    }
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)name[i];
        if (isalnum(c) && c < 0x80)
            buf_putc(out, (char)c);
        else
            buf_printf(out, "_%02X", c);
    }
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

static void write_term(const terms *t, term_id id, bool quoted, buf *out);

void rdf_write_term_nt(const terms *t, term_id id, buf *out) { write_term(t, id, false, out); }

/* A term in N-Triples, or in N3 notation for formulas and what they hold (`quoted`): a list inside a
 * formula is written `( ... )`, as its items have no triples of their own there. */
static void write_term(const terms *t, term_id id, bool quoted, buf *out) {
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
        write_variable_name(lex, len, out);
        break;
    case TERM_FORMULA: {
        size_t n;
        const triple *ts = terms_formula_triples(t, id, &n);
        if (n == 0) { /* N3 reads `{}` and true as one */
            buf_puts(out, "\"true\"^^<" NS_XSD "boolean>");
            break;
        }
        buf_puts(out, "{ ");
        for (size_t i = 0; i < n; i++) {
            write_term(t, ts[i].s, true, out);
            buf_putc(out, ' ');
            write_term(t, ts[i].p, true, out);
            buf_putc(out, ' ');
            write_term(t, ts[i].o, true, out);
            buf_puts(out, " . ");
        }
        buf_putc(out, '}');
        break;
    }
    case TERM_LIST: {
        size_t n;
        const term_id *items = terms_list_items(t, id, &n);
        if (quoted) {
            buf_putc(out, '(');
            for (size_t i = 0; i < n; i++) {
                buf_putc(out, ' ');
                write_term(t, items[i], true, out);
            }
            buf_puts(out, " )");
        } else if (n == 0) {
            write_iri(NS_RDF "nil", strlen(NS_RDF "nil"), out);
        } else {
            buf_printf(out, "_:list%u", id);
        }
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
    buf_append(&rel, iri + common, len > common ? len - common : 0); /* common <= len; said for LTO */
    if (rel.len == 0 || rel.data[0] == '#')
        buf_puts(&rel, "./"); /* never confuse a path with the document itself */
    write_iri(rel.data, rel.len, out);
    buf_free(&rel);
}

void rdf_write_relative_iri(const char *iri, const char *base, buf *out) {
    write_relative_iri(iri, strlen(iri), base, strlen(base), out);
}

/* The namespaces a compact document abbreviates: those of status documents. */
static const struct {
    const char *prefix, *iri;
    size_t iri_len;
} compact_prefixes[] = {
#define COMPACT_PREFIX(name, iri) {name, iri, sizeof iri - 1}
    COMPACT_PREFIX("rdf", "http://www.w3.org/1999/02/22-rdf-syntax-ns#"),
    COMPACT_PREFIX("xsd", "http://www.w3.org/2001/XMLSchema#"),
    COMPACT_PREFIX("gsm", "http://purl.org/gsm/vocab#"),
    COMPACT_PREFIX("ldgsm", "https://w3id.org/ldgsm#"),
    COMPACT_PREFIX("wsm", "https://w3id.org/ldgsm/wsm#"),
#undef COMPACT_PREFIX
};

/* Writes iri as prefix:local when a compact prefix covers it and local is a plain name. */
static bool write_prefixed(const char *iri, size_t len, buf *out) {
    for (size_t k = 0; k < sizeof compact_prefixes / sizeof *compact_prefixes; k++) {
        size_t ns = compact_prefixes[k].iri_len;
        if (len <= ns || memcmp(iri, compact_prefixes[k].iri, ns) != 0)
            continue;
        const char *local = iri + ns;
        size_t local_len = len - ns;
        bool plain = isalpha((unsigned char)local[0]) || local[0] == '_';
        for (size_t i = 1; i < local_len && plain; i++)
            plain = isalnum((unsigned char)local[i]) || local[i] == '_' || local[i] == '-';
        if (!plain)
            return false;
        buf_puts(out, compact_prefixes[k].prefix);
        buf_putc(out, ':');
        buf_append(out, local, local_len);
        return true;
    }
    return false;
}

static bool all_digits(const char *s, size_t len) {
    size_t i = len && (s[0] == '-' || s[0] == '+');
    if (i == len)
        return false;
    for (; i < len; i++)
        if (!isdigit((unsigned char)s[i]))
            return false;
    return true;
}

static void write_compact_term(const terms *t, term_id id, const char *base, size_t base_len, bool predicate,
                               buf *out) {
    size_t len;
    const char *lex = terms_lex(t, id, &len);
    switch (terms_kind(t, id)) {
    case TERM_IRI:
        if (predicate && id == T_RDF_TYPE)
            buf_putc(out, 'a');
        else if (!write_prefixed(lex, len, out))
            write_relative_iri(lex, len, base, base_len, out);
        return;
    case TERM_LITERAL: {
        term_id datatype = terms_datatype(t, id);
        if (!terms_lang(t, id) && datatype == T_XSD_BOOLEAN && (strcmp(lex, "true") == 0 || strcmp(lex, "false") == 0)) {
            buf_append(out, lex, len);
            return;
        }
        if (!terms_lang(t, id) && datatype == T_XSD_INTEGER && all_digits(lex, len)) {
            buf_append(out, lex, len);
            return;
        }
        if (!terms_lang(t, id) && datatype && datatype != T_XSD_STRING) {
            size_t dlen;
            const char *dt = terms_lex(t, datatype, &dlen);
            size_t mark = out->len;
            write_string(lex, len, out);
            buf_puts(out, "^^");
            if (write_prefixed(dt, dlen, out))
                return;
            out->len = mark;
        }
        rdf_write_term_nt(t, id, out);
        return;
    }
    default:
        rdf_write_term_nt(t, id, out);
    }
}

void rdf_write_compact_prefixes(buf *out) {
    for (size_t k = 0; k < sizeof compact_prefixes / sizeof *compact_prefixes; k++)
        buf_printf(out, "@prefix %s: <%s> .\n", compact_prefixes[k].prefix, compact_prefixes[k].iri);
}

void rdf_write_turtle_compact(const terms *t, const triple *ts, size_t n, const char *base, buf *out) {
    rdf_write_compact_prefixes(out);
    rdf_write_compact_statements(t, ts, n, base, out);
}

void rdf_write_compact_statements(const terms *t, const triple *ts, size_t n, const char *base, buf *out) {
    size_t base_len = strlen(base);
    for (size_t i = 0; i < n; i++) {
        bool same_subject = i && ts[i].s == ts[i - 1].s;
        bool same_predicate = same_subject && ts[i].p == ts[i - 1].p;
        if (same_predicate) {
            buf_puts(out, " ,\n        ");
        } else if (same_subject) {
            buf_puts(out, " ;\n    ");
        } else {
            if (i)
                buf_puts(out, " .\n");
            write_compact_term(t, ts[i].s, base, base_len, false, out);
            buf_putc(out, ' ');
        }
        if (!same_predicate) {
            write_compact_term(t, ts[i].p, base, base_len, true, out);
            buf_putc(out, ' ');
        }
        write_compact_term(t, ts[i].o, base, base_len, false, out);
    }
    if (n)
        buf_puts(out, " .\n");
}

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
