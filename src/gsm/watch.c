/* watch.c: the checks `ldgsm run` makes on its GSM instances every iteration (watch.h). */
#include "gsm/watch.h"

#include <stdlib.h>
#include <string.h>

#include "gsm/lint_read.h"
#include "rdf/buf.h"
#include "rdf/strmap.h"
#include "rdf/vocab_ns.h"

enum { PROGRESS_EVERY = 10 };

typedef struct vocab {
    term_id is_instance_of, in_artifact_instance, has_state, active, is_achieved, has_guard, has_condition,
        has_milestone, achieving, invalidating, label, reads, holds_for, serves, read_failure;
} vocab;

/* What the watcher remembers of one stage or milestone fragment between iterations; its IRI is the key
 * of the same entry of fragment_index (one copy of it, not two: there are tens per instance). */
/* Kept as text: the agent releases an iteration's terms (rdf/term.h), and this outlives it. */
typedef struct fragment_seen {
    char *instance;
    char *value;        /* its state (stage) or achievement (milestone) in the last iteration */
    char *opened_with;  /* a stage: what its sentries read when it last opened (NULL: not seen opening) */
    bool cycling_said;
} fragment_seen;

struct gsm_watch {
    gsm_watch_options opt;
    vocab v;
    strmap unchanged;      /* instance -> iterations since its fragments last changed */
    strmap fragment_index; /* fragment -> 1 + index in fragments, its entry i is fragments[i]'s */
    fragment_seen *fragments;
    size_t fragment_count;
    lint_memo *lint; /* each model version's lint error count */
};

static void forget_fragment(fragment_seen *f) {
    free(f->instance);
    free(f->value);
    free(f->opened_with);
}

gsm_watch *gsm_watch_new(const gsm_watch_options *options) {
    gsm_watch *w = xcalloc(1, sizeof *w);
    w->opt = *options;
    w->lint = lint_memo_new();
    return w;
}

void gsm_watch_free(gsm_watch *w) {
    if (!w)
        return;
    for (size_t i = 0; i < w->fragment_count; i++)
        forget_fragment(&w->fragments[i]);
    free(w->fragments);
    strmap_free(&w->fragment_index);
    lint_memo_free(w->lint);
    strmap_free(&w->unchanged);
    free(w);
}

static void vocab_init(gsm_watch *w, terms *t) {
    vocab *v = &w->v;
    v->is_instance_of = terms_iri_cstr(t, GSM_isInstanceOf);
    v->in_artifact_instance = terms_iri_cstr(t, GSM_inArtifactInstance);
    v->has_state = terms_iri_cstr(t, GSM_hasState);
    v->active = terms_iri_cstr(t, GSM_active);
    v->is_achieved = terms_iri_cstr(t, GSM_isAchieved);
    v->has_guard = terms_iri_cstr(t, GSM_hasGuard);
    v->has_condition = terms_iri_cstr(t, GSM_hasCondition);
    v->has_milestone = terms_iri_cstr(t, GSM_hasMilestone);
    v->achieving = terms_iri_cstr(t, GSM_hasAchievingSentry);
    v->invalidating = terms_iri_cstr(t, GSM_hasInvalidatingSentry);
    v->label = terms_iri_cstr(t, RDFS_label);
    v->reads = terms_iri_cstr(t, LDGSM_reads);
    v->holds_for = terms_iri_cstr(t, LDGSM_holdsFor);
    v->serves = terms_iri_cstr(t, NS_GX "serves");
    v->read_failure = terms_iri_cstr(t, LDGSM_readFailure);
}

/* "<iri> "label"" or "<iri>": how lines name a model term. */
static void name_term(buf *out, terms *t, store *wm, const vocab *v, term_id x) {
    term_id label = store_first_object(wm, x, v->label);
    buf_printf(out, "<%s>", terms_lex(t, x, NULL));
    if (label && terms_kind(t, label) == TERM_LITERAL)
        buf_printf(out, " \"%s\"", terms_lex(t, label, NULL));
}

