/* shard.c: rendezvous hashing of instances over the agents of a fleet (shard.h). */
#include "agent/shard.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nettle/sha2.h>

static uint64_t score(const char *instance, unsigned shard) {
    struct sha256_ctx ctx;
    char number[16];
    int len = snprintf(number, sizeof number, "%u", shard);
    sha256_init(&ctx);
    sha256_update(&ctx, strlen(instance) + 1, (const uint8_t *)instance); /* with its NUL: a separator */
    sha256_update(&ctx, (size_t)len, (const uint8_t *)number);
    uint8_t digest[SHA256_DIGEST_SIZE];
    sha256_digest(&ctx, sizeof digest, digest);
    uint64_t s = 0;
    for (int i = 0; i < 8; i++)
        s = s << 8 | digest[i];
    return s;
}

unsigned shard_of(const char *instance, unsigned n) {
    unsigned best = 1;
    uint64_t best_score = score(instance, 1);
    for (unsigned shard = 2; shard <= n; shard++) {
        uint64_t s = score(instance, shard);
        if (s > best_score) {
            best = shard;
            best_score = s;
        }
    }
    return best;
}

int shard_parse(const char *text, unsigned *index, unsigned *count) {
    char *end;
    unsigned long i = strtoul(text, &end, 10);
    if (end == text || *end != '/' || text[0] == '-' || end[1] == '-')
        return -1;
    const char *rest = end + 1;
    unsigned long n = strtoul(rest, &end, 10);
    if (end == rest || *end != '\0' || i < 1 || n < i || n > SHARD_COUNT_MAX)
        return -1;
    *index = (unsigned)i;
    *count = (unsigned)n;
    return 0;
}
