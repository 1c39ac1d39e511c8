/* dep_gsm.h: intertask dependencies compiled into a GSM model (`ldgsm deps --gsm`, docs/DESIGN.md §6.4). An event
 * named `book` is the opening of the model's stage <#book> or the achievement of its milestone <#book>
 * (the IRI's fragment); each happens at most once per artifact instance, and a complement when the
 * instance completes without it. The policy (dep_policy.h) becomes sentries over the status document,
 * which records the events (rules/gsm-events.n3: ldgsm:occurred on the instance, one event a step):
 *   - an event stage's guard conditions become `condition AND allowed(event)`, one sentry each;
 *   - an event milestone's achieving sentries become `sentry AND allowed(event)`;
 *   - a triggerable event gets one more guard (stage) or achieving sentry (milestone): trigger(event),
 *     so the agent makes it happen when the instance needs it;
 *   - the root's milestones wait for final(): the instance completes only where every dependency holds;
 *   - every event's model gets ldgsm:eventPriority (distinct; the event named first in the file highest).
 * Conditions are conjoined as text: every sentry they touch must be sp:text (gsm/condition_text.h). */
#ifndef LDGSM_DEPS_DEP_GSM_H
#define LDGSM_DEPS_DEP_GSM_H

#include <stddef.h>

#include "deps/dep_parse.h"
#include "deps/dep_policy.h"
#include "rdf/buf.h"
#include "rdf/store.h"

/* The model's triples with the dependencies compiled in, into *out (free it), and a line per event and
 * one for completion saying what each waits for, into summary. base is the model document's IRI (its
 * relative IRIs, and the sentries' text, are read against it). 0, or -1 with what is wrong in err (an
 * event naming no stage or milestone, or two; a root stage or milestone as an event; a milestone shared
 * by stages or with an invalidating sentry; a SPIN sentry to conjoin; a stage without guards). */
int dep_gsm_compile(terms *t, store *model, const char *base, const dep_set *set, const dep_policy *policy,
                    triple **out, size_t *count, buf *summary, char *err, size_t err_len);

#endif
