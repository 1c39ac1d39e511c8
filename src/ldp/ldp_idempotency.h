/* ldp_idempotency.h: the LDP server's Idempotency-Key table (IETF draft-ietf-httpapi-idempotency-key-
 * header): a write sent again under the same key is answered from the table instead of executed again.
 *
 * NOTES ON THE DESIGN
 *  1. The key is the header's value, an sf-string ("abc", the draft's form) or a bare run of token
 *     characters (tchar, ':' and '/'; many clients send UUIDs unquoted): 1..LDP_IDEM_KEY_MAX printable
 *     ASCII characters once unescaped, one header line, no parameters. Anything else is refused (400).
 *     Keys are global to the server, not per client: every agent re-sends a call under the same key.
 *  2. A request's fingerprint is SHA-256 over its method, decoded target path, Content-Type header as
 *     sent and the SHA-256 of its body. Other headers (If-Match, Slug, Link) are not part of it: a re-send
 *     is the same call. The same key with another fingerprint is refused (422), whatever the key's state.
 *  3. ldp_idem_begin reserves an unknown key for the caller, which executes the write and hands its answer
 *     to ldp_idem_finish. While reserved the key answers 409 (in flight); afterwards its stored answer.
 *  4. What is stored: every answer of a write executed under the key, 2xx and 4xx alike (a 412 or a 400
 *     for a body that does not parse is that call's outcome, and a re-send gets it again even if the
 *     state has changed since). 5xx answers are not stored: the reservation is dropped and a re-send
 *     executes again. Refusals made before the key is looked up (bad path, 405, 401, 413, a bad key)
 *     reserve nothing: nothing was executed, and a client that fixes its token may re-send under the key.
 *  5. Stored answers are kept ttl seconds after they were stored and at most max_keys of them
 *     (the oldest go first; reservations in flight do not count). Expired answers are dropped lazily,
 *     when a lookup meets them.
 *  6. With a data directory, ldp_idem_finish writes the record to data_dir/LDP_DISK_IDEMPOTENCY_DIR (one
 *     file per key, named by the SHA-256 of the key, written as ldp_disk writes resources: temporary file,
 *     fsync, rename) before it returns, so before the answer is sent; ldp_idem_open reads them back. That
 *     directory begins with '.', so no request path reaches it and no container lists it (ldp_path.h). A
 *     record that cannot be written is logged and kept in memory. A crash after a write but before its
 *     record leaves the write without one: a re-send then executes again. */
#ifndef LDGSM_LDP_IDEMPOTENCY_H
#define LDGSM_LDP_IDEMPOTENCY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rdf/buf.h"
#include "rdf/log.h"

enum { LDP_IDEM_KEY_MAX = 255, LDP_IDEM_FINGERPRINT_SIZE = 32 };

#define LDP_IDEM_DEFAULT_TTL 86400
#define LDP_IDEM_DEFAULT_MAX_KEYS 100000

/* Parses an Idempotency-Key value (note 1) into key (NUL-terminated). Returns 0, or -1 with *why saying
 * what is wrong (a static string). */
int ldp_idem_parse_key(const char *value, char key[LDP_IDEM_KEY_MAX + 1], const char **why);

/* Note 2. content_type may be NULL (none sent). */
void ldp_idem_fingerprint(const char *method, const char *path, const char *content_type, const char *body,
                          size_t body_len, uint8_t fingerprint[LDP_IDEM_FINGERPRINT_SIZE]);

/* A write's answer as sent: its status, its headers ("Name\0value\0" pairs) and its body. */
typedef struct ldp_idem_answer {
    int status;
    buf headers;
    buf body;
} ldp_idem_answer;

void ldp_idem_answer_add_header(ldp_idem_answer *answer, const char *name, const char *value);
/* The header at *offset (start at 0) into *name and *value, advancing *offset; false after the last. */
bool ldp_idem_answer_next_header(const ldp_idem_answer *answer, size_t *offset, const char **name,
                                 const char **value);
void ldp_idem_answer_clear(ldp_idem_answer *answer);

typedef struct ldp_idem_config {
    const char *data_dir;    /* note 6; NULL: memory only */
    int64_t ttl;             /* seconds; 0: LDP_IDEM_DEFAULT_TTL */
    size_t max_keys;         /* 0: LDP_IDEM_DEFAULT_MAX_KEYS */
    const log_sink *log;
    int64_t (*clock)(void);  /* seconds since the epoch; NULL: the system's real-time clock */
} ldp_idem_config;

typedef struct ldp_idem ldp_idem;
typedef struct ldp_idem_record ldp_idem_record;

/* Opens the table, reading data_dir's records back (creating the directory when missing). NULL with
 * message on failure. */
ldp_idem *ldp_idem_open(const ldp_idem_config *config, char *message, size_t size);
void ldp_idem_free(ldp_idem *table);
/* The keys whose answers are held now (executing or kept), for the server's metrics. */
size_t ldp_idem_count(ldp_idem *table);

enum ldp_idem_verdict {
    LDP_IDEM_EXECUTE,   /* unknown key, now reserved in *reserved: execute, then ldp_idem_finish */
    LDP_IDEM_REPLAY,    /* answered before: *stored is a copy of the answer (ldp_idem_answer_clear) */
    LDP_IDEM_MISMATCH,  /* the key belongs to a request with another fingerprint (422) */
    LDP_IDEM_IN_FLIGHT, /* the same request is being executed under the key (409) */
};

/* Note 3. key as parsed by ldp_idem_parse_key. */
enum ldp_idem_verdict ldp_idem_begin(ldp_idem *table, const char *key,
                                     const uint8_t fingerprint[LDP_IDEM_FINGERPRINT_SIZE],
                                     ldp_idem_record **reserved, ldp_idem_answer *stored);
/* Ends a reservation with the write's answer, taking over its contents (answer is left empty): stores
 * it (note 4), durably with a data directory (note 6), or drops the reservation for a 5xx. */
void ldp_idem_finish(ldp_idem *table, ldp_idem_record *reserved, ldp_idem_answer *answer);

#endif
