/* request.c: reads request nodes out of instantiated rule heads and computes their identity. */
#include "agent/request.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "http/http_url.h"
#include "rdf/rdfio.h"

bool request_rule_head(const terms *t, const agent_vocab *v, term_id head) {
    size_t n;
    const triple *ts = terms_formula_triples(t, head, &n);
    for (size_t i = 0; i < n; i++)
        if (ts[i].p == v->mthd)
            return true;
    return false;
}

/* The object of (subject, predicate) in the head, or 0. */
static term_id head_value(const triple *ts, size_t n, term_id subject, term_id predicate) {
    for (size_t i = 0; i < n; i++)
        if (ts[i].s == subject && ts[i].p == predicate)
            return ts[i].o;
    return 0;
}

static bool is_token(const char *s) {
    if (!*s)
        return false;
    for (; *s; s++)
        if (!strchr("!#$%&'*+-.^_`|~", *s) && !(*s >= '0' && *s <= '9') && !(*s >= 'A' && *s <= 'Z') &&
            !(*s >= 'a' && *s <= 'z'))
            return false;
    return true;
}

/* The method's name, in the term's text (NUL-terminated where the name ends), or NULL. */
static const char *method_name(const terms *t, const agent_vocab *v, term_id m) {
    const char *lex = terms_lex(t, m, NULL);
    if (m == v->update)
        return "UPDATE";
    if (terms_kind(t, m) == TERM_IRI && strncmp(lex, NS_HTTPM, strlen(NS_HTTPM)) == 0) {
        const char *name = lex + strlen(NS_HTTPM);
        return is_token(name) ? name : NULL;
    }
    if (terms_kind(t, m) == TERM_LITERAL && is_token(lex))
        return lex;
    return NULL;
}

static char *text_of(const terms *t, term_id id) {
    enum term_kind k = terms_kind(t, id);
    if (k != TERM_IRI && k != TERM_LITERAL)
        return NULL;
    size_t len;
    const char *lex = terms_lex(t, id, &len);
    return xstrndup(lex, len);
}

static int header_cmp(const void *a, const void *b) {
    const request_header *x = a, *y = b;
    int c = strcasecmp(x->name, y->name);
    return c ? c : strcmp(x->value, y->value);
}

/* Canonical text of a body: its triples in N-Triples, blank nodes renamed by first appearance. Formulas
 * are sorted by term id, so this identifies equal bodies and the usual isomorphic ones (the same shape
 * built by two rules) but is not a full isomorphism test. */
static void append_body_text(const terms *t, term_id body, buf *out) {
    if (!body)
        return;
    if (terms_kind(t, body) != TERM_FORMULA) {
        rdf_write_term_nt(t, body, out);
        return;
    }
    size_t n;
    const triple *ts = terms_formula_triples(t, body, &n);
    term_id seen[64];
    size_t seen_count = 0;
    for (size_t i = 0; i < n; i++) {
        term_id parts[3] = {ts[i].s, ts[i].p, ts[i].o};
        for (int k = 0; k < 3; k++) {
            if (terms_kind(t, parts[k]) != TERM_BNODE) {
                rdf_write_term_nt(t, parts[k], out);
            } else {
                size_t j = 0;
                while (j < seen_count && seen[j] != parts[k])
                    j++;
                if (j == seen_count && seen_count < 64)
                    seen[seen_count++] = parts[k];
                if (j < 64)
                    buf_printf(out, "_:c%zu", j);
                else
                    rdf_write_term_nt(t, parts[k], out);
            }
            buf_putc(out, k < 2 ? ' ' : '\n');
        }
    }
}

/* The identity; without_key leaves out the Idempotency-Key header (what a write does to its resource). */
static char *identity_text(const terms *t, const request *r, bool without_key) {
    const request_detail *d = r->detail;
    buf id = {0};
    buf_printf(&id, "%s %s\n", r->method, r->resource);
    for (size_t i = 0; i < d->header_count; i++)
        if (!without_key || strcasecmp(d->headers[i].name, "Idempotency-Key") != 0)
            buf_printf(&id, "%s: %s\n", d->headers[i].name, d->headers[i].value);
    buf_puts(&id, "body:\n");
    append_body_text(t, d->body, &id);
    if (r->kind == REQUEST_UPDATE) {
        buf_puts(&id, "add:\n");
        append_body_text(t, d->add, &id);
        if (d->has_priority)
            buf_printf(&id, "priority %ld\n", d->priority);
    }
    /* POST and PATCH are commands: two keys' identical commands stay two (docs/DESIGN.md §2.1). */
    if (d->key && (strcmp(r->method, "POST") == 0 || strcmp(r->method, "PATCH") == 0 || r->kind == REQUEST_UPDATE)) {
        buf_puts(&id, "key ");
        rdf_write_term_nt(t, d->key, &id);
    }
    return buf_cstr(&id);
}

