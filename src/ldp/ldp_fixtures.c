/* ldp_fixtures.c: walks a fixtures folder (ldp_disk_walk, read-only) and writes each container and
 * resource through the store, create-only unless overwriting. */
#include "ldp/ldp_fixtures.h"

#include <stdio.h>
#include <string.h>

#include "ldp/ldp_disk.h"

typedef struct seeding {
    ldp_store *store;
    const char *dir;
    bool overwrite;
    const log_sink *log;
    ldp_fixtures_counts *counts;
    char *message;
    size_t size;
} seeding;

static int seed(seeding *sd, const char *path, const char *data, size_t len) {
    buf file = {0};
    buf_printf(&file, "%s%s%s", sd->dir, path, strcmp(path, "/") == 0 ? LDP_DISK_CONTAINER_FILE : "");
    ldp_body body = {data, len, LDP_MEDIA_TURTLE, buf_cstr(&file)};
    /* Create-only keeps what --data holds; the root always exists, so its triples count as kept. */
    ldp_conditions create_only = {.if_none_match = "*"};
    ldp_outcome outcome;
    ldp_store_put(sd->store, path, &body, sd->overwrite ? NULL : &create_only, &outcome);
    int rc = 0;
    if (outcome.status == 201 || outcome.status == 204) {
        sd->counts->written++;
    } else if (outcome.status == 412) {
        sd->counts->kept++;
    } else {
        snprintf(sd->message, sd->size, "fixture %s: %s", file.data, outcome.message);
        rc = -1;
    }
    ldp_outcome_clear(&outcome);
    buf_free(&file);
    return rc;
}

static int seed_container(void *user, const char *path, const char *own, size_t own_len) {
    seeding *sd = user;
    /* An empty root is nothing to seed; any other folder is a container to create. */
    if (strcmp(path, "/") == 0 && own_len == 0)
        return 0;
    return seed(sd, path, own, own_len);
}

/* A fixture folder documents itself in Markdown files; they are not resources. */
static bool is_documentation(const char *path) {
    size_t n = strlen(path);
    return n >= 3 && strcmp(path + n - 3, ".md") == 0;
}

static int seed_resource(void *user, const char *path, const char *data, size_t len) {
    return is_documentation(path) ? 0 : seed(user, path, data, len);
}

static void skipped(void *user, const char *file, const char *why) {
    seeding *sd = user;
    log_msg(sd->log, LOG_WARN, "fixture %s skipped: %s", file, why);
}

int ldp_fixtures_seed(ldp_store *store, const char *dir, bool overwrite, const log_sink *log,
                      ldp_fixtures_counts *counts, char *message, size_t size) {
    *counts = (ldp_fixtures_counts){0};
    seeding sd = {store, dir, overwrite, log, counts, message, size};
    ldp_disk_visitor visitor = {seed_container, seed_resource, skipped, &sd};
    return ldp_disk_walk(dir, false, &visitor, message, size) == 0 ? 0 : -1;
}
