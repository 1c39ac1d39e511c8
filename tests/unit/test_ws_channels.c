/* test_ws_channels.c: ws_channels.h's guarantee 5 against an in-process TCP listener that takes
 * connections and answers no handshake, so each one it holds is a connection being opened: of 200 asked
 * for, exactly WS_CHANNELS_MAX_OPENING reach it at a time; when it drops those, the next ones come, in
 * turn, until every one has ended with its closed event; one closed by the owner while it waits never
 * connects and reports nothing; those still waiting when the whole is freed are freed; and against a
 * listener that answers every handshake, all 200 open, the opened ones freeing their turns. No timing is asserted: a pause only gives a connection that should not
 * come the chance to. */
#define _GNU_SOURCE /* strcasestr */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <nettle/base64.h>
#include <nettle/sha1.h>

#include "http/ws_channels.h"

enum { ASKED = 200, CLOSED_WAITING = 10, WAIT_LIMIT_MS = 20000 };

typedef struct listener {
    int fd;
    int port;
    pthread_t thread;
    pthread_mutex_t lock;
    int held[ASKED]; /* the connections taken and not dropped yet */
    int held_count;
    int accepted; /* in all */
    int stop;
    int answer; /* answers each handshake (101) instead of none */
} listener;

/* Reads a handshake's head from c and answers it 101, as a WebSocket server would (RFC 6455 4.2.2). */
static void answer_handshake(int c) {
    char head[4096];
    size_t len = 0;
    while (len < sizeof head - 1 && !(len >= 4 && memcmp(head + len - 4, "\r\n\r\n", 4) == 0)) {
        ssize_t got = read(c, head + len, 1);
        if (got <= 0)
            return;
        len++;
    }
    head[len] = '\0';
    const char *key = strcasestr(head, "Sec-WebSocket-Key:");
    if (!key)
        return;
    key += strlen("Sec-WebSocket-Key:");
    key += strspn(key, " ");
    char text[128];
    int key_len = (int)strcspn(key, "\r");
    snprintf(text, sizeof text, "%.*s258EAFA5-E914-47DA-95CA-C5AB0DC85B11", key_len, key);
    uint8_t digest[SHA1_DIGEST_SIZE];
    struct sha1_ctx sha;
    sha1_init(&sha);
    sha1_update(&sha, strlen(text), (const uint8_t *)text);
    sha1_digest(&sha, sizeof digest, digest);
    char accept_key[BASE64_ENCODE_RAW_LENGTH(SHA1_DIGEST_SIZE) + 1];
    base64_encode_raw(accept_key, sizeof digest, digest);
    accept_key[sizeof accept_key - 1] = '\0';
    char answer[256];
    int n = snprintf(answer, sizeof answer,
                     "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     "Sec-WebSocket-Accept: %s\r\n\r\n",
                     accept_key);
    if (write(c, answer, (size_t)n) != n)
        return;
}

static void *accept_loop(void *arg) {
    listener *l = arg;
    for (;;) {
        pthread_mutex_lock(&l->lock);
        int stop = l->stop;
        pthread_mutex_unlock(&l->lock);
        if (stop)
            return NULL;
        struct pollfd p = {.fd = l->fd, .events = POLLIN};
        if (poll(&p, 1, 20) <= 0)
            continue;
        int c = accept(l->fd, NULL, NULL);
        if (c < 0)
            continue;
        if (l->answer)
            answer_handshake(c);
        pthread_mutex_lock(&l->lock);
        if (l->held_count < ASKED)
            l->held[l->held_count++] = c;
        else
            close(c);
        l->accepted++;
        pthread_mutex_unlock(&l->lock);
    }
}

static void nap_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static int held(listener *l) {
    pthread_mutex_lock(&l->lock);
    int n = l->held_count;
    pthread_mutex_unlock(&l->lock);
    return n;
}

/* Drops every connection held: each one's client sees its connection fail. */
static void drop_held(listener *l) {
    pthread_mutex_lock(&l->lock);
    for (int i = 0; i < l->held_count; i++)
        close(l->held[i]);
    l->held_count = 0;
    pthread_mutex_unlock(&l->lock);
}

/* Waits (bounded) until the listener holds at least want connections; then a pause for more to come. */
static int held_after_settling(listener *l, int want) {
    for (int waited = 0; held(l) < want && waited < WAIT_LIMIT_MS; waited += 10)
        nap_ms(10);
    nap_ms(300);
    return held(l);
}

