/* due_heap.c: the timers' min-heap (due_heap.h). */
#include "rdf/due_heap.h"

#include <stdlib.h>

#include "rdf/buf.h"

void due_heap_push(due_heap *h, int64_t at, uint32_t id) {
    if (h->count == h->cap) {
        h->cap = h->cap ? 2 * h->cap : 64;
        h->entries = xrealloc(h->entries, h->cap * sizeof *h->entries);
    }
    size_t i = h->count++;
    while (i > 0 && h->entries[(i - 1) / 2].at > at) {
        h->entries[i] = h->entries[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->entries[i] = (due_entry){at, id};
}

const due_entry *due_heap_top(const due_heap *h) {
    return h->count ? &h->entries[0] : NULL;
}

void due_heap_pop(due_heap *h) {
    if (!h->count)
        return;
    due_entry last = h->entries[--h->count];
    size_t i = 0;
    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= h->count)
            break;
        if (child + 1 < h->count && h->entries[child + 1].at < h->entries[child].at)
            child++;
        if (h->entries[child].at >= last.at)
            break;
        h->entries[i] = h->entries[child];
        i = child;
    }
    if (h->count)
        h->entries[i] = last;
}

void due_heap_clear(due_heap *h) {
    h->count = 0;
}

void due_heap_free(due_heap *h) {
    free(h->entries);
    *h = (due_heap){0};
}
