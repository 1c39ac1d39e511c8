/* ldp_guard.c: closes the LDP server's slow connections (ldp_guard.h): a table of connections kept from
 * libmicrohttpd's notifications, a watchdog thread for the head and body deadlines, eviction when a
 * connection starts near the limit, and the log of what was closed, aggregated. */
#include "ldp/ldp_guard.h"

#include <arpa/inet.h>
#include <linux/tcp.h> /* struct tcp_info with tcpi_bytes_received (Linux 4.1); glibc's has not */
#include <netinet/in.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>

#include "rdf/buf.h"

enum { TICK_MS = 250, LOG_INTERVAL_MS = 5000, LOG_ADDRESSES = 8, PEER_BUCKETS = 1024 };

enum phase {
    WAITING_HEAD, /* since: the connection's start, or when a later request's first byte was seen */
    IDLE,         /* kept alive between requests; since: the last request's end */
    BODY,         /* since: the head's end */
    ANSWERING,
};

enum cause { CAUSE_HEAD, CAUSE_BODY, CAUSE_ROOM, CAUSE_COUNT };

/* A client address and how many connections it has open. */
typedef struct peer {
    char address[INET6_ADDRSTRLEN];
    size_t open;
    struct peer *next; /* in its bucket */
} peer;

typedef struct conn {
    ldp_guard *guard;
    int fd;
    size_t index; /* in guard->conns */
    enum phase phase;
    int64_t since; /* ms, CLOCK_MONOTONIC */
    uint64_t body_bytes;
    uint64_t received; /* IDLE: the bytes the socket had received when the watchdog first saw it idle */
    bool watched;      /* IDLE: received is set */
    bool closing;      /* shut down by the guard, not yet closed by libmicrohttpd */
    peer *peer;
} conn;

typedef struct closed_from {
    char address[INET6_ADDRSTRLEN];
    unsigned count[CAUSE_COUNT];
} closed_from;

struct ldp_guard {
    ldp_guard_config config;
    size_t keep_open; /* the most connections left open when one starts; the rest of the limit is room */
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_t watchdog;
    bool stopping;
    conn **conns;
    size_t count, capacity;
    size_t closing; /* of conns, those shut down */
    peer *peers[PEER_BUCKETS];
    /* Closed since the last log line: */
    closed_from from[LOG_ADDRESSES];
    size_t from_count;
    unsigned unlisted; /* from addresses beyond from[] */
    unsigned closed;
    int64_t logged_at;
};

static int64_t now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Lock held. The socket stays open (libmicrohttpd closes it, after its CLOSED notification), so the
 * descriptor is still this connection's. */
static void shut(ldp_guard *g, conn *c, enum cause cause) {
    shutdown(c->fd, SHUT_RDWR);
    c->closing = true;
    g->closing++;
    g->closed++;
    for (size_t i = 0; i < g->from_count; i++)
        if (strcmp(g->from[i].address, c->peer->address) == 0) {
            g->from[i].count[cause]++;
            return;
        }
    if (g->from_count == LOG_ADDRESSES) {
        g->unlisted++;
        return;
    }
    closed_from *from = &g->from[g->from_count++];
    memcpy(from->address, c->peer->address, sizeof from->address);
    memset(from->count, 0, sizeof from->count);
    from->count[cause] = 1;
}

static bool waiting_head(const conn *c) { return c->phase == WAITING_HEAD || c->phase == IDLE; }

/* The order of eviction: connections waiting for a head, those of the clients holding the most
 * connections first (a normal client's one is closed last, even when a flood of reopened connections
 * makes it the oldest), the longest waiting first; then bodies, the slowest on average first. */
static bool evict_before(const conn *a, const conn *b, int64_t now) {
    if (waiting_head(a) != waiting_head(b))
        return waiting_head(a);
    if (waiting_head(a))
        return a->peer->open != b->peer->open ? a->peer->open > b->peer->open : a->since < b->since;
    return a->body_bytes * (uint64_t)(now - b->since + 1) < b->body_bytes * (uint64_t)(now - a->since + 1);
}

/* Lock held: closes connections other than spare until no more than keep_open are open. */
static void make_room(ldp_guard *g, const conn *spare, int64_t now) {
    while (g->count - g->closing > g->keep_open) {
        conn *victim = NULL;
        for (size_t i = 0; i < g->count; i++) {
            conn *c = g->conns[i];
            if (c != spare && !c->closing && c->phase != ANSWERING && (!victim || evict_before(c, victim, now)))
                victim = c;
        }
        if (!victim)
            return;
        shut(g, victim, CAUSE_ROOM);
    }
}

