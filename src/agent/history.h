/* history.h: the bounded history a composed update appends to the document it writes (docs/DESIGN.md
 * §6.5): one entry per (subject, predicate) slot whose values the write changes and whose predicate is
 * declared `a ldgsm:HistoryProperty` (ontology/gsm.ttl declares the states: gsm:hasState, gsm:isAchieved,
 * ldgsm:isCompleted, ldgsm:taskState, ldgsm:callState), so that a status document says what happened to
 * it and when, without growing without end. A call's bookkeeping (deadlines, retries left) is not history.
 *
 *   <doc#t-N> ldgsm:sequence N ; ldgsm:at <the iteration's ldgsm:now> ;
 *             ldgsm:changed <subject> ; ldgsm:property <predicate> ;
 *             ldgsm:from <each old value> ; ldgsm:to <each new value> .
 *
 * (ontology/gsm.ttl gives ldgsm:sequence the domain ldgsm:Transition; the type is not written: every
 * triple of an entry is read by every agent in every iteration, and the history is most of a long-running
 * instance's document.)
 *
 * N counts up from the highest entry the document holds, or from its `ldgsm:archivedThrough` when that
 * is higher (entries moved to its archive: archive.h); when more than the limit would be kept, the oldest
 * entries go. Entries are plain triples of the document: a second agent composing the same change
 * from the same read writes the same entries, and its conditional write loses the race as any other. */
#ifndef LDGSM_AGENT_HISTORY_H
#define LDGSM_AGENT_HISTORY_H

#include <stddef.h>

#include "agent/vocab.h"
#include "rdf/hashmap.h"
#include "rdf/term.h"

enum { HISTORY_DEFAULT_LIMIT = 100 };

typedef struct history_slot {
    term_id s, p;
} history_slot;

typedef struct history_input {
    terms *t;
    const agent_vocab *v;
    const char *doc_url; /* the document written, fragment-free */
    term_id clock;       /* the iteration's ldgsm:now (0: none, no entry is written) */
    unsigned limit;      /* entries kept; 0: no history */
    const u64map *tracked; /* the predicates whose changes are entries (declared ldgsm:HistoryProperty) */
} history_input;

/* Appends to *next (the document as it will be written; `before` is the document as read) an entry for
 * every slot of slots[0..slot_count) whose value set differs between the two, and removes the oldest
 * entries beyond the limit. *next is reallocated as needed; neither array needs to be sorted. */
void history_record(const history_input *in, const triple *before, size_t before_count, const history_slot *slots,
                    size_t slot_count, triple **next, size_t *next_count);

#endif
