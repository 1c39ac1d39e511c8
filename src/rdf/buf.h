/* buf.h: a growable byte buffer and a growable array of uint32, the two containers every layer uses.
 * Allocation failure aborts: the agent cannot continue meaningfully without memory. */
#ifndef LDGSM_RDF_BUF_H
#define LDGSM_RDF_BUF_H

#include <stddef.h>
#include <stdint.h>

typedef struct buf {
    char *data;
    size_t len, cap;
} buf;

void buf_reserve(buf *b, size_t extra);
void buf_append(buf *b, const void *data, size_t len);
void buf_puts(buf *b, const char *s);
void buf_putc(buf *b, char c);
void buf_printf(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* s as a JSON string, quotes included: " \\ and control characters escaped, other bytes as they are
 * (the caller's text is UTF-8). */
void buf_json_string(buf *b, const char *s);
/* s on one line: every run of whitespace one space, none leading or trailing (texts spanning lines). */
void buf_puts_one_line(buf *b, const char *s);
/* NUL-terminates without counting the NUL in len; returns data. */
char *buf_cstr(buf *b);
void buf_free(buf *b);

typedef struct u32vec {
    uint32_t *data;
    uint32_t len, cap;
} u32vec;

void u32vec_push(u32vec *v, uint32_t x);
void u32vec_free(u32vec *v);

/* 0..15 for a hexadecimal digit, -1 for anything else. */
int hex_digit_value(int c);

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
/* A table of *cap entries of size bytes grown (doubling, from 64) until index covers an entry, the new
 * entries zeroed: for tables indexed by slot numbers handed out elsewhere. Returns the table. */
void *xgrow_zeroed(void *p, size_t *cap, size_t index, size_t size);
/* Asks for transparent huge pages for a large block (4 MiB or more) read and written at random: with
 * 4 KiB pages, faulting in fresh memory and the TLB misses of random access into it were a third of a
 * large derivation (perf). glibc maps such blocks on their own, so the advice covers only this block;
 * where THP is off the call changes nothing. Sequentially written buffers gain nothing (direct compaction
 * can even stall them) and do not ask. Returns p. */
void *prefer_huge_pages(void *p, size_t n);
/* A zeroed table read and written at random, on huge pages when large. Its pages are mapped writable at
 * once (MADV_POPULATE_WRITE, one call instead of a fault per page; zeroed by the kernel, not written a
 * second time here): left to calloc, a read would first map the shared zero page, then the first write
 * take a copy-on-write fault and a TLB shootdown of every other thread's CPU (perf: 4% of a
 * derivation). */
void *xcalloc_huge(size_t n, size_t size);
/* n bytes for records written and read at random (an arena), on huge pages when large: aligned to one,
 * so that all of it can be (a malloc'd block gets advice only for its aligned interior). */
void *xmalloc_huge(size_t n);
char *xstrndup(const char *s, size_t n);

#endif
