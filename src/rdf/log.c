/* log.c: formats a message and hands it to the sink (stderr when none is given). */
#include "rdf/log.h"

#include <stdarg.h>
#include <stdio.h>

static const char *const level_names[] = {"error", "warning", "info", "debug"};

const char *log_level_name(enum log_level level) {
    return level_names[level];
}

static void vlog(const log_sink *sink, enum log_level level, const char *event, const char *instance,
                 const log_field *fields, size_t field_count, const char *fmt, va_list args) {
    enum log_level threshold = sink ? sink->threshold : LOG_INFO;
    if (level > threshold)
        return;
    char message[2048];
    vsnprintf(message, sizeof message, fmt, args);
    const log_record record = {level, event, instance, message, fields, field_count};
    if (sink && sink->write_record)
        sink->write_record(sink->user, &record);
    else if (sink && sink->write)
        sink->write(sink->user, level, message);
    else
        fprintf(stderr, "ldgsm: %s: %s\n", level_names[level], message);
}

void log_msg(const log_sink *sink, enum log_level level, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    vlog(sink, level, "message", NULL, NULL, 0, fmt, args);
    va_end(args);
}

void log_event(const log_sink *sink, enum log_level level, const char *event, const char *instance,
               const log_field *fields, size_t field_count, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    vlog(sink, level, event, instance, fields, field_count, fmt, args);
    va_end(args);
}
