/* strmap.c: string keys over u64map: entries chained per hash so collisions stay correct. */
#include "rdf/strmap.h"

#include <stdlib.h>
#include <string.h>

#include "rdf/buf.h"

static bool key_is(const strmap *m, uint32_t e, const char *key, size_t len) {
    return m->lengths[e] == len && memcmp(m->keys[e], key, len) == 0;
}

uint32_t *strmap_get_n(const strmap *m, const char *key, size_t len) {
    const uint32_t *head = u64map_get(&m->by_hash, hash_bytes(key, len, 0x5eed));
    for (uint32_t e = head ? *head : UINT32_MAX; e != UINT32_MAX; e = m->next[e])
        if (key_is(m, e, key, len))
            return &m->values[e];
    return NULL;
}

uint32_t *strmap_get(const strmap *m, const char *key) { return strmap_get_n(m, key, strlen(key)); }

uint32_t *strmap_put(strmap *m, const char *key, uint32_t initial, bool *inserted) {
    return strmap_put_n(m, key, strlen(key), initial, inserted);
}

uint32_t *strmap_put_n(strmap *m, const char *key, size_t len, uint32_t initial, bool *inserted) {
    uint32_t *head = u64map_put(&m->by_hash, hash_bytes(key, len, 0x5eed), UINT32_MAX, NULL);
    for (uint32_t e = *head; e != UINT32_MAX; e = m->next[e])
        if (key_is(m, e, key, len)) {
            if (inserted)
                *inserted = false;
            return &m->values[e];
        }
    if (m->count == m->cap) {
        m->cap = m->cap ? m->cap * 2 : 16;
        m->keys = xrealloc(m->keys, m->cap * sizeof *m->keys);
        m->lengths = xrealloc(m->lengths, m->cap * sizeof *m->lengths);
        m->values = xrealloc(m->values, m->cap * sizeof *m->values);
        m->next = xrealloc(m->next, m->cap * sizeof *m->next);
    }
    uint32_t e = m->count++;
    m->keys[e] = xstrndup(key, len);
    m->lengths[e] = len;
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
    free(m->lengths);
    free(m->values);
    free(m->next);
    u64map_free(&m->by_hash);
    *m = (strmap){0};
}
