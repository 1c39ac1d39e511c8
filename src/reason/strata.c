/* strata.c: the late stratum of a program's rules (strata.h, docs/DESIGN.md §1.2). */
#include "reason/strata.h"

#include "rdf/hashmap.h"

void rule_set_assign_late_stratum(rule_set *rs, const term_id *late_predicates, size_t late_count, int stratum) {
    u64map late = {0}; /* predicates derived in the late stratum */
    for (size_t i = 0; i < late_count; i++)
        u64map_put(&late, late_predicates[i], 1, NULL);
    for (bool changed = true; changed;) {
        changed = false;
        for (unsigned i = 0; i < rs->count; i++) {
            rule *r = rs->rules[i];
            if (r->stratum == stratum)
                continue;
            bool reads_late = r->has_negation;
            for (unsigned b = 0; b < r->body_count && !reads_late; b++) {
                pos_code p = r->body[b].pos[1];
                reads_late = r->body[b].kind == ATOM_MATCH && p > 0 && u64map_get(&late, (uint64_t)p);
            }
            if (!reads_late)
                continue;
            r->stratum = stratum;
            changed = true;
            for (unsigned h = 0; h < r->head_count && !r->is_request; h++)
                if (r->head_codes[h].pos[1] > 0)
                    u64map_put(&late, (uint64_t)r->head_codes[h].pos[1], 1, NULL);
        }
    }
    u64map_free(&late);
}
