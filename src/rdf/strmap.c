/* strmap.c: string keys over u64map: entries chained per hash so collisions stay correct. */
#include "rdf/strmap.h"

#include <stdlib.h>
#include <string.h>

#include "rdf/buf.h"

static uint64_t key_hash(const char *key) { return hash_bytes(key, strlen(key), 0x5eed); }

uint32_t *strmap_get(const strmap *m, const char *key) {
    const uint32_t *head = u64map_get(&m->by_hash, key_hash(key));
    for (uint32_t e = head ? *head : UINT32_MAX; e != UINT32_MAX; e = m->next[e])
        if (strcmp(m->keys[e], key) == 0)
            return &m->values[e];
    return NULL;
}

uint32_t *strmap_put(strmap *m, const char *key, uint32_t initial, bool *inserted) {
    uint64_t h = key_hash(key);
    bool new_hash;
    uint32_t *head = u64map_put(&m->by_hash, h, UINT32_MAX, &new_hash);
    for (uint32_t e = *head; e != UINT32_MAX; e = m->next[e])
        if (strcmp(m->keys[e], key) == 0) {
            if (inserted)
                *inserted = false;
            return &m->values[e];
        }
    if (m->count == m->cap) {
        m->cap = m->cap ? m->cap * 2 : 16;
        m->keys = xrealloc(m->keys, m->cap * sizeof *m->keys);
        m->values = xrealloc(m->values, m->cap * sizeof *m->values);
        m->next = xrealloc(m->next, m->cap * sizeof *m->next);
    }
    uint32_t e = m->count++;
    m->keys[e] = xstrndup(key, strlen(key));
    m->values[e] = initial;
    m->next[e] = *head;
    *head = e;
    if (inserted)
        *inserted = true;
    return &m->values[e];
}

void strmap_free(strmap *m) {
    for (uint32_t e = 0; e < m->count; e++)
        free(m->keys[e]);
    free(m->keys);
    free(m->values);
    free(m->next);
    u64map_free(&m->by_hash);
    *m = (strmap){0};
}
