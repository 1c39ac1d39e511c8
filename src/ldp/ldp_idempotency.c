/* ldp_idempotency.c: the Idempotency-Key table: parsing keys, request fingerprints, reservations and
 * stored answers (a hash table by key, a list by age), and their records under the data directory. */
#include "ldp/ldp_idempotency.h"

#include <dirent.h>
#include <errno.h>
#include <nettle/base16.h>
#include <nettle/sha2.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ldp/ldp_disk.h"
#include "rdf/hashmap.h"

/* ---------------------------------------------------------------- keys and fingerprints */

/* RFC 9110's tchar, and the ':' and '/' an sf-token may also hold. */
static bool is_bare_key_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           (c != '\0' && strchr("!#$%&'*+-.^_`|~:/", c) != NULL);
}

static int refuse_key(const char **why, const char *what) {
    *why = what;
    return -1;
}

int ldp_idem_parse_key(const char *value, char key[LDP_IDEM_KEY_MAX + 1], const char **why) {
    const char *p = value;
    size_t n = 0;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p == '"') {
        for (p++; *p != '"'; p++) {
            if (*p == '\0')
                return refuse_key(why, "the string has no closing '\"'");
            if (*p == '\\' && p[1] != '"' && p[1] != '\\')
                return refuse_key(why, "a string escapes only '\"' and '\\'");
            if (*p == '\\')
                p++;
            else if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e)
                return refuse_key(why, "a string holds printable ASCII characters only");
            if (n == LDP_IDEM_KEY_MAX)
                return refuse_key(why, "longer than 255 characters");
            key[n++] = *p;
        }
        p++;
    } else {
        for (; is_bare_key_char(*p); p++) {
            if (n == LDP_IDEM_KEY_MAX)
                return refuse_key(why, "longer than 255 characters");
            key[n++] = *p;
        }
    }
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p == ';')
        return refuse_key(why, "parameters are not accepted");
    if (*p == ',')
        return refuse_key(why, "one key only");
    if (*p)
        return refuse_key(why, "not a string (\"...\") or a run of token characters");
    if (n == 0)
        return refuse_key(why, "empty");
    key[n] = '\0';
    return 0;
}

void ldp_idem_fingerprint(const char *method, const char *path, const char *content_type, const char *body,
                          size_t body_len, uint8_t fingerprint[LDP_IDEM_FINGERPRINT_SIZE]) {
    uint8_t body_digest[SHA256_DIGEST_SIZE];
    struct sha256_ctx ctx;
    sha256_init(&ctx);
    sha256_update(&ctx, body_len, (const uint8_t *)(body ? body : ""));
    sha256_digest(&ctx, sizeof body_digest, body_digest);
    /* NUL after each string keeps the parts apart: none of them can hold a NUL. */
    const char *parts[] = {method, path, content_type ? content_type : ""};
    for (size_t i = 0; i < sizeof parts / sizeof *parts; i++)
        sha256_update(&ctx, strlen(parts[i]) + 1, (const uint8_t *)parts[i]);
    sha256_update(&ctx, sizeof body_digest, body_digest);
    sha256_digest(&ctx, LDP_IDEM_FINGERPRINT_SIZE, fingerprint);
}

/* ---------------------------------------------------------------- answers */

void ldp_idem_answer_add_header(ldp_idem_answer *answer, const char *name, const char *value) {
    buf_append(&answer->headers, name, strlen(name) + 1);
    buf_append(&answer->headers, value, strlen(value) + 1);
}

bool ldp_idem_answer_next_header(const ldp_idem_answer *answer, size_t *offset, const char **name,
                                 const char **value) {
    if (*offset >= answer->headers.len)
        return false;
    *name = answer->headers.data + *offset;
    *offset += strlen(*name) + 1;
    *value = answer->headers.data + *offset;
    *offset += strlen(*value) + 1;
    return true;
}

void ldp_idem_answer_clear(ldp_idem_answer *answer) {
    buf_free(&answer->headers);
    buf_free(&answer->body);
    answer->status = 0;
}

static void copy_answer(ldp_idem_answer *to, const ldp_idem_answer *from) {
    *to = (ldp_idem_answer){.status = from->status};
    buf_append(&to->headers, from->headers.data, from->headers.len);
    buf_append(&to->body, from->body.data, from->body.len);
}

