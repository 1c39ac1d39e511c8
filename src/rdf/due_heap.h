/* due_heap.h: a min-heap of (time, id) entries, for timers whose times change often (an instance's next
 * wake, a document's next safety poll, a channel's renewal). Entries are never updated in place: the owner
 * pushes a new entry whenever an id's time changes and, taking entries off the top, drops those that no
 * longer match the id's current time. What is due is found in O(log n) per entry taken, not by a walk over
 * every id. */
#ifndef LDGSM_RDF_DUE_HEAP_H
#define LDGSM_RDF_DUE_HEAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct due_entry {
    int64_t at;
    uint32_t id;
} due_entry;

typedef struct due_heap {
    due_entry *entries;
    size_t count, cap;
} due_heap;

void due_heap_push(due_heap *h, int64_t at, uint32_t id);
/* The earliest entry, or NULL when the heap is empty; valid until the next push or pop. */
const due_entry *due_heap_top(const due_heap *h);
void due_heap_pop(due_heap *h);
/* Empties the heap, keeping its memory (an owner rebuilding its entries after renumbering its ids). */
void due_heap_clear(due_heap *h);
void due_heap_free(due_heap *h);

#endif
