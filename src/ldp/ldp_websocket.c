/* ldp_websocket.c: the libwebsockets listener of the notification channels (ldp_websocket.h): the
 * protocol callback, the one-second expiry timer and the service thread. */
#include "ldp/ldp_websocket.h"

#include <libwebsockets.h>
#include <netdb.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ldp_websocket {
    lws_sorted_usec_list_t tick; /* the expiry timer */
    struct lws_context *context;
    ldp_notify *notify;
    const log_sink *log;
    char base[300];
    pthread_t thread;
    bool started;
    atomic_bool stop;
    buf frame;   /* LWS_PRE bytes, then the message being sent */
    buf message;
};

/* One socket's state. */
typedef struct session {
    ldp_notify_channel *channel;
    char path[128];  /* the receive path asked for, kept from the handshake */
    size_t received; /* bytes of the client's current message */
} session;

enum { CLOSE_GRACE = 2 }; /* seconds a closing socket has to take its close frame */

static void ask_writable(void *user, void *socket, bool closing) {
    (void)user;
    lws_callback_on_writable(socket);
    /* The close frame goes out when the socket can take it; one that never drains (a reader that stopped
     * reading) is cut off after the grace, so its channel is freed all the same. */
    if (closing)
        lws_set_timeout(socket, PENDING_TIMEOUT_USER_OK, CLOSE_GRACE);
}

static void on_tick(lws_sorted_usec_list_t *sul) {
    ldp_websocket *ws = lws_container_of(sul, ldp_websocket, tick);
    ldp_notify_poll(ws->notify, true, ask_writable, ws);
    lws_sul_schedule(ws->context, 0, &ws->tick, on_tick, LWS_US_PER_SEC);
}

/* Closes the socket with a status and a reason; the caller returns -1. */
static int close_with(struct lws *wsi, enum lws_close_status status, const char *reason) {
    lws_close_reason(wsi, status, (unsigned char *)(uintptr_t)reason, strlen(reason));
    return -1;
}

static int on_event(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len) {
    ldp_websocket *ws = lws_context_user(lws_get_context(wsi));
    session *s = user;
    switch (reason) {
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED: ldp_notify_poll(ws->notify, false, ask_writable, ws); return 0;
    case LWS_CALLBACK_HTTP:
        /* A plain request: nothing is served here but sockets. */
        lws_return_http_status(wsi, HTTP_STATUS_NOT_FOUND, NULL);
        return -1;
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
        if (lws_hdr_copy(wsi, s->path, sizeof s->path, WSI_TOKEN_GET_URI) <= 0 ||
            !ldp_notify_can_connect(ws->notify, s->path))
            return -1; /* an unknown, expired or taken channel: no handshake */
        return 0;
    case LWS_CALLBACK_ESTABLISHED:
        s->channel = ldp_notify_connect(ws->notify, s->path, wsi);
        if (!s->channel)
            return close_with(wsi, LWS_CLOSE_STATUS_POLICY_VIOLATION, "no such channel");
        lws_callback_on_writable(wsi);
        return 0;
    case LWS_CALLBACK_SERVER_WRITEABLE: {
        if (!s->channel)
            return 0;
        bool more = false;
        switch (ldp_notify_next(ws->notify, s->channel, &ws->message, &more)) {
        case LDP_NOTIFY_IDLE: return 0;
        case LDP_NOTIFY_EXPIRED: return close_with(wsi, LWS_CLOSE_STATUS_NORMAL, "notification channel has expired");
        case LDP_NOTIFY_SLOW:
            return close_with(wsi, LWS_CLOSE_STATUS_POLICY_VIOLATION, "notifications were not read in time");
        case LDP_NOTIFY_SEND: break;
        }
        ws->frame.len = 0;
        buf_reserve(&ws->frame, LWS_PRE + ws->message.len);
        ws->frame.len = LWS_PRE; /* room libwebsockets writes the frame's header into */
        buf_append(&ws->frame, ws->message.data, ws->message.len);
        if (lws_write(wsi, (unsigned char *)ws->frame.data + LWS_PRE, ws->message.len, LWS_WRITE_TEXT) <
            (int)ws->message.len)
            return -1;
        if (more)
            lws_callback_on_writable(wsi);
        return 0;
    }
    case LWS_CALLBACK_RECEIVE:
        (void)in;
        s->received += len;
        if (s->received > LDP_NOTIFY_MAX_CLIENT_MESSAGE)
            return close_with(wsi, LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE, "this socket only sends");
        if (lws_is_final_fragment(wsi) && lws_remaining_packet_payload(wsi) == 0)
            s->received = 0;
        return 0;
    case LWS_CALLBACK_CLOSED:
        if (s->channel)
            ldp_notify_disconnect(ws->notify, s->channel);
        s->channel = NULL;
        return 0;
    default: return 0;
    }
}

