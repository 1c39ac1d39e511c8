/* ldp_path.c: checks and decodes request paths, encodes names as IRI paths, sanitizes Slug headers. */
#include "rdf/buf.h"
#include "ldp/ldp_path.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

static bool is_control(unsigned char c) { return c < 0x20 || c == 0x7f; }

/* Checks one decoded segment [start, end) of a path. */
static const char *segment_problem(const char *start, size_t len) {
    if (len == 0)
        return "empty path segment ('//')";
    if (len == 2 && start[0] == '.' && start[1] == '.')
        return "'..' segment";
    if (start[0] == '.')
        return "path segment beginning with '.' (reserved)";
    if (len > LDP_NAME_MAX)
        return "path segment too long";
    return NULL;
}

int ldp_path_decode(const char *raw, char **decoded, const char **why) {
    *decoded = NULL;
    if (raw[0] != '/') {
        *why = "path must begin with '/'";
        return -1;
    }
    size_t raw_len = strlen(raw);
    if (raw_len > LDP_PATH_MAX) {
        *why = "path too long";
        return -1;
    }
    char *out = xmalloc(raw_len + 1);
    size_t n = 0;
    for (size_t i = 0; i < raw_len; i++) {
        unsigned char c = (unsigned char)raw[i];
        if (c == '%') {
            /* raw is NUL-terminated, so a short escape stops at a non-hex NUL. */
            int hi = hex_digit_value((unsigned char)raw[i + 1]);
            int lo = hi < 0 ? -1 : hex_digit_value((unsigned char)raw[i + 2]);
            if (lo < 0) {
                *why = "malformed percent-escape in path";
                free(out);
                return -1;
            }
            c = (unsigned char)(hi * 16 + lo);
            i += 2;
            if (c == '/') {
                *why = "encoded '/' in path";
                free(out);
                return -1;
            }
        }
        if (is_control(c)) {
            *why = "control character in path";
            free(out);
            return -1;
        }
        out[n++] = (char)c;
    }
    out[n] = '\0';
    /* Segments between slashes; the last one may be empty (a container's trailing '/'). */
    size_t start = 1;
    for (size_t i = 1; i <= n; i++) {
        if (i < n && out[i] != '/')
            continue;
        if (i == n && start == n)
            break;
        const char *problem = segment_problem(out + start, i - start);
        if (problem) {
            *why = problem;
            free(out);
            return -1;
        }
        start = i + 1;
    }
    *decoded = out;
    return 0;
}

static bool is_pchar_or_slash(unsigned char c) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
        return true;
    return strchr("-._~!$&'()*+,;=:@/", c) != NULL && c != '\0';
}

void ldp_path_encode(const char *decoded, size_t len, buf *out) {
    static const char hex[] = "0123456789ABCDEF";
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)decoded[i];
        if (is_pchar_or_slash(c)) {
            buf_putc(out, (char)c);
        } else {
            char escape[3] = {'%', hex[c >> 4], hex[c & 15]};
            buf_append(out, escape, 3);
        }
    }
}

void ldp_member_ref(const char *name, size_t len, bool container, buf *out) {
    if (memchr(name, ':', len))
        buf_puts(out, "./");
    ldp_path_encode(name, len, out);
    if (container)
        buf_putc(out, '/');
}

static bool is_slug_char(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == '~' || c == '-';
}

bool ldp_slug_name(const char *slug, char *name, size_t size) {
    enum { SLUG_MAX = 128 };
    if (size < SLUG_MAX + 1)
        return false;
    size_t n = 0;
    for (size_t i = 0; slug[i]; i++) {
        unsigned char c = (unsigned char)slug[i];
        if (c == '%') {
            int hi = hex_digit_value((unsigned char)slug[i + 1]);
            int lo = hi < 0 ? -1 : hex_digit_value((unsigned char)slug[i + 2]);
            if (lo < 0)
                return false;
            c = (unsigned char)(hi * 16 + lo);
            i += 2;
        }
        if (c == '/' && slug[i + 1] == '\0')
            break;
        if (!is_slug_char(c) || n == SLUG_MAX)
            return false;
        name[n++] = (char)c;
    }
    if (n == 0 || name[0] == '.')
        return false;
    name[n] = '\0';
    return true;
}

void ldp_path_random_name(buf *out) {
    unsigned char random[8];
    if (getrandom(random, sizeof random, 0) != (ssize_t)sizeof random) {
        /* Only before the kernel's pool is ready; a clash is caught by the caller anyway. */
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        uint64_t seed = (uint64_t)now.tv_nsec ^ ((uint64_t)now.tv_sec << 20) ^ ((uint64_t)getpid() << 44);
        memcpy(random, &seed, sizeof random);
    }
    for (size_t i = 0; i < sizeof random; i++)
        buf_printf(out, "%02x", random[i]);
}

void ldp_path_ordered_name(buf *out, uint64_t *last) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    uint64_t ms = (uint64_t)now.tv_sec * 1000 + (uint64_t)now.tv_nsec / 1000000;
    if (ms <= *last)
        ms = *last + 1;
    *last = ms;
    buf rnd = {0};
    ldp_path_random_name(&rnd);
    buf_printf(out, "%012llx%.4s", (unsigned long long)(ms & 0xffffffffffffULL), rnd.data);
    buf_free(&rnd);
}
