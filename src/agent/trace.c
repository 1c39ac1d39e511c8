/* trace.c: the JSON Lines records of trace.h, one buffer per record, written whole. */
#include "agent/trace.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "http/http_url.h"
#include "rdf/strmap.h"

struct trace {
    FILE *f;
    char *path;
    bool failed; /* a write failed: reported, nothing more is written */
    const log_sink *log;
    unsigned long iteration;
    buf iteration_prefix; /* ,"iteration":N,"now":"..." of every record of the iteration */
    buf line;
    /* the plan of the iteration (trace_plan) */
    const request *requests;
    uint32_t *next_same; /* per request: the next one identical to it (its duplicate), or UINT32_MAX */
};

trace *trace_open(const char *path, const log_sink *log, char *error, size_t error_len) {
    FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
    if (!f) {
        snprintf(error, error_len, "--trace %s: %s", path, strerror(errno));
        return NULL;
    }
    trace *tr = xcalloc(1, sizeof *tr);
    tr->f = f;
    tr->path = xstrndup(path, strlen(path));
    tr->log = log;
    return tr;
}

static void write_failed(trace *tr, int error) {
    if (tr->failed)
        return;
    tr->failed = true;
    log_msg(tr->log, LOG_WARN, "--trace %s: %s; the run goes on without its trace", tr->path,
            error ? strerror(error) : "write error");
}

void trace_close(trace *tr) {
    if (!tr)
        return;
    errno = 0;
    int rc = tr->f == stdout ? fflush(tr->f) : fclose(tr->f);
    if (rc != 0)
        write_failed(tr, errno);
    free(tr->path);
    buf_free(&tr->iteration_prefix);
    free(tr->next_same);
    buf_free(&tr->line);
    free(tr);
}

/* --- one record ------------------------------------------------------------------------------------------ */

static buf *begin_record(trace *tr, const char *kind) {
    buf *b = &tr->line;
    b->len = 0;
    buf_puts(b, "{\"kind\":");
    buf_json_string(b, kind);
    buf_puts(b, tr->iteration_prefix.data);
    return b;
}

static void end_record(trace *tr) {
    buf_puts(&tr->line, "}\n");
    errno = 0;
    if (fwrite(tr->line.data, 1, tr->line.len, tr->f) != tr->line.len)
        write_failed(tr, errno);
}

/* ,"name": (without printf: formatting was most of a record's cost) */
static void field_name(buf *b, const char *name) {
    buf_puts(b, ",\"");
    buf_puts(b, name);
    buf_puts(b, "\":");
}

static void field_string(buf *b, const char *name, const char *value) {
    field_name(b, name);
    if (value)
        buf_json_string(b, value);
    else
        buf_puts(b, "null");
}

static void field_bool(buf *b, const char *name, bool value) {
    field_name(b, name);
    buf_puts(b, value ? "true" : "false");
}

/* status, failure and ms of an answer (all null when there is none) */
static void answer_fields(buf *b, const http_result *res) {
    if (res && res->failure == HTTP_FAIL_NONE)
        buf_printf(b, ",\"status\":%ld", res->status);
    else
        buf_puts(b, ",\"status\":null");
    field_string(b, "failure", res && res->failure != HTTP_FAIL_NONE ? http_failure_name(res->failure) : NULL);
    if (res)
        buf_printf(b, ",\"ms\":%.3f", res->elapsed_us / 1000.0);
    else
        buf_puts(b, ",\"ms\":null");
}

/* --- the records ----------------------------------------------------------------------------------------- */

void trace_begin_iteration(trace *tr, const char *now) {
    if (!tr)
        return;
    tr->iteration++;
    tr->iteration_prefix.len = 0;
    buf_printf(&tr->iteration_prefix, ",\"iteration\":%lu,\"now\":", tr->iteration);
    buf_json_string(&tr->iteration_prefix, now);
    buf_cstr(&tr->iteration_prefix);
}

void trace_get(trace *tr, const doc_state *doc, const http_result *res) {
    if (!tr || tr->failed)
        return;
    const char *outcome = doc->failed ? "failed" : doc->found ? "read" : doc->read ? "absent"
                          : doc->unparsable ? "unparsable" : "ignored";
    buf *b = begin_record(tr, "get");
    field_string(b, "uri", doc->resource);
    field_string(b, "rule", doc->asked_by);
    field_string(b, "outcome", outcome);
    answer_fields(b, res);
    buf_printf(b, ",\"bytes\":%zu", res->failure == HTTP_FAIL_NONE ? res->body.len : 0);
    field_string(b, "reason", res->failure != HTTP_FAIL_NONE && res->message[0] ? res->message : NULL);
    end_record(tr);
}

void trace_revalidation(trace *tr, const char *resource, const http_result *res, bool unchanged) {
    if (!tr || tr->failed)
        return;
    buf *b = begin_record(tr, "get");
    field_string(b, "uri", resource);
    field_string(b, "outcome", unchanged ? "unchanged" : "changed");
    answer_fields(b, res);
    buf_printf(b, ",\"bytes\":%zu", res->failure == HTTP_FAIL_NONE ? res->body.len : 0);
    field_string(b, "reason", res->failure != HTTP_FAIL_NONE && res->message[0] ? res->message : NULL);
    end_record(tr);
}

