/* dep_gsm.c: a GSM model with intertask dependencies compiled into its guards and milestones (dep_gsm.h):
 * finding each event's stage or milestone, the sentries' text, and the rewritten model. */
#include "deps/dep_gsm.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/vocab.h"
#include "deps/dep_guard.h"
#include "gsm/condition_text.h"
#include "gsm/model_terms.h"
#include "rdf/hashmap.h"
#include "rdf/rdfio.h"
#include "rdf/strmap.h"


typedef struct {
    term_id model; /* the stage or the milestone */
    term_id owner; /* a milestone's stage; 0 for a stage */
    int priority;
} event_site;

/* The stages and milestones of the model that a fragment names: an event names one (found_count 1). */
typedef struct {
    term_id found;
    size_t found_count;
} named_site;

typedef struct {
    terms *t;
    store *m;
    const char *base;
    const dep_set *set;
    const dep_policy *policy;
    char *err;
    size_t err_len;
    gsm_model_terms g;
    term_id event_priority;
    event_site *sites; /* by symbol */
    triple *out;
    size_t count, capacity;
    bool *dropped; /* by triple number of the model */
    int var;       /* variables of generated text */
    const char *event; /* what is being compiled, for messages: "event book" or "completion" */
    term_id *orphans;  /* objects of dropped triples: dropped too unless still referenced */
    size_t orphan_count;
    strmap by_fragment; /* fragment -> index in named: the model's stages and milestones by fragment */
    named_site *named;
    size_t named_count;
} gsm_ctx;

static int fail(gsm_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(gsm_ctx *c, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err, c->err_len, fmt, ap);
    va_end(ap);
    return -1;
}

static void emit(gsm_ctx *c, term_id s, term_id p, term_id o) {
    if (c->count == c->capacity) {
        c->capacity = c->capacity ? 2 * c->capacity : 256;
        c->out = xrealloc(c->out, c->capacity * sizeof *c->out);
    }
    c->out[c->count++] = (triple){s, p, o};
}

static const char *fragment_of(const char *iri) {
    const char *hash = strrchr(iri, '#');
    return hash ? hash + 1 : NULL;
}

static bool is_stage(gsm_ctx *c, term_id s) {
    return store_find(c->m, s, T_RDF_TYPE, c->g.stage) != UINT32_MAX || store_first_object(c->m, s, c->g.has_guard) ||
           store_first_object(c->m, s, c->g.has_milestone) || store_first_object(c->m, s, c->g.has_child);
}

static bool is_child(gsm_ctx *c, term_id s) {
    store_iter it;
    store_match(c->m, 0, c->g.has_child, s, 0, store_size(c->m), &it);
    uint32_t n;
    return store_next(&it, &n) != NULL;
}

/* The dependency that first mentions the symbol: where an error about the event points. */
static const dep_dependency *first_mention(const dep_set *set, int symbol) {
    for (size_t d = 0; d < set->count; d++) {
        int symbols[DEP_SYMBOLS_MAX];
        size_t k = dep_symbols(set->deps[d].expr, symbols, DEP_SYMBOLS_MAX);
        for (size_t i = 0; i < k && i < DEP_SYMBOLS_MAX; i++)
            if (symbols[i] == symbol)
                return &set->deps[d];
    }
    return NULL;
}

/* by_fragment: every stage (a subject is_stage says is one) and milestone (an object of gsm:hasMilestone)
 * of the model, by its IRI's fragment, in one pass over the model. */
