/* test_ldp_patch.c: N3 Patch (ldp_patch.h) on a resource's Turtle: inserts, deletes, where with one
 * mapping; 409 for where matching no or several mappings and for absent deletions; 422 for every kind of
 * malformed patch; and, through ldp_store_edit, creation, preconditions and racing patches none of
 * which is lost. Results are compared as N-Triples lines (the order of the triples is not promised). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ldp/ldp_patch.h"
#include "ldp/ldp_store.h"

#define BASE "http://127.0.0.1:9"
#define DOC BASE "/c/r"
#define PREFIXES                                                                                               \
    "@prefix solid: <http://www.w3.org/ns/solid/terms#> .\n"                                                   \
    "@prefix ex: <http://ex/> .\n"
#define PATCH PREFIXES "_:patch a solid:InsertDeletePatch ;\n"

typedef struct fixture {
    buf out;
    char message[600];
} fixture;

static int setup(void **state) {
    fixture *f = calloc(1, sizeof *f);
    *state = f;
    return 0;
}

static int teardown(void **state) {
    fixture *f = *state;
    buf_free(&f->out);
    free(f);
    return 0;
}

/* Applies patch to the Turtle document (NULL: the resource does not exist); returns the status. */
static int apply(fixture *f, const char *patch, const char *turtle) {
    buf_free(&f->out);
    f->message[0] = '\0';
    return ldp_patch_apply(patch, strlen(patch), turtle, turtle ? strlen(turtle) : 0, false, DOC, NULL, &f->out,
                           f->message, sizeof f->message);
}

/* The result as sorted N-Triples lines, one string (caller frees). */
static char *result_nt(fixture *f) {
    buf nt = {0};
    char message[600];
    assert_int_equal(ldp_rdf_convert(buf_cstr(&f->out), f->out.len, DOC, LDP_MEDIA_NTRIPLES, &nt, message, sizeof message),
                     0);
    /* Sort the lines, so that comparisons do not depend on the writer's order. */
    char *text = buf_cstr(&nt);
    char *lines[256];
    size_t n = 0;
    for (char *line = strtok(text, "\n"); line && n < 256; line = strtok(NULL, "\n"))
        lines[n++] = line;
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && strcmp(lines[j - 1], lines[j]) > 0; j--) {
            char *swap = lines[j];
            lines[j] = lines[j - 1];
            lines[j - 1] = swap;
        }
    buf sorted = {0};
    for (size_t i = 0; i < n; i++) {
        buf_puts(&sorted, lines[i]);
        buf_putc(&sorted, '\n');
    }
    free(text);
    return buf_cstr(&sorted);
}

static void assert_result(fixture *f, const char *expected) {
    char *nt = result_nt(f);
    assert_string_equal(nt, expected);
    free(nt);
}

static void assert_refused(fixture *f, int status, const char *patch, const char *turtle, const char *why) {
    assert_int_equal(apply(f, patch, turtle), status);
    if (!strstr(f->message, why))
        fail_msg("expected the message to say '%s', got '%s'", why, f->message);
    assert_int_equal(f->out.len, 0);
}

#define IT "<" DOC "#it>"
#define Q "<http://ex/q>"
#define AGE "<http://ex/age>"
#define NAME "<http://ex/name>"
#define INT(n) "\"" #n "\"^^<http://www.w3.org/2001/XMLSchema#integer>"

static const char *const people = "@prefix ex: <http://ex/> .\n"
                                  "<#a> ex:name \"A\" ; ex:age 30 .\n"
                                  "<#b> ex:name \"B\" ; ex:age 40 .\n";

static void insert_only(void **state) {
    fixture *f = *state;
    assert_int_equal(apply(f, PATCH "solid:inserts { <#it> ex:q 1 . } .", NULL), 0);
    assert_result(f, IT " " Q " " INT(1) " .\n");
    /* The existing triples stay, blank nodes included. */
    assert_int_equal(apply(f, PATCH "solid:inserts { <#it> ex:q 2 . } .",
                           "<#it> <http://ex/q> 1 ; <http://ex/r> [ <http://ex/s> 3 ] ."),
                     0);
    char *nt = result_nt(f);
    assert_non_null(strstr(nt, IT " " Q " " INT(1) " .\n"));
    assert_non_null(strstr(nt, IT " " Q " " INT(2) " .\n"));
    assert_non_null(strstr(nt, IT " <http://ex/r> _:"));
    assert_non_null(strstr(nt, " <http://ex/s> " INT(3) " .\n"));
    free(nt);
}

