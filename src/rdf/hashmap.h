/* hashmap.h: an open-addressing map from 64-bit keys to 32-bit values (linear probing, power-of-two
 * capacity, no deletion). The store's indexes and the term table's lookups are built on it. */
#ifndef LDGSM_RDF_HASHMAP_H
#define LDGSM_RDF_HASHMAP_H

#include <stdbool.h>
#include <stdint.h>

typedef struct u64map_slot {
    uint64_t key;
    uint32_t value;
    uint32_t used;
} u64map_slot;

typedef struct u64map {
    u64map_slot *slots;
    uint32_t count, cap;
} u64map;

/* Returns a pointer to the value slot of key, or NULL when absent. */
uint32_t *u64map_get(const u64map *m, uint64_t key);
/* Returns the value slot of key, inserting it with value `initial` when absent; *inserted says which. */
uint32_t *u64map_put(u64map *m, uint64_t key, uint32_t initial, bool *inserted);
void u64map_free(u64map *m);
/* Empties the map, keeping its capacity for what comes next. */
void u64map_clear(u64map *m);

static inline uint64_t hash_mix64(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

/* A 64-bit hash of bytes (strings, id sequences), well mixed. */
uint64_t hash_bytes(const void *data, uint64_t len, uint64_t seed);

#endif
