/* floor.c: the floor of bench/agent: the HTTP requests of one agent iteration issued by a bare libcurl
 * multi client, repeated; one line per repetition ("rep: X ms") on standard output.
 *
 * A repetition is the GETs in parallel, then the PUTs in parallel, as `ldgsm run` sends them: the same
 * Accept header, each PUT If-Match the ETag its target's GET returned, bodies alternating between two
 * files so that every PUT changes the resource. One multi handle keeps its connections across
 * repetitions (at most -c per host, like the agent's client). With -s the first GET (the container) is
 * made alone before the others, as a crawler must, which knows the members only from it.
 *
 * usage: floor [-n REPS] [-c CONNECTIONS] [-s] GET_URL... -- PUT_URL BODY_A BODY_B [PUT_URL BODY_A BODY_B ...]
 * Every PUT_URL must be among the GET_URLs. Exits 1 on any transfer error or non-2xx answer. */
#include <curl/curl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MAX_REQUESTS = 64 };

static const char ACCEPT[] = "Accept: text/turtle, application/n-triples;q=0.9, application/n-quads;q=0.8, "
                             "application/trig;q=0.8, application/rdf+xml;q=0.7";

typedef struct body {
    char *data;
    size_t len;
} body;

typedef struct put_target {
    const char *url;
    size_t get_index; /* the GET whose ETag conditions this PUT */
    body bodies[2];
} put_target;

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static size_t discard(char *data, size_t size, size_t count, void *user) {
    (void)data;
    (void)user;
    return size * count;
}

static int read_body(const char *path, body *out) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    rewind(f);
    out->data = malloc((size_t)len + 1);
    out->len = fread(out->data, 1, (size_t)len, f);
    fclose(f);
    return 0;
}

/* Runs every handle of the multi to completion; returns 0 when all answered 2xx. */
static int run_all(CURLM *multi, CURL **handles, size_t n) {
    for (size_t i = 0; i < n; i++)
        curl_multi_add_handle(multi, handles[i]);
    int running = 1;
    while (running) {
        if (curl_multi_perform(multi, &running) != CURLM_OK)
            return -1;
        if (running && curl_multi_poll(multi, NULL, 0, 1000, NULL) != CURLM_OK)
            return -1;
    }
    int rc = 0;
    CURLMsg *msg;
    int left;
    while ((msg = curl_multi_info_read(multi, &left))) {
        long status = 0;
        curl_easy_getinfo(msg->easy_handle, CURLINFO_RESPONSE_CODE, &status);
        if (msg->data.result != CURLE_OK || status < 200 || status >= 300) {
            char *url;
            curl_easy_getinfo(msg->easy_handle, CURLINFO_EFFECTIVE_URL, &url);
            fprintf(stderr, "floor: %s: %s, status %ld\n", url, curl_easy_strerror(msg->data.result), status);
            rc = -1;
        }
    }
    for (size_t i = 0; i < n; i++)
        curl_multi_remove_handle(multi, handles[i]);
    return rc;
}

static CURL *new_handle(const char *url, struct curl_slist *headers) {
    CURL *e = curl_easy_init();
    curl_easy_setopt(e, CURLOPT_URL, url);
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, discard);
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, 10000L);
    return e;
}

static int usage(void) {
    fprintf(stderr, "usage: floor [-n REPS] [-c CONNECTIONS] [-s] GET_URL... -- PUT_URL BODY_A BODY_B ...\n");
    return 2;
}