static void delete_only(void **state) {
    fixture *f = *state;
    assert_int_equal(apply(f, PATCH "solid:deletes { <#a> ex:age 30 . } .", people), 0);
    assert_result(f, "<" DOC "#a> " NAME " \"A\" .\n"
                     "<" DOC "#b> " AGE " " INT(40) " .\n"
                     "<" DOC "#b> " NAME " \"B\" .\n");
}

static void where_with_one_mapping(void **state) {
    fixture *f = *state;
    assert_int_equal(apply(f,
                           PATCH "solid:where { ?person ex:name \"B\" ; ex:age ?age . } ;\n"
                                 "solid:deletes { ?person ex:age ?age . } ;\n"
                                 "solid:inserts { ?person ex:age 41 ; ex:was ?age . } .",
                           people),
                     0);
    assert_result(f, "<" DOC "#a> " AGE " " INT(30) " .\n"
                     "<" DOC "#a> " NAME " \"A\" .\n"
                     "<" DOC "#b> " AGE " " INT(41) " .\n"
                     "<" DOC "#b> " NAME " \"B\" .\n"
                     "<" DOC "#b> <http://ex/was> " INT(40) " .\n");
    /* A variable used twice in one pattern must take one value. */
    assert_int_equal(apply(f, PATCH "solid:where { ?x ex:p ?x . } ; solid:inserts { ?x ex:q 1 . } .",
                           "<#s> <http://ex/p> <#o> . <#t> <http://ex/p> <#t> ."),
                     0);
    char *nt = result_nt(f);
    assert_non_null(strstr(nt, "<" DOC "#t> " Q " " INT(1) " .\n"));
    free(nt);
}

static void where_must_match_exactly_once(void **state) {
    fixture *f = *state;
    assert_refused(f, 409, PATCH "solid:where { ?p ex:name \"C\" . } ; solid:inserts { ?p ex:age 1 . } .", people,
                   "in no way");
    assert_refused(f, 409, PATCH "solid:where { ?p ex:age ?age . } ; solid:deletes { ?p ex:age ?age . } .", people,
                   "more than one way");
    /* A where clause on a resource that does not exist matches nothing. */
    assert_refused(f, 409, PATCH "solid:where { ?p ex:age ?age . } .", NULL, "in no way");
}

static void deletions_must_be_present(void **state) {
    fixture *f = *state;
    assert_refused(f, 409,
                   PATCH "solid:deletes { <#a> ex:age 30 . <#a> ex:age 31 . } ; solid:inserts { <#a> ex:q 1 . } .",
                   people, "<" DOC "#a> " AGE " " INT(31) " is not in the resource");
    assert_refused(f, 409,
                   PATCH "solid:where { ?p ex:name \"A\" . } ; solid:deletes { ?p ex:name \"B\" . } .", people,
                   "is not in the resource");
}

static void malformed_patches_are_422(void **state) {
    fixture *f = *state;
    assert_refused(f, 422, PATCH "solid:inserts { <#it> ex:q 1 . ", NULL, "patch:4:32: expected '}'");
    assert_refused(f, 422, PREFIXES "_:p solid:inserts { <#it> ex:q 1 . } .", NULL, "no solid:InsertDeletePatch");
    assert_refused(f, 422,
                   PREFIXES "_:p a solid:InsertDeletePatch . _:q a solid:InsertDeletePatch ; solid:inserts { } .",
                   NULL, "more than one");
    assert_refused(f, 422, PATCH "solid:inserts { <#a> ex:q 1 . } , { <#a> ex:q 2 . } .", NULL,
                   "solid:inserts is given twice");
    assert_refused(f, 422, PATCH "solid:deletes <#a> .", people, "not a formula");
    assert_refused(f, 422, PATCH "solid:inserts { <#a> ex:q { <#b> ex:q 1 } . } .", NULL, "nested formula");
    assert_refused(f, 422, PATCH "solid:inserts { <#a> ex:q ( 1 2 ) . } .", NULL, "list");
    assert_refused(f, 422, PATCH "solid:inserts { ?x ex:q 1 . } .", NULL, "?x, which solid:where does not bind");
    assert_refused(f, 422, PATCH "solid:where { ?p ex:name \"A\" . } ; solid:deletes { ?p ex:age ?age . } .", people,
                   "?age, which solid:where does not bind");
    /* A mapping that would put a literal in subject position gives no RDF. */
    assert_refused(f, 422, PATCH "solid:where { <#a> ex:name ?n . } ; solid:inserts { ?n ex:q 1 . } .", people,
                   "literal as subject");
}