static void listener_start(listener *l, int answer) {
    *l = (listener){.lock = PTHREAD_MUTEX_INITIALIZER, .answer = answer};
    l->fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    assert_int_equal(bind(l->fd, (struct sockaddr *)&addr, sizeof addr), 0);
    assert_int_equal(listen(l->fd, ASKED), 0);
    socklen_t len = sizeof addr;
    getsockname(l->fd, (struct sockaddr *)&addr, &len);
    l->port = ntohs(addr.sin_port);
    assert_int_equal(pthread_create(&l->thread, NULL, accept_loop, l), 0);
}

static void listener_stop(listener *l) {
    pthread_mutex_lock(&l->lock);
    l->stop = 1;
    pthread_mutex_unlock(&l->lock);
    pthread_join(l->thread, NULL);
    drop_held(l);
    close(l->fd);
}

/* A ws_channels asked for ASKED connections to l, ids 1<<32 | 0 ... ASKED-1. */
static ws_channels *open_asked(const listener *l) {
    char error[200];
    ws_channels *ws = ws_channels_new(30, error, sizeof error);
    assert_non_null(ws);
    char url[64];
    snprintf(url, sizeof url, "ws://127.0.0.1:%d/channel", l->port);
    for (uint64_t i = 0; i < ASKED; i++)
        ws_channels_open(ws, 1ull << 32 | i, url);
    return ws;
}

static void openings_take_turns(void **state) {
    (void)state;
    listener l;
    listener_start(&l, 0);
    ws_channels *ws = open_asked(&l);
    /* the last ten wait their turn: the owner closes them before it comes */
    for (uint64_t i = ASKED - CLOSED_WAITING; i < ASKED; i++)
        ws_channels_close(ws, 1ull << 32 | i);

    int ended = 0, rounds = 0;
    bool seen[ASKED] = {false};
    while (ended < ASKED - CLOSED_WAITING && rounds++ < 10) {
        int left = ASKED - CLOSED_WAITING - ended;
        int expected = left < WS_CHANNELS_MAX_OPENING ? left : WS_CHANNELS_MAX_OPENING;
        assert_int_equal(held_after_settling(&l, expected), expected);
        drop_held(&l);
        for (int waited = 0; waited < WAIT_LIMIT_MS; waited += 10) {
            ws_event *events;
            size_t n = ws_channels_take(ws, &events);
            for (size_t e = 0; e < n; e++) {
                uint32_t slot = (uint32_t)events[e].id;
                assert_int_equal(events[e].kind, WS_EVENT_CLOSED); /* no handshake was answered */
                assert_true(slot < ASKED - CLOSED_WAITING);
                assert_false(seen[slot]); /* one closed event each */
                seen[slot] = true;
                ended++;
            }
            ws_events_free(events, n);
            if (ended >= ASKED - CLOSED_WAITING - left + expected)
                break;
            ws_channels_wait(ws, 10, NULL);
        }
        assert_int_equal(ended, ASKED - CLOSED_WAITING - left + expected);
    }
    assert_int_equal(ended, ASKED - CLOSED_WAITING);
    nap_ms(300);
    pthread_mutex_lock(&l.lock);
    int accepted = l.accepted;
    pthread_mutex_unlock(&l.lock);
    assert_int_equal(accepted, ASKED - CLOSED_WAITING); /* those closed while waiting never connected */
    ws_event *events;
    size_t n = ws_channels_take(ws, &events);
    assert_int_equal(n, 0); /* nor reported anything */
    ws_events_free(events, n);

    ws_channels_free(ws);
    listener_stop(&l);
}

/* Freed while connections wait their turn: those are released too (the sanitizer build finds a leak). */
static void freed_while_waiting(void **state) {
    (void)state;
    listener l;
    listener_start(&l, 0);
    ws_channels *ws = open_asked(&l);
    assert_int_equal(held_after_settling(&l, WS_CHANNELS_MAX_OPENING), WS_CHANNELS_MAX_OPENING);
    ws_channels_free(ws);
    listener_stop(&l);
}

/* Connections that open free their turns: all 200 open, 64 at a time (an opening counted off only when it
 * fails would stall the 65th for good). */
static void opened_ones_free_turns(void **state) {
    (void)state;
    listener l;
    listener_start(&l, 1);
    ws_channels *ws = open_asked(&l);
    int open = 0;
    for (int waited = 0; open < ASKED && waited < WAIT_LIMIT_MS; waited += 10) {
        ws_event *events;
        size_t n = ws_channels_take(ws, &events);
        for (size_t e = 0; e < n; e++) {
            assert_int_equal(events[e].kind, WS_EVENT_OPEN);
            open++;
        }
        ws_events_free(events, n);
        if (open < ASKED)
            ws_channels_wait(ws, 10, NULL);
    }
    assert_int_equal(open, ASKED);
    ws_channels_free(ws);
    listener_stop(&l);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(openings_take_turns),
        cmocka_unit_test(freed_while_waiting),
        cmocka_unit_test(opened_ones_free_turns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