/* ---------------------------------------------------------------- the table */

struct ldp_idem_record {
    char *key;
    uint64_t hash;
    uint8_t fingerprint[LDP_IDEM_FINGERPRINT_SIZE];
    bool in_flight;
    int64_t stored_at;              /* seconds since the epoch, once stored */
    ldp_idem_answer answer;
    ldp_idem_record *chain;         /* the next record in the key's hash bucket */
    ldp_idem_record *older, *newer; /* the age list of stored answers (note 5) */
};

struct ldp_idem {
    char *dir; /* data_dir/LDP_DISK_IDEMPOTENCY_DIR; NULL in memory */
    int64_t ttl;
    size_t max_keys;
    const log_sink *log;
    int64_t (*clock)(void);
    pthread_mutex_t lock; /* everything below; never held across a file write */
    ldp_idem_record **buckets;
    size_t bucket_count, record_count;
    ldp_idem_record *oldest, *newest;
    size_t stored_count;
};

size_t ldp_idem_count(ldp_idem *t) {
    pthread_mutex_lock(&t->lock);
    size_t count = t->record_count;
    pthread_mutex_unlock(&t->lock);
    return count;
}

static int64_t system_clock(void) { return (int64_t)time(NULL); }

static uint64_t key_hash(const char *key) { return hash_bytes(key, strlen(key), 0x6964656d); }

static ldp_idem_record *find(const ldp_idem *t, const char *key, uint64_t hash) {
    for (ldp_idem_record *r = t->buckets[hash & (t->bucket_count - 1)]; r; r = r->chain)
        if (r->hash == hash && strcmp(r->key, key) == 0)
            return r;
    return NULL;
}

static void rehash(ldp_idem *t) {
    size_t count = t->bucket_count * 2;
    ldp_idem_record **buckets = xcalloc(count, sizeof *buckets);
    for (size_t i = 0; i < t->bucket_count; i++)
        for (ldp_idem_record *r = t->buckets[i], *next; r; r = next) {
            next = r->chain;
            r->chain = buckets[r->hash & (count - 1)];
            buckets[r->hash & (count - 1)] = r;
        }
    free(t->buckets);
    t->buckets = buckets;
    t->bucket_count = count;
}

static void insert(ldp_idem *t, ldp_idem_record *r) {
    if (t->record_count + 1 > t->bucket_count)
        rehash(t);
    ldp_idem_record **bucket = &t->buckets[r->hash & (t->bucket_count - 1)];
    r->chain = *bucket;
    *bucket = r;
    t->record_count++;
}

static void append_stored(ldp_idem *t, ldp_idem_record *r) {
    r->older = t->newest;
    r->newer = NULL;
    if (t->newest)
        t->newest->newer = r;
    else
        t->oldest = r;
    t->newest = r;
    t->stored_count++;
}

static void free_record(ldp_idem_record *r) {
    ldp_idem_answer_clear(&r->answer);
    free(r->key);
    free(r);
}

/* A SHA-256 digest in lower-case hex, appended to out. */
static void digest_hex(const uint8_t digest[SHA256_DIGEST_SIZE], buf *out) {
    char hex[BASE16_ENCODE_LENGTH(SHA256_DIGEST_SIZE)];
    base16_encode_update(hex, SHA256_DIGEST_SIZE, digest);
    buf_append(out, hex, sizeof hex);
}

/* A key's record file: dir/ + the SHA-256 of the key in hex (keys may hold '/' and other characters no
 * file name should). */
static void record_file(const ldp_idem *t, const char *key, buf *out) {
    uint8_t digest[SHA256_DIGEST_SIZE];
    struct sha256_ctx ctx;
    sha256_init(&ctx);
    sha256_update(&ctx, strlen(key), (const uint8_t *)key);
    sha256_digest(&ctx, sizeof digest, digest);
    buf_printf(out, "%s/", t->dir);
    digest_hex(digest, out);
}

/* Removes a record from the table, and a stored one from the age list and the disk. Called with the
 * lock held: the file goes before another request can reserve the key and write it again. */