/* The Solid Protocol forbids blank nodes in inserts and deletes; where is refused too (ldp_patch.h). */
static void blank_nodes_are_422(void **state) {
    fixture *f = *state;
    assert_refused(f, 422, PATCH "solid:inserts { <#a> ex:q [ ex:r 1 ] . } .", people,
                   "solid:inserts holds a blank node");
    assert_refused(f, 422, PATCH "solid:where { ?p ex:name [] . } ; solid:inserts { ?p ex:q 1 . } .", people,
                   "solid:where holds a blank node");
    assert_refused(f, 422, PATCH "solid:where { _:b ex:name \"A\" . } .", people, "solid:where holds a blank node");
    assert_refused(f, 422, PATCH "solid:deletes { _:b ex:name \"A\" . } .", people, "solid:deletes holds a blank node");
}

/* What a body could not hold a patch cannot put there: the server would store what it cannot serve (a
 * language tag raptor2 overruns a buffer with, an IRI no reader takes). */
static void terms_no_body_may_hold_are_422(void **state) {
    fixture *f = *state;
    buf patch = {0};
    buf_puts(&patch, PATCH "solid:inserts { <#a> ex:q \"x\"@");
    for (int i = 0; i < 129; i++)
        buf_putc(&patch, 'F');
    buf_puts(&patch, " . } .");
    assert_refused(f, 422, buf_cstr(&patch), people, "solid:inserts holds a language tag longer than 128 characters");
    buf_free(&patch);
    assert_refused(f, 422, PATCH "solid:inserts { <#a> ex:q \"x\"^^<http://ex/a\\u007Cb> . } .", people,
                   "expected a character allowed in IRIs, found '\\u007C'");
}

static void costly_where_clauses_are_422(void **state) {
    fixture *f = *state;
    buf patch = {0};
    buf_puts(&patch, PATCH "solid:where {");
    for (int i = 0; i <= LDP_PATCH_MAX_WHERE; i++)
        buf_printf(&patch, " ?s%d ex:p ?o%d .", i, i);
    buf_puts(&patch, " } .");
    assert_refused(f, 422, buf_cstr(&patch), people, "at most");
    buf_free(&patch);
    /* Two unconstrained patterns over 1,001 triples, then one that never matches: the join would try
     * 1,001 x 1,001 combinations, more than the budget. */
    buf doc = {0};
    for (int i = 0; i <= 1000; i++)
        buf_printf(&doc, "<#s%d> <http://ex/p> %d .\n", i, i);
    assert_refused(f, 422, PATCH "solid:where { ?a ?b ?c . ?d ?e ?f . <#x> ex:none ?g . } .", buf_cstr(&doc),
                   "match steps");
    buf_free(&doc);
}

/* ---------------------------------------------------------------- through the store */

static int edit(ldp_store *store, const char *path, const char *patch, const ldp_conditions *c,
                char *etag) {
    ldp_patch_request request = {patch, strlen(patch), NULL};
    ldp_outcome o;
    ldp_store_edit(store, path, c, ldp_patch_edit, &request, &o);
    if (etag)
        strcpy(etag, o.etag);
    int status = o.status;
    ldp_outcome_clear(&o);
    return status;
}