static void index_fragments(gsm_ctx *c) {
    u64map seen = {0};
    for (uint32_t i = 0; i < store_size(c->m); i++) {
        const triple *tr = store_triple(c->m, i);
        term_id candidates[2] = {tr->s, tr->p == c->g.has_milestone ? tr->o : 0};
        for (int k = 0; k < 2; k++) {
            term_id x = candidates[k];
            if (!x || terms_kind(c->t, x) != TERM_IRI)
                continue;
            const char *fragment = fragment_of(terms_lex(c->t, x, NULL));
            enum { UNSEEN, TAKEN, NOT_A_STAGE };
            uint32_t *seen_as = u64map_put(&seen, x, UNSEEN, NULL);
            if (!fragment || *seen_as == TAKEN || (k == 0 && *seen_as == NOT_A_STAGE))
                continue;
            if (k == 0 && !is_stage(c, x)) {
                *seen_as = NOT_A_STAGE; /* it may still be a milestone, as an object of gsm:hasMilestone */
                continue;
            }
            *seen_as = TAKEN;
            bool inserted;
            uint32_t *slot = strmap_put(&c->by_fragment, fragment, (uint32_t)c->named_count, &inserted);
            if (inserted) {
                c->named = xrealloc(c->named, (c->named_count + 1) * sizeof *c->named);
                c->named[c->named_count++] = (named_site){0};
            }
            c->named[*slot].found = x;
            c->named[*slot].found_count++;
        }
    }
    u64map_free(&seen);
}

/* The stage or milestone an event names, checked for what the compilation needs. */
static int find_site(gsm_ctx *c, int symbol, event_site *site) {
    const char *name = c->set->ev.names[symbol];
    const dep_dependency *at = first_mention(c->set, symbol); /* a grouped event has one */
    const char *path = at->path;
    int line = at->line;
    const uint32_t *slot = strmap_get(&c->by_fragment, name);
    term_id found = slot ? c->named[*slot].found : 0;
    size_t found_count = slot ? c->named[*slot].found_count : 0;
    if (found_count != 1)
        return fail(c, "%s:%d: event %s %s", path, line, name,
                    found_count ? "names several stages or milestones of the model (by their fragment)"
                                : "names no stage or milestone of the model (a stage <#NAME> opening, a "
                                  "milestone <#NAME> achieved)");
    site->model = found;
    site->owner = 0;
    const char *iri = terms_lex(c->t, found, NULL);
    store_iter it;
    store_match(c->m, 0, c->g.has_milestone, found, 0, store_size(c->m), &it);
    const triple *owner;
    size_t owners = 0;
    uint32_t n;
    while ((owner = store_next(&it, &n)) != NULL) {
        site->owner = owner->s;
        owners++;
    }
    if (owners > 1)
        return fail(c, "%s:%d: event %s: milestone <%s> belongs to several stages: which one's achievement "
                       "is the event?", path, line, name, iri);
    term_id stage = owners ? site->owner : found;
    if (!is_child(c, stage))
        return fail(c, "%s:%d: event %s: <%s> is %s: it is no event of a run (the root opens at set-up, "
                       "its milestone completes the instance)", path, line, name, iri,
                    owners ? "a milestone of the root" : "the root stage");
    if (owners && store_first_object(c->m, found, c->g.invalidating))
        return fail(c, "%s:%d: event %s: milestone <%s> has an invalidating sentry, and an event happens "
                       "once per instance", path, line, name, iri);
    if (!owners && !store_first_object(c->m, found, c->g.has_guard) &&
        !(dep_attributes(c->set, 2 * symbol) & DEP_TRIGGERABLE))
        return fail(c, "%s:%d: event %s: stage <%s> has no guard, so it never opens (unless triggerable)", path,
                    line, name, iri);
    return 0;
}

