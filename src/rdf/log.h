/* log.h: the log sink passed down through every layer (no global logger).
 * A sink is a callback plus its user data; a NULL callback writes to stderr. */
#ifndef LDGSM_RDF_LOG_H
#define LDGSM_RDF_LOG_H

enum log_level { LOG_ERROR, LOG_WARN, LOG_INFO, LOG_DEBUG };

typedef struct log_sink {
    void (*write)(void *user, enum log_level level, const char *message);
    void *user;
    enum log_level threshold; /* messages above this level are dropped */
} log_sink;

/* printf-style logging through a sink; sink may be NULL (stderr, LOG_INFO threshold). */
void log_msg(const log_sink *sink, enum log_level level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
