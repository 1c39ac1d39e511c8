/* ldp_webhook.h: the LDP server's delivery thread for WebhookChannel2023 (ldp_notify.h): POSTs each
 * channel's notifications to its sendTo with libcurl's multi interface.
 *
 * One thread makes every POST, never a request thread, so a slow receiver delays no request. It takes
 * the channels with something to deliver (ldp_notify_webhook_take: one POST in flight per channel, so each
 * channel's notifications arrive in write order), runs up to LDP_WEBHOOK_MAX_IN_FLIGHT POSTs at once, at
 * most LDP_WEBHOOK_PER_RECEIVER of them to one receiver (scheme, host and port of sendTo; the others wait
 * their turn in the thread, where no timeout runs), so that a receiver holding its POSTs delays no other
 * receiver's. It keeps connections to receivers alive between POSTs (as many per receiver, the multi
 * handle's cache), and gives each POST LDP_WEBHOOK_CONNECT_TIMEOUT_MS to connect and
 * LDP_WEBHOOK_TIMEOUT_MS in all. No redirect is followed, no proxy used, and what a receiver answers is
 * read and dropped. The POSTs carry no signature (ldp_notify.h note 7). */
#ifndef LDGSM_LDP_WEBHOOK_H
#define LDGSM_LDP_WEBHOOK_H

#include <stddef.h>

#include "ldp/ldp_notify.h"
#include "rdf/log.h"

enum {
    LDP_WEBHOOK_MAX_IN_FLIGHT = 256,
    LDP_WEBHOOK_PER_RECEIVER = 8,
    LDP_WEBHOOK_CONNECT_TIMEOUT_MS = 2000,
    LDP_WEBHOOK_TIMEOUT_MS = 5000,
};

typedef struct ldp_webhook ldp_webhook;

/* Starts the delivery thread for notify's webhook channels. NULL with message on failure. */
ldp_webhook *ldp_webhook_start(ldp_notify *notify, const log_sink *log, char *message, size_t size);
/* Stops the thread, abandoning deliveries in flight, and frees it (before the ldp_notify). */
void ldp_webhook_free(ldp_webhook *w);

#endif
