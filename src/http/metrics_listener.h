/* metrics_listener.h: the agent's metrics endpoint (`ldgsm run --metrics ADDR:PORT`): a small HTTP
 * listener on libmicrohttpd, in its own thread, answering GET /metrics with the Prometheus text the
 * owner renders.
 *
 * GUARANTEES (whoever reaches the address can ask)
 *  1. GET or HEAD /metrics is answered 200 "text/plain; version=0.0.4" with what render wrote at that
 *     moment; another path 404, another method 405. No request changes anything.
 *  2. At most METRICS_MAX_CONNECTIONS connections at once, each closed after METRICS_IDLE_SECS without
 *     traffic; request bodies are not read.
 *  3. An address without a host (PORT alone) listens on 127.0.0.1: loopback unless asked otherwise. */
#ifndef LDGSM_HTTP_METRICS_LISTENER_H
#define LDGSM_HTTP_METRICS_LISTENER_H

#include <stddef.h>

#include "rdf/buf.h"

enum { METRICS_MAX_CONNECTIONS = 16, METRICS_IDLE_SECS = 10 };

typedef struct metrics_listener metrics_listener;

/* Called on the listener's thread: appends the exposition to out. */
typedef void (*metrics_render_fn)(void *user, buf *out);

/* Listens on address (ADDR:PORT, [ADDR]:PORT for IPv6, or PORT; port 0: a free one). NULL on failure,
 * with error filled. */
metrics_listener *metrics_listener_new(const char *address, metrics_render_fn render, void *user, char *error,
                                       size_t error_len);
/* Stops the thread: render is not called afterwards. */
void metrics_listener_free(metrics_listener *l);
/* "http://ADDR:PORT/metrics" as bound (the port chosen when 0 was asked). */
const char *metrics_listener_url(const metrics_listener *l);

#endif
