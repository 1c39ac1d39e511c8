/* rule_index.c: rules by the keys of their patterns and head templates (rule_index.h). */
#include "reason/rule_index.h"

#include <stdlib.h>
#include <string.h>

void key_lists_add(key_lists *kl, uint64_t key, uint32_t number) {
    if ((kl->added_numbers.len & (kl->added_numbers.len - 1)) == 0) /* 0, 1, 2, 4 ...: full */
        kl->added_keys = xrealloc(kl->added_keys, (kl->added_numbers.len ? kl->added_numbers.len * 2 : 1) *
                                                      sizeof *kl->added_keys);
    kl->added_keys[kl->added_numbers.len] = key;
    u32vec_push(&kl->added_numbers, number);
}

void key_lists_index(key_lists *kl) {
    uint32_t n = kl->added_numbers.len;
    const uint64_t *keys = kl->added_keys;
    const uint32_t *numbers = kl->added_numbers.data;
    kl->keys = xmalloc((n ? n : 1) * sizeof *kl->keys);
    uint32_t *place = xmalloc((n ? n : 1) * sizeof *place);
    for (uint32_t i = 0; i < n; i++) {
        bool inserted;
        place[i] = *u64map_put(&kl->map, keys[i], kl->key_count, &inserted);
        if (inserted)
            kl->keys[kl->key_count++] = keys[i];
    }
    kl->first = xcalloc(kl->key_count + 1, sizeof *kl->first);
    for (uint32_t i = 0; i < n; i++)
        kl->first[place[i] + 1]++;
    for (uint32_t k = 0; k < kl->key_count; k++)
        kl->first[k + 1] += kl->first[k];
    kl->items = xmalloc((n ? n : 1) * sizeof *kl->items);
    uint32_t *end = xmalloc((kl->key_count ? kl->key_count : 1) * sizeof *end);
    memcpy(end, kl->first, kl->key_count * sizeof *end);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t k = place[i];
        if (end[k] == kl->first[k] || kl->items[end[k] - 1] != numbers[i]) /* a repeat is its list's last */
            kl->items[end[k]++] = numbers[i];
    }
    uint32_t written = 0; /* close the gaps the repeats left */
    for (uint32_t k = 0; k < kl->key_count; k++) {
        uint32_t start = kl->first[k], len = end[k] - start;
        memmove(kl->items + written, kl->items + start, len * sizeof *kl->items);
        kl->first[k] = written;
        written += len;
    }
    kl->first[kl->key_count] = written;
    free(end);
    free(place);
    free(kl->added_keys);
    kl->added_keys = NULL;
    u32vec_free(&kl->added_numbers);
}

const uint32_t *key_lists_get(const key_lists *kl, uint64_t key, uint32_t *count) {
    const uint32_t *k = u64map_get(&kl->map, key);
    *count = k ? kl->first[*k + 1] - kl->first[*k] : 0;
    return k ? kl->items + kl->first[*k] : NULL;
}

void key_lists_free(key_lists *kl) {
    u64map_free(&kl->map);
    free(kl->added_keys);
    u32vec_free(&kl->added_numbers);
    free(kl->keys);
    free(kl->first);
    free(kl->items);
    *kl = (key_lists){0};
}

bool rule_may_produce(const rule_atom *h, const rule_atom *b) {
    for (int k = 0; k < 3; k++)
        if (h->pos[k] > 0 && b->pos[k] > 0 && !h->structured[k] && !b->structured[k] && h->pos[k] != b->pos[k])
            return false;
    return true;
}

/* Whether h produces, for every constant of pattern b, that constant itself. */
static bool produces_exactly(const rule_atom *h, const rule_atom *b) {
    for (int k = 0; k < 3; k++)
        if (b->pos[k] > 0 && !b->structured[k] && (h->pos[k] <= 0 || h->structured[k]))
            return false;
    return true;
}

bool rule_produces_into(const rule *producer, const rule_atom *pattern, bool exact_only) {
    for (unsigned h = 0; h < producer->head_count; h++) {
        const rule_atom *head = &producer->head_codes[h];
        if (rule_may_produce(head, pattern) && (!exact_only || produces_exactly(head, pattern)))
            return true;
    }
    return false;
}

