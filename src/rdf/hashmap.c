/* hashmap.c: linear-probing u64 -> u32 map; grows at 70% load. Key and value share one slot so a probe
 * touches one cache line. */
#include "rdf/hashmap.h"

#include <stdlib.h>
#include <string.h>

#include "rdf/buf.h"

static uint32_t slot_of(const u64map *m, uint64_t key) {
    return (uint32_t)(hash_mix64(key) & (m->cap - 1));
}

uint32_t *u64map_get(const u64map *m, uint64_t key) {
    if (!m->cap)
        return NULL;
    for (uint32_t i = slot_of(m, key);; i = (i + 1) & (m->cap - 1)) {
        u64map_slot *s = &m->slots[i];
        if (!s->used)
            return NULL;
        if (s->key == key)
            return &s->value;
    }
}

static void grow(u64map *m) {
    u64map bigger = {0};
    bigger.cap = m->cap ? m->cap * 2 : 16;
    bigger.slots = xcalloc_huge(bigger.cap, sizeof *bigger.slots);
    for (uint32_t i = 0; i < m->cap; i++) {
        const u64map_slot *s = &m->slots[i];
        if (!s->used)
            continue;
        uint32_t j = slot_of(&bigger, s->key);
        while (bigger.slots[j].used)
            j = (j + 1) & (bigger.cap - 1);
        bigger.slots[j] = *s;
    }
    bigger.count = m->count;
    free(m->slots);
    *m = bigger;
}

uint32_t *u64map_put(u64map *m, uint64_t key, uint32_t initial, bool *inserted) {
    if ((m->count + 1) * 10 > m->cap * 7)
        grow(m);
    uint32_t i = slot_of(m, key);
    while (m->slots[i].used) {
        if (m->slots[i].key == key) {
            if (inserted)
                *inserted = false;
            return &m->slots[i].value;
        }
        i = (i + 1) & (m->cap - 1);
    }
    m->slots[i] = (u64map_slot){.key = key, .value = initial, .used = 1};
    m->count++;
    if (inserted)
        *inserted = true;
    return &m->slots[i].value;
}

void u64map_free(u64map *m) {
    free(m->slots);
    *m = (u64map){0};
}

void u64map_clear(u64map *m) {
    if (m->slots)
        memset(m->slots, 0, (size_t)m->cap * sizeof *m->slots);
    m->count = 0;
}

/* Eight bytes a step (interning hashes every IRI and literal of every document read: byte by byte it was
 * a tenth of interning); the final mix spreads every input bit. */
uint64_t hash_bytes(const void *data, uint64_t len, uint64_t seed) {
    const unsigned char *p = data;
    uint64_t h = 0xcbf29ce484222325ULL ^ seed ^ len * 0x9e3779b97f4a7c15ULL;
    for (; len >= 8; p += 8, len -= 8) {
        uint64_t word;
        memcpy(&word, p, 8);
        h = (h ^ word) * 0x9e3779b97f4a7c15ULL;
        h ^= h >> 32;
    }
    uint64_t tail = 0;
    if (len) /* data may be NULL when len is 0 */
        memcpy(&tail, p, len);
    h = (h ^ tail) * 0x9e3779b97f4a7c15ULL;
    return hash_mix64(h);
}
