/* ldp_media.c: the server's media types and Accept negotiation (RFC 9110 section 12.5.1: each type
 * takes the quality of the most specific media range matching it). */
#include "ldp/ldp_media.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* served: offered as a representation. */
static const struct {
    const char *type;
    enum rdf_syntax syntax;
    bool served;
} media_table[LDP_MEDIA_COUNT] = {
    [LDP_MEDIA_TURTLE] = {"text/turtle", RDF_TURTLE, true},
    [LDP_MEDIA_NTRIPLES] = {"application/n-triples", RDF_NTRIPLES, true},
    [LDP_MEDIA_RDFXML] = {"application/rdf+xml", RDF_RDFXML, true},
};

const char *ldp_media_type(enum ldp_media media) { return media_table[media].type; }

enum rdf_syntax ldp_media_syntax(enum ldp_media media) { return media_table[media].syntax; }

static bool is_space(char c) { return c == ' ' || c == '\t'; }

/* Trims [*start, *end) of spaces. */
static void trim(const char **start, const char **end) {
    while (*start < *end && is_space(**start))
        (*start)++;
    while (*end > *start && is_space((*end)[-1]))
        (*end)--;
}

static bool span_equals(const char *start, const char *end, const char *s) {
    size_t n = strlen(s);
    return (size_t)(end - start) == n && strncasecmp(start, s, n) == 0;
}

bool ldp_media_type_is(const char *content_type, const char *type) {
    if (!content_type)
        return false;
    const char *start = content_type, *end = content_type + strcspn(content_type, ";");
    trim(&start, &end);
    return span_equals(start, end, type);
}

int ldp_media_from_content_type(const char *content_type) {
    if (!content_type)
        return -1;
    const char *start = content_type, *end = content_type + strcspn(content_type, ";");
    trim(&start, &end);
    for (int m = 0; m < LDP_MEDIA_COUNT; m++)
        if (span_equals(start, end, media_table[m].type))
            return m;
    if (span_equals(start, end, "application/x-turtle") || span_equals(start, end, "application/turtle"))
        return LDP_MEDIA_TURTLE;
    return -1;
}

/* How specifically the range [start, end) matches a type: 3 exact, 2 type/ *, 1 * / *, 0 not. */
static int match_specificity(const char *start, const char *end, const char *type) {
    if (span_equals(start, end, type))
        return 3;
    if (span_equals(start, end, "*/*"))
        return 1;
    size_t major = strcspn(type, "/");
    if ((size_t)(end - start) == major + 2 && strncasecmp(start, type, major + 1) == 0 && end[-1] == '*')
        return 2;
    return 0;
}

/* The q parameter among the parameters [params, end) (1 when absent, clamped to [0, 1]). */
static double quality(const char *params, const char *end) {
    double q = 1.0;
    const char *p = params;
    while (p < end) {
        const char *next = memchr(p, ';', (size_t)(end - p));
        const char *param_end = next ? next : end;
        const char *name = p, *name_end = memchr(p, '=', (size_t)(param_end - p));
        if (name_end) {
            const char *value = name_end + 1;
            trim(&name, &name_end);
            if (span_equals(name, name_end, "q")) {
                char number[16] = {0};
                size_t n = (size_t)(param_end - value);
                memcpy(number, value, n < sizeof number - 1 ? n : sizeof number - 1);
                q = strtod(number, NULL);
            }
        }
        p = next ? next + 1 : end;
    }
    return q < 0 ? 0 : q > 1 ? 1 : q;
}

int ldp_media_negotiate(const char *accept) {
    if (!accept || !*accept)
        return LDP_MEDIA_TURTLE;
    double q[LDP_MEDIA_COUNT];
    int specificity[LDP_MEDIA_COUNT] = {0};
    for (int m = 0; m < LDP_MEDIA_COUNT; m++)
        q[m] = 0;
    const char *p = accept;
    while (*p) {
        const char *range_end = p + strcspn(p, ",");
        const char *type_end = memchr(p, ';', (size_t)(range_end - p));
        const char *start = p, *end = type_end ? type_end : range_end;
        trim(&start, &end);
        double range_q = type_end ? quality(type_end + 1, range_end) : 1.0;
        for (int m = 0; m < LDP_MEDIA_COUNT; m++) {
            int s = match_specificity(start, end, media_table[m].type);
            if (s > specificity[m]) {
                specificity[m] = s;
                q[m] = range_q;
            }
        }
        p = *range_end ? range_end + 1 : range_end;
    }
    int best = -1;
    for (int m = 0; m < LDP_MEDIA_COUNT; m++)
        if (media_table[m].served && q[m] > 0 && (best < 0 || q[m] > q[best]))
            best = m;
    return best;
}
