/* xsd_time.h: xsd:dateTime and the XSD duration types as values for the math: and time: builtins:
 * reading and checking lexical forms, calendar and duration arithmetic (XPath's operators), order, and
 * the output forms.
 *
 * NOTES ON THE DESIGN
 *  1. A dateTime is an instant, int64 milliseconds since 1970-01-01T00:00:00Z, with the timezone offset
 *     it was written with (calendar arithmetic and the time: fields work in that offset). A dateTime
 *     without a timezone is taken as UTC: XPath leaves the implicit timezone to the implementation, and
 *     a fixed one keeps a rule's results independent of where the agent runs.
 *  2. Range: years 0000 to 9999 of the proleptic Gregorian calendar (XSD 1.1: year 0000 is 1 BCE),
 *     written with exactly four digits and no sign; every dateTime read or computed lies within
 *     0000-01-01T00:00:00.000Z .. 9999-12-31T23:59:59.999Z. A form or result outside is no value.
 *  3. Every field is checked: month 01-12, day within its month (Feb 29 in leap years only), hour 00-23
 *     or 24:00:00 (the next day's midnight, as XSD allows), minute and second 00-59, timezone "Z" or
 *     +hh:mm / -hh:mm up to 14:00. Seconds take any number of fraction digits; digits beyond the
 *     millisecond are truncated toward zero (in durations as well: -PT0.0019S is -1 ms).
 *  4. A duration is (months, milliseconds), both carrying its sign. Kinds: dayTimeDuration (no months),
 *     yearMonthDuration (no milliseconds), and the general xsd:duration with both; an xsd:duration
 *     literal with one kind of component only ("PT5S"^^xsd:duration) is a value of that kind. The form is
 *     XSD 1.1's: -? P nY nM nD (T nH nM n.nS)?, components in that order, at least one, at least one
 *     after T, a fraction on seconds only, each type's own components only ("P1M" is no
 *     dayTimeDuration). A total beyond 64 bits is no value.
 *  5. Order: dateTimes by instant; two dayTimeDurations by length, two yearMonthDurations by months;
 *     any two durations are equal when both months and milliseconds are (P1Y = P12M, PT0S = P0M), and
 *     otherwise a pair of different kinds is unordered (P1M and P30D: only "not equal" holds).
 *  6. Arithmetic, as XPath's + and - (folded left by math:sum): months are added to a dateTime on its
 *     local calendar fields, the day clamped to the end of the month (Jan 31 + P1M is Feb 28, or Feb 29
 *     in a leap year), then milliseconds are added; a general duration adds its months first. Durations
 *     add within one kind. A dayTime or yearMonth duration times or divided by a number is rounded to
 *     the millisecond or the month as fn:round rounds (a half up); two of one kind divide to an
 *     xsd:decimal.
 *  7. Output: a dateTime always in UTC, fixed width, with milliseconds, "YYYY-MM-DDThh:mm:ss.sssZ" (the
 *     agent's clock form, so lexical order is time order); durations in XSD canonical form:
 *     dayTimeDuration "PT0S", "PT1.5S", "PT1M30S", "P1DT2H", "-PT5S" (days never become months),
 *     yearMonthDuration "P1Y2M", "P0M". A timezone is "Z" for a zero offset, else "+05:30". */
#ifndef LDGSM_REASON_XSD_TIME_H
#define LDGSM_REASON_XSD_TIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rdf/term.h"
#include "reason/numeric.h"

enum xsd_time_kind { XSD_DATETIME, XSD_DAYTIME_DURATION, XSD_YEARMONTH_DURATION, XSD_DURATION };

typedef struct xsd_time {
    enum xsd_time_kind kind;
    int64_t ms;       /* a dateTime's instant since the epoch; a duration's milliseconds */
    int64_t months;   /* a duration's months; 0 for a dateTime */
    int zone_minutes; /* a dateTime's offset east of UTC (0 for "Z" and for none) */
    bool has_zone;
} xsd_time;

/* The calendar fields of a dateTime in its own offset (time:year .. time:second). */
enum xsd_field { XSD_YEAR, XSD_MONTH, XSD_DAY, XSD_HOUR, XSD_MINUTE, XSD_SECOND, XSD_MILLISECOND, XSD_FIELDS };

#define XSD_ZONE_TEXT 16 /* "+hh:mm", with room for what snprintf cannot rule out for an int */

/* A lexical form (NOTES 2-4); false when it is malformed or out of range. `type` is the datatype read:
 * XSD_DURATION admits every component, the two others their own. */
bool xsd_datetime_parse(const char *text, size_t len, xsd_time *out);
bool xsd_duration_parse(const char *text, size_t len, enum xsd_time_kind type, xsd_time *out);

/* A literal typed xsd:dateTime, xsd:duration, xsd:dayTimeDuration or xsd:yearMonthDuration with a valid
 * form; false for anything else. */
bool xsd_time_from_term(const terms *t, term_id id, xsd_time *out);
/* The literal in its output form (NOTES 7), typed by its kind. */
term_id xsd_time_to_term(terms *t, const xsd_time *value);

/* The order of a to b (NOTES 5); false when they cannot be compared (a dateTime and a duration). */
bool xsd_time_compare(const xsd_time *a, const xsd_time *b, enum number_order *order);

/* a + b (dateTime + duration either way round, or two durations of one kind) and a - b (dateTime -
 * dateTime is a dayTimeDuration, dateTime - duration, duration - duration of one kind). False when the
 * operation is not defined for the kinds or the result is out of range. */
bool xsd_time_add(const xsd_time *a, const xsd_time *b, xsd_time *out);
bool xsd_time_subtract(const xsd_time *a, const xsd_time *b, xsd_time *out);
/* A dayTime or yearMonth duration times `factor`, or with `divide` divided by it (NOTES 6). */
bool xsd_duration_scale(const xsd_time *duration, const number *factor, bool divide, xsd_time *out);
/* a / b for two durations of one kind, as an xsd:decimal; false when b is zero. */
bool xsd_duration_ratio(const xsd_time *a, const xsd_time *b, number *out);

void xsd_datetime_fields(const xsd_time *datetime, int fields[XSD_FIELDS]);
/* The dateTime's timezone ("Z" or "-05:00"); false when it was written without one. */
bool xsd_datetime_zone(const xsd_time *datetime, char text[XSD_ZONE_TEXT]);
/* A dateTime's seconds since 1970-01-01T00:00:00Z or a dayTimeDuration's seconds, as an xsd:decimal;
 * false for other kinds. */
bool xsd_time_seconds(const xsd_time *value, number *out);
/* The dateTime (UTC) that many seconds after the epoch, rounded to the millisecond as fn:round does. */
bool xsd_datetime_from_seconds(const number *seconds, xsd_time *out);

#endif