/* A position that is one term, the same in every triple the pattern or template stands for. */
static bool constant_at(const rule_atom *a, int k) { return a->pos[k] > 0 && !a->structured[k]; }

/* Numbers below `size` marked once per search: a stamp per number, the search's own stamp, the marked ones. */
typedef struct marks {
    uint32_t *stamp;
    size_t size;
    uint32_t current;
    u32vec marked;
} marks;

static void marks_begin(marks *m) {
    if (++m->current == 0) { /* the stamps went round: forget them all */
        free(m->stamp);
        m->stamp = NULL;
        m->current = 1;
    }
    m->marked.len = 0;
}

static void marks_add(marks *m, const uint32_t *numbers, uint32_t count) {
    if (!m->stamp)
        m->stamp = xcalloc(m->size ? m->size : 1, sizeof *m->stamp);
    for (uint32_t i = 0; i < count; i++)
        if (m->stamp[numbers[i]] != m->current) {
            m->stamp[numbers[i]] = m->current;
            u32vec_push(&m->marked, numbers[i]);
        }
}

static void marks_free(marks *m) {
    free(m->stamp);
    u32vec_free(&m->marked);
}

static int ascending(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

struct rule_activation {
    key_lists keys;   /* an atom's key -> the rules with such an atom */
    u32vec unkeyed;   /* the rules with a data atom that has no key: due every round */
    u32vec all;       /* every rule indexed */
    marks due;
};

/* The key of a data atom: its predicate, with its object when that is one term (a list term is not: it
 * also matches a collection of the data that reads as it, engine.c's match_by_list). 0: none. */
static uint64_t atom_key(const terms *t, const rule_atom *a) {
    if (!constant_at(a, 1))
        return 0;
    bool object = constant_at(a, 2) && terms_kind(t, (term_id)a->pos[2]) != TERM_LIST;
    return rule_key((term_id)a->pos[1], object ? (term_id)a->pos[2] : 0);
}

rule_activation *rule_activation_new(const terms *t, const rule_set *rs, int stratum) {
    rule_activation *a = xcalloc(1, sizeof *a);
    a->due.size = rs->count;
    for (unsigned i = 0; i < rs->count; i++) {
        const rule *r = rs->rules[i];
        if (r->disabled || r->stratum != stratum || r->has_negation || !r->matched_count || r->single_pass)
            continue;
        u32vec_push(&a->all, i);
        bool unkeyed = false;
        for (unsigned b = 0; b < r->body_count; b++) {
            uint64_t key = r->body[b].kind == ATOM_MATCH ? atom_key(t, &r->body[b]) : 0;
            if (key)
                key_lists_add(&a->keys, key, i);
            unkeyed |= r->body[b].kind == ATOM_MATCH && !key;
        }
        if (unkeyed)
            u32vec_push(&a->unkeyed, i);
    }
    key_lists_index(&a->keys);
    return a;
}

void rule_activation_free(rule_activation *a) {
    if (!a)
        return;
    key_lists_free(&a->keys);
    u32vec_free(&a->unkeyed);
    u32vec_free(&a->all);
    marks_free(&a->due);
    free(a);
}

static void mark_key(rule_activation *a, uint64_t key) {
    uint32_t count;
    const uint32_t *rules = key_lists_get(&a->keys, key, &count);
    marks_add(&a->due, rules, count);
}

const unsigned *rule_activation_due(rule_activation *a, store *st, uint32_t lo, uint32_t hi, unsigned *count) {
    if (lo == 0) {
        *count = a->all.len;
        return a->all.data;
    }
    marks_begin(&a->due);
    marks_add(&a->due, a->unkeyed.data, a->unkeyed.len);
    /* whichever is fewer: the delta's triples, each looked up by its two keys, or the keys, each counted
     * in the delta by the store's index */
    if (hi - lo <= a->keys.key_count) {
        for (uint32_t n = lo; n < hi; n++) {
            const triple *tr = store_triple(st, n);
            mark_key(a, rule_key(tr->p, 0));
            mark_key(a, rule_key(tr->p, tr->o));
        }
    } else {
        for (uint32_t k = 0; k < a->keys.key_count; k++) {
            uint64_t key = a->keys.keys[k];
            if (store_count(st, 0, (term_id)key, (term_id)(key >> 32), lo, hi))
                marks_add(&a->due, a->keys.items + a->keys.first[k],
                          a->keys.first[k + 1] - a->keys.first[k]);
        }
    }
    /* in the order of the rule set, as when every rule was evaluated: the same triples in the same order */
    if (a->due.marked.len > 1)
        qsort(a->due.marked.data, a->due.marked.len, sizeof *a->due.marked.data, ascending);
    *count = a->due.marked.len;
    return a->due.marked.data;
}

struct rule_producers {
    const rule_set *rs;
    key_lists exact;       /* (p, o) -> the rules with a template of predicate p and object o */
    key_lists open_object; /* (p) -> those with a template of predicate p whose object is not one term */
    key_lists predicate;   /* (p) -> those with a template of predicate p, whatever its object */
    u32vec open_predicate; /* those with a template whose predicate is not one term */
    u32vec all;
    marks found;
};

rule_producers *rule_producers_new(const rule_set *rs) {
    rule_producers *p = xcalloc(1, sizeof *p);
    p->rs = rs;
    p->found.size = rs->count;
    for (unsigned i = 0; i < rs->count; i++) {
        const rule *r = rs->rules[i];
        if (r->disabled || r->is_request)
            continue;
        u32vec_push(&p->all, i);
        bool open = false;
        for (unsigned h = 0; h < r->head_count; h++) {
            const rule_atom *head = &r->head_codes[h];
            if (!constant_at(head, 1)) {
                open = true;
                continue;
            }
            term_id pred = (term_id)head->pos[1];
            key_lists_add(&p->predicate, rule_key(pred, 0), i);
            if (constant_at(head, 2))
                key_lists_add(&p->exact, rule_key(pred, (term_id)head->pos[2]), i);
            else
                key_lists_add(&p->open_object, rule_key(pred, 0), i);
        }
        if (open)
            u32vec_push(&p->open_predicate, i);
    }
    key_lists_index(&p->exact);
    key_lists_index(&p->open_object);
    key_lists_index(&p->predicate);
    return p;
}

void rule_producers_free(rule_producers *p) {
    if (!p)
        return;
    key_lists_free(&p->exact);
    key_lists_free(&p->open_object);
    key_lists_free(&p->predicate);
    u32vec_free(&p->open_predicate);
    u32vec_free(&p->all);
    marks_free(&p->found);
    free(p);
}

static void candidates(rule_producers *p, const key_lists *kl, uint64_t key) {
    uint32_t count;
    const uint32_t *rules = key_lists_get(kl, key, &count);
    marks_add(&p->found, rules, count);
}

void rule_producers_of(rule_producers *p, const rule_atom *pattern, bool exact_only, u32vec *out) {
    out->len = 0;
    marks_begin(&p->found);
    if (!constant_at(pattern, 1)) {
        marks_add(&p->found, p->all.data, p->all.len);
    } else {
        term_id pred = (term_id)pattern->pos[1];
        if (constant_at(pattern, 2)) {
            candidates(p, &p->exact, rule_key(pred, (term_id)pattern->pos[2]));
            candidates(p, &p->open_object, rule_key(pred, 0));
        } else {
            candidates(p, &p->predicate, rule_key(pred, 0));
        }
        marks_add(&p->found, p->open_predicate.data, p->open_predicate.len);
    }
    for (uint32_t i = 0; i < p->found.marked.len; i++) {
        uint32_t r = p->found.marked.data[i];
        if (rule_produces_into(p->rs->rules[r], pattern, exact_only))
            u32vec_push(out, r);
    }
    if (out->len > 1)
        qsort(out->data, out->len, sizeof *out->data, ascending);
}