/* `{ cube } UNION { cube }` over the instance's recorded events; "FILTER(false)" for 0, "" for T. */
static void cover_text(gsm_ctx *c, const dep_group *g, const dep_cover *cover, buf *out) {
    if (cover->count == 0) {
        buf_puts(out, "FILTER(false)");
        return;
    }
    if (cover->count == 1 && !cover->cubes[0].occurred && !cover->cubes[0].pending)
        return;
    const char *this_iri = "<" NS_GSM "thisArtifactInstance>", *occurred = "<" NS_LDGSM "occurred>";
    for (size_t k = 0; k < cover->count; k++) {
        buf_puts(out, k ? " UNION {" : "{");
        /* what has occurred first: the OPTIONALs after it test single triples */
        for (size_t pass = 0; pass < 2 * g->n; pass++) {
            size_t i = pass % g->n;
            uint32_t bit = 1u << i, wanted = pass < g->n ? cover->cubes[k].occurred : cover->cubes[k].pending;
            if (!(wanted & bit))
                continue;
            buf event = {0};
            rdf_write_relative_iri(terms_lex(c->t, c->sites[g->symbols[i]].model, NULL), c->base, &event);
            if (cover->cubes[k].occurred & bit)
                buf_printf(out, " %s %s %s .", this_iri, occurred, buf_cstr(&event));
            else {
                int v = ++c->var;
                buf_printf(out, " OPTIONAL { %s %s ?dep%d . FILTER(sameTerm(?dep%d, %s)) } FILTER(!bound(?dep%d))",
                           this_iri, occurred, v, v, buf_cstr(&event), v);
            }
            buf_free(&event);
        }
        buf_puts(out, " }");
    }
}

/* <#x> for the model's own IRIs, as a user wrote them. */
static void shown_iri(gsm_ctx *c, term_id id, buf *out) { rdf_write_relative_iri(terms_lex(c->t, id, NULL), c->base, out); }

/* What a conjoined sentry is labelled with, for `ldgsm status`: the original sentry, what the
 * dependencies ask (readable) and which dependencies ask it. */
static char *label_of(gsm_ctx *c, const char *what, term_id original, const char *asked, const char *dependencies) {
    buf b = {0};
    buf_puts(&b, what);
    if (original) {
        buf_puts(&b, " ");
        shown_iri(c, original, &b);
        buf_puts(&b, ", and");
    }
    buf_printf(&b, " by %s: %s", dependencies, asked);
    char *label = xstrndup(buf_cstr(&b), b.len);
    buf_free(&b);
    return label;
}

static term_id new_node(gsm_ctx *c, const char *what, const char *name, int k) {
    char *iri = NULL;
    buf b = {0};
    buf_printf(&b, "%s#dep-%s-%s", c->base, what, name);
    if (k)
        buf_printf(&b, "-%d", k);
    iri = buf_cstr(&b);
    term_id id = terms_iri_cstr(c->t, iri);
    buf_free(&b);
    return id;
}

/* A sentry whose text is the sentry `original`'s (none: T) and the dependency part, and which says what the
 * original says beside its query (gsm_model_carried: ldgsm:readsContainer, ldgsm:reads ...): the original
 * may be dropped as an orphan, and the crawl GETs only what a sentry the model names declares. */