static void drop(ldp_idem *t, ldp_idem_record *r) {
    ldp_idem_record **link = &t->buckets[r->hash & (t->bucket_count - 1)];
    while (*link != r)
        link = &(*link)->chain;
    *link = r->chain;
    t->record_count--;
    if (!r->in_flight) {
        *(r->older ? &r->older->newer : &t->oldest) = r->newer;
        *(r->newer ? &r->newer->older : &t->newest) = r->older;
        t->stored_count--;
        if (t->dir) {
            buf file = {0};
            record_file(t, r->key, &file);
            if (unlink(buf_cstr(&file)) != 0 && errno != ENOENT)
                log_msg(t->log, LOG_WARN, "cannot remove Idempotency-Key record %s: %s", file.data,
                        strerror(errno));
            buf_free(&file);
        }
    }
    free_record(r);
}

static bool expired(const ldp_idem *t, const ldp_idem_record *r, int64_t now) {
    return !r->in_flight && now - r->stored_at >= t->ttl;
}

/* Note 5: the oldest answers first, until one is young enough or there are few enough. */
static void drop_old(ldp_idem *t, int64_t now) {
    while (t->oldest && (expired(t, t->oldest, now) || t->stored_count > t->max_keys))
        drop(t, t->oldest);
}

enum ldp_idem_verdict ldp_idem_begin(ldp_idem *t, const char *key,
                                     const uint8_t fingerprint[LDP_IDEM_FINGERPRINT_SIZE],
                                     ldp_idem_record **reserved, ldp_idem_answer *stored) {
    int64_t now = t->clock();
    uint64_t hash = key_hash(key);
    enum ldp_idem_verdict verdict;
    pthread_mutex_lock(&t->lock);
    drop_old(t, now);
    ldp_idem_record *r = find(t, key, hash);
    /* The age list is in storing order unless the clock was set back; this answer may be expired anyway. */
    if (r && expired(t, r, now)) {
        drop(t, r);
        r = NULL;
    }
    if (!r) {
        r = xcalloc(1, sizeof *r);
        r->key = xstrndup(key, strlen(key));
        r->hash = hash;
        memcpy(r->fingerprint, fingerprint, sizeof r->fingerprint);
        r->in_flight = true;
        insert(t, r);
        *reserved = r;
        verdict = LDP_IDEM_EXECUTE;
    } else if (memcmp(r->fingerprint, fingerprint, sizeof r->fingerprint) != 0) {
        verdict = LDP_IDEM_MISMATCH;
    } else if (r->in_flight) {
        verdict = LDP_IDEM_IN_FLIGHT;
    } else {
        copy_answer(stored, &r->answer);
        verdict = LDP_IDEM_REPLAY;
    }
    pthread_mutex_unlock(&t->lock);
    return verdict;
}

/* ---------------------------------------------------------------- records on disk */

#define RECORD_MAGIC "ldgsm Idempotency-Key record 1"

/* The record's text: a magic line, then numeric fields and the fingerprint, then three counted byte strings (the key, the
 * headers with their NULs, the body), each followed by a newline. */
static void serialize(const ldp_idem_record *r, buf *out) {
    buf_printf(out, RECORD_MAGIC "\nstored %lld\nstatus %d\nfingerprint ", (long long)r->stored_at,
               r->answer.status);
    digest_hex(r->fingerprint, out);
    buf_printf(out, "\nkey %zu\n", strlen(r->key));
    buf_puts(out, r->key);
    buf_printf(out, "\nheaders %zu\n", r->answer.headers.len);
    buf_append(out, r->answer.headers.data, r->answer.headers.len);
    buf_printf(out, "\nbody %zu\n", r->answer.body.len);
    buf_append(out, r->answer.body.data, r->answer.body.len);
    buf_putc(out, '\n');
}

static void write_record(ldp_idem *t, const ldp_idem_record *r) {
    buf text = {0}, file = {0};
    serialize(r, &text);
    record_file(t, r->key, &file);
    char message[600];
    if (ldp_disk_replace_file(t->dir, buf_cstr(&file), text.data, text.len, message, sizeof message) != 0)
        log_msg(t->log, LOG_ERROR, "Idempotency-Key record not written, kept in memory only: %s", message);
    buf_free(&text);
    buf_free(&file);
}

typedef struct reader {
    const char *p, *end;
} reader;

static bool read_literal(reader *in, const char *text) {
    size_t n = strlen(text);
    if ((size_t)(in->end - in->p) < n || memcmp(in->p, text, n) != 0)
        return false;
    in->p += n;
    return true;
}

