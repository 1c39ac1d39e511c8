/* test_ws_channels.c: ws_channels.h's guarantee 5 against an in-process TCP listener that takes
 * connections and answers no handshake, so each one it holds is a connection being opened: of 200 asked
 * for, exactly WS_CHANNELS_MAX_OPENING reach it at a time; when it drops those, the next ones come, in
 * turn, until every one has ended with its closed event; one closed by the owner while it waits never
 * connects and reports nothing; those still waiting when the whole is freed are freed. No timing is asserted: a pause only gives a connection that should not
 * come the chance to. */
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
} listener;

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

static void listener_start(listener *l) {
    *l = (listener){.lock = PTHREAD_MUTEX_INITIALIZER};
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

static void openings_take_turns(void **state) {
    (void)state;
    listener l;
    listener_start(&l);
    char error[200];
    ws_channels *ws = ws_channels_new(30, error, sizeof error);
    assert_non_null(ws);
    char url[64];
    snprintf(url, sizeof url, "ws://127.0.0.1:%d/channel", l.port);
    for (uint64_t i = 0; i < ASKED; i++)
        ws_channels_open(ws, 1ull << 32 | i, url);
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
    listener_start(&l);
    char error[200];
    ws_channels *ws = ws_channels_new(30, error, sizeof error);
    assert_non_null(ws);
    char url[64];
    snprintf(url, sizeof url, "ws://127.0.0.1:%d/channel", l.port);
    for (uint64_t i = 0; i < ASKED; i++)
        ws_channels_open(ws, 1ull << 32 | i, url);
    assert_int_equal(held_after_settling(&l, WS_CHANNELS_MAX_OPENING), WS_CHANNELS_MAX_OPENING);
    ws_channels_free(ws);
    listener_stop(&l);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(openings_take_turns),
        cmocka_unit_test(freed_while_waiting),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
