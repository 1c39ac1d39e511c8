/* webhook_listener.h: the receiving end of Solid Notifications' WebhookChannel2023 (`ldgsm run --webhook
 * ADDR:PORT`): a small HTTP listener on libmicrohttpd, in its own thread, to which servers POST
 * notifications.
 *
 * The owner registers an id and gets a URL to give as a subscription's sendTo; a POST to that URL calls
 * deliver(user, id) from the listener's thread. The URL names its registration with a random 128-bit part,
 * so that a POST says which registration it is for without its body being read (nor trusted: its content
 * is never looked at), and nobody who was not given the URL can deliver to it.
 *
 * GUARANTEES (strangers can reach the listener)
 *  1. A POST to a URL not registered, or no longer, is answered 404; another method 405; a body larger
 *     than WEBHOOK_MAX_BODY 413 (said by its Content-Length: at once, whatever its URL). None of them
 *     delivers anything.
 *  2. At most WEBHOOK_MAX_CONNECTIONS connections at once (more are closed at once), each closed after
 *     WEBHOOK_IDLE_SECS without traffic; a request's head and buffers are held in a bounded memory pool.
 *  3. A registration's POST is answered 200 once delivered; 503 when deliver refused it (the owner's queue
 *     is full: the server's delivery fails, as a lost one does). */
#ifndef LDGSM_HTTP_WEBHOOK_LISTENER_H
#define LDGSM_HTTP_WEBHOOK_LISTENER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { WEBHOOK_MAX_BODY = 64 * 1024, WEBHOOK_MAX_CONNECTIONS = 64, WEBHOOK_IDLE_SECS = 10 };

typedef struct webhook_listener webhook_listener;

/* Called from the listener's thread; false when the delivery cannot be taken now. */
typedef bool (*webhook_deliver_fn)(void *user, uint64_t id);

/* Listens on address (ADDR:PORT, a numeric IPv4 address or [IPv6]; port 0: a free one). NULL on failure,
 * with error filled. */
webhook_listener *webhook_listener_new(const char *address, webhook_deliver_fn deliver, void *user, char *error,
                                       size_t error_len);
/* Stops the thread and closes every connection: no delivery happens afterwards. */
void webhook_listener_free(webhook_listener *l);

/* "http://ADDR:PORT" as bound (the port chosen when 0 was asked). */
const char *webhook_listener_base(const webhook_listener *l);

/* Registers id (the ids registered at one time must differ in their low 32 bits, as ws_channels' do) and
 * returns its URL (the caller frees); NULL when no random secret could be drawn. */
char *webhook_listener_add(webhook_listener *l, uint64_t id);
/* Forgets id's registration: POSTs to its URL get 404 from now on. */
void webhook_listener_remove(webhook_listener *l, uint64_t id);

#endif
