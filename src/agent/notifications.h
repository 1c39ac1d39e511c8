/* notifications.h: Solid Notifications for the agent (the specification's section 9, "Notifications";
 * docs/DESIGN.md §1.5; `ldgsm run --notifications`).
 *
 * With --incremental, a document of a quiet instance is revalidated with a conditional GET in every
 * iteration. Here a channel stands in for that GET: the agent subscribes to each document it reads
 * (WebSocketChannel2023, found in the description of the document's storage: the one its answer links to,
 * rel solid#storageDescription, as a pod on a server of many pods has its own; else that of the known
 * storage whose root holds it; else /.well-known/solid of its origin;
 * the subscription's `state` is the ETag the agent read, so a change made between the read and the
 * subscription is sent at once), and while the channel is open and has brought no notification since the
 * document was last read, the document counts as unchanged without a request.
 *
 * A notification is never trusted for what it says: any message on a channel marks its document changed,
 * to be read again (the conditional GET tells). A channel vouches only for what was read after it opened:
 * once its socket is open, the document is read once more before the channel counts, so a change made
 * before the server began to watch (which `state` reports too, where the server honours it) is not lost.
 * Whatever arrives while an iteration runs is taken at the next one, so a change seen by no GET of this
 * iteration is seen by the next. A document with no
 * channel (its server offers none, the subscription failed or is being made, the socket closed, the
 * channel nears its end) is revalidated by GET as without notifications; a lost subscription is made again
 * after a pause that doubles from 1 s to 60 s. Channels of documents no longer read are closed.
 *
 * With --webhook ADDR:PORT the agent subscribes with WebhookChannel2023 where a server offers it (sockets
 * where only they are offered): each channel's sendTo is a URL of its own on the agent's listener, and a
 * POST to it counts as a message on a socket would. Such a channel is live from its subscription's 200,
 * the server posting at once what changed since the state read. Channels of documents no longer read,
 * replaced before their end, or still live when the agent ends are DELETEd.
 *
 * The socket side is src/http/ws_channels.h, the webhook side src/http/webhook_listener.h; subscriptions
 * and discovery go through the agent's HTTP client, in the agent's thread, between iterations. */
#ifndef LDGSM_AGENT_NOTIFICATIONS_H
#define LDGSM_AGENT_NOTIFICATIONS_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "http/http_client.h"
#include "rdf/log.h"
#include "rdf/rdfio.h"

typedef struct notifications notifications;

/* http, io and t (the agent's) and log must outlive the result. webhook: ADDR:PORT of a webhook listener
 * (`--webhook`), or NULL. NULL on failure, with error filled. */
notifications *notifications_new(http_client *http, rdfio *io, terms *t, const log_sink *log, const char *webhook,
                                 char *error, size_t error_len);
void notifications_free(notifications *n);

/* At the start of an iteration, at now_ms: takes in what the sockets brought since the last call (a
 * notification marks its document changed; an opened socket makes its channel live; a closed one lost),
 * telling unvouched(user, resource) of each document whose channel no longer vouches for it. */
void notifications_take(notifications *n, int64_t now_ms, void (*unvouched)(void *user, const char *resource),
                        void *user);

/* The notifications taken in so far (notifications_take), on any channel: the metrics' count. */
unsigned long notifications_received(const notifications *n);

/* True when resource's channel is live and brought no notification since the document was last read, in
 * state etag (NULL: absent). */
bool notifications_vouches(const notifications *n, const char *resource, const char *etag);

/* True when resource's channel is live and brought no notification since the document was last read,
 * whatever state it was read in (a listing read in every iteration, which only a change should bring
 * about early). */
bool notifications_watching(const notifications *n, const char *resource);

/* resource was read in this iteration (by a GET begun after notifications_take), in state etag (a strong
 * ETag; NULL: absent, subscribed to without a state): it is no longer marked changed, and it is subscribed
 * to with that state when it has no channel. storage_description: the URL its answer linked as its
 * storage's description (rel solid#storageDescription), whose subscription services its channel uses, taken
 * only on resource's own origin; NULL when this read brought none (a 304, a channel's word, an absent
 * document on Community Solid Server), which keeps what an earlier answer named, else the known storage
 * whose root holds it (notifications_storage_root), else its origin's /.well-known/solid. */
void notifications_read(notifications *n, const char *resource, const char *etag, const char *storage_description);

/* The agent sent an unsafe request to url: that document, and when membership (the request may create or
 * delete it) the container whose members it may have changed, are marked changed, so that no channel vouches
 * for what was read of them before the notification of this write has come; unvouched(user, resource) is
 * told of each. */
void notifications_wrote(notifications *n, const char *url, bool membership,
                         void (*unvouched)(void *user, const char *resource), void *user);

/* After an iteration: closes the channels of documents keep() says are no longer read, then makes the
 * subscriptions wanted (discovering each new storage's subscription service first), one parallel batch each.
 * keep(user, resource) decides (NULL: none was dropped). */
void notifications_flush(notifications *n, int64_t now_ms, bool (*keep)(void *user, const char *resource), void *user);

/* The root a storage description at URL description may claim, given the pim:Storage it names (iri, len
 * bytes): iri when it is a container (ending in '/') that holds the description, below an http(s) origin,
 * else NULL (caller frees). A document whose answers named no storage belongs to the known storage whose
 * root holds it; so a description cannot claim another origin's documents, nor every document. */
char *notifications_storage_root(const char *description, const char *iri, size_t len);

/* When a channel wants work next: a lost one's new subscription, a live one's replacement before its end;
 * INT64_MAX when none does. */
int64_t notifications_next_due(notifications *n);

/* Counts for the iteration's log line: live channels, documents read by GET for want of one. */
size_t notifications_live(const notifications *n);

/* Waits at most timeout_ms for something from the sockets; when something came, waits settle_ms more for
 * the rest of a burst. True when something came. */
bool notifications_wait(notifications *n, long timeout_ms, long settle_ms, const volatile sig_atomic_t *stop);

#endif