static int compare_strings(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* --- lint ------------------------------------------------------------------------------------------------ */

/* --- cycling --------------------------------------------------------------------------------------------- */

static fragment_seen *fragment(gsm_watch *w, const char *key, const char *instance) {
    bool first;
    uint32_t *slot = strmap_put(&w->fragment_index, key, 0, &first);
    if (first) {
        w->fragments = xrealloc(w->fragments, (w->fragment_count + 1) * sizeof *w->fragments);
        w->fragments[w->fragment_count] = (fragment_seen){.instance = xstrndup(instance, strlen(instance))};
        *slot = (uint32_t)++w->fragment_count;
    }
    return &w->fragments[*slot - 1];
}

/* Forgets what it remembers of instances that left the run: an agent taking its instances from a
 * container (--instances-from) meets new ones for as long as it runs. */
static void forget_departed(gsm_watch *w, const char *const *instances, size_t instance_count) {
    if (w->unchanged.count <= instance_count)
        return;
    strmap current = {0};
    for (size_t i = 0; i < instance_count; i++) {
        const uint32_t *count = strmap_get(&w->unchanged, instances[i]);
        *strmap_put(&current, instances[i], 0, NULL) = count ? *count : 0;
    }
    strmap_free(&w->unchanged);
    w->unchanged = current;
    strmap index = {0};
    size_t kept = 0;
    for (size_t i = 0; i < w->fragment_count; i++) {
        if (!strmap_get(&current, w->fragments[i].instance)) {
            forget_fragment(&w->fragments[i]);
            continue;
        }
        w->fragments[kept] = w->fragments[i];
        *strmap_put(&index, w->fragment_index.keys[i], 0, NULL) = (uint32_t)++kept;
    }
    w->fragment_count = kept;
    strmap_free(&w->fragment_index);
    w->fragment_index = index;
}

/* Appends to *keys "iri etag" for every resource the sentries of (subject, p1, [p2]) name. */
static void sentry_reads(terms *t, store *wm, const vocab *v, term_id sentry, watch_etag_fn etag_of, void *user,
                         char ***keys, size_t *count) {
    store_iter it;
    store_match(wm, sentry, v->reads, 0, 0, store_size(wm), &it);
    uint32_t n;
    for (const triple *tr; (tr = store_next(&it, &n));) {
        const char *iri = terms_lex(t, tr->o, NULL);
        const char *etag = etag_of(user, iri);
        buf key = {0};
        buf_printf(&key, "%s %s", iri, etag ? etag : "-");
        *keys = xrealloc(*keys, (*count + 1) * sizeof **keys);
        (*keys)[(*count)++] = buf_cstr(&key);
    }
}

/* What the sentries of stage model s read, as one string: the resources they name with their ETags. */
static char *stage_inputs(terms *t, store *wm, const vocab *v, term_id s, watch_etag_fn etag_of, void *user) {
    char **keys = NULL;
    size_t count = 0;
    store_iter guards;
    store_match(wm, s, v->has_guard, 0, 0, store_size(wm), &guards);
    uint32_t n;
    for (const triple *g; (g = store_next(&guards, &n));) {
        store_iter conditions;
        store_match(wm, g->o, v->has_condition, 0, 0, store_size(wm), &conditions);
        uint32_t m;
        for (const triple *c; (c = store_next(&conditions, &m));)
            sentry_reads(t, wm, v, c->o, etag_of, user, &keys, &count);
    }
    store_iter milestones;
    store_match(wm, s, v->has_milestone, 0, 0, store_size(wm), &milestones);
    for (const triple *ms; (ms = store_next(&milestones, &n));) {
        const term_id kinds[2] = {v->achieving, v->invalidating};
        for (int k = 0; k < 2; k++) {
            store_iter sentries;
            store_match(wm, ms->o, kinds[k], 0, 0, store_size(wm), &sentries);
            uint32_t m;
            for (const triple *q; (q = store_next(&sentries, &m));)
                sentry_reads(t, wm, v, q->o, etag_of, user, &keys, &count);
        }
    }
    if (count)
        qsort(keys, count, sizeof *keys, compare_strings);
    buf all = {0};
    for (size_t i = 0; i < count; i++) {
        buf_printf(&all, "%s\n", keys[i]);
        free(keys[i]);
    }
    free(keys);
    return buf_cstr(&all);
}

/* The milestones of stage model s whose achieving and invalidating sentries both hold for instance a. */
static void contradictory_milestones(terms *t, store *wm, const vocab *v, term_id s, term_id a, buf *out) {
    store_iter milestones;
    store_match(wm, s, v->has_milestone, 0, 0, store_size(wm), &milestones);
    uint32_t n;
    for (const triple *ms; (ms = store_next(&milestones, &n));) {
        term_id achieving = store_first_object(wm, ms->o, v->achieving), invalidating = store_first_object(wm, ms->o, v->invalidating);
        if (achieving && invalidating && store_find(wm, achieving, v->holds_for, a) != UINT32_MAX &&
            store_find(wm, invalidating, v->holds_for, a) != UINT32_MAX) {
            buf_puts(out, "; milestone ");
            name_term(out, t, wm, v, ms->o);
            buf_puts(out, ": its achieving and invalidating sentries both hold");
        }
    }
}

/* Compares instance a's fragments with the last iteration: names a stage that opens again on the same
 * inputs, and collects the changes for the progress line. Returns how many fragments changed. */
static unsigned watch_fragments(gsm_watch *w, terms *t, store *wm, term_id a, watch_etag_fn etag_of, void *user,
                                buf *changes) {
    const vocab *v = &w->v;
    unsigned changed = 0;
    store_iter it;
    store_match(wm, 0, v->in_artifact_instance, a, 0, store_size(wm), &it);
    uint32_t n;
    for (const triple *tr; (tr = store_next(&it, &n));) {
        term_id f = tr->s, model = store_first_object(wm, f, v->is_instance_of);
        term_id state = store_first_object(wm, f, v->has_state);
        bool stage = state != 0;
        term_id value = stage ? state : store_first_object(wm, f, v->is_achieved);
        if (!model || !value)
            continue;
        const char *value_text = terms_lex(t, value, NULL);
        fragment_seen *seen = fragment(w, terms_lex(t, f, NULL), terms_lex(t, a, NULL));
        bool first_sight = !seen->value, moved = !first_sight && strcmp(seen->value, value_text) != 0;
        if (moved) {
            changed++;
            buf_puts(changes, changed > 1 ? "; " : "");
            name_term(changes, t, wm, v, model);
            const char *text = value_text;
            if (!stage)
                text = strcmp(text, "true") == 0 ? "achieved" : "not achieved";
            else if (strrchr(text, '#'))
                text = strrchr(text, '#') + 1;
            buf_printf(changes, " %s", text);
        }
        bool opens = stage && value == v->active && (first_sight || moved);
        if (first_sight || moved) {
            free(seen->value);
            seen->value = xstrndup(value_text, strlen(value_text));
        }
        if (!opens)
            continue;
        char *inputs = stage_inputs(t, wm, v, model, etag_of, user);
        bool same = !first_sight && seen->opened_with && strcmp(seen->opened_with, inputs) == 0;
        if (same && !seen->cycling_said) {
            buf line = {0};
            buf_printf(&line, "cycling: <%s>: stage ", terms_lex(t, a, NULL));
            name_term(&line, t, wm, v, model);
            buf_puts(&line, " opened again without a change in what its sentries read (it closes and re-opens, "
                            "re-sending its task, until they change)");
            contradictory_milestones(t, wm, v, model, a, &line);
            log_event(w->opt.log, LOG_WARN, "cycling", terms_lex(t, a, NULL), LOG_NO_FIELDS, "%s", buf_cstr(&line));
            buf_free(&line);
            seen->cycling_said = true;
        } else if (!same) {
            seen->cycling_said = false;
        }
        free(seen->opened_with);
        seen->opened_with = inputs;
    }
    return changed;
}

int gsm_watch_iteration(gsm_watch *w, agent *a) {
    terms *t = agent_terms(a);
    store *wm = agent_memory(a);
    size_t instance_count;
    const char *const *instances = agent_evaluated_instances(a, &instance_count); /* nothing of the others changed */
    watch_etag_fn etag_of = agent_read_etag;
    void *user = a;
    vocab_init(w, t);
    size_t refused = 0;
    lint_term_docs *term_docs = lint_term_docs_new();
    for (size_t i = 0; i < instance_count; i++) {
        term_id iri = terms_iri_cstr(t, instances[i]);
        term_id *docs;
        size_t doc_count = lint_read_documents(t, wm, term_docs, w->v.serves, w->v.read_failure, iri, &docs);
        const char *refusal = doc_count ? lint_memo_check(w->lint, &(lint_read){t, wm, etag_of, user, w->opt.log},
                                                          docs, doc_count, iri, "model", w->opt.compat_authors_draft,
                                                          NULL)
                                        : NULL;
        free(docs);
        if (refusal) {
            refused++;
            buf why = {0};
            buf_printf(&why, "its model is refused: %s", refusal);
            agent_hold(a, iri, buf_cstr(&why));
            buf_free(&why);
            continue;
        }
        buf changes = {0};
        unsigned changed = watch_fragments(w, t, wm, iri, etag_of, user, &changes);
        uint32_t *unchanged = strmap_put(&w->unchanged, instances[i], 0, NULL);
        *unchanged = changed ? 0 : *unchanged + 1;
        if (w->opt.verbose && changed)
            log_msg(w->opt.log, LOG_INFO, "progress: <%s>: %s", instances[i], buf_cstr(&changes));
        else if (w->opt.verbose && *unchanged && *unchanged % PROGRESS_EVERY == 0)
            log_msg(w->opt.log, LOG_INFO, "progress: <%s>: unchanged for %lu iterations", instances[i],
                    (unsigned long)*unchanged);
        buf_free(&changes);
    }
    lint_term_docs_free(term_docs);
    forget_departed(w, instances, instance_count);
    if (refused && refused == instance_count && !w->opt.open_ended) {
        log_msg(w->opt.log, LOG_ERROR, "every instance of this run has a model that ldgsm lint rejects: nothing to run");
        return 1;
    }
    return 0;
}