static int conjoined_sentry(gsm_ctx *c, term_id node, term_id original, const char *dep_part, char *label) {
    buf text = {0};
    condition_text split = {0};
    if (original) {
        term_id t = store_first_object(c->m, original, c->g.text);
        if (!t || terms_kind(c->t, t) != TERM_LITERAL) {
            free(label);
            buf_free(&text);
            return fail(c, "%s: <%s> is a sentry in SPIN RDF: the dependencies are conjoined into sp:text "
                           "sentries only (write it as sp:text)", c->event, terms_lex(c->t, original, NULL));
        }
        term_id blank = gsm_model_carried_blank(&c->g, c->t, c->m, original);
        if (blank) {
            free(label);
            buf_free(&text);
            return fail(c, "%s: <%s>: its <%s> is a blank node, which the sentries made of it cannot carry: give it "
                           "an IRI", c->event, terms_lex(c->t, original, NULL), terms_lex(c->t, blank, NULL));
        }
        char why[256];
        if (condition_text_split(terms_lex(c->t, t, NULL), "c_", &split, why, sizeof why) != 0) {
            free(label);
            buf_free(&text);
            return fail(c, "%s: <%s>: %s", c->event, terms_lex(c->t, original, NULL), why);
        }
        for (size_t i = 0; i < split.prefix_count; i++)
            buf_printf(&text, "PREFIX %s <%s>\n", split.prefix_names[i], split.prefix_iris[i]);
    }
    buf_puts(&text, "ASK {\n");
    if (original)
        buf_printf(&text, "  { %s }\n", split.group);
    if (dep_part[0])
        buf_printf(&text, "  { %s }\n", dep_part);
    buf_puts(&text, "}");
    condition_text_free(&split);
    emit(c, node, T_RDF_TYPE, c->g.ask);
    emit(c, node, c->g.text, terms_string(c->t, buf_cstr(&text)));
    emit(c, node, c->g.label, terms_string(c->t, label));
    if (original) {
        store_iter it;
        store_match(c->m, original, 0, 0, 0, store_size(c->m), &it);
        const triple *tr;
        uint32_t n;
        while ((tr = store_next(&it, &n)))
            if (gsm_model_carried(&c->g, c->t, tr->p))
                emit(c, node, tr->p, tr->o);
    }
    free(label);
    buf_free(&text);
    return 0;
}

static void drop(gsm_ctx *c, term_id s, term_id p) {
    store_iter it;
    store_match(c->m, s, p, 0, 0, store_size(c->m), &it);
    uint32_t n;
    const triple *tr;
    while ((tr = store_next(&it, &n)) != NULL) {
        c->dropped[n] = true;
        if (tr->p == c->g.has_guard || tr->p == c->g.has_condition || tr->p == c->g.achieving) {
            c->orphans = xrealloc(c->orphans, (c->orphan_count + 1) * sizeof *c->orphans);
            c->orphans[c->orphan_count++] = tr->o;
        }
    }
}

/* The guards and sentries the rewrite replaced are left out when nothing else refers to them: the agent
 * would evaluate an unreferenced sentry, and crawl what it reads, every iteration. */
static void drop_orphans(gsm_ctx *c) {
    for (size_t k = 0; k < c->orphan_count; k++) {
        term_id x = c->orphans[k];
        store_iter it;
        uint32_t n;
        bool referenced = false;
        store_match(c->m, 0, 0, x, 0, store_size(c->m), &it);
        while (!referenced && store_next(&it, &n))
            referenced = !c->dropped[n];
        if (!referenced)
            drop(c, x, 0);
    }
}

static term_id *objects(gsm_ctx *c, term_id s, term_id p, size_t *count) {
    store_iter it;
    store_match(c->m, s, p, 0, 0, store_size(c->m), &it);
    term_id *list = NULL;
    *count = 0;
    const triple *tr;
    uint32_t n;
    while ((tr = store_next(&it, &n)) != NULL) {
        list = xrealloc(list, (*count + 1) * sizeof *list);
        list[(*count)++] = tr->o;
    }
    return list;
}

/* The groups an event belongs to (several when its related events were split by dependency). */
typedef struct {
    const dep_group *g;
    size_t index;
} membership;

static size_t memberships(gsm_ctx *c, int symbol, membership *out) {
    size_t n = 0, index;
    for (size_t from = 0; dep_policy_next_group(c->policy, symbol, &from, &index); from++)
        out[n++] = (membership){&c->policy->groups[from], index};
    return n;
}

/* A conjunction over an event's groups, as sentry text (`{ part } { part }`), readable (`C1 & C2`), and
 * the names of the dependencies it comes from. */
typedef struct {
    buf text, shown, names;
} event_part;

/* Is name one of the ", "-separated names of list? */
static bool listed(const char *list, const char *name) {
    size_t len = strlen(name);
    for (const char *at = list; (at = strstr(at, name)) != NULL; at += len)
        if ((at == list || at[-1] == ' ') && (at[len] == '\0' || at[len] == ','))
            return true;
    return false;
}

