/* ldp_websocket.h: the LDP server's WebSocket listener for WebSocketChannel2023 (ldp_notify.h), on
 * libwebsockets: the handshake and the framing are the library's, the channels ldp_notify's.
 *
 * One thread runs the libwebsockets service loop and is the only one to call into libwebsockets (but for
 * lws_cancel_service, which wakes it: ldp_notify's wake function). It accepts a socket only on the receive
 * path of a channel that has none, sends each queued notification as one text message, closes a socket
 * whose channel expired, was unsubscribed, or fell max_queued bytes behind (ldp_notify.h note 5; cut off
 * when it cannot take the close frame within 2 s), and once a second expires channels of every kind
 * (ldp_notify_poll). What a client sends is read and dropped. */
#ifndef LDGSM_LDP_WEBSOCKET_H
#define LDGSM_LDP_WEBSOCKET_H

#include <stddef.h>

#include "ldp/ldp_notify.h"
#include "rdf/log.h"

typedef struct ldp_websocket ldp_websocket;

/* Listens on host (as the HTTP server: a numeric address or a name resolved locally) and port (0: any
 * free port) for notify's sockets, and makes notify wake it. NULL with message on failure. */
ldp_websocket *ldp_websocket_bind(const char *host, unsigned port, ldp_notify *notify, const log_sink *log,
                                  char *message, size_t size);
/* "ws://host:port", no trailing '/'. */
const char *ldp_websocket_base(const ldp_websocket *ws);
/* Starts the service thread. Returns 0, or -1 with message. */
int ldp_websocket_start(ldp_websocket *ws, char *message, size_t size);
/* Stops the thread, closes every socket and frees the listener (before the ldp_notify). */
void ldp_websocket_free(ldp_websocket *ws);

#endif
