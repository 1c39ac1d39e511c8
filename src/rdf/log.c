/* log.c: formats a message and hands it to the sink (stderr when none is given). */
#include "rdf/log.h"

#include <stdarg.h>
#include <stdio.h>

static const char *const level_names[] = {"error", "warning", "info", "debug"};

void log_msg(const log_sink *sink, enum log_level level, const char *fmt, ...) {
    enum log_level threshold = sink ? sink->threshold : LOG_INFO;
    if (level > threshold)
        return;
    char message[2048];
    va_list args;
    va_start(args, fmt);
    vsnprintf(message, sizeof message, fmt, args);
    va_end(args);
    if (sink && sink->write)
        sink->write(sink->user, level, message);
    else
        fprintf(stderr, "ldgsm: %s: %s\n", level_names[level], message);
}