/* "rules": the rule of every request in sources and of every request identical to one of them, once each */
static void rules_field(trace *tr, buf *b, const size_t *sources, size_t source_count) {
    const rule **seen = NULL;
    size_t seen_count = 0;
    buf_puts(b, ",\"rules\":[");
    for (size_t s = 0; s < source_count; s++)
        for (uint32_t i = (uint32_t)sources[s]; i != UINT32_MAX; i = tr->next_same[i]) {
            const rule *r = tr->requests[i].rule;
            bool known = !r;
            for (size_t k = 0; k < seen_count && !known; k++)
                known = seen[k] == r;
            if (known)
                continue;
            seen = xrealloc(seen, (seen_count + 1) * sizeof *seen);
            seen[seen_count++] = r;
            if (seen_count > 1)
                buf_putc(b, ',');
            buf_json_string(b, r->name);
        }
    buf_putc(b, ']');
    free(seen);
}

static const char *outcome_text(enum outcome o) {
    return o == OUTCOME_CONFLICT ? "conflicting" : outcome_name(o);
}

void trace_plan(trace *tr, const plan_input *in, const plan *p) {
    if (!tr)
        return;
    tr->requests = in->requests;
    free(tr->next_same);
    tr->next_same = xmalloc((in->request_count ? in->request_count : 1) * sizeof *tr->next_same);
    strmap last_same = {0}; /* identity -> the last request of its chain */
    for (size_t i = 0; i < in->request_count; i++) {
        tr->next_same[i] = UINT32_MAX;
        if (in->requests[i].kind == REQUEST_SAFE)
            continue;
        bool inserted;
        uint32_t *last = strmap_put(&last_same, in->requests[i].detail->identity, (uint32_t)i, &inserted);
        if (!inserted) {
            tr->next_same[*last] = (uint32_t)i;
            *last = (uint32_t)i;
        }
    }
    strmap_free(&last_same);
    if (tr->failed)
        return;
    for (size_t i = 0; i < in->request_count; i++) {
        const request *r = &in->requests[i];
        enum outcome o = p->outcomes[i];
        if (r->kind == REQUEST_SAFE || o == OUTCOME_SEND || o == OUTCOME_DUPLICATE)
            continue;
        buf *b = begin_record(tr, "request");
        field_string(b, "method", r->method);
        field_string(b, "uri", r->url);
        rules_field(tr, b, &i, 1);
        field_string(b, "outcome", outcome_text(o));
        answer_fields(b, NULL);
        field_string(b, "reason", p->reasons[i]);
        term_id after_term = r->detail->after;
        field_bool(b, "task", after_term != 0);
        char *after = after_term && terms_kind(in->t, after_term) == TERM_IRI
                          ? http_url_identity(terms_lex(in->t, after_term, NULL)) : NULL;
        field_string(b, "after", after);
        free(after);
        field_bool(b, "composed", false);
        buf_puts(b, ",\"body_bytes\":null");
        end_record(tr);
    }
}

static void write_record(trace *tr, const planned_write *w, const char *outcome, const http_result *res,
                         const char *reason) {
    buf *b = begin_record(tr, "request");
    field_string(b, "method", w->method);
    field_string(b, "uri", w->url);
    rules_field(tr, b, w->sources, w->source_count);
    field_string(b, "outcome", outcome);
    answer_fields(b, res);
    field_string(b, "reason", reason);
    field_bool(b, "task", w->is_task);
    field_string(b, "after", w->after);
    field_bool(b, "composed", w->composed);
    buf_printf(b, ",\"body_bytes\":%zu", w->body.len);
    end_record(tr);
}

void trace_sent(trace *tr, const planned_write *w, const http_result *res, const char *reason) {
    if (tr && !tr->failed)
        write_record(tr, w, res->failure == HTTP_FAIL_NONE ? "sent" : "failed", res, reason);
}

void trace_unsent(trace *tr, const planned_write *w, const char *outcome, const char *reason) {
    if (tr && !tr->failed)
        write_record(tr, w, outcome, NULL, reason);
}

void trace_end_iteration(trace *tr, const iteration_stats *s, int rc) {
    if (!tr)
        return;
    free(tr->next_same);
    tr->next_same = NULL;
    tr->requests = NULL;
    if (tr->failed)
        return;
    buf *b = begin_record(tr, "iteration");
    field_string(b, "result", rc == 0 ? "done" : rc == -1 ? "held" : "fatal");
    buf_printf(b, ",\"crawl_ms\":%.3f,\"sentries_ms\":%.3f,\"later_rules_ms\":%.3f,\"plan_ms\":%.3f,"
               "\"send_ms\":%.3f,\"total_ms\":%.3f", s->crawl_ms, s->sentries_ms, s->later_rules_ms, s->plan_ms,
               s->send_ms, s->elapsed_ms);
    buf_printf(b, ",\"gets\":%u,\"gets_failed\":%u,\"bytes\":%llu,\"triples_read\":%u,\"derived\":%u,\"unsafe\":%u,"
               "\"sent\":%u,\"withheld\":%u,\"conflicting\":%u,\"yielded\":%u,\"refused\":%u,\"failed\":%u,"
               "\"calling\":%u", s->gets, s->gets_failed, s->bytes, s->triples_read, s->derived, s->unsafe, s->sent,
               s->withheld, s->conflicts, s->yielded, s->refused, s->failed, s->calling);
    end_record(tr);
    errno = 0;
    if (!tr->failed && fflush(tr->f) != 0)
        write_failed(tr, errno);
}
