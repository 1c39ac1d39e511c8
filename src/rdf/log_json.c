/* log_json.c: log records as JSON Lines (log_json.h). */
#include "rdf/log_json.h"

#include <time.h>

#include "rdf/json_out.h"

void log_json_line(const log_record *record, buf *out) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    struct tm tm;
    gmtime_r(&now.tv_sec, &tm);
    char stamp[64];
    snprintf(stamp, sizeof stamp, "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ", tm.tm_year + 1900, tm.tm_mon + 1,
             tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, now.tv_nsec / 1000000);
    json_t *line = json_object();
    json_object_set_new(line, "time", json_string(stamp));
    json_object_set_new(line, "level", json_string(log_level_name(record->level)));
    json_object_set_new(line, "event", json_out_string(record->event));
    if (record->instance)
        json_object_set_new(line, "instance", json_out_string(record->instance));
    json_object_set_new(line, "message", json_out_string(record->message));
    for (size_t i = 0; i < record->field_count; i++) {
        const log_field *f = &record->fields[i];
        json_t *value = !f->is_number ? json_out_string(f->text)
                        : f->number == (double)(json_int_t)f->number ? json_integer((json_int_t)f->number) /* counts */
                                                                     : json_real(f->number);
        json_object_set_new(line, f->key, value);
    }
    json_out_line(line, out);
}

void log_json_write(const log_record *record, FILE *stream) {
    buf line = {0};
    log_json_line(record, &line);
    fwrite(line.data, 1, line.len, stream);
    fflush(stream);
    buf_free(&line);
}

void log_json_to_stream(void *stream, const log_record *record) {
    log_json_write(record, stream);
}
