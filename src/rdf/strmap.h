/* strmap.h: a map from strings to 32-bit values, for tables keyed by text (documents by URI, requests by
 * identity). Keys are copied; lookups hash once and compare only on a hash match. */
#ifndef LDGSM_RDF_STRMAP_H
#define LDGSM_RDF_STRMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rdf/hashmap.h"

typedef struct strmap {
    u64map by_hash;   /* hash -> newest entry with that hash */
    char **keys;      /* entry -> its key (NUL-terminated copy) */
    size_t *lengths;  /* entry -> its key's length */
    uint32_t *values; /* entry -> value */
    uint32_t *next;   /* entry -> older entry with the same hash, or UINT32_MAX */
    uint32_t count, cap;
} strmap;

/* The value slot of key, or NULL. */
uint32_t *strmap_get(const strmap *m, const char *key);
/* The value slot of key, added with value `initial` when absent (*inserted says which). */
uint32_t *strmap_put(strmap *m, const char *key, uint32_t initial, bool *inserted);
/* The same with counted keys (not NUL-terminated, e.g. a slice of a lexer's buffer). */
uint32_t *strmap_get_n(const strmap *m, const char *key, size_t len);
uint32_t *strmap_put_n(strmap *m, const char *key, size_t len, uint32_t initial, bool *inserted);
void strmap_free(strmap *m);

#endif
