/* replay.c: the short bounded run of a fuzz target inside the test suite (scripts/fuzz.sh runs the long
 * libFuzzer campaigns, which need clang): every seed file once, then a fixed number of inputs mutated
 * from them by a seeded generator (bytes flipped, inserted, deleted, spliced between seeds), so each run
 * is the same and a failure reproduces. The target aborts on a broken promise; the sanitizer build
 * catches memory errors and leaks.
 * usage: replay_NAME SEED_DIR [MUTATIONS]   (the files under SEED_DIR, its subdirectories too) */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rdf/buf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Each input in a block of its own size, as libFuzzer gives it: a reader that reads past its length (a
 * NUL or a digit after it) is caught by the sanitizer build, not hidden by a buffer's slack. */
static void run_one(const char *data, size_t size) {
    uint8_t *exact = xmalloc(size ? size : 1);
    memcpy(exact, data ? data : "", size);
    LLVMFuzzerTestOneInput(exact, size);
    free(exact);
}

static uint64_t state = 0x9e3779b97f4a7c15u;

static uint64_t next_random(void) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

static int by_name(const void *a, const void *b) { return strcmp(((const buf *)a)->data, ((const buf *)b)->data); }

/* Appends the path of every regular file under dir, subdirectories included, to names[*n]. */
static void collect_files(const char *dir, buf **names, size_t *n) {
    DIR *d = opendir(dir);
    if (!d) {
        perror(dir);
        exit(2);
    }
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        buf path = {0};
        buf_printf(&path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path.data, &st) != 0) {
            perror(path.data);
            exit(2);
        }
        if (S_ISDIR(st.st_mode)) {
            collect_files(path.data, names, n);
            buf_free(&path);
            continue;
        }
        *names = xrealloc(*names, (*n + 1) * sizeof **names);
        (*names)[(*n)++] = path;
    }
    closedir(d);
}

/* Reads every regular file under dir, in name order (names kept in names[i], contents in seeds[i]). */
static size_t read_seeds(const char *dir, buf **names_out, buf **seeds_out) {
    buf *names = NULL;
    size_t n = 0;
    collect_files(dir, &names, &n);
    qsort(names, n, sizeof *names, by_name);
    buf *seeds = xcalloc(n + 1, sizeof *seeds);
    for (size_t i = 0; i < n; i++) {
        FILE *f = fopen(names[i].data, "rb");
        if (!f) {
            perror(names[i].data);
            exit(2);
        }
        char chunk[4096];
        for (size_t got; (got = fread(chunk, 1, sizeof chunk, f)) > 0;)
            buf_append(&seeds[i], chunk, got);
        fclose(f);
    }
    *names_out = names;
    *seeds_out = seeds;
    return n;
}

static void mutate(buf *input, const buf *seeds, size_t seed_count) {
    size_t edits = 1 + next_random() % 8;
    for (size_t k = 0; k < edits; k++) {
        size_t at = input->len ? next_random() % input->len : 0;
        switch (next_random() % 4) {
        case 0: /* flip a byte (the first byte too: it picks the target's mode) */
            if (input->len)
                input->data[at] = (char)next_random();
            break;
        case 1: { /* insert a byte */
            char c = (char)next_random();
            buf_append(input, &c, 1);
            memmove(input->data + at + 1, input->data + at, input->len - at - 1);
            input->data[at] = c;
            break;
        }
        case 2: /* delete a run */
            if (input->len) {
                size_t run = 1 + next_random() % 16;
                if (run > input->len - at)
                    run = input->len - at;
                memmove(input->data + at, input->data + at + run, input->len - at - run);
                input->len -= run;
            }
            break;
        default: { /* splice a piece of another seed in */
            const buf *other = &seeds[next_random() % seed_count];
            if (!other->len)
                break;
            size_t from = next_random() % other->len;
            size_t run = 1 + next_random() % 64;
            if (run > other->len - from)
                run = other->len - from;
            size_t tail = input->len - at;
            buf_append(input, other->data + from, run);
            memmove(input->data + at + run, input->data + at, tail);
            memcpy(input->data + at, other->data + from, run);
        }
        }
    }
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s SEED_DIR [MUTATIONS]\n", argv[0]);
        return 2;
    }
    long mutations = argc > 2 ? strtol(argv[2], NULL, 10) : 2000;
    buf *names, *seeds;
    size_t n = read_seeds(argv[1], &names, &seeds);
    if (!n) {
        fprintf(stderr, "%s: no seeds in %s\n", argv[0], argv[1]);
        return 2;
    }
    for (size_t i = 0; i < n; i++)
        run_one(seeds[i].data, seeds[i].len);
    buf input = {0};
    for (long m = 0; m < mutations; m++) {
        const buf *seed = &seeds[next_random() % n];
        input.len = 0;
        buf_append(&input, seed->data ? seed->data : "", seed->len);
        mutate(&input, seeds, n);
        run_one(input.data, input.len);
    }
    printf("%s: %zu seeds and %ld mutated inputs passed\n", argv[0], n, mutations);
    buf_free(&input);
    for (size_t i = 0; i < n; i++) {
        buf_free(&names[i]);
        buf_free(&seeds[i]);
    }
    free(names);
    free(seeds);
    return 0;
}
