/* release.c: releasing the terms iterations interned, keeping what outlives an iteration (release.h). */
#include "agent/release.h"

#include <stdlib.h>
#include <string.h>

enum { IDENTITIES_KEPT = 1 << 16 };

/* By default the terms iterations interned are released once they outnumber this and the lasting terms
 * (the rules, inputs and vocabulary); built with AddressSanitizer, once there are a few, so that the tests
 * run there release every few iterations and catch a term held across a release (rdf/term.h). */
#if defined(__SANITIZE_ADDRESS__)
enum { RELEASE_AFTER_TERMS = 1 << 13, RELEASE_SCALES_WITH_LASTING = 0 };
#else
enum { RELEASE_AFTER_TERMS = 1 << 16, RELEASE_SCALES_WITH_LASTING = 1 };
#endif

void release_terms(terms *t, terms_mark *lasting, size_t after, size_t *kept_before, answers *kept,
                   doc_cache *documents, sentry_table *sentries, identity_cache *identities, const log_sink *log) {
    size_t lasting_count = lasting->count, scratch = terms_live(t) - lasting_count;
    if (!after)
        after = RELEASE_SCALES_WITH_LASTING && lasting_count > RELEASE_AFTER_TERMS ? lasting_count
                                                                                  : RELEASE_AFTER_TERMS;
    /* what the last release kept (the documents held above all) does not count towards the next one, or
     * an agent holding many documents would release, and import them again, every iteration */
    if (scratch <= after + *kept_before)
        return;
    /* the answers' and the held documents' terms: where each is held, and its id through the release */
    term_id **held_by_answers, **held_by_documents;
    size_t answer_count = answers_held_terms(kept, &held_by_answers);
    size_t document_count = doc_cache_held_terms(documents, &held_by_documents);
    size_t count = answer_count + document_count;
    term_id **held = xmalloc((count ? count : 1) * sizeof *held);
    memcpy(held, held_by_answers, answer_count * sizeof *held);
    memcpy(held + answer_count, held_by_documents, document_count * sizeof *held);
    free(held_by_answers);
    free(held_by_documents);
    term_id *keep = xmalloc((count ? count : 1) * sizeof *keep);
    for (size_t i = 0; i < count; i++)
        keep[i] = *held[i];
    sentry_table_forget(sentries);
    if (identities->count > IDENTITIES_KEPT)
        identity_cache_free(identities);
    size_t released = terms_release(t, lasting, keep, count);
    for (size_t i = 0; i < count; i++)
        *held[i] = keep[i];
    free(held);
    free(keep);
    *kept_before = terms_live(t) - lasting_count;
    log_msg(log, LOG_DEBUG, "terms: %zu released, %zu kept", released, terms_live(t));
}