static bool bytes_received(int fd, uint64_t *out) {
    struct tcp_info info;
    socklen_t len = sizeof info;
    if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len) != 0 ||
        len < offsetof(struct tcp_info, tcpi_bytes_received) + sizeof info.tcpi_bytes_received)
        return false;
    *out = info.tcpi_bytes_received;
    return true;
}

/* The kernel holds bytes of the connection that libmicrohttpd has not read: its thread is busy (with a long
 * request of another connection), so the server is behind, not the client. */
static bool unread_bytes(int fd) {
    int unread = 0;
    return ioctl(fd, FIONREAD, &unread) == 0 && unread > 0;
}

/* Lock held: the deadlines. */
static void check(ldp_guard *g, conn *c, int64_t now) {
    if (c->closing)
        return;
    switch (c->phase) {
    case IDLE: {
        /* libmicrohttpd says nothing until a head is complete, so the head's first byte is seen here, as
         * a change in the kernel's count. Where there is no count the idle timeout alone applies. */
        uint64_t received;
        if (!bytes_received(c->fd, &received))
            break;
        if (!c->watched) {
            c->received = received;
            c->watched = true;
        } else if (received != c->received) {
            c->phase = WAITING_HEAD;
            c->since = now;
        }
        break;
    }
    case WAITING_HEAD:
        if (now - c->since > (int64_t)g->config.head_timeout * 1000 && !unread_bytes(c->fd))
            shut(g, c, CAUSE_HEAD);
        break;
    case BODY: {
        int64_t late = now - c->since - (int64_t)g->config.body_grace * 1000;
        if (late > 0 && c->body_bytes * 1000 < (uint64_t)late * g->config.body_min_rate && !unread_bytes(c->fd))
            shut(g, c, CAUSE_BODY);
        break;
    }
    case ANSWERING: break;
    }
}

/* Lock held: the log line of what was closed since the last one, and a fresh count. */
static void describe_closed(ldp_guard *g, buf *line) {
    char causes[CAUSE_COUNT][64];
    snprintf(causes[CAUSE_HEAD], sizeof causes[0], "head not complete in %u s", g->config.head_timeout);
    snprintf(causes[CAUSE_BODY], sizeof causes[0], "body under %u B/s", g->config.body_min_rate);
    snprintf(causes[CAUSE_ROOM], sizeof causes[0], "evicted to keep room");
    buf_printf(line, "slow clients: closed %u connection%s:", g->closed, g->closed == 1 ? "" : "s");
    for (size_t i = 0; i < g->from_count; i++) {
        buf_printf(line, "%s %s (", i ? "," : "", g->from[i].address);
        const char *separator = "";
        for (int cause = 0; cause < CAUSE_COUNT; cause++)
            if (g->from[i].count[cause]) {
                buf_printf(line, "%s%u %s", separator, g->from[i].count[cause], causes[cause]);
                separator = ", ";
            }
        buf_putc(line, ')');
    }
    if (g->unlisted)
        buf_printf(line, "; %u more from other addresses", g->unlisted);
    g->from_count = 0;
    g->unlisted = 0;
    g->closed = 0;
}

/* Lock held; released while the line is written. */
static void log_closed(ldp_guard *g, int64_t now) {
    buf line = {0};
    describe_closed(g, &line);
    g->logged_at = now;
    pthread_mutex_unlock(&g->lock);
    log_msg(g->config.log, LOG_WARN, "%s", buf_cstr(&line));
    buf_free(&line);
    pthread_mutex_lock(&g->lock);
}

static void *watch(void *arg) {
    ldp_guard *g = arg;
    pthread_mutex_lock(&g->lock);
    while (!g->stopping) {
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        until.tv_nsec += TICK_MS * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&g->wake, &g->lock, &until);
        int64_t now = now_ms();
        for (size_t i = 0; i < g->count; i++)
            check(g, g->conns[i], now);
        if (g->closed && now - g->logged_at >= LOG_INTERVAL_MS)
            log_closed(g, now);
    }
    if (g->closed) /* what the last interval closed */
        log_closed(g, now_ms());
    pthread_mutex_unlock(&g->lock);
    return NULL;
}

ldp_guard *ldp_guard_new(const ldp_guard_config *config, char *message, size_t size) {
    ldp_guard *g = xcalloc(1, sizeof *g);
    g->config = *config;
    g->keep_open = config->max_connections - (config->max_connections + 15) / 16;
    g->logged_at = now_ms() - LOG_INTERVAL_MS;
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&g->wake, &attr);
    pthread_condattr_destroy(&attr);
    pthread_mutex_init(&g->lock, NULL);
    int rc = pthread_create(&g->watchdog, NULL, watch, g);
    if (rc != 0) {
        snprintf(message, size, "cannot start the connection watchdog: %s", strerror(rc));
        pthread_cond_destroy(&g->wake);
        pthread_mutex_destroy(&g->lock);
        free(g);
        return NULL;
    }
    return g;
}

