/* ws_channels.h: receive-only WebSocket connections (the receiveFrom sockets of Solid Notifications'
 * WebSocketChannel2023), held by one background thread on libwebsockets, which does the handshake and the
 * framing.
 *
 * The owner's thread asks for connections to be opened and closed; the socket thread reports what
 * happens as events, each carrying the id the owner gave: a connection open, a complete text message, a
 * connection closed or never opened. Every connection opened ends with exactly one closed event, unless
 * the owner closed it itself (ws_channels_close reports nothing).
 *
 * GUARANTEES
 *  1. No call blocks on the network: opening and closing are queued for the socket thread, events queue
 *     for the owner, who takes them when it likes (ws_channels_take) or waits for the first
 *     (ws_channels_wait).
 *  2. A message larger than WS_CHANNELS_MAX_MESSAGE closes its connection (a server cannot make the agent
 *     hold what it sends); the events waiting for the owner are bounded too: a message arriving while
 *     WS_CHANNELS_MAX_QUEUED wait closes its connection, reported closed, so that its owner falls back to
 *     reading what it would have lost.
 *  3. An idle connection is pinged; one that answers nothing is closed and reported, so a silently dead
 *     peer does not pass for a quiet one.
 *  4. ws:// and wss:// URLs only; anything else is reported closed at once.
 *  5. At most WS_CHANNELS_MAX_OPENING connections are being opened (connect and handshake) at a time; the
 *     others wait, in the order asked, for one of those to open or fail (a server's listen queue is not
 *     flooded by thousands of connects at once). The turns are the agent's, not a server's: a server
 *     that holds connections without answering takes turns from the others until libwebsockets' connect
 *     timeout ends each (then retried by the owner after a pause). */
#ifndef LDGSM_HTTP_WS_CHANNELS_H
#define LDGSM_HTTP_WS_CHANNELS_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>


enum { WS_CHANNELS_MAX_MESSAGE = 64 * 1024, WS_CHANNELS_MAX_QUEUED = 100000, WS_CHANNELS_MAX_OPENING = 64 };

/* An id's low 32 bits index the socket thread's table: the ids open at one time must differ in them (a slot
 * reused after a close takes new high bits, so that a late event of the old connection is told apart). */
typedef struct ws_channels ws_channels;

typedef enum ws_event_kind { WS_EVENT_OPEN, WS_EVENT_MESSAGE, WS_EVENT_CLOSED } ws_event_kind;

typedef struct ws_event {
    ws_event_kind kind;
    uint64_t id;
    char *text;       /* WS_EVENT_MESSAGE: the message, NUL-terminated; WS_EVENT_CLOSED: why */
    size_t text_len;
} ws_event;

/* ping_secs: idle seconds before a ping (its answer is awaited as long again). NULL on failure, with
 * error filled; what goes wrong later is told by the events. */
ws_channels *ws_channels_new(unsigned ping_secs, char *error, size_t error_len);
/* Closes every connection and stops the thread. */
void ws_channels_free(ws_channels *ws);

/* Asks for a connection to url (copied) under id, which must not be open already. */
void ws_channels_open(ws_channels *ws, uint64_t id, const char *url);
/* Closes id's connection, if any; no event about it is reported afterwards. */
void ws_channels_close(ws_channels *ws, uint64_t id);

/* Queues a message event for id from outside the sockets (a webhook's delivery, http/webhook_listener.h),
 * so that the owner takes and waits for both in one place; from any thread. False when
 * WS_CHANNELS_MAX_QUEUED events wait (the delivery is refused: as a lost one, the owner's safety poll
 * bounds it). */
bool ws_channels_deliver(ws_channels *ws, uint64_t id);

/* Moves the waiting events into *events (an array the caller frees with ws_events_free); their count. */
size_t ws_channels_take(ws_channels *ws, ws_event **events);
void ws_events_free(ws_event *events, size_t count);

/* Waits until an event waits or timeout_ms passed (or stop became nonzero, checked every 50 ms); true
 * when an event waits. */
bool ws_channels_wait(ws_channels *ws, long timeout_ms, const volatile sig_atomic_t *stop);

#endif