static void compute_identity(const terms *t, request *r) {
    request_detail *d = r->detail;
    d->identity = identity_text(t, r, false);
    for (size_t i = 0; i < d->header_count && !d->effect; i++) /* most writes carry no key: no second text */
        if (strcasecmp(d->headers[i].name, "Idempotency-Key") == 0)
            d->effect = identity_text(t, r, true);
}

/* The object of (subject, predicate) in working memory, or 0 (also without working memory). */
static term_id data_value(store *wm, term_id subject, term_id predicate) {
    return wm ? store_first_object(wm, subject, predicate) : 0;
}

/* The items of an RDF list in working memory (rdf:first/rest); false when it is not a proper list. */
static bool data_list(store *wm, term_id node, term_id **items, size_t *count) {
    *items = NULL;
    *count = 0;
    for (size_t guard = 0; node != T_RDF_NIL; guard++) {
        term_id first = data_value(wm, node, T_RDF_FIRST), rest = data_value(wm, node, T_RDF_REST);
        if (!first || !rest || guard > 1000) {
            free(*items);
            return false;
        }
        *items = xrealloc(*items, (*count + 1) * sizeof **items);
        (*items)[(*count)++] = first;
        node = rest;
    }
    return true;
}

/* Headers come from the head (an N3 list of header nodes), or, when the head names a list described in
 * data (a model's task: `http:headers ?h`), from working memory: the rule asked for that list. */
static bool read_headers(const terms *t, const agent_vocab *v, store *wm, const triple *ts, size_t n, term_id list,
                         request *r, const log_sink *log) {
    request_detail *d = r->detail;
    size_t count;
    term_id *items;
    if (terms_kind(t, list) == TERM_LIST) {
        const term_id *listed = terms_list_items(t, list, &count);
        items = xmalloc((count ? count : 1) * sizeof *items);
        memcpy(items, listed, count * sizeof *items);
    } else if (!data_list(wm, list, &items, &count)) {
        log_msg(log, LOG_WARN, "rule %s: http:headers of <%s> is not a list; request skipped", r->rule->name, r->url);
        return false;
    }
    d->headers = xcalloc(count ? count : 1, sizeof *d->headers);
    for (size_t i = 0; i < count; i++) {
        term_id name_term = head_value(ts, n, items[i], v->field_name);
        term_id value_term = head_value(ts, n, items[i], v->field_value);
        char *name = text_of(t, name_term ? name_term : data_value(wm, items[i], v->field_name));
        char *value = text_of(t, value_term ? value_term : data_value(wm, items[i], v->field_value));
        if (!name || !value || !is_token(name) || strpbrk(value, "\r\n")) {
            log_msg(log, LOG_WARN, "rule %s: a header of the request to <%s> lacks a valid http:fieldName or "
                    "http:fieldValue; request skipped", r->rule->name, r->url);
            free(name);
            free(value);
            free(items);
            return false;
        }
        d->headers[d->header_count++] = (request_header){name, value};
    }
    free(items);
    return true;
}

/* `ldgsm:headerBlock "Name: value\n..."`: the headers of a request evaluated from its arguments
 * (agent/arguments.h), as its call record keeps them; each line one header. */