static void part_add(gsm_ctx *c, event_part *part, const dep_group *g, const dep_cover *cover, bool several) {
    buf one = {0};
    cover_text(c, g, cover, &one);
    if (one.len)
        buf_printf(&part->text, "%s{ %s }", part->text.len ? " " : "", buf_cstr(&one));
    buf_free(&one);
    buf shown = {0};
    dep_cover_print(&c->set->ev, g, cover, &shown);
    bool bracket = several && strchr(buf_cstr(&shown), '|');
    buf_printf(&part->shown, "%s%s%s%s", part->shown.len ? " & " : "", bracket ? "(" : "", buf_cstr(&shown),
               bracket ? ")" : "");
    buf_free(&shown);
    for (size_t d = 0; d < g->dep_count; d++) {
        const char *name = c->set->deps[g->deps[d]].name;
        if (!listed(buf_cstr(&part->names), name))
            buf_printf(&part->names, "%s%s", part->names.len ? ", " : "", name);
    }
}

static void part_free(event_part *part) {
    buf_free(&part->text);
    buf_free(&part->shown);
    buf_free(&part->names);
}

/* An event: its guard conditions (stage) or achieving sentries (milestone) conjoined with what every group
 * of it allows, and, for a triggerable event, one more way: a group needs it (its trigger) and the others
 * allow it. */
static int compile_event(gsm_ctx *c, int symbol, buf *summary) {
    const char *name = c->set->ev.names[symbol];
    buf subject = {0};
    buf_printf(&subject, "event %s", name);
    c->event = buf_cstr(&subject);
    event_site *site = &c->sites[symbol];
    membership *ms = xcalloc(c->policy->count + 1, sizeof *ms);
    size_t m_count = memberships(c, symbol, ms);
    event_part allowed = {0}, trigger = {0};
    for (size_t m = 0; m < m_count; m++)
        part_add(c, &allowed, ms[m].g, &ms[m].g->allowed_cover[ms[m].index], m_count > 1);
    bool triggers = false;
    for (size_t m = 0; m < m_count; m++) {
        if (ms[m].g->trigger_cover[ms[m].index].count == 0)
            continue;
        event_part way = {0};
        part_add(c, &way, ms[m].g, &ms[m].g->trigger_cover[ms[m].index], m_count > 1);
        for (size_t o = 0; o < m_count; o++)
            if (o != m)
                part_add(c, &way, ms[o].g, &ms[o].g->allowed_cover[ms[o].index], true);
        buf_printf(&trigger.text, "%s{ %s }", triggers ? " UNION " : "", buf_cstr(&way.text));
        buf_printf(&trigger.shown, "%s%s%s%s", triggers ? " | " : "", m_count > 1 ? "(" : "", buf_cstr(&way.shown),
                   m_count > 1 ? ")" : "");
        if (!trigger.names.len)
            buf_puts(&trigger.names, buf_cstr(&allowed.names));
        triggers = true;
        part_free(&way);
    }
    free(ms);
    buf_printf(summary, "%s (%s <%s>) happens when: %s\n", name, site->owner ? "milestone" : "stage",
               terms_lex(c->t, site->model, NULL), buf_cstr(&allowed.shown));
    if (triggers)
        buf_printf(summary, "%s is triggered when: %s\n", name, buf_cstr(&trigger.shown));
    char priority[16];
    snprintf(priority, sizeof priority, "%d", site->priority);
    emit(c, site->model, c->event_priority, terms_literal(c->t, priority, strlen(priority), T_XSD_INTEGER, NULL, 0));
    const char *names = buf_cstr(&allowed.names);
    buf dependencies_text = {0};
    buf_printf(&dependencies_text, "dependenc%s %s", strchr(names, ',') ? "ies" : "y", names);
    const char *dependencies = buf_cstr(&dependencies_text);
    int rc = 0;
    term_id target = site->owner ? c->g.achieving : c->g.has_guard;
    size_t n;
    term_id *originals = objects(c, site->model, target, &n);
    drop(c, site->model, target);
    if (site->owner) {
        for (size_t k = 0; k < n && rc == 0; k++) {
            term_id node = new_node(c, "achieving", name, (int)k + 1);
            rc = conjoined_sentry(c, node, originals[k], buf_cstr(&allowed.text),
                                  label_of(c, "achieving sentry", originals[k], buf_cstr(&allowed.shown), dependencies));
            emit(c, site->model, c->g.achieving, node);
        }
        if (triggers && rc == 0) {
            term_id node = new_node(c, "trigger", name, 0);
            rc = conjoined_sentry(c, node, 0, buf_cstr(&trigger.text),
                                  label_of(c, "triggered", 0, buf_cstr(&trigger.shown), dependencies));
            emit(c, site->model, c->g.achieving, node);
        }
    } else {
        term_id guard = new_node(c, "guard", name, 0);
        emit(c, site->model, c->g.has_guard, guard);
        emit(c, guard, T_RDF_TYPE, c->g.guard);
        int k = 0;
        for (size_t i = 0; i < n && rc == 0; i++) {
            size_t condition_count;
            term_id *conditions = objects(c, originals[i], c->g.has_condition, &condition_count);
            for (size_t j = 0; j < condition_count && rc == 0; j++) {
                term_id node = new_node(c, "condition", name, ++k);
                rc = conjoined_sentry(c, node, conditions[j], buf_cstr(&allowed.text),
                                      label_of(c, "guard condition", conditions[j], buf_cstr(&allowed.shown),
                                               dependencies));
                emit(c, guard, c->g.has_condition, node);
            }
            free(conditions);
        }
        if (triggers && rc == 0) {
            term_id trigger_guard = new_node(c, "trigger", name, 0), node = new_node(c, "trigger", name, 1);
            emit(c, site->model, c->g.has_guard, trigger_guard);
            emit(c, trigger_guard, T_RDF_TYPE, c->g.guard);
            emit(c, trigger_guard, c->g.has_condition, node);
            rc = conjoined_sentry(c, node, 0, buf_cstr(&trigger.text),
                                  label_of(c, "triggered", 0, buf_cstr(&trigger.shown), dependencies));
        }
    }
    free(originals);
    buf_free(&dependencies_text);
    buf_free(&subject);
    part_free(&allowed);
    part_free(&trigger);
    return rc;
}

