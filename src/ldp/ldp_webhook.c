/* ldp_webhook.c: the webhook delivery thread (ldp_webhook.h): a libcurl multi handle, one easy handle per
 * POST in flight, the receivers' shares of them, the thread's loop. */
#include "ldp/ldp_webhook.h"

#include <curl/curl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdf/hashmap.h"

enum { RECEIVER_BUCKETS = 1024 };

/* One POST taken from ldp_notify: in flight, or waiting for its receiver's share. */
typedef struct delivery {
    struct delivery *prev, *next; /* in flight: the list of those; waiting: its receiver's queue (next only) */
    CURL *easy;                   /* NULL while waiting */
    struct receiver *receiver;
    ldp_notify_channel *channel;
    buf send_to, body;
    char error[CURL_ERROR_SIZE];
} delivery;

/* The POSTs to one origin (scheme://host:port of sendTo), which has at most LDP_WEBHOOK_PER_RECEIVER in
 * flight: a receiver that holds its POSTs takes no more of the LDP_WEBHOOK_MAX_IN_FLIGHT. Freed when it has
 * none in flight or waiting. */
typedef struct receiver {
    struct receiver *next; /* hash chain */
    int in_flight;
    delivery *waiting, *waiting_tail;
    char origin[];
} receiver;

struct ldp_webhook {
    ldp_notify *notify;
    const log_sink *log;
    CURLM *multi;
    struct curl_slist *headers;
    pthread_t thread;
    atomic_bool stop;
    int in_flight;
    delivery *flying; /* the POSTs in flight */
    receiver *receivers[RECEIVER_BUCKETS];
};

static size_t discard(char *data, size_t size, size_t count, void *user) {
    (void)data;
    (void)user;
    return size * count;
}

static void wake(void *user) {
    ldp_webhook *w = user;
    curl_multi_wakeup(w->multi);
}

/* The receiver of sendTo (an http or https URL: ldp_notify checked), made when missing. */
static receiver *receiver_of(ldp_webhook *w, const char *send_to) {
    const char *authority = strstr(send_to, "://") + 3;
    size_t len = (size_t)(authority - send_to) + strcspn(authority, "/?#");
    receiver **slot = &w->receivers[hash_bytes(send_to, len, 0x776562) & (RECEIVER_BUCKETS - 1)];
    while (*slot && !(strlen((*slot)->origin) == len && memcmp((*slot)->origin, send_to, len) == 0))
        slot = &(*slot)->next;
    if (!*slot) {
        *slot = xcalloc(1, sizeof **slot + len + 1);
        memcpy((*slot)->origin, send_to, len);
    }
    return *slot;
}

/* Frees r when nothing is in flight to it or waits for it. */
static void receiver_release(ldp_webhook *w, receiver *r) {
    if (r->in_flight || r->waiting)
        return;
    receiver **slot = &w->receivers[hash_bytes(r->origin, strlen(r->origin), 0x776562) & (RECEIVER_BUCKETS - 1)];
    while (*slot != r)
        slot = &(*slot)->next;
    *slot = r->next;
    free(r);
}

/* Starts the POST of d; false when libcurl cannot (then d is done, failed). */
static bool post(ldp_webhook *w, delivery *d) {
    CURL *easy = curl_easy_init();
    if (!easy)
        return false;
    curl_easy_setopt(easy, CURLOPT_URL, buf_cstr(&d->send_to));
    curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(easy, CURLOPT_PROXY, ""); /* a receiver is reached directly, whatever the environment says */
    curl_easy_setopt(easy, CURLOPT_POSTFIELDS, buf_cstr(&d->body));
    curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE, (long)d->body.len);
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, w->headers);
    curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, (long)LDP_WEBHOOK_CONNECT_TIMEOUT_MS);
    curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, (long)LDP_WEBHOOK_TIMEOUT_MS);
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, discard);
    curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, d->error);
    curl_easy_setopt(easy, CURLOPT_PRIVATE, d);
    if (curl_multi_add_handle(w->multi, easy) != CURLM_OK) {
        curl_easy_cleanup(easy);
        return false;
    }
    d->easy = easy;
    d->prev = NULL;
    d->next = w->flying;
    if (w->flying)
        w->flying->prev = d;
    w->flying = d;
    w->in_flight++;
    d->receiver->in_flight++;
    return true;
}

/* Ends d's POST, if it started, and frees d. */
static void delivery_free(ldp_webhook *w, delivery *d) {
    if (d->easy) {
        curl_multi_remove_handle(w->multi, d->easy);
        curl_easy_cleanup(d->easy);
        if (d->prev)
            d->prev->next = d->next;
        else
            w->flying = d->next;
        if (d->next)
            d->next->prev = d->prev;
        w->in_flight--;
        d->receiver->in_flight--;
    }
    buf_free(&d->send_to);
    buf_free(&d->body);
    free(d);
}

