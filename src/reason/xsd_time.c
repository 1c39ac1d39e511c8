/* xsd_time.c: xsd:dateTime and duration values (see xsd_time.h for the range, the checks, the order, the
 * arithmetic and the output forms). Days are counted from the epoch in the proleptic Gregorian calendar
 * with the 400-year-era method: shifting the year to start in March puts the leap day last, so a day's
 * place in its era follows from a few divisions. Every sum and product of 64-bit values is checked
 * (GCC and Clang's __builtin_*_overflow). */
#include "reason/xsd_time.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define MS_PER_SECOND 1000LL
#define MS_PER_MINUTE (60 * MS_PER_SECOND)
#define MS_PER_HOUR (60 * MS_PER_MINUTE)
#define MS_PER_DAY (24 * MS_PER_HOUR)
#define MAX_YEAR 9999
#define MAX_ZONE_MINUTES (14 * 60)

/* ---- the calendar ---- */

static bool is_leap_year(int64_t year) { return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0); }

static int days_in_month(int64_t year, int month) {
    static const int DAYS[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return month == 2 && is_leap_year(year) ? 29 : DAYS[month - 1];
}

/* floor(a / b) and its remainder in [0, b), for b > 0. */
static int64_t floor_div(int64_t a, int64_t b) { return a / b - (a % b != 0 && a < 0); }
static int64_t floor_mod(int64_t a, int64_t b) { return a - floor_div(a, b) * b; }

/* Days from 1970-01-01 to year-month-day. */
static int64_t days_from_civil(int64_t year, int month, int day) {
    int64_t y = month <= 2 ? year - 1 : year; /* the year from March: Jan and Feb belong to the one before */
    int64_t era = floor_div(y, 400);
    int64_t year_of_era = y - era * 400;                                                 /* 0 .. 399 */
    int64_t day_of_year = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1; /* from March 1 */
    int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    return era * 146097 + day_of_era - 719468; /* 719468: days from 0000-03-01 to 1970-01-01 */
}

static void civil_from_days(int64_t days, int64_t *year, int *month, int *day) {
    int64_t shifted = days + 719468;
    int64_t era = floor_div(shifted, 146097);
    int64_t day_of_era = shifted - era * 146097; /* 0 .. 146096 */
    int64_t year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
    int64_t day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    int64_t month_from_march = (5 * day_of_year + 2) / 153;
    *day = (int)(day_of_year - (153 * month_from_march + 2) / 5 + 1);
    *month = (int)(month_from_march < 10 ? month_from_march + 3 : month_from_march - 9);
    *year = era * 400 + year_of_era + (*month <= 2);
}

static bool instant_in_range(int64_t ms) {
    return ms >= days_from_civil(0, 1, 1) * MS_PER_DAY && ms < days_from_civil(MAX_YEAR + 1, 1, 1) * MS_PER_DAY;
}

/* ---- reading ---- */

/* Exactly n ASCII digits at text[*at], advancing *at. */
static bool fixed_digits(const char *text, size_t len, size_t *at, int n, int *value) {
    *value = 0;
    for (int i = 0; i < n; i++, (*at)++) {
        if (*at >= len || text[*at] < '0' || text[*at] > '9')
            return false;
        *value = *value * 10 + (text[*at] - '0');
    }
    return true;
}

static bool expect(const char *text, size_t len, size_t *at, char c) {
    if (*at >= len || text[*at] != c)
        return false;
    (*at)++;
    return true;
}

typedef struct fraction {
    bool present, has_digits, is_zero;
    int ms; /* the first three digits; the rest are truncated */
} fraction;

/* "." and fraction digits at text[*at], if there. */
static fraction read_fraction(const char *text, size_t len, size_t *at) {
    fraction f = {.is_zero = true};
    if (*at >= len || text[*at] != '.')
        return f;
    f.present = true;
    int digits = 0;
    for ((*at)++; *at < len && text[*at] >= '0' && text[*at] <= '9'; (*at)++, digits++) {
        if (digits < 3)
            f.ms = f.ms * 10 + (text[*at] - '0');
        f.is_zero &= text[*at] == '0';
    }
    for (int i = digits; i < 3; i++)
        f.ms *= 10;
    f.has_digits = digits > 0;
    return f;
}

/* The timezone at text[*at]: "Z", "+hh:mm", "-hh:mm" or nothing. */
static bool read_zone(const char *text, size_t len, size_t *at, xsd_time *out) {
    out->has_zone = *at < len;
    out->zone_minutes = 0;
    if (!out->has_zone || expect(text, len, at, 'Z'))
        return true;
    int sign = text[*at] == '-' ? -1 : 1, hours, minutes;
    if (text[*at] != '+' && text[*at] != '-')
        return false;
    (*at)++;
    if (!fixed_digits(text, len, at, 2, &hours) || !expect(text, len, at, ':') ||
        !fixed_digits(text, len, at, 2, &minutes) || minutes > 59 || hours * 60 + minutes > MAX_ZONE_MINUTES)
        return false;
    out->zone_minutes = sign * (hours * 60 + minutes);
    return true;
}

bool xsd_datetime_parse(const char *text, size_t len, xsd_time *out) {
    size_t at = 0;
    int year, month, day, hour, minute, second;
    if (!fixed_digits(text, len, &at, 4, &year) || !expect(text, len, &at, '-') ||
        !fixed_digits(text, len, &at, 2, &month) || !expect(text, len, &at, '-') ||
        !fixed_digits(text, len, &at, 2, &day) || !expect(text, len, &at, 'T') ||
        !fixed_digits(text, len, &at, 2, &hour) || !expect(text, len, &at, ':') ||
        !fixed_digits(text, len, &at, 2, &minute) || !expect(text, len, &at, ':') ||
        !fixed_digits(text, len, &at, 2, &second))
        return false;
    fraction f = read_fraction(text, len, &at);
    xsd_time value = {.kind = XSD_DATETIME};
    if ((f.present && !f.has_digits) || !read_zone(text, len, &at, &value) || at != len)
        return false;
    if (month < 1 || month > 12 || day < 1 || day > days_in_month(year, month) || minute > 59 || second > 59)
        return false;
    if (hour > 24 || (hour == 24 && (minute != 0 || second != 0 || !f.is_zero)))
        return false;
    int64_t local = days_from_civil(year, month, day) * MS_PER_DAY + hour * MS_PER_HOUR + minute * MS_PER_MINUTE +
                    second * MS_PER_SECOND + f.ms;
    value.ms = local - value.zone_minutes * MS_PER_MINUTE;
    if (!instant_in_range(value.ms))
        return false;
    *out = value;
    return true;
}

/* The components of a duration in their order, Y M D before T and H M S after it. */
enum duration_unit { UNIT_YEAR, UNIT_MONTH, UNIT_DAY, UNIT_HOUR, UNIT_MINUTE, UNIT_SECOND };

static int unit_of(char designator, bool in_time) {
    const char *units = in_time ? "HMS" : "YMD";
    const char *found = strchr(units, designator);
    return designator && found ? (int)(found - units) + (in_time ? UNIT_HOUR : UNIT_YEAR) : -1;
}

/* acc += value * scale, false on overflow. */
static bool accumulate(int64_t *acc, int64_t value, int64_t scale) {
    int64_t part;
    return !__builtin_mul_overflow(value, scale, &part) && !__builtin_add_overflow(*acc, part, acc);
}

bool xsd_duration_parse(const char *text, size_t len, enum xsd_time_kind type, xsd_time *out) {
    static const int64_t UNIT_MS[] = {0, 0, MS_PER_DAY, MS_PER_HOUR, MS_PER_MINUTE, MS_PER_SECOND};
    bool negative = len > 0 && text[0] == '-';
    size_t at = negative ? 1 : 0;
    if (!expect(text, len, &at, 'P'))
        return false;
    int64_t months = 0, ms = 0;
    int last = -1;
    bool in_time = false;
    while (at < len) {
        if (text[at] == 'T') {
            if (in_time)
                return false;
            in_time = true;
            at++;
            continue;
        }
        int64_t value = 0;
        size_t digits_at = at;
        for (; at < len && text[at] >= '0' && text[at] <= '9'; at++)
            if (__builtin_mul_overflow(value, 10, &value) || __builtin_add_overflow(value, text[at] - '0', &value))
                return false;
        bool has_digits = at > digits_at;
        fraction f = read_fraction(text, len, &at);
        if (!has_digits && !f.has_digits) /* "1.", ".5" and "1.5" are seconds (XSD 1.1); "." is nothing */
            return false;
        int unit = unit_of(at < len ? text[at] : '\0', in_time);
        if (unit <= last || (f.present && unit != UNIT_SECOND))
            return false;
        at++;
        last = unit;
        if ((type == XSD_DAYTIME_DURATION && unit <= UNIT_MONTH) ||
            (type == XSD_YEARMONTH_DURATION && unit > UNIT_MONTH))
            return false;
        bool fits = unit == UNIT_YEAR    ? accumulate(&months, value, 12)
                    : unit == UNIT_MONTH ? accumulate(&months, value, 1)
                                         : accumulate(&ms, value, UNIT_MS[unit]) && accumulate(&ms, f.ms, 1);
        if (!fits)
            return false;
    }
    if (last < 0 || (in_time && last < UNIT_HOUR))
        return false;
    out->kind = months == 0 ? XSD_DAYTIME_DURATION : ms == 0 ? XSD_YEARMONTH_DURATION : XSD_DURATION;
    if (type != XSD_DURATION)
        out->kind = type;
    out->months = negative ? -months : months;
    out->ms = negative ? -ms : ms;
    out->zone_minutes = 0;
    out->has_zone = false;
    return true;
}

static const char *const KIND_DATATYPES[] = {
    [XSD_DATETIME] = XSD_dateTime,
    [XSD_DAYTIME_DURATION] = XSD_dayTimeDuration,
    [XSD_YEARMONTH_DURATION] = XSD_yearMonthDuration,
    [XSD_DURATION] = XSD_duration,
};

bool xsd_time_from_term(const terms *t, term_id id, xsd_time *out) {
    if (terms_kind(t, id) != TERM_LITERAL || terms_lang(t, id) || terms_datatype(t, id) == 0)
        return false;
    size_t len;
    const char *text = terms_lex(t, id, &len);
    if (terms_datatype(t, id) == T_XSD_DATETIME)
        return xsd_datetime_parse(text, len, out);
    const char *datatype = terms_lex(t, terms_datatype(t, id), NULL);
    for (enum xsd_time_kind kind = XSD_DAYTIME_DURATION; kind <= XSD_DURATION; kind++)
        if (strcmp(datatype, KIND_DATATYPES[kind]) == 0)
            return xsd_duration_parse(text, len, kind, out);
    return false;
}

/* ---- writing ---- */

static void format_datetime(int64_t ms, char *out, size_t cap) {
    int fields[XSD_FIELDS];
    xsd_datetime_fields(&(xsd_time){.kind = XSD_DATETIME, .ms = ms}, fields);
    snprintf(out, cap, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", fields[XSD_YEAR], fields[XSD_MONTH], fields[XSD_DAY],
             fields[XSD_HOUR], fields[XSD_MINUTE], fields[XSD_SECOND], fields[XSD_MILLISECOND]);
}

/* XSD canonical: only the nonzero components, seconds without trailing fraction zeros. */
static void format_duration(const xsd_time *d, char *out, size_t cap) {
    uint64_t months = int64_magnitude(d->months), ms = int64_magnitude(d->ms);
    size_t n = (size_t)snprintf(out, cap, "%sP", d->months < 0 || d->ms < 0 ? "-" : "");
#define PUT(...) n += (size_t)snprintf(out + n, n < cap ? cap - n : 0, __VA_ARGS__)
    if (months == 0 && ms == 0) {
        PUT(d->kind == XSD_YEARMONTH_DURATION ? "0M" : "T0S");
        return;
    }
    if (months / 12)
        PUT("%" PRIu64 "Y", months / 12);
    if (months % 12)
        PUT("%" PRIu64 "M", months % 12);
    uint64_t days = ms / MS_PER_DAY, hours = ms / MS_PER_HOUR % 24, minutes = ms / MS_PER_MINUTE % 60;
    uint64_t seconds = ms / MS_PER_SECOND % 60, millis = ms % MS_PER_SECOND;
    if (days)
        PUT("%" PRIu64 "D", days);
    if (ms % MS_PER_DAY)
        PUT("T");
    if (hours)
        PUT("%" PRIu64 "H", hours);
    if (minutes)
        PUT("%" PRIu64 "M", minutes);
    if (millis) {
        char fraction[4];
        snprintf(fraction, sizeof fraction, "%03" PRIu64, millis);
        int digits = fraction[2] != '0' ? 3 : fraction[1] != '0' ? 2 : 1;
        PUT("%" PRIu64 ".%.*sS", seconds, digits, fraction);
    } else if (seconds) {
        PUT("%" PRIu64 "S", seconds);
    }
#undef PUT
}

term_id xsd_time_to_term(terms *t, const xsd_time *value) {
    char text[64];
    if (value->kind == XSD_DATETIME)
        format_datetime(value->ms, text, sizeof text);
    else
        format_duration(value, text, sizeof text);
    term_id datatype = value->kind == XSD_DATETIME ? T_XSD_DATETIME : terms_iri_cstr(t, KIND_DATATYPES[value->kind]);
    return terms_literal(t, text, strlen(text), datatype, NULL, 0);
}

void xsd_datetime_fields(const xsd_time *datetime, int fields[XSD_FIELDS]) {
    int64_t local = datetime->ms + datetime->zone_minutes * MS_PER_MINUTE;
    int64_t year, of_day = floor_mod(local, MS_PER_DAY);
    civil_from_days(floor_div(local, MS_PER_DAY), &year, &fields[XSD_MONTH], &fields[XSD_DAY]);
    fields[XSD_YEAR] = (int)year;
    fields[XSD_HOUR] = (int)(of_day / MS_PER_HOUR);
    fields[XSD_MINUTE] = (int)(of_day / MS_PER_MINUTE % 60);
    fields[XSD_SECOND] = (int)(of_day / MS_PER_SECOND % 60);
    fields[XSD_MILLISECOND] = (int)(of_day % MS_PER_SECOND);
}

bool xsd_datetime_zone(const xsd_time *datetime, char text[XSD_ZONE_TEXT]) {
    if (!datetime->has_zone)
        return false;
    int minutes = datetime->zone_minutes < 0 ? -datetime->zone_minutes : datetime->zone_minutes;
    if (minutes == 0)
        snprintf(text, XSD_ZONE_TEXT, "Z");
    else
        snprintf(text, XSD_ZONE_TEXT, "%c%02d:%02d", datetime->zone_minutes < 0 ? '-' : '+', minutes / 60,
                 minutes % 60);
    return true;
}

/* ---- order ---- */

static enum number_order order_of(int64_t a, int64_t b) {
    return a < b ? NUMBER_LESS : a > b ? NUMBER_GREATER : NUMBER_EQUAL;
}

static bool is_duration(const xsd_time *v) { return v->kind != XSD_DATETIME; }

bool xsd_time_compare(const xsd_time *a, const xsd_time *b, enum number_order *order) {
    if (is_duration(a) != is_duration(b))
        return false;
    if (!is_duration(a) || (a->kind == XSD_DAYTIME_DURATION && b->kind == XSD_DAYTIME_DURATION))
        *order = order_of(a->ms, b->ms);
    else if (a->kind == XSD_YEARMONTH_DURATION && b->kind == XSD_YEARMONTH_DURATION)
        *order = order_of(a->months, b->months);
    else
        *order = a->months == b->months && a->ms == b->ms ? NUMBER_EQUAL : NUMBER_UNORDERED;
    return true;
}

/* ---- arithmetic ---- */

static bool negate(const xsd_time *d, xsd_time *out) {
    if (d->ms == INT64_MIN || d->months == INT64_MIN)
        return false;
    *out = *d;
    out->ms = -d->ms;
    out->months = -d->months;
    return true;
}

/* Months on the local calendar fields with the day clamped, then milliseconds (NOTES 6). */
static bool add_to_datetime(const xsd_time *datetime, const xsd_time *d, xsd_time *out) {
    xsd_time result = *datetime;
    if (d->months != 0) {
        int64_t local = datetime->ms + datetime->zone_minutes * MS_PER_MINUTE, year;
        int month, day;
        civil_from_days(floor_div(local, MS_PER_DAY), &year, &month, &day);
        int64_t month_index;
        if (__builtin_add_overflow(year * 12 + (month - 1), d->months, &month_index))
            return false;
        year = floor_div(month_index, 12);
        month = (int)floor_mod(month_index, 12) + 1;
        if (year < 0 || year > MAX_YEAR)
            return false;
        if (day > days_in_month(year, month))
            day = days_in_month(year, month);
        local = days_from_civil(year, month, day) * MS_PER_DAY + floor_mod(local, MS_PER_DAY);
        result.ms = local - datetime->zone_minutes * MS_PER_MINUTE;
    }
    if (__builtin_add_overflow(result.ms, d->ms, &result.ms) || !instant_in_range(result.ms))
        return false;
    *out = result;
    return true;
}

static bool one_duration_kind(const xsd_time *a, const xsd_time *b) {
    return a->kind == b->kind && (a->kind == XSD_DAYTIME_DURATION || a->kind == XSD_YEARMONTH_DURATION);
}

bool xsd_time_add(const xsd_time *a, const xsd_time *b, xsd_time *out) {
    if (!is_duration(a) && is_duration(b))
        return add_to_datetime(a, b, out);
    if (is_duration(a) && !is_duration(b))
        return add_to_datetime(b, a, out);
    if (!one_duration_kind(a, b))
        return false;
    xsd_time sum = *a;
    if (__builtin_add_overflow(a->ms, b->ms, &sum.ms) || __builtin_add_overflow(a->months, b->months, &sum.months))
        return false;
    *out = sum;
    return true;
}

bool xsd_time_subtract(const xsd_time *a, const xsd_time *b, xsd_time *out) {
    if (!is_duration(a) && !is_duration(b)) {
        *out = (xsd_time){.kind = XSD_DAYTIME_DURATION, .ms = a->ms - b->ms}; /* both in range: no overflow */
        return true;
    }
    xsd_time negated;
    return is_duration(b) && negate(b, &negated) && xsd_time_add(a, &negated, out);
}

bool xsd_duration_scale(const xsd_time *duration, const number *factor, bool divide, xsd_time *out) {
    xsd_time result = *duration;
    bool scaled = duration->kind == XSD_DAYTIME_DURATION
                      ? number_scale_to_integer(duration->ms, factor, divide, &result.ms)
                      : duration->kind == XSD_YEARMONTH_DURATION &&
                            number_scale_to_integer(duration->months, factor, divide, &result.months);
    if (scaled)
        *out = result;
    return scaled;
}

bool xsd_duration_ratio(const xsd_time *a, const xsd_time *b, number *out) {
    if (!one_duration_kind(a, b))
        return false;
    bool in_ms = a->kind == XSD_DAYTIME_DURATION;
    number x = number_integer(in_ms ? a->ms : a->months), y = number_integer(in_ms ? b->ms : b->months);
    return number_divide(&x, &y, out);
}

bool xsd_time_seconds(const xsd_time *value, number *out) {
    if (value->kind != XSD_DATETIME && value->kind != XSD_DAYTIME_DURATION)
        return false;
    number ms = number_integer(value->ms), per_second = number_integer(MS_PER_SECOND);
    return number_divide(&ms, &per_second, out);
}

bool xsd_datetime_from_seconds(const number *seconds, xsd_time *out) {
    int64_t ms;
    if (!number_scale_to_integer(MS_PER_SECOND, seconds, false, &ms) || !instant_in_range(ms))
        return false;
    *out = (xsd_time){.kind = XSD_DATETIME, .ms = ms, .has_zone = true};
    return true;
}