static ldp_store *open_memory_store(void) {
    ldp_store_config config = {NULL, BASE, free, NULL, NULL, NULL, NULL};
    char message[512] = "";
    ldp_store *store = ldp_store_open(&config, message, sizeof message);
    assert_non_null(store);
    return store;
}

static void store_edit_creates_and_honours_conditions(void **state) {
    (void)state;
    ldp_store *store = open_memory_store();
    char etag1[LDP_ETAG_SIZE], etag2[LDP_ETAG_SIZE];
    ldp_conditions create_only = {NULL, "*", false};
    assert_int_equal(edit(store, "/c/r", PATCH "solid:inserts { <#it> ex:q 1 . } .", &create_only, etag1),
                     201);
    ldp_doc *parent = ldp_store_get(store, "/c/"); /* created on the way */
    assert_non_null(parent);
    ldp_doc_release(parent);
    assert_int_equal(edit(store, "/c/r", PATCH "solid:inserts { <#it> ex:q 2 . } .", &create_only, NULL),
                     412);
    ldp_conditions current = {etag1, NULL, false};
    assert_int_equal(edit(store, "/c/r", PATCH "solid:inserts { <#it> ex:q 2 . } .", &current, etag2), 204);
    assert_string_not_equal(etag1, etag2);
    assert_int_equal(edit(store, "/c/r", PATCH "solid:inserts { <#it> ex:q 3 . } .", &current, NULL), 412);
    ldp_conditions required = {NULL, NULL, true};
    assert_int_equal(edit(store, "/c/r", PATCH "solid:inserts { <#it> ex:q 3 . } .", &required, NULL), 428);
    /* A refused patch changes nothing. */
    assert_int_equal(edit(store, "/c/r", PATCH "solid:deletes { <#it> ex:q 9 . } .", NULL, NULL), 409);
    ldp_doc *doc = ldp_store_get(store, "/c/r");
    assert_string_equal(doc->etag[LDP_MEDIA_TURTLE], etag2);
    ldp_doc_release(doc);
    /* A container's own triples are patched; its containment triples are the server's. */
    assert_int_equal(edit(store, "/c/", PATCH "solid:inserts { <> ex:title \"c\" . } .", NULL, NULL), 204);
    assert_int_equal(edit(store, "/c/",
                          PATCH "solid:inserts { <> <http://www.w3.org/ns/ldp#contains> <x> . } .", NULL, NULL),
                     409);
    ldp_store_free(store);
}

/* A resource the patch writer wrote is read back by the N3 reader (own_writing): the next patch makes the
 * same Turtle from it as raptor2's reading does, for every kind of term that writer puts down. */
static void own_writing_reads_as_raptor2_reads_it(void **state) {
    fixture *f = *state;
    const char *mixed = "@prefix ex: <http://ex/> .\n@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n"
                        "<#a> a ex:T ; ex:name \"A \\\"q\\\"\\n\\t\\\\ \\u00e9\"@en-GB , 'b' ; ex:age 30 , -4 ;\n"
                        "  ex:ok true ; ex:x 1.5 , 2e3 , \"7\"^^xsd:long , \"z\"^^<http://ex/dt> ;\n"
                        "  ex:knows <#b> , <../up#c> , <http://other/x> , [ ex:name \"C\" ] ; ex:list ( 1 2 ) .\n"
                        "_:n ex:p <#a> .\n";
    assert_int_equal(apply(f, PATCH "solid:inserts { <#it> ex:q 1 . } .", mixed), 0);
    char *written = buf_cstr(&f->out);
    f->out = (buf){0};
    const char *next = PATCH "solid:inserts { <#it> ex:q 2 . } ; solid:deletes { <#a> ex:age 30 . } .";
    buf by_raptor2 = {0};
    char message[600];
    assert_int_equal(ldp_patch_apply(next, strlen(next), written, strlen(written), false, DOC, NULL, &by_raptor2,
                                     message, sizeof message), 0);
    assert_int_equal(ldp_patch_apply(next, strlen(next), written, strlen(written), true, DOC, NULL, &f->out,
                                     message, sizeof message), 0);
    assert_string_equal(buf_cstr(&f->out), buf_cstr(&by_raptor2));
    char *nt = result_nt(f);
    assert_non_null(strstr(nt, IT " " Q " " INT(2) " .\n"));
    assert_null(strstr(nt, AGE " " INT(30)));
    free(nt);
    buf_free(&by_raptor2);
    free(written);
}

