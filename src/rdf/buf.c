/* buf.c: growable buffers and checked allocation. */
#include "rdf/buf.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <string.h>

static void out_of_memory(void) {
    fputs("ldgsm: out of memory\n", stderr);
    abort();
}

/* POPULATE_MIN: glibc maps blocks this large on their own, with untouched pages. */
enum { HUGE_PAGE = 2u << 20, HUGE_ADVICE_MIN = 4u << 20, POPULATE_MIN = 128u << 10 };

/* madvise over the whole pages of `page` bytes inside [p, p + n); false when there are none or it failed. */
static bool advise_interior(void *p, size_t n, uintptr_t page, int advice) {
    uintptr_t start = ((uintptr_t)p + page - 1) & ~(page - 1), end = ((uintptr_t)p + n) & ~(page - 1);
    return end > start && madvise((void *)start, end - start, advice) == 0;
}

void *prefer_huge_pages(void *p, size_t n) {
    if (n >= HUGE_ADVICE_MIN)
        advise_interior(p, n, HUGE_PAGE, MADV_HUGEPAGE);
    return p;
}

void *xmalloc_huge(size_t n) {
    if (n < HUGE_ADVICE_MIN)
        return xmalloc(n);
    void *p = aligned_alloc(HUGE_PAGE, (n + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1));
    if (!p)
        out_of_memory();
    return prefer_huge_pages(p, n);
}

void *xcalloc_huge(size_t n, size_t size) {
    size_t bytes = n * size;
    void *p = xcalloc(n, size);
    if (bytes < POPULATE_MIN)
        return p;
    prefer_huge_pages(p, bytes);
#ifdef MADV_POPULATE_WRITE
    if (advise_interior(p, bytes, 4096, MADV_POPULATE_WRITE))
        return p;
#endif
    /* a kernel without MADV_POPULATE_WRITE (before 5.14): the first write maps each page */
    return bytes < HUGE_ADVICE_MIN ? p : memset(p, 0, bytes);
}

void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p)
        out_of_memory();
    return p;
}

void *xcalloc(size_t n, size_t size) {
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        out_of_memory();
    return p;
}

void *xrealloc(void *p, size_t n) {
    p = realloc(p, n ? n : 1);
    if (!p)
        out_of_memory();
    return p;
}

void *xgrow_zeroed(void *p, size_t *cap, size_t index, size_t size) {
    if (index < *cap)
        return p;
    size_t grown = *cap ? *cap : 64;
    while (grown <= index)
        grown *= 2;
    p = xrealloc(p, grown * size);
    memset((char *)p + *cap * size, 0, (grown - *cap) * size);
    *cap = grown;
    return p;
}

char *xstrndup(const char *s, size_t n) {
    char *copy = xmalloc(n + 1);
    memcpy(copy, s, n);
    copy[n] = '\0';
    return copy;
}

void buf_reserve(buf *b, size_t extra) {
    if (b->len + extra + 1 <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + extra + 1)
        cap *= 2;
    b->data = xrealloc(b->data, cap);
    b->cap = cap;
}

void buf_append(buf *b, const void *data, size_t len) {
    buf_reserve(b, len); /* even for nothing: after an append, data is never NULL */
    if (len)
        memcpy(b->data + b->len, data, len);
    b->len += len;
}

void buf_puts(buf *b, const char *s) { buf_append(b, s, strlen(s)); }

void buf_putc(buf *b, char c) {
    buf_reserve(b, 1);
    b->data[b->len++] = c;
}

void buf_printf(buf *b, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    va_list copy;
    va_copy(copy, args);
    int n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    if (n > 0) {
        buf_reserve(b, (size_t)n);
        vsnprintf(b->data + b->len, (size_t)n + 1, fmt, args);
        b->len += (size_t)n;
    }
    va_end(args);
}

void buf_puts_one_line(buf *b, const char *s) {
    bool space = false, any = false;
    for (; *s; s++) {
        if (isspace((unsigned char)*s)) {
            space = any;
            continue;
        }
        if (space)
            buf_putc(b, ' ');
        space = false;
        any = true;
        buf_putc(b, *s);
    }
}

void buf_json_string(buf *b, const char *s) {
    buf_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') {
            buf_putc(b, '\\');
            buf_putc(b, (char)*p);
        } else if (*p == '\n') {
            buf_puts(b, "\\n");
        } else if (*p == '\t') {
            buf_puts(b, "\\t");
        } else if (*p < 0x20 || *p == 0x7f) {
            buf_printf(b, "\\u%04x", *p);
        } else {
            buf_putc(b, (char)*p);
        }
    }
    buf_putc(b, '"');
}

char *buf_cstr(buf *b) {
    buf_reserve(b, 0);
    b->data[b->len] = '\0';
    return b->data;
}

void buf_free(buf *b) {
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

void u32vec_push(u32vec *v, uint32_t x) {
    if (v->len == v->cap) {
        v->cap = v->cap ? v->cap * 2 : 4;
        v->data = xrealloc(v->data, v->cap * sizeof *v->data);
    }
    v->data[v->len++] = x;
}

void u32vec_free(u32vec *v) {
    free(v->data);
    v->data = NULL;
    v->len = v->cap = 0;
}

int hex_digit_value(int c) {
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}