/* The root's milestones wait until every group may complete. */
static int compile_completion(gsm_ctx *c, buf *summary) {
    buf part = {0};
    c->event = "completion";
    size_t completion_at = summary->len;
    buf_puts(summary, "the instance completes when:");
    bool any = false;
    for (size_t i = 0; i < c->policy->count; i++) {
        const dep_group *g = &c->policy->groups[i];
        buf one = {0};
        cover_text(c, g, &g->final_cover, &one);
        if (one.len) {
            buf_printf(&part, "%s{ %s }", any ? " " : "", buf_cstr(&one));
            buf_printf(summary, "%s (", any ? " and" : "");
            dep_cover_print(&c->set->ev, g, &g->final_cover, summary);
            buf_puts(summary, ")");
            any = true;
        }
        buf_free(&one);
    }
    buf_puts(summary, any ? "\n" : " T\n");
    int rc = 0;
    for (uint32_t i = 0, size = store_size(c->m); any && i < size && rc == 0; i++) {
        const triple *tr = store_triple(c->m, i);
        if (tr->p != c->g.has_milestone || terms_kind(c->t, tr->s) != TERM_IRI || is_child(c, tr->s) ||
            !is_stage(c, tr->s))
            continue;
        term_id milestone = tr->o;
        size_t n;
        term_id *sentries = objects(c, milestone, c->g.achieving, &n);
        drop(c, milestone, c->g.achieving);
        const char *fragment = terms_kind(c->t, milestone) == TERM_IRI ? fragment_of(terms_lex(c->t, milestone, NULL))
                                                                         : NULL;
        for (size_t k = 0; k < n && rc == 0; k++) {
            term_id node = new_node(c, "complete", fragment ? fragment : "root", (int)k + 1);
            buf label = {0};
            buf_puts(&label, "achieving sentry ");
            shown_iri(c, sentries[k], &label);
            buf_printf(&label, " and the dependencies allow completion:%s", buf_cstr(summary) + completion_at +
                                                                            strlen("the instance completes when:"));
            while (label.len && label.data[label.len - 1] == '\n')
                label.data[--label.len] = '\0';
            rc = conjoined_sentry(c, node, sentries[k], buf_cstr(&part), xstrndup(buf_cstr(&label), label.len));
            buf_free(&label);
            emit(c, milestone, c->g.achieving, node);
        }
        free(sentries);
    }
    buf_free(&part);
    return rc;
}

