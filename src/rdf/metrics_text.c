/* metrics_text.c: counters, gauges, histograms and their Prometheus text (metrics_text.h). */
#include "rdf/metrics_text.h"

#include <stdio.h>
#include <string.h>

const double metric_bucket_bounds[METRIC_BUCKETS] = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1,
                                                     0.25,  0.5,    1,     2.5,  5,     10,   30};

void metric_observe(metric_histogram *h, double seconds) {
    size_t i = 0;
    while (i < METRIC_BUCKETS && seconds > metric_bucket_bounds[i])
        i++;
    metric_add(&h->buckets[i], 1);
    metric_add(&h->sum_us, seconds > 0 ? (uint64_t)(seconds * 1e6 + 0.5) : 0);
}

void metrics_text_family(buf *out, const char *name, const char *type, const char *help) {
    buf_printf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void put_labels(buf *out, const char *const *labels, const char *le) {
    if (!(labels && labels[0]) && !le)
        return;
    buf_putc(out, '{');
    size_t n = 0;
    for (; labels && labels[n]; n += 2) {
        buf_printf(out, "%s%s=\"", n ? "," : "", labels[n]);
        for (const char *c = labels[n + 1]; *c; c++)
            if (*c == '\\' || *c == '"')
                buf_printf(out, "\\%c", *c);
            else if (*c == '\n')
                buf_puts(out, "\\n");
            else
                buf_putc(out, *c);
        buf_putc(out, '"');
    }
    if (le)
        buf_printf(out, "%sle=\"%s\"", n ? "," : "", le);
    buf_putc(out, '}');
}

void metrics_text_single(buf *out, const char *name, const char *type, const char *help, uint64_t value) {
    metrics_text_family(out, name, type, help);
    metrics_text_sample(out, name, value, NULL);
}

void metrics_text_sample(buf *out, const char *name, uint64_t value, const char *const *labels) {
    buf_puts(out, name);
    put_labels(out, labels, NULL);
    buf_printf(out, " %llu\n", (unsigned long long)value);
}

void metrics_text_histogram(buf *out, const char *name, const metric_histogram *h, const char *const *labels) {
    uint64_t cumulative = 0;
    for (size_t i = 0; i <= METRIC_BUCKETS; i++) {
        cumulative += metric_get(&h->buckets[i]);
        char le[32];
        if (i < METRIC_BUCKETS)
            snprintf(le, sizeof le, "%g", metric_bucket_bounds[i]);
        else
            strcpy(le, "+Inf");
        buf_printf(out, "%s_bucket", name);
        put_labels(out, labels, le);
        buf_printf(out, " %llu\n", (unsigned long long)cumulative);
    }
    buf_printf(out, "%s_sum", name);
    put_labels(out, labels, NULL);
    buf_printf(out, " %.6f\n", metric_get(&h->sum_us) / 1e6);
    buf_printf(out, "%s_count", name);
    put_labels(out, labels, NULL);
    buf_printf(out, " %llu\n", (unsigned long long)cumulative); /* the buckets' sum: +Inf's, as read */
}