void ldp_guard_free(ldp_guard *g) {
    if (!g)
        return;
    pthread_mutex_lock(&g->lock);
    g->stopping = true;
    pthread_cond_signal(&g->wake);
    pthread_mutex_unlock(&g->lock);
    pthread_join(g->watchdog, NULL);
    pthread_cond_destroy(&g->wake);
    pthread_mutex_destroy(&g->lock);
    free(g->conns);
    free(g);
}

static size_t bucket_of(const char *address) {
    uint32_t hash = 2166136261u; /* FNV-1a */
    for (const char *p = address; *p; p++)
        hash = (hash ^ (unsigned char)*p) * 16777619u;
    return hash % PEER_BUCKETS;
}

/* Lock held: the address's record, made when it has none. */
static peer *peer_of(ldp_guard *g, const char *address) {
    peer **bucket = &g->peers[bucket_of(address)];
    for (peer *p = *bucket; p; p = p->next)
        if (strcmp(p->address, address) == 0)
            return p;
    peer *p = xcalloc(1, sizeof *p);
    memcpy(p->address, address, sizeof p->address);
    p->next = *bucket;
    *bucket = p;
    return p;
}

/* Lock held. */
static void peer_release(ldp_guard *g, peer *gone) {
    if (--gone->open)
        return;
    peer **at = &g->peers[bucket_of(gone->address)];
    while (*at != gone)
        at = &(*at)->next;
    *at = gone->next;
    free(gone);
}

static void started(ldp_guard *g, struct MHD_Connection *connection, void **socket_context) {
    const union MHD_ConnectionInfo *fd = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    const union MHD_ConnectionInfo *client =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (!fd)
        return;
    char address[INET6_ADDRSTRLEN] = "?";
    const struct sockaddr *addr = client ? client->client_addr : NULL;
    if (addr && addr->sa_family == AF_INET)
        inet_ntop(AF_INET, &((const struct sockaddr_in *)addr)->sin_addr, address, sizeof address);
    else if (addr && addr->sa_family == AF_INET6)
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)addr)->sin6_addr, address, sizeof address);
    conn *c = xcalloc(1, sizeof *c);
    c->guard = g;
    c->fd = fd->connect_fd;
    c->phase = WAITING_HEAD;
    c->since = now_ms();
    pthread_mutex_lock(&g->lock);
    c->peer = peer_of(g, address);
    c->peer->open++;
    if (g->count == g->capacity) {
        g->capacity = g->capacity ? 2 * g->capacity : 64;
        g->conns = xrealloc(g->conns, g->capacity * sizeof *g->conns);
    }
    c->index = g->count;
    g->conns[g->count++] = c;
    make_room(g, c, c->since);
    pthread_mutex_unlock(&g->lock);
    *socket_context = c;
}

static void closed(ldp_guard *g, void **socket_context) {
    conn *c = *socket_context;
    if (!c)
        return;
    pthread_mutex_lock(&g->lock);
    g->conns[c->index] = g->conns[--g->count];
    g->conns[c->index]->index = c->index;
    if (c->closing)
        g->closing--;
    peer_release(g, c->peer);
    pthread_mutex_unlock(&g->lock);
    free(c);
    *socket_context = NULL;
}

void ldp_guard_notify(void *guard, struct MHD_Connection *c, void **socket_context,
                      enum MHD_ConnectionNotificationCode code) {
    if (code == MHD_CONNECTION_NOTIFY_STARTED)
        started(guard, c, socket_context);
    else
        closed(guard, socket_context);
}

static conn *conn_of(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info ? info->socket_context : NULL;
}

/* Moves the connection to phase, as of now. */
static void enter(struct MHD_Connection *connection, enum phase phase) {
    conn *c = conn_of(connection);
    if (!c)
        return;
    pthread_mutex_lock(&c->guard->lock);
    c->phase = phase;
    c->since = now_ms();
    c->body_bytes = 0;
    c->watched = false;
    pthread_mutex_unlock(&c->guard->lock);
}

void ldp_guard_head_done(struct MHD_Connection *c) { enter(c, BODY); }

void ldp_guard_body(struct MHD_Connection *connection, size_t bytes) {
    conn *c = conn_of(connection);
    if (!c)
        return;
    pthread_mutex_lock(&c->guard->lock);
    c->body_bytes += bytes;
    pthread_mutex_unlock(&c->guard->lock);
}

void ldp_guard_answering(struct MHD_Connection *c) { enter(c, ANSWERING); }

void ldp_guard_request_done(struct MHD_Connection *c) { enter(c, IDLE); }