static bool read_header_block(const terms *t, term_id block, request *r, const log_sink *log) {
    request_detail *d = r->detail;
    if (terms_kind(t, block) != TERM_LITERAL) {
        log_msg(log, LOG_WARN, "rule %s: ldgsm:headerBlock of <%s> is not a literal; request skipped", r->rule->name,
                r->url);
        return false;
    }
    size_t len;
    const char *text = terms_lex(t, block, &len), *end = text + len;
    for (const char *line = text; line < end;) {
        const char *eol = memchr(line, '\n', (size_t)(end - line));
        if (!eol)
            eol = end;
        const char *colon = memchr(line, ':', (size_t)(eol - line));
        char *name = colon ? xstrndup(line, (size_t)(colon - line)) : NULL;
        const char *value = colon ? colon + 1 : NULL;
        while (value && value < eol && *value == ' ')
            value++;
        if (!name || !is_token(name) || memchr(line, '\r', (size_t)(eol - line)) ||
            memchr(line, '\0', (size_t)(eol - line))) {
            log_msg(log, LOG_WARN, "rule %s: ldgsm:headerBlock of <%s> holds a line that is no header; request "
                    "skipped", r->rule->name, r->url);
            free(name);
            return false;
        }
        d->headers = xrealloc(d->headers, (d->header_count + 1) * sizeof *d->headers);
        d->headers[d->header_count++] = (request_header){name, xstrndup(value, (size_t)(eol - value))};
        line = eol + 1;
    }
    return true;
}

/* `ldgsm:idempotencyKey "K"` becomes the header `Idempotency-Key: "K"` (an sf-string, as the IETF draft
 * writes it), replacing one the headers name: a call's key must differ per activation and alternative, a
 * key written in a model would not. False, reported, when K cannot be sent. */
static bool add_idempotency_key(const terms *t, term_id key, request *r, const log_sink *log) {
    request_detail *d = r->detail;
    if (!key)
        return true;
    size_t len = 0;
    const char *text = terms_kind(t, key) == TERM_LITERAL ? terms_lex(t, key, &len) : "";
    bool printable = len > 0 && len <= 255; /* what a server honouring the header accepts */
    for (const char *c = text; *c; c++)
        printable &= *c >= 0x20 && *c < 0x7f && *c != '"' && *c != '\\';
    if (!printable) {
        log_msg(log, LOG_WARN, "rule %s: the ldgsm:idempotencyKey of the request to <%s> is not a literal of 1 "
                "to 255 printable ASCII characters without quotes; request skipped", r->rule->name, r->url);
        return false;
    }
    buf value = {0};
    buf_printf(&value, "\"%s\"", text);
    size_t kept = 0;
    for (size_t i = 0; i < d->header_count; i++) {
        if (strcasecmp(d->headers[i].name, "Idempotency-Key") == 0) {
            free(d->headers[i].name);
            free(d->headers[i].value);
            continue;
        }
        d->headers[kept++] = d->headers[i];
    }
    d->header_count = kept;
    d->headers = xrealloc(d->headers, (d->header_count + 1) * sizeof *d->headers);
    d->headers[d->header_count++] = (request_header){xstrndup("Idempotency-Key", 15), buf_cstr(&value)};
    return true;
}

void identity_cache_free(identity_cache *c) {
    for (size_t i = 0; i < c->count; i++)
        free(c->texts[i]);
    free(c->texts);
    strmap_free(&c->slot_of);
    *c = (identity_cache){0};
}

/* The identity of the URI url, the cache's text. */
static const char *identity_of(identity_cache *c, const char *url) {
    bool inserted;
    uint32_t *slot = strmap_put(&c->slot_of, url, (uint32_t)c->count + 1, &inserted);
    if (inserted) {
        c->texts = xrealloc(c->texts, (c->count + 1) * sizeof *c->texts);
        c->texts[c->count++] = http_url_identity(url);
    }
    return c->texts[*slot - 1];
}

static void detail_clear(request_detail *d) {
    for (size_t i = 0; i < d->header_count; i++) {
        free(d->headers[i].name);
        free(d->headers[i].value);
    }
    free(d->headers);
    free(d->identity);
    free(d->effect);
    memset(d, 0, sizeof *d);
}

/* ldgsm:groupsOf names the groups of a GET by a relation of working memory: a (subject property) list. */
static bool groups_of_valid(const terms *t, const request *r) {
    size_t n;
    const term_id *items = terms_kind(t, r->groups_of) == TERM_LIST ? terms_list_items(t, r->groups_of, &n) : NULL;
    return items && n == 2 && terms_kind(t, items[1]) == TERM_IRI && r->kind == REQUEST_SAFE &&
           strcmp(r->method, "GET") == 0;
}

