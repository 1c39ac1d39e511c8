/* shard.h: which workflow instances one agent of a fleet takes (`ldgsm run --shard I/N`): rendezvous
 * hashing. Every instance belongs to exactly one of the N shards, the one whose score for it is highest,
 * so a fleet grown from N to N + 1 agents moves only the instances the new shard wins, about 1/(N + 1) of
 * them, and no instance moves between old shards. The score of (instance, shard) is the first 8 bytes of
 * SHA-256 over the instance's IRI, a NUL and the shard's number in decimal: any agent, on any machine,
 * computes the same assignment. */
#ifndef LDGSM_AGENT_SHARD_H
#define LDGSM_AGENT_SHARD_H

#define SHARD_COUNT_MAX 4096

/* The shard (1..n) the instance belongs to; n >= 1. */
unsigned shard_of(const char *instance, unsigned n);
/* "I/N" with 1 <= I <= N <= SHARD_COUNT_MAX: 0 and *index, *count; -1 otherwise. */
int shard_parse(const char *text, unsigned *index, unsigned *count);

#endif
