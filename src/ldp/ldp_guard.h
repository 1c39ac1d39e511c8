/* ldp_guard.h: the LDP server's defence against slow clients (Slowloris): deadlines for a request's head
 * and body, and a connection budget that keeps room for new clients.
 *
 * libmicrohttpd's idle timeout restarts on every byte, so a client sending a header line or a body byte
 * every few seconds holds its connection for ever, and enough of them take every slot. The guard keeps
 * a table of the server's connections (MHD_OPTION_NOTIFY_CONNECTION) with what each is waiting for, and
 * closes a connection by shutdown(2) of its socket, which makes libmicrohttpd see the end of the stream
 * and close it itself:
 *  - a request's head must be complete within head_timeout seconds of the connection's start (the
 *    first request) or of its first byte (a later request on a kept-alive connection; the kernel's count
 *    of bytes received tells when it came);
 *  - a body must average body_min_rate bytes per second, its first body_grace seconds free
 *    (neither deadline closes a connection while the kernel holds bytes of it that libmicrohttpd has not
 *    read: then its thread is busy with another request, and the server is behind, not the client);
 *  - when a connection starts with more than max_connections - max_connections / 16 open, connections
 *    are closed until that many are open again, so that a new client is accepted and served rather than
 *    left in the listen queue: first those waiting for a head (or idle between requests), from the
 *    addresses holding the most connections first and, among those, the longest waiting; then the
 *    slowest bodies. A connection the server is answering is never closed by the guard.
 * What was closed is logged as one warning line at most every 5 seconds, naming each client address
 * with its count per cause (the first addresses; the rest counted).
 *
 * libmicrohttpd 0.9.75 calls MHD_CONNECTION_NOTIFY_CLOSED before it closes the socket (daemon.c,
 * MHD_cleanup_connections and new_connection_process_), and the guard removes a connection under the
 * same lock it holds while shutting sockets down, so it never shuts down a descriptor reused since. */
#ifndef LDGSM_LDP_GUARD_H
#define LDGSM_LDP_GUARD_H

#include <microhttpd.h>
#include <stddef.h>

#include "rdf/log.h"

typedef struct ldp_guard_config {
    unsigned head_timeout;    /* seconds */
    unsigned body_min_rate;   /* bytes per second */
    unsigned body_grace;      /* seconds */
    unsigned max_connections; /* the server's limit (MHD_OPTION_CONNECTION_LIMIT) */
    const log_sink *log;
} ldp_guard_config;

typedef struct ldp_guard ldp_guard;

/* Starts the guard's watchdog thread. NULL with message when it cannot. */
ldp_guard *ldp_guard_new(const ldp_guard_config *config, char *message, size_t size);
/* Stops the watchdog; call after MHD_stop_daemon (every connection closed). */
void ldp_guard_free(ldp_guard *guard);

/* The MHD_NotifyConnectionCallback to register with the guard as its closure. */
void ldp_guard_notify(void *guard, struct MHD_Connection *c, void **socket_context,
                      enum MHD_ConnectionNotificationCode code);

/* What the access handler tells the guard of a connection's request: its head is complete (the first
 * call), bytes of its body came, the server is answering it (the last call), it is done (the request
 * completed callback; the connection waits for the next request). */
void ldp_guard_head_done(struct MHD_Connection *c);
void ldp_guard_body(struct MHD_Connection *c, size_t bytes);
void ldp_guard_answering(struct MHD_Connection *c);
void ldp_guard_request_done(struct MHD_Connection *c);

#endif