size_t request_extract(terms *t, const agent_vocab *v, store *wm, const triple *ts, size_t n, const rule *origin,
                       const log_sink *log, identity_cache *identities, request **out, size_t *count,
                       size_t *cap) {
    size_t added = 0;
    for (size_t i = 0; i < n; i++) {
        if (ts[i].p != v->mthd)
            continue;
        term_id node = ts[i].s;
        request_detail d = {0}; /* kept for a request the crawl does not read */
        request r = {.rule = origin, .detail = &d};
        term_id uri = head_value(ts, n, node, v->request_uri);
        r.method = method_name(t, v, ts[i].o);
        r.url = uri && terms_kind(t, uri) == TERM_IRI ? terms_lex(t, uri, NULL) : NULL;
        if (!r.method || !r.url) {
            log_msg(log, LOG_WARN, "rule %s: a request node without %s; request skipped", origin->name,
                    !r.method ? "a method (http:mthd an httpm: method, a token literal or ldgsm:UPDATE)"
                              : "an IRI as http:requestURI");
            continue;
        }
        r.uri_term = uri;
        r.resource = identity_of(identities, r.url);
        /* a safe method that runs after a write (ldgsm:after: a task, such as a call asking a service for
         * data) is sent as written, not read by the crawl */
        r.kind = strcmp(r.method, "UPDATE") == 0 ? REQUEST_UPDATE
                 : (strcmp(r.method, "GET") == 0 || strcmp(r.method, "HEAD") == 0 ||
                    strcmp(r.method, "OPTIONS") == 0) && !head_value(ts, n, node, v->after)
                     ? REQUEST_SAFE
                     : REQUEST_AS_WRITTEN;
        d.body = head_value(ts, n, node, v->body);
        d.add = head_value(ts, n, node, v->add);
        d.key = head_value(ts, n, node, v->key);
        d.after = head_value(ts, n, node, v->after);
        r.group = head_value(ts, n, node, v->group);
        r.groups_of = head_value(ts, n, node, v->groups_of);
        if (r.groups_of && !groups_of_valid(t, &r)) {
            log_msg(log, LOG_WARN, "rule %s: ldgsm:groupsOf of %s %s is not a (subject property) list on a GET; "
                    "request skipped", origin->name, r.method, r.url);
            continue;
        }
        r.lenient = head_value(ts, n, node, v->lenient) == T_TRUE;
        term_id priority = head_value(ts, n, node, v->priority);
        if (priority && terms_kind(t, priority) == TERM_LITERAL) {
            char *end;
            d.priority = strtol(terms_lex(t, priority, NULL), &end, 10);
            d.has_priority = *end == '\0';
        }
        d.report_to = head_value(ts, n, node, v->report_to);
        d.called_at = head_value(ts, n, node, v->called_at);
        d.timeout = head_value(ts, n, node, v->request_timeout);
        d.results = head_value(ts, n, node, v->results);
        /* a safe request's headers are checked too (a request with a broken one is skipped), then dropped:
         * the crawl sends its own */
        term_id headers = head_value(ts, n, node, v->headers);
        term_id block = head_value(ts, n, node, v->header_block);
        if ((headers && !read_headers(t, v, wm, ts, n, headers, &r, log)) ||
            (block && !read_header_block(t, block, &r, log)) ||
            !add_idempotency_key(t, head_value(ts, n, node, v->idempotency_key), &r, log)) {
            detail_clear(&d);
            continue;
        }
        if (d.header_count > 1)
            qsort(d.headers, d.header_count, sizeof *d.headers, header_cmp);
        if (r.kind == REQUEST_SAFE) {
            detail_clear(&d);
            r.detail = NULL;
        } else {
            compute_identity(t, &r);
            r.detail = xmalloc(sizeof d);
            *r.detail = d;
        }
        if (*count == *cap) {
            *cap = *cap ? *cap * 2 : 16;
            *out = xrealloc(*out, *cap * sizeof **out);
        }
        (*out)[(*count)++] = r;
        added++;
    }
    return added;
}

void request_free(request *r) {
    if (r->detail) {
        detail_clear(r->detail);
        free(r->detail);
    }
    memset(r, 0, sizeof *r);
}
