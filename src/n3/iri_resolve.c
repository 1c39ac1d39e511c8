/* iri_resolve.c: RFC 3986 5.2 reference resolution: split both IRIs into their five components
 * (Appendix B), pick the target's components (5.2.2), merge paths (5.2.3), remove dot segments (5.2.4)
 * and recompose (5.3). Dot segments are removed by appending to the output and truncating it, so
 * every byte is copied and removed at most once. */
#include "n3/iri_resolve.h"

#include <stdbool.h>
#include <string.h>

typedef struct span {
    const char *text;
    size_t len;
    bool defined; /* "http://a?" has an empty but defined query */
} span;

typedef struct iri_parts {
    span scheme, authority, path, query, fragment;
} iri_parts;

static bool is_scheme_char(char c, bool first) {
    bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    return alpha || (!first && ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.'));
}

static span take_until(const char *s, size_t len, size_t *i, const char *stops) {
    size_t start = *i;
    while (*i < len && !memchr(stops, s[*i], strlen(stops)))
        (*i)++;
    return (span){s + start, *i - start, true};
}

static iri_parts split_iri(const char *s, size_t len) {
    iri_parts parts;
    memset(&parts, 0, sizeof parts);
    size_t i = 0;
    while (i < len && is_scheme_char(s[i], i == 0))
        i++;
    if (i > 0 && i < len && s[i] == ':') {
        parts.scheme = (span){s, i, true};
        i++;
    } else {
        i = 0;
    }
    if (len - i >= 2 && s[i] == '/' && s[i + 1] == '/') {
        i += 2;
        parts.authority = take_until(s, len, &i, "/?#");
    }
    parts.path = take_until(s, len, &i, "?#");
    if (i < len && s[i] == '?') {
        i++;
        parts.query = take_until(s, len, &i, "#");
    }
    if (i < len && s[i] == '#') {
        i++;
        parts.fragment = (span){s + i, len - i, true};
    }
    return parts;
}

static bool starts_with(const char *s, size_t len, const char *prefix) {
    size_t n = strlen(prefix);
    return len >= n && memcmp(s, prefix, n) == 0;
}

static bool equals(const char *s, size_t len, const char *word) {
    return len == strlen(word) && memcmp(s, word, len) == 0;
}

/* Removes the output's last segment and the '/' before it (output starts at offset start). */
static void pop_segment(buf *out, size_t start) {
    size_t k = out->len;
    while (k > start && out->data[k - 1] != '/')
        k--;
    out->len = k > start ? k - 1 : start;
}

/* 5.2.4: appends the path with its "." and ".." segments applied. */
static void append_without_dot_segments(const char *in, size_t len, buf *out) {
    size_t start = out->len, i = 0;
    while (i < len) {
        const char *s = in + i;
        size_t left = len - i;
        if (starts_with(s, left, "../")) {
            i += 3;
        } else if (starts_with(s, left, "./") || starts_with(s, left, "/./")) {
            i += 2;
        } else if (equals(s, left, "/.")) {
            buf_putc(out, '/');
            i = len;
        } else if (starts_with(s, left, "/../")) {
            pop_segment(out, start);
            i += 3;
        } else if (equals(s, left, "/..")) {
            pop_segment(out, start);
            buf_putc(out, '/');
            i = len;
        } else if (equals(s, left, ".") || equals(s, left, "..")) {
            i = len;
        } else {
            size_t end = i + 1;
            while (end < len && in[end] != '/')
                end++;
            buf_append(out, s, end - i);
            i = end;
        }
    }
}

/* 5.2.3: the reference's relative path appended to the base's path up to its last '/'. */
static void merge_paths(const iri_parts *base, span ref_path, buf *merged) {
    if (base->authority.defined && base->path.len == 0) {
        buf_putc(merged, '/');
    } else {
        size_t keep = base->path.len;
        while (keep > 0 && base->path.text[keep - 1] != '/')
            keep--;
        buf_append(merged, base->path.text, keep);
    }
    buf_append(merged, ref_path.text, ref_path.len);
}

void iri_resolve(const char *base, size_t base_len, const char *ref, size_t ref_len, buf *out) {
    iri_parts b = split_iri(base, base_len), r = split_iri(ref, ref_len), t = {.fragment = r.fragment};
    buf merged = {0};
    span path = r.path;
    bool remove_dots = true;
    if (r.scheme.defined || r.authority.defined) {
        t.scheme = r.scheme.defined ? r.scheme : b.scheme;
        t.authority = r.authority;
        t.query = r.query;
    } else {
        t.scheme = b.scheme;
        t.authority = b.authority;
        if (r.path.len == 0) {
            path = b.path;
            remove_dots = false;
            t.query = r.query.defined ? r.query : b.query;
        } else {
            t.query = r.query;
            if (r.path.text[0] != '/') {
                merge_paths(&b, r.path, &merged);
                path = (span){merged.data, merged.len, true};
            }
        }
    }

    if (t.scheme.defined) {
        buf_append(out, t.scheme.text, t.scheme.len);
        buf_putc(out, ':');
    }
    if (t.authority.defined) {
        buf_puts(out, "//");
        buf_append(out, t.authority.text, t.authority.len);
    }
    if (remove_dots)
        append_without_dot_segments(path.text, path.len, out);
    else
        buf_append(out, path.text, path.len);
    if (t.query.defined) {
        buf_putc(out, '?');
        buf_append(out, t.query.text, t.query.len);
    }
    if (t.fragment.defined) {
        buf_putc(out, '#');
        buf_append(out, t.fragment.text, t.fragment.len);
    }
    buf_free(&merged);
}