/* A patched resource's Turtle is the patch's own writing, stored without being parsed again (half of a
 * patch's work, the history archive's appends: bench/scale); a container's is, for its containment. */
static void patched_resources_are_not_parsed_again(void **state) {
    (void)state;
    ldp_store *store = open_memory_store();
    assert_int_equal(edit(store, "/c/r", PATCH "solid:inserts { <#it> ex:q 1 . } .", NULL, NULL), 201);
    size_t before = ldp_store_bodies_parsed(store);
    for (int i = 2; i < 10; i++) {
        char patch[256];
        snprintf(patch, sizeof patch, PATCH "solid:inserts { <#it> ex:q %d . } .", i);
        assert_int_equal(edit(store, "/c/r", patch, NULL, NULL), 204);
    }
    assert_int_equal(ldp_store_bodies_parsed(store), before);
    ldp_doc *doc = ldp_store_get(store, "/c/r");
    assert_non_null(strstr(doc->turtle->data, "9"));
    ldp_doc_release(doc);
    assert_int_equal(edit(store, "/c/", PATCH "solid:inserts { <> ex:title \"c\" . } .", NULL, NULL), 204);
    assert_int_equal(ldp_store_bodies_parsed(store), before + 1);
    ldp_store_free(store);
}

/* Applies patch to text as this writer's own (own_writing); the status. */
static int apply_own(fixture *f, const char *patch, const char *text) {
    buf_free(&f->out);
    f->message[0] = '\0';
    return ldp_patch_apply(patch, strlen(patch), text, strlen(text), true, DOC, NULL, &f->out, f->message,
                           sizeof f->message);
}

/* An insert-only patch to this writer's own text, about subjects it states nothing of, appends the inserts'
 * statements to it, unparsed: its cost follows the patch, not the resource (a history archive grows by such
 * patches at every transition). The result reads as the full reading's does; a patch about a subject the
 * text has, one that deletes, or a text with other prefixes, is read and written whole. */
static void insert_only_patches_append_to_own_writing(void **state) {
    fixture *f = *state;
    assert_int_equal(apply(f, PATCH "solid:inserts { <#it> ex:q 1 ; ex:name \"A\\n\"@en . } .", NULL), 0);
    char *own = buf_cstr(&f->out);
    f->out = (buf){0};
    const char *more = PATCH "solid:inserts { <#c> ex:q 2 , 1.5 ; ex:r <../up#c> , <http://other/x> . "
                             "<#b> a ex:T ; ex:ok true . } .";
    assert_int_equal(apply_own(f, more, own), 0);
    assert_memory_equal(f->out.data, own, strlen(own)); /* the stored text kept as it was */
    char *appended = result_nt(f);
    buf_free(&f->out);
    char message[600];
    assert_int_equal(ldp_patch_apply(more, strlen(more), own, strlen(own), false, DOC, NULL, &f->out, message,
                                     sizeof message), 0);
    char *read_whole = result_nt(f);
    assert_string_equal(appended, read_whole);
    assert_non_null(strstr(appended, "<" DOC "#c> " Q " " INT(2) " .\n"));
    free(appended);
    free(read_whole);

    /* a subject the text states something of: read whole, so a triple inserted again is stated once */
    assert_int_equal(apply_own(f, PATCH "solid:inserts { <#it> ex:q 1 . } .", own), 0);
    assert_string_equal(buf_cstr(&f->out), own);
    free(f->out.data);
    f->out = (buf){0};

    /* unread: a text with the writer's prefixes is not parsed, whatever follows them */
    buf unreadable = {0};
    buf_append(&unreadable, own, strlen(own));
    buf_puts(&unreadable, "this is no Turtle .\n");
    assert_int_equal(apply_own(f, more, buf_cstr(&unreadable)), 0);
    assert_int_equal(apply_own(f, PATCH "solid:deletes { <#it> ex:q 1 . } .", buf_cstr(&unreadable)), 500);
    buf_free(&unreadable);

    /* the checks of the inserts stay: an unbound variable, a literal subject */
    assert_int_equal(apply_own(f, PATCH "solid:inserts { <#it> ex:q ?x . } .", own), 422);
    assert_int_equal(apply_own(f, PATCH "solid:inserts { 1 ex:q 2 . } .", own), 422);

    /* a text with other prefixes (another configuration wrote it) is read and written with these */
    const char *other = "@prefix ex: <http://ex/> .\n<#it> ex:q 1 ; ex:name \"a name longer than the prefixes "
                        "this writer puts first, which are rdf: and xsd:, so that only the prefixes tell\" .\n";
    assert_int_equal(apply_own(f, more, other), 0);
    assert_memory_equal(f->out.data, "@prefix rdf: ", strlen("@prefix rdf: "));
    char *rewritten = result_nt(f);
    assert_non_null(strstr(rewritten, IT " " Q " " INT(1) " .\n"));
    assert_non_null(strstr(rewritten, "<" DOC "#c> " Q " " INT(2) " .\n"));
    free(rewritten);
    free(own);
}

