/* hashmap.c: linear-probing u64 -> u32 map; grows at 70% load. */
#include "rdf/hashmap.h"

#include <stdlib.h>

#include "rdf/buf.h"

static uint32_t slot_of(const u64map *m, uint64_t key) {
    return (uint32_t)(hash_mix64(key) & (m->cap - 1));
}

uint32_t *u64map_get(const u64map *m, uint64_t key) {
    if (!m->cap)
        return NULL;
    for (uint32_t i = slot_of(m, key);; i = (i + 1) & (m->cap - 1)) {
        if (!m->used[i])
            return NULL;
        if (m->keys[i] == key)
            return &m->values[i];
    }
}

static void grow(u64map *m) {
    u64map bigger = {0};
    bigger.cap = m->cap ? m->cap * 2 : 16;
    bigger.keys = xmalloc(sizeof(uint64_t) * bigger.cap);
    bigger.values = xmalloc(sizeof(uint32_t) * bigger.cap);
    bigger.used = xcalloc(bigger.cap, 1);
    for (uint32_t i = 0; i < m->cap; i++) {
        if (!m->used[i])
            continue;
        uint32_t j = slot_of(&bigger, m->keys[i]);
        while (bigger.used[j])
            j = (j + 1) & (bigger.cap - 1);
        bigger.used[j] = 1;
        bigger.keys[j] = m->keys[i];
        bigger.values[j] = m->values[i];
    }
    bigger.count = m->count;
    u64map_free(m);
    *m = bigger;
}

uint32_t *u64map_put(u64map *m, uint64_t key, uint32_t initial, bool *inserted) {
    if ((m->count + 1) * 10 > m->cap * 7)
        grow(m);
    uint32_t i = slot_of(m, key);
    while (m->used[i]) {
        if (m->keys[i] == key) {
            if (inserted)
                *inserted = false;
            return &m->values[i];
        }
        i = (i + 1) & (m->cap - 1);
    }
    m->used[i] = 1;
    m->keys[i] = key;
    m->values[i] = initial;
    m->count++;
    if (inserted)
        *inserted = true;
    return &m->values[i];
}

void u64map_free(u64map *m) {
    free(m->keys);
    free(m->values);
    free(m->used);
    *m = (u64map){0};
}

uint64_t hash_bytes(const void *data, uint64_t len, uint64_t seed) {
    const unsigned char *p = data;
    uint64_t h = 0xcbf29ce484222325ULL ^ seed;
    for (uint64_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return hash_mix64(h);
}