/* "name <decimal>\n" (a '-' sign allowed). */
static bool read_number(reader *in, const char *name, long long *value) {
    if (!read_literal(in, name) || !read_literal(in, " "))
        return false;
    bool negative = read_literal(in, "-");
    unsigned long long n = 0;
    const char *digits = in->p;
    while (in->p < in->end && *in->p >= '0' && *in->p <= '9' && in->p - digits < 18)
        n = n * 10 + (unsigned long long)(*in->p++ - '0');
    *value = negative ? -(long long)n : (long long)n;
    return in->p > digits && read_literal(in, "\n");
}

/* "name <count>\n<count bytes>\n". */
static bool read_counted(reader *in, const char *name, buf *out) {
    long long n;
    if (!read_number(in, name, &n) || n < 0 || n > in->end - in->p)
        return false;
    buf_append(out, in->p, (size_t)n);
    in->p += n;
    return read_literal(in, "\n");
}

static bool read_fingerprint(reader *in, uint8_t fingerprint[LDP_IDEM_FINGERPRINT_SIZE]) {
    if (!read_literal(in, "fingerprint ") || in->end - in->p < 2 * LDP_IDEM_FINGERPRINT_SIZE)
        return false;
    for (size_t i = 0; i < LDP_IDEM_FINGERPRINT_SIZE; i++) {
        int high = hex_digit_value(*in->p++), low = hex_digit_value(*in->p++);
        if (high < 0 || low < 0)
            return false;
        fingerprint[i] = (uint8_t)(high << 4 | low);
    }
    return read_literal(in, "\n");
}

/* The headers are NUL-terminated names and values, in pairs. */
static bool well_formed_headers(const buf *headers) {
    size_t nuls = 0;
    for (size_t i = 0; i < headers->len; i++)
        nuls += headers->data[i] == '\0';
    return headers->len == 0 || (headers->data[headers->len - 1] == '\0' && nuls % 2 == 0);
}

/* A stored record read back from its text, or NULL when the text is not one. */
static ldp_idem_record *parse_record(const char *text, size_t len) {
    reader in = {text, text + len};
    long long stored_at, status;
    buf key = {0};
    ldp_idem_record *r = xcalloc(1, sizeof *r);
    bool ok = read_literal(&in, RECORD_MAGIC "\n") && read_number(&in, "stored", &stored_at) &&
              read_number(&in, "status", &status) && read_fingerprint(&in, r->fingerprint) &&
              read_counted(&in, "key", &key) && read_counted(&in, "headers", &r->answer.headers) &&
              read_counted(&in, "body", &r->answer.body) && in.p == in.end;
    r->key = buf_cstr(&key);
    if (!ok || status < 100 || status > 499 || key.len == 0 || key.len > LDP_IDEM_KEY_MAX ||
        strlen(r->key) != key.len || !well_formed_headers(&r->answer.headers)) {
        free_record(r);
        return NULL;
    }
    r->hash = key_hash(r->key);
    r->stored_at = stored_at;
    r->answer.status = (int)status;
    return r;
}

static int compare_age(const void *a, const void *b) {
    int64_t x = (*(ldp_idem_record *const *)a)->stored_at, y = (*(ldp_idem_record *const *)b)->stored_at;
    return (x > y) - (x < y);
}

static int make_dir(const char *dir, char *message, size_t size) {
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        snprintf(message, size, "cannot create directory %s: %s", dir, strerror(errno));
        return -1;
    }
    return 0;
}

static bool is_record_file_of(const ldp_idem *t, const char *file, const char *key) {
    buf expected = {0};
    record_file(t, key, &expected);
    bool same = strcmp(buf_cstr(&expected), file) == 0;
    buf_free(&expected);
    return same;
}

/* Reads one directory entry back; NULL when it is not a live record (a damaged or foreign file is
 * warned about and left alone; an expired record or a crash's temporary file is removed). */