static const struct lws_protocols protocols[] = {
    {"solid-notifications", on_event, sizeof(session), LDP_NOTIFY_MAX_CLIENT_MESSAGE, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

/* libwebsockets logs through one process-wide function: its errors go to standard error. */
static void lws_log_line(int level, const char *line) {
    (void)level;
    fprintf(stderr, "libwebsockets: %s", line);
}

static void wake(void *user) {
    ldp_websocket *ws = user;
    lws_cancel_service(ws->context);
}

ldp_websocket *ldp_websocket_bind(const char *host, unsigned port, ldp_notify *notify, const log_sink *log,
                                  char *message, size_t size) {
    /* libwebsockets binds a numeric address (or an interface name): resolve the host as the HTTP side does. */
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE};
    struct addrinfo *found = NULL;
    char address[NI_MAXHOST];
    int rc = getaddrinfo(host, NULL, &hints, &found);
    if (rc == 0)
        rc = getnameinfo(found->ai_addr, found->ai_addrlen, address, sizeof address, NULL, 0, NI_NUMERICHOST);
    bool v6 = rc == 0 && found->ai_family == AF_INET6;
    if (found)
        freeaddrinfo(found);
    if (rc != 0) {
        snprintf(message, size, "cannot resolve host %s: %s", host, gai_strerror(rc));
        return NULL;
    }
    lws_set_log_level(LLL_ERR, lws_log_line);
    ldp_websocket *ws = xcalloc(1, sizeof *ws);
    ws->notify = notify;
    ws->log = log;
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.options = LWS_SERVER_OPTION_EXPLICIT_VHOSTS | (v6 ? 0 : LWS_SERVER_OPTION_DISABLE_IPV6);
    info.port = (int)port;
    info.iface = address;
    info.protocols = protocols;
    info.gid = (gid_t)-1;
    info.uid = (uid_t)-1;
    info.user = ws;
    info.timeout_secs = 10; /* a handshake not completed within it is dropped */
    struct lws_vhost *vhost = NULL;
    if ((ws->context = lws_create_context(&info)))
        vhost = lws_create_vhost(ws->context, &info);
    if (!vhost) {
        snprintf(message, size, "cannot listen for notification sockets on %s port %u", host, port);
        ldp_websocket_free(ws);
        return NULL;
    }
    snprintf(ws->base, sizeof ws->base, strchr(host, ':') ? "ws://[%s]:%d" : "ws://%s:%d", host,
             lws_get_vhost_listen_port(vhost));
    ldp_notify_set_receive_base(notify, ws->base);
    ldp_notify_set_wake(notify, wake, ws);
    return ws;
}

const char *ldp_websocket_base(const ldp_websocket *ws) { return ws->base; }

static void *serve(void *user) {
    ldp_websocket *ws = user;
    while (!atomic_load(&ws->stop))
        lws_service(ws->context, 0);
    return NULL;
}

int ldp_websocket_start(ldp_websocket *ws, char *message, size_t size) {
    lws_sul_schedule(ws->context, 0, &ws->tick, on_tick, LWS_US_PER_SEC);
    if (pthread_create(&ws->thread, NULL, serve, ws) != 0) {
        snprintf(message, size, "cannot start the notification sockets' thread");
        return -1;
    }
    ws->started = true;
    return 0;
}

void ldp_websocket_free(ldp_websocket *ws) {
    if (!ws)
        return;
    if (ws->started) {
        atomic_store(&ws->stop, true);
        lws_cancel_service(ws->context);
        pthread_join(ws->thread, NULL);
    }
    ldp_notify_set_wake(ws->notify, NULL, NULL);
    if (ws->context)
        lws_context_destroy(ws->context); /* closes the sockets: their channels hear of it */
    buf_free(&ws->frame);
    buf_free(&ws->message);
    free(ws);
}