enum { RACERS = 8, PATCHES_EACH = 10 };

typedef struct racer {
    ldp_store *store;
    int id;
    int failures;
} racer;

static void *race(void *arg) {
    racer *r = arg;
    for (int i = 0; i < PATCHES_EACH; i++) {
        char patch[256];
        snprintf(patch, sizeof patch, PATCH "solid:inserts { <#it> ex:n%d %d . } .", r->id, i);
        if (edit(r->store, "/race", patch, NULL, NULL) / 100 != 2)
            r->failures++;
    }
    return NULL;
}

/* Patches read, edit and write under the writer lock: none of the racing inserts is lost. */
static void racing_patches_lose_nothing(void **state) {
    fixture *f = *state;
    ldp_store *store = open_memory_store();
    pthread_t threads[RACERS];
    racer racers[RACERS];
    for (int i = 0; i < RACERS; i++) {
        racers[i] = (racer){store, i, 0};
        pthread_create(&threads[i], NULL, race, &racers[i]);
    }
    for (int i = 0; i < RACERS; i++) {
        pthread_join(threads[i], NULL);
        assert_int_equal(racers[i].failures, 0);
    }
    ldp_doc *doc = ldp_store_get(store, "/race");
    buf_free(&f->out);
    buf_puts(&f->out, doc->turtle->data);
    ldp_doc_release(doc);
    char *nt = result_nt(f);
    size_t lines = 0;
    for (const char *p = nt; (p = strchr(p, '\n')); p++)
        lines++;
    free(nt);
    assert_int_equal(lines, RACERS * PATCHES_EACH);
    ldp_store_free(store);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(insert_only, setup, teardown),
        cmocka_unit_test_setup_teardown(delete_only, setup, teardown),
        cmocka_unit_test_setup_teardown(where_with_one_mapping, setup, teardown),
        cmocka_unit_test_setup_teardown(where_must_match_exactly_once, setup, teardown),
        cmocka_unit_test_setup_teardown(deletions_must_be_present, setup, teardown),
        cmocka_unit_test_setup_teardown(malformed_patches_are_422, setup, teardown),
        cmocka_unit_test_setup_teardown(blank_nodes_are_422, setup, teardown),
        cmocka_unit_test_setup_teardown(terms_no_body_may_hold_are_422, setup, teardown),
        cmocka_unit_test_setup_teardown(costly_where_clauses_are_422, setup, teardown),
        cmocka_unit_test_setup_teardown(store_edit_creates_and_honours_conditions, setup, teardown),
        cmocka_unit_test_setup_teardown(own_writing_reads_as_raptor2_reads_it, setup, teardown),
        cmocka_unit_test_setup_teardown(patched_resources_are_not_parsed_again, setup, teardown),
        cmocka_unit_test_setup_teardown(insert_only_patches_append_to_own_writing, setup, teardown),
        cmocka_unit_test_setup_teardown(racing_patches_lose_nothing, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