static ldp_idem_record *load_entry(ldp_idem *t, const char *name, int64_t now) {
    buf file = {0};
    buf_printf(&file, "%s/%s", t->dir, name);
    ldp_idem_record *r = NULL;
    const char *why = NULL;
    size_t len;
    char *text = NULL;
    if (strncmp(name, LDP_DISK_TMP_PREFIX, strlen(LDP_DISK_TMP_PREFIX)) == 0)
        unlink(file.data);
    else if (!(text = ldp_disk_read_file(file.data, &len)))
        why = strerror(errno);
    else if (!(r = parse_record(text, len)))
        why = "not an Idempotency-Key record";
    else if (!is_record_file_of(t, file.data, r->key))
        why = "its name is not the hash of the key it holds";
    if (why)
        log_msg(t->log, LOG_WARN, "%s: skipped: %s", file.data, why);
    if (r && (why || expired(t, r, now))) {
        if (!why)
            unlink(file.data);
        free_record(r);
        r = NULL;
    }
    free(text);
    buf_free(&file);
    return r;
}

/* Note 6: every live record, oldest first, then the oldest beyond max_keys dropped. */
static int load(ldp_idem *t, const char *data_dir, char *message, size_t size) {
    if (make_dir(data_dir, message, size) != 0 || make_dir(t->dir, message, size) != 0)
        return -1;
    DIR *d = opendir(t->dir);
    if (!d) {
        snprintf(message, size, "cannot open %s: %s", t->dir, strerror(errno));
        return -1;
    }
    int64_t now = t->clock();
    ldp_idem_record **loaded = NULL;
    size_t count = 0, cap = 0;
    struct dirent *entry;
    while ((entry = readdir(d)) != NULL) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0)
            continue;
        ldp_idem_record *r = load_entry(t, entry->d_name, now);
        if (!r)
            continue;
        if (count == cap) {
            cap = cap ? cap * 2 : 64;
            loaded = xrealloc(loaded, cap * sizeof *loaded);
        }
        loaded[count++] = r;
    }
    closedir(d);
    if (count > 1)
        qsort(loaded, count, sizeof *loaded, compare_age);
    for (size_t i = 0; i < count; i++) {
        insert(t, loaded[i]);
        append_stored(t, loaded[i]);
    }
    free(loaded);
    drop_old(t, now);
    return 0;
}

/* ---------------------------------------------------------------- lifecycle */

ldp_idem *ldp_idem_open(const ldp_idem_config *config, char *message, size_t size) {
    ldp_idem *t = xcalloc(1, sizeof *t);
    t->ttl = config->ttl > 0 ? config->ttl : LDP_IDEM_DEFAULT_TTL;
    t->max_keys = config->max_keys > 0 ? config->max_keys : LDP_IDEM_DEFAULT_MAX_KEYS;
    t->log = config->log;
    t->clock = config->clock ? config->clock : system_clock;
    pthread_mutex_init(&t->lock, NULL);
    t->bucket_count = 64;
    t->buckets = xcalloc(t->bucket_count, sizeof *t->buckets);
    if (config->data_dir) {
        buf dir = {0};
        buf_printf(&dir, "%s/" LDP_DISK_IDEMPOTENCY_DIR, config->data_dir);
        t->dir = buf_cstr(&dir);
        if (load(t, config->data_dir, message, size) != 0) {
            ldp_idem_free(t);
            return NULL;
        }
    }
    return t;
}

void ldp_idem_free(ldp_idem *t) {
    if (!t)
        return;
    for (size_t i = 0; i < t->bucket_count; i++)
        for (ldp_idem_record *r = t->buckets[i], *next; r; r = next) {
            next = r->chain;
            free_record(r);
        }
    free(t->buckets);
    pthread_mutex_destroy(&t->lock);
    free(t->dir);
    free(t);
}

void ldp_idem_finish(ldp_idem *t, ldp_idem_record *r, ldp_idem_answer *answer) {
    bool keep = answer->status < 500;
    if (keep) {
        /* Still reserved: no other thread reads the answer until in_flight is cleared under the lock. */
        r->answer = *answer;
        *answer = (ldp_idem_answer){0};
        r->stored_at = t->clock();
        if (t->dir)
            write_record(t, r);
    } else {
        ldp_idem_answer_clear(answer);
    }
    pthread_mutex_lock(&t->lock);
    if (keep) {
        r->in_flight = false;
        append_stored(t, r);
        drop_old(t, r->stored_at);
    } else {
        drop(t, r);
    }
    pthread_mutex_unlock(&t->lock);
}
