/* raptor_pool.c: the raptor2 worlds every rdfio parses and serializes with, pooled for the process, and
 * libxml2 (under raptor2's RDF/XML parser) set up once, refusing every external entity. */
#include "rdf/raptor_pool.h"

#include <libxml/parser.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "rdf/rdfio.h"

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
    for (int i = 0; i < RDFIO_MAX_PARTS - 1; i++)
        give_world(io->part_worlds[i]);
    give_world(io->world);
    free(io);
}
