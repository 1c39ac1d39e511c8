/* discover.h: the GSM instances an agent takes from LDP containers (`ldgsm run --instances-from C`), so a
 * fleet needs no list of instances per agent and picks up instances created after it started.
 *
 * Every iteration the crawl reads each container (`<urn:ldgsm:agent> ldgsm:instancesFrom <C>`,
 * rules/ldp-crawl.n3). A member document not met before that falls in this agent's shard (--shard: the
 * member's IRI is hashed, agent/shard.h) is read as a candidate (`<urn:ldgsm:agent>
 * ldgsm:instanceCandidate <D>`, lenient: anyone may put anything into a container). The workflow
 * instances the candidate describes join the run in that same iteration (`<urn:ldgsm:agent>
 * ldgsm:instance <A>`): the subjects of D's own IRIs (D or D#...) that have a gsm:isInstanceOf and are no
 * stage of another instance (no gsm:inArtifactInstance but themselves). From then on they are asserted in
 * every iteration like --instance ones.
 *
 * A member describing no instance is not read again while it stays listed (an instance document is
 * created whole, by one PUT or POST); a candidate that cannot be read is tried again next iteration; a
 * member no longer listed leaves the run with its instances. A container that cannot be read leaves the
 * known instances running (the read failure is logged by the crawl like any other). */
#ifndef LDGSM_AGENT_DISCOVER_H
#define LDGSM_AGENT_DISCOVER_H

#include <stdbool.h>
#include <stddef.h>

#include "agent/agent.h"
#include "agent/vocab.h"
#include "rdf/log.h"
#include "rdf/store.h"

typedef struct discovery discovery;

/* At most this many members are read as candidates in one iteration, the others in the next ones: a container
 * of 100,000 instances would otherwise be read, parsed and evaluated in one iteration (about 30 million
 * triples). */
enum { DISCOVERY_CANDIDATES_PER_ITERATION = 5000 };

/* How this iteration's GET of a document went (agent_read_outcome); false when it was not read. */
typedef bool (*discovery_read_fn)(void *user, const char *iri, agent_read *out);

/* containers: absolute http(s) IRIs (copied); shard_count 0: every member is this agent's. */
discovery *discovery_new(char *const *containers, size_t container_count, unsigned shard_index,
                         unsigned shard_count, terms *t, const agent_vocab *v, const log_sink *log);
void discovery_free(discovery *d);

/* At an iteration's start: asserts into wm the containers to read, but those unchanged[i] says are
 * unchanged since their last listing (NULL: none; with --notifications, a channel watches it), whose members
 * stay as they were, and, when assert_known, the instances known (else the caller asserts those the
 * iteration evaluates, incremental.h). */
void discovery_begin(discovery *d, store *wm, bool assert_known, const bool *unchanged);

/* After each round of the crawl: takes in the container listings and candidates read since the last
 * call, asserting candidates and new instances into wm. Returns how many it asserted (the crawl goes on
 * while that is not 0). */
size_t discovery_scan(discovery *d, store *wm, discovery_read_fn read, void *user);

/* True when group is one of the discovery's own reads (a container it takes instances from, a member
 * document it reads to learn its instances): what an instance evaluates does not depend on it. */
bool discovery_reads(const discovery *d, term_id group);

/* True while some members of this agent's shard are not read yet (a container listed more than
 * DISCOVERY_CANDIDATES_PER_ITERATION new members, or a candidate's read failed): their listings must be read
 * again for their turn, watched or not. */
bool discovery_unread(const discovery *d);
/* True when this iteration asked as many candidates as it may, read some and left others: the next iteration
 * is due at once. */
bool discovery_more(const discovery *d);

/* The instances that joined the run in this iteration (valid until the next discovery_begin), and whether
 * some left it. */
const char *const *discovery_joined(const discovery *d, size_t *count);
bool discovery_some_left(const discovery *d);
/* How many members the iteration's bookkeeping walked over: none while every listing read names every
 * member it named before (members that join are added, the run's list is not made again), all of them
 * when some left. For tests of its cost. */
size_t discovery_work(const discovery *d);

/* The instances the containers list now (this agent's shard). The list is valid until the next discovery
 * call; its strings, until the next discovery_begin (an instance that leaves keeps its text until then). */
const char *const *discovery_instances(discovery *d, size_t *count);

#endif