int dep_gsm_compile(terms *t, store *model, const char *base, const dep_set *set, const dep_policy *policy,
                    triple **out, size_t *count, buf *summary, char *err, size_t err_len) {
    gsm_ctx c = {.t = t, .m = model, .base = base, .set = set, .policy = policy, .err = err, .err_len = err_len};
    gsm_model_terms_init(&c.g, t);
    c.event_priority = terms_iri_cstr(t, NS_LDGSM "eventPriority");
    c.sites = xcalloc(set->ev.count + 1, sizeof *c.sites);
    c.dropped = xcalloc(store_size(model) + 1, sizeof *c.dropped);
    int rc = 0;
    size_t events = 0;
    for (size_t s = 0; s < set->ev.count; s++) {
        size_t from = 0, index;
        events += dep_policy_next_group(policy, (int)s, &from, &index) != NULL;
    }
    /* the event first named in the file wins a step both would happen in */
    int next_priority = (int)events;
    index_fragments(&c);
    for (size_t s = 0; s < set->ev.count && rc == 0; s++) {
        size_t from = 0, index;
        if (!dep_policy_next_group(policy, (int)s, &from, &index))
            continue;
        rc = find_site(&c, (int)s, &c.sites[s]);
        c.sites[s].priority = next_priority--;
    }
    for (uint32_t i = 0; i < store_size(model) && rc == 0; i++) {
        const triple *tr = store_triple(model, i);
        if (terms_kind(t, tr->s) != TERM_IRI)
            continue;
        const char *iri = terms_lex(t, tr->s, NULL);
        const char *fragment = fragment_of(iri);
        if (fragment && strncmp(fragment, "dep-", 4) == 0 && strncmp(iri, base, strlen(base)) == 0)
            rc = fail(&c, "<%s>: the compiled model names its sentries and guards <#dep-...>: rename it", iri);
    }
    for (size_t s = 0; s < set->ev.count && rc == 0; s++)
        if (c.sites[s].model)
            rc = compile_event(&c, (int)s, summary);
    if (rc == 0)
        rc = compile_completion(&c, summary);
    if (rc == 0)
        drop_orphans(&c);
    if (rc == 0) {
        triple *added = c.out;
        size_t added_count = c.count;
        c.out = NULL;
        c.count = c.capacity = 0;
        for (uint32_t i = 0; i < store_size(model); i++)
            if (!c.dropped[i]) {
                const triple *tr = store_triple(model, i);
                emit(&c, tr->s, tr->p, tr->o);
            }
        for (size_t i = 0; i < added_count; i++)
            emit(&c, added[i].s, added[i].p, added[i].o);
        free(added);
        *out = c.out;
        *count = c.count;
    } else
        free(c.out);
    free(c.sites);
    free(c.dropped);
    strmap_free(&c.by_fragment);
    free(c.named);
    free(c.orphans);
    return rc;
}