/* Starts d's POST, or queues it behind its receiver's share. */
static void start(ldp_webhook *w, delivery *d) {
    receiver *r = d->receiver;
    if (r->in_flight >= LDP_WEBHOOK_PER_RECEIVER) {
        d->next = NULL;
        if (r->waiting_tail)
            r->waiting_tail->next = d;
        else
            r->waiting = d;
        r->waiting_tail = d;
    } else if (!post(w, d)) {
        ldp_notify_webhook_done(w->notify, d->channel, LDP_NOTIFY_FAILED, "(libcurl could not start a POST)");
        delivery_free(w, d);
        receiver_release(w, r);
    }
}

/* Starts the POSTs of the channels with something to deliver, as many as may be in flight. */
static void start_deliveries(ldp_webhook *w) {
    while (w->in_flight < LDP_WEBHOOK_MAX_IN_FLIGHT) {
        delivery *d = xcalloc(1, sizeof *d);
        if (!ldp_notify_webhook_take(w->notify, &d->channel, &d->send_to, &d->body)) {
            delivery_free(w, d);
            return;
        }
        d->receiver = receiver_of(w, buf_cstr(&d->send_to));
        start(w, d);
    }
}

/* Tells ldp_notify how the finished POSTs went; returns how many finished. */
static int finish_deliveries(ldp_webhook *w) {
    CURLMsg *m;
    int left, finished = 0;
    while ((m = curl_multi_info_read(w->multi, &left))) {
        if (m->msg != CURLMSG_DONE)
            continue;
        CURL *easy = m->easy_handle;
        delivery *d;
        long status = 0;
        curl_easy_getinfo(easy, CURLINFO_PRIVATE, (char **)&d);
        curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
        enum ldp_notify_delivery outcome = LDP_NOTIFY_FAILED;
        char why[CURL_ERROR_SIZE + 64];
        if (m->data.result != CURLE_OK) {
            snprintf(why, sizeof why, "failed: %s", d->error[0] ? d->error : curl_easy_strerror(m->data.result));
        } else {
            snprintf(why, sizeof why, "answered %ld", status);
            outcome = status >= 200 && status < 300      ? LDP_NOTIFY_DELIVERED
                      : status == 404 || status == 410 ? LDP_NOTIFY_GONE
                                                       : LDP_NOTIFY_FAILED;
        }
        ldp_notify_webhook_done(w->notify, d->channel, outcome, why);
        receiver *r = d->receiver;
        delivery_free(w, d);
        if (r->waiting) { /* its share has room again */
            delivery *next = r->waiting;
            if (!(r->waiting = next->next))
                r->waiting_tail = NULL;
            start(w, next);
        }
        receiver_release(w, r);
        finished++;
    }
    return finished;
}

static void *run(void *user) {
    ldp_webhook *w = user;
    while (!atomic_load(&w->stop)) {
        int due = ldp_notify_webhook_retry(w->notify);
        start_deliveries(w);
        int running;
        curl_multi_perform(w->multi, &running);
        if (finish_deliveries(w) > 0)
            continue; /* their channels' next notifications may be taken now */
        /* Woken by curl_multi_wakeup when something is queued; at least once a second otherwise. */
        curl_multi_poll(w->multi, NULL, 0, due >= 0 && due < 1000 ? due : 1000, NULL);
    }
    return NULL;
}

ldp_webhook *ldp_webhook_start(ldp_notify *notify, const log_sink *log, char *message, size_t size) {
    ldp_webhook *w = xcalloc(1, sizeof *w);
    w->notify = notify;
    w->log = log;
    w->multi = curl_multi_init();
    w->headers = curl_slist_append(NULL, "Content-Type: application/ld+json");
    w->headers = curl_slist_append(w->headers, "Expect:"); /* no wait for 100 Continue */
    if (!w->multi || !w->headers) {
        snprintf(message, size, "cannot start the webhook deliveries: libcurl failed");
        ldp_webhook_free(w);
        return NULL;
    }
    curl_multi_setopt(w->multi, CURLMOPT_MAXCONNECTS, (long)LDP_WEBHOOK_MAX_IN_FLIGHT);
    ldp_notify_set_webhook_wake(notify, wake, w);
    if (pthread_create(&w->thread, NULL, run, w) != 0) {
        snprintf(message, size, "cannot start the webhook delivery thread");
        ldp_notify_set_webhook_wake(notify, NULL, NULL);
        curl_multi_cleanup(w->multi);
        w->multi = NULL;
        ldp_webhook_free(w);
        return NULL;
    }
    return w;
}

void ldp_webhook_free(ldp_webhook *w) {
    if (!w)
        return;
    if (w->multi) {
        atomic_store(&w->stop, true);
        curl_multi_wakeup(w->multi);
        pthread_join(w->thread, NULL);
        ldp_notify_set_webhook_wake(w->notify, NULL, NULL);
        /* Deliveries in flight are abandoned; their channels are freed with the ldp_notify. */
        while (w->flying)
            delivery_free(w, w->flying);
        for (size_t i = 0; i < RECEIVER_BUCKETS; i++)
            while (w->receivers[i]) {
                receiver *r = w->receivers[i];
                w->receivers[i] = r->next;
                for (delivery *d = r->waiting, *next; d; d = next) {
                    next = d->next;
                    delivery_free(w, d);
                }
                free(r);
            }
        curl_multi_cleanup(w->multi);
    }
    curl_slist_free_all(w->headers);
    free(w);
}
