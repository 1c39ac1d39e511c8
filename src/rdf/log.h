/* log.h: the log sink passed down through every layer (no global logger).
 * A sink is a callback plus its user data; a NULL callback writes to stderr.
 *
 * A line is a record: its level, an event name, the instance (or resource) it is about, the message as
 * the text form prints it, and fields of its own (docs/guide/logs-and-metrics.md lists them). A sink with
 * write_record gets the whole record (`--log-format json`); one with only write gets the message. */
#ifndef LDGSM_RDF_LOG_H
#define LDGSM_RDF_LOG_H

#include <stdbool.h>
#include <stddef.h>

enum log_level { LOG_ERROR, LOG_WARN, LOG_INFO, LOG_DEBUG };

/* An event's own field: text (NULL: JSON null), or a number. */
typedef struct log_field {
    const char *key;
    const char *text;
    double number;
    bool is_number;
} log_field;

#define LOG_TEXT(key, value) ((log_field){(key), (value), 0, false})
#define LOG_NUMBER(key, value) ((log_field){(key), NULL, (double)(value), true})
/* The fields argument pair of log_event: LOG_FIELDS(LOG_TEXT("url", u), LOG_NUMBER("status", s)). */
#define LOG_FIELDS(...) (const log_field[]){__VA_ARGS__}, sizeof((const log_field[]){__VA_ARGS__}) / sizeof(log_field)
#define LOG_NO_FIELDS NULL, 0

typedef struct log_record {
    enum log_level level;
    const char *event;    /* a stable name (held, waiting, request, ...); "message" for a line without one */
    const char *instance; /* the instance or resource the line is about, or NULL */
    const char *message;  /* the line as the text form prints it */
    const log_field *fields;
    size_t field_count;
} log_record;

typedef struct log_sink {
    void (*write)(void *user, enum log_level level, const char *message);
    void *user;
    enum log_level threshold; /* messages above this level are dropped */
    void (*write_record)(void *user, const log_record *record); /* when set, takes every line instead of write */
} log_sink;

/* The level's name in a line: error, warning, info, debug. */
const char *log_level_name(enum log_level level);

/* printf-style logging through a sink; sink may be NULL (stderr, LOG_INFO threshold). The event is
 * "message". */
void log_msg(const log_sink *sink, enum log_level level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The same, for a line a person or a program looks for: its event name, the instance it is about (or
 * NULL) and its fields (LOG_FIELDS, or LOG_NO_FIELDS). */
void log_event(const log_sink *sink, enum log_level level, const char *event, const char *instance,
               const log_field *fields, size_t field_count, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));

#endif
