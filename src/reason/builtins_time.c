/* builtins_time.c: the time: builtins of the N3 builtins report, on a dateTime subject.
 *
 * NOTES ON THE DESIGN
 *  1. year, month, day, hour, minute, second are the integer fields as written, in the dateTime's own
 *     timezone (dayOfWeek: of the date as written, Sunday 0); timeZone is "Z" or "-05:00" (none for a
 *     dateTime without one); inSeconds is seconds since the epoch as an xsd:decimal, or a
 *     dayTimeDuration's seconds; with only the object bound, the dateTime of that many seconds.
 *  2. There is deliberately no time:currentTime, localTime or gmTime: the agent's clock triple is the
 *     only time a rule sees, so a run's result depends on its input alone. */
#include "reason/builtin_family.h"

#include "reason/numeric.h"
#include "reason/xsd_time.h"


/* The fields of a dateTime subject as written; false for anything else. */
static bool datetime_fields(const terms *t, term_id subject, int fields[XSD_FIELDS]) {
    xsd_time datetime;
    if (!subject || !xsd_time_from_term(t, subject, &datetime) || datetime.kind != XSD_DATETIME)
        return false;
    xsd_datetime_fields(&datetime, fields);
    return true;
}

/* One calendar field of a dateTime (NOTES 1), an xsd:integer. */
static void time_field(terms *t, term_id subject, term_id object, enum xsd_field field, builtin_emit emit,
                       void *user) {
    int fields[XSD_FIELDS];
    if (!datetime_fields(t, subject, fields))
        return;
    number value = number_integer(fields[field]);
    emit_number(t, subject, object, &value, emit, user);
}

BUILTIN_VARIANT(time_year, time_field, XSD_YEAR)
BUILTIN_VARIANT(time_month, time_field, XSD_MONTH)
BUILTIN_VARIANT(time_day, time_field, XSD_DAY)

/* The day of the week of a dateTime's date as written, Sunday 0 (the N3 time vocabulary), by Sakamoto's
 * method over the proleptic Gregorian calendar. */
static void time_day_of_week(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    static const int month_offset[12] = {0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4};
    int fields[XSD_FIELDS];
    if (!datetime_fields(t, subject, fields))
        return;
    long long year = fields[XSD_YEAR] - (fields[XSD_MONTH] < 3);
    long long days = year + year / 4 - year / 100 + year / 400 + month_offset[fields[XSD_MONTH] - 1] + fields[XSD_DAY];
    number value = number_integer((int64_t)(((days % 7) + 7) % 7));
    emit_number(t, subject, object, &value, emit, user);
}

BUILTIN_VARIANT(time_hour, time_field, XSD_HOUR)
BUILTIN_VARIANT(time_minute, time_field, XSD_MINUTE)
BUILTIN_VARIANT(time_second, time_field, XSD_SECOND)

static void time_time_zone(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    xsd_time datetime;
    char zone[XSD_ZONE_TEXT];
    if (subject && xsd_time_from_term(t, subject, &datetime) && datetime.kind == XSD_DATETIME &&
        xsd_datetime_zone(&datetime, zone))
        emit_result(subject, object, terms_string(t, zone), emit, user);
}

static void time_in_seconds(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    xsd_time value;
    number seconds = {0};
    if (subject) {
        if (xsd_time_from_term(t, subject, &value) && xsd_time_seconds(&value, &seconds))
            emit_number(t, subject, object, &seconds, emit, user);
    } else if (number_from_term(t, object, &seconds) && xsd_datetime_from_seconds(&seconds, &value)) {
        emit(user, xsd_time_to_term(t, &value), object);
    }
    number_clear(&seconds);
}

const builtin builtins_time[] = {
    {NS_TIME "year", BUILTIN_SUBJECT_IN, time_year, false},
    {NS_TIME "month", BUILTIN_SUBJECT_IN, time_month, false},
    {NS_TIME "day", BUILTIN_SUBJECT_IN, time_day, false},
    {NS_TIME "dayOfWeek", BUILTIN_SUBJECT_IN, time_day_of_week, false},
    {NS_TIME "hour", BUILTIN_SUBJECT_IN, time_hour, false},
    {NS_TIME "minute", BUILTIN_SUBJECT_IN, time_minute, false},
    {NS_TIME "second", BUILTIN_SUBJECT_IN, time_second, false},
    {NS_TIME "timeZone", BUILTIN_SUBJECT_IN, time_time_zone, false},
    {NS_TIME "inSeconds", BUILTIN_EITHER_IN, time_in_seconds, false},
};
const size_t builtins_time_count = sizeof builtins_time / sizeof builtins_time[0];