int main(int argc, char **argv) {
    long reps = 100, connections = 4;
    bool first_alone = false;
    int a = 1;
    for (; a < argc && argv[a][0] == '-' && argv[a][1] != '-'; a++) {
        if (strcmp(argv[a], "-s") == 0)
            first_alone = true;
        else if (a + 1 < argc && strcmp(argv[a], "-n") == 0)
            reps = strtol(argv[++a], NULL, 10);
        else if (a + 1 < argc && strcmp(argv[a], "-c") == 0)
            connections = strtol(argv[++a], NULL, 10);
        else
            return usage();
    }
    const char *gets[MAX_REQUESTS];
    size_t get_count = 0;
    for (; a < argc && strcmp(argv[a], "--") != 0; a++) {
        if (get_count == MAX_REQUESTS)
            return usage();
        gets[get_count++] = argv[a];
    }
    put_target puts[MAX_REQUESTS];
    size_t put_count = 0;
    if (a < argc)
        a++; /* the -- */
    for (; a + 2 < argc; a += 3) {
        if (put_count == MAX_REQUESTS)
            return usage();
        put_target *p = &puts[put_count];
        p->url = argv[a];
        p->get_index = get_count;
        for (size_t g = 0; g < get_count; g++)
            if (strcmp(gets[g], p->url) == 0)
                p->get_index = g;
        if (p->get_index == get_count) {
            fprintf(stderr, "floor: %s is PUT but never read, so it has no ETag to send\n", p->url);
            return 2;
        }
        if (read_body(argv[a + 1], &p->bodies[0]) != 0 || read_body(argv[a + 2], &p->bodies[1]) != 0)
            return 1;
        put_count++;
    }
    if (a != argc || reps < 1 || connections < 1 || !get_count)
        return usage();

    curl_global_init(CURL_GLOBAL_DEFAULT);
    CURLM *multi = curl_multi_init();
    curl_multi_setopt(multi, CURLMOPT_MAX_HOST_CONNECTIONS, connections);
    struct curl_slist *accept = curl_slist_append(NULL, ACCEPT);
    CURL *get_handles[MAX_REQUESTS], *put_handles[MAX_REQUESTS];
    struct curl_slist *put_headers[MAX_REQUESTS] = {0};
    for (size_t g = 0; g < get_count; g++)
        get_handles[g] = new_handle(gets[g], accept);
    for (size_t p = 0; p < put_count; p++) {
        put_handles[p] = new_handle(puts[p].url, NULL);
        curl_easy_setopt(put_handles[p], CURLOPT_CUSTOMREQUEST, "PUT");
    }

    int rc = 0;
    for (long r = 0; r < reps && rc == 0; r++) {
        double start = now_ms();
        if (first_alone)
            rc = run_all(multi, get_handles, 1) || run_all(multi, get_handles + 1, get_count - 1);
        else
            rc = run_all(multi, get_handles, get_count);
        for (size_t p = 0; p < put_count && rc == 0; p++) {
            struct curl_header *etag = NULL;
            if (curl_easy_header(get_handles[puts[p].get_index], "ETag", 0, CURLH_HEADER, -1, &etag) != CURLHE_OK) {
                fprintf(stderr, "floor: %s answered without an ETag\n", puts[p].url);
                rc = -1;
                break;
            }
            char if_match[256];
            snprintf(if_match, sizeof if_match, "If-Match: %s", etag->value);
            curl_slist_free_all(put_headers[p]);
            put_headers[p] = curl_slist_append(curl_slist_append(NULL, "Content-Type: text/turtle"), if_match);
            const body *b = &puts[p].bodies[r % 2];
            curl_easy_setopt(put_handles[p], CURLOPT_HTTPHEADER, put_headers[p]);
            curl_easy_setopt(put_handles[p], CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)b->len);
            curl_easy_setopt(put_handles[p], CURLOPT_POSTFIELDS, b->data);
        }
        if (rc == 0)
            rc = run_all(multi, put_handles, put_count);
        if (rc == 0)
            printf("rep: %.3f ms\n", now_ms() - start);
    }

    for (size_t g = 0; g < get_count; g++)
        curl_easy_cleanup(get_handles[g]);
    for (size_t p = 0; p < put_count; p++) {
        curl_easy_cleanup(put_handles[p]);
        curl_slist_free_all(put_headers[p]);
        free(puts[p].bodies[0].data);
        free(puts[p].bodies[1].data);
    }
    curl_slist_free_all(accept);
    curl_multi_cleanup(multi);
    curl_global_cleanup();
    return rc == 0 ? 0 : 1;
}
