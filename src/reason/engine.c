/* engine.c: semi-naive evaluation of compiled rules (reasoner.h states the guarantees).
 *
 * Triple numbers make the semi-naive split cheap: after a round that ended with the store holding
 * triples [0, hi), the delta is [lo, hi). For the plan whose delta atom is body atom i, atom i matches
 * [lo, hi), atoms before i match [0, lo) and atoms after i match [0, hi); triples derived during the
 * round get numbers >= hi and wait for the next round. */
#include "reason/reasoner.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "rdf/buf.h"
#include "rdf/hashmap.h"
#include "rdf/rdf_list.h"
#include "rdf/rdfio.h"
#include "reason/filter.h"
#include "reason/rule_index.h"

/* Derived triples wait in a small batch whose de-duplication slots are prefetched before insertion: a
 * derivation mostly re-derives known triples, and each check is a cache miss in a large table, so
 * overlapping the misses of a batch is what makes derivation fast. Within a round nothing reads the
 * triples a round derives, so adding them a little later changes nothing. */
enum { PENDING_BATCH = 128 };

struct reasoner {
    terms *t;
    store *st;
    triple pending[PENDING_BATCH];
    uint64_t pending_hash[PENDING_BATCH]; /* their store_hash, computed once for the prefetch and the add */
    unsigned pending_count;
    reasoner_options opt;
    reasoner_stats stats;
    /* Skolem keys (an existential and the head's variables' values) -> blank node. The keys stay here, not
     * in the term table as lists: there is one for each request a crawl makes, and the table kept them
     * until the agent's next release of terms. */
    u64map skolem; /* hash of a key -> 1 + the newest entry with that hash */
    struct skolem_entry {
        size_t items;        /* the key: skolem_items[items .. items + count) */
        uint32_t count, next; /* next: 1 + the entry before it with the same hash, or 0 */
        term_id node;
    } *skolems;
    size_t skolem_count, skolem_cap;
    term_id *skolem_items;
    size_t skolem_items_len, skolem_items_cap;
    triple *head;  /* a request rule's head as request_sink is given it */
    size_t head_cap;
    uint32_t reported; /* triples below this number were derived before the run or told to on_derived */
    /* the negations negation_checked rules fired with (check_negations): record i's values are the atom's
     * `needs` slots in ascending order, from record_values[records[i].values] on */
    struct negation_record {
        const rule *r;
        unsigned atom;
        size_t values;
    } *records;
    size_t record_count, record_cap;
    term_id *record_values;
    size_t record_values_len, record_values_cap;
    u64map record_seen; /* hash of (rule, atom, values) -> record number + 1 */
    bool fuse_blown;
    char error[512];
};

/* The least memory limit of the cgroup at path (as /proc/self/cgroup gives it) and its ancestors, read from
 * FILE under the hierarchy's mount DIR; UINT64_MAX when none is set ("max", or v1's huge number is no less)
 * or none can be read. systemd's MemoryMax= and a container's memory limit are such limits. */
static uint64_t cgroup_memory_limit(const char *dir, const char *file, char *path) {
    uint64_t least = UINT64_MAX;
    for (;;) {
        char name[4200];
        snprintf(name, sizeof name, "%s%s/%s", dir, strcmp(path, "/") == 0 ? "" : path, file);
        FILE *f = fopen(name, "r");
        unsigned long long limit;
        if (f) {
            if (fscanf(f, "%llu", &limit) == 1 && limit < least)
                least = limit;
            fclose(f);
        }
        char *slash = strrchr(path, '/');
        if (!slash || (slash == path && !path[1]))
            return least;
        slash[slash == path] = '\0'; /* "/a/b" -> "/a", "/a" -> "/" */
    }
}

static uint32_t default_max_derived;

/* One derived triple per KiB of the memory the process may use: the RAM, its cgroups' limit or its address
 * space limit, the least.
 * A derived triple costs 70-250 bytes in the agent (peak RSS over 1M-3M derived: 73 B with no new terms,
 * 145 B with a new number for every other triple, 233 B with a new 50-byte string for two of three), so
 * the cap stops a runaway rule set before a quarter of memory. The fixed 50,000,000 before came after
 * about 15 GB on a 23 GiB machine. */
static void compute_default_max_derived(void) {
    long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGESIZE);
    uint64_t memory = pages > 0 && page_size > 0 ? (uint64_t)pages * (uint64_t)page_size : UINT64_MAX;
    FILE *f = fopen("/proc/self/cgroup", "r");
    char line[4096];
    if (f) {
        while (fgets(line, sizeof line, f)) {
            /* "0::/path" (cgroup v2), "N:memory:/path" (v1's memory controller) */
            line[strcspn(line, "\n")] = '\0';
            char *v1 = strstr(line, ":memory:/");
            uint64_t limit = strncmp(line, "0::/", 4) == 0
                                 ? cgroup_memory_limit("/sys/fs/cgroup", "memory.max", line + 3)
                             : v1 ? cgroup_memory_limit("/sys/fs/cgroup/memory", "memory.limit_in_bytes", v1 + 8)
                                  : UINT64_MAX;
            if (limit < memory)
                memory = limit;
        }
        fclose(f);
    }
    struct rlimit address_space; /* ulimit -v: allocations fail past it */
    if (getrlimit(RLIMIT_AS, &address_space) == 0 && address_space.rlim_cur != RLIM_INFINITY &&
        address_space.rlim_cur < memory)
        memory = address_space.rlim_cur;
    uint64_t triples = memory / 1024;
    default_max_derived = triples == 0 ? 1 : triples > UINT32_MAX ? UINT32_MAX : (uint32_t)triples;
}

static uint32_t reasoner_default_max_derived(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, compute_default_max_derived);
    return default_max_derived;
}

reasoner *reasoner_new(terms *t, store *st, const reasoner_options *options) {
    reasoner *r = xcalloc(1, sizeof *r);
    r->t = t;
    r->st = st;
    if (options)
        r->opt = *options;
    if (!r->opt.max_fresh_nodes)
        r->opt.max_fresh_nodes = 1000000;
    if (!r->opt.max_derived)
        r->opt.max_derived = reasoner_default_max_derived();
    return r;
}

void reasoner_free(reasoner *r) {
    if (!r)
        return;
    u64map_free(&r->skolem);
    free(r->skolems);
    free(r->skolem_items);
    free(r->head);
    u64map_free(&r->record_seen);
    free(r->records);
    free(r->record_values);
    free(r);
}

const char *reasoner_error(const reasoner *r) { return r->error[0] ? r->error : NULL; }

bool reasoner_fuse_blown(const reasoner *r) { return r->fuse_blown; }

const reasoner_stats *reasoner_get_stats(const reasoner *r) { return &r->stats; }

typedef struct join {
    reasoner *R;
    const rule *rule;
    const unsigned *plan;
    unsigned delta_atom;
    uint32_t lo, hi;
    term_id binding[RULE_MAX_VARS];
    bool stop;
} join;

/* Where the join goes on: element k of a sequence, then the continuation after it. The top-level body
 * is a sequence in plan order; nested groups (sentries) are sequences of their own. `found` marks the
 * end of an OPTIONAL group, to tell whether it matched. */
typedef struct cont {
    const rule_atom *atoms;
    const unsigned *order; /* NULL: atoms in order */
    unsigned k, count;
    bool top_level;
    bool adaptive;         /* after the first atom, pick the next by the bindings (see next_adaptive) */
    uint64_t done;         /* adaptive: the atoms already joined */
    const struct cont *next;
    bool *found;
    bool probe;            /* a negation's group: stop at the first match (*found), fire nothing */
    term_id scope;         /* a formula whose triples the group's patterns match, instead of the store */
    /* called at the end of the group instead of going on (log:collectAllIn, log:forAllIn) */
    void (*on_solution)(join *j, const struct cont *c);
    void *context;
} cont;

static void step(join *j, const cont *c);

static int slot_of_term(const rule *r, term_id id) {
    for (unsigned i = 0; i < r->var_count; i++)
        if (r->vars[i] == id)
            return (int)i;
    return -1;
}

/* Where a term being instantiated stands: the existential blank nodes of a head are replaced everywhere
 * in the head, lists included, but not inside formulas nested in it (those are quoted). */
enum scope { SCOPE_HEAD, SCOPE_QUOTED };

/* Substitutes bound variables inside a term; with existential_values, also the head's existentials. */
static term_id instantiate(join *j, term_id id, const term_id *existential_values, enum scope scope) {
    terms *t = j->R->t;
    const rule *r = j->rule;
    enum term_kind k = terms_kind(t, id);
    if (k == TERM_VAR || k == TERM_BNODE) {
        int slot = slot_of_term(r, id);
        if (slot >= 0)
            return j->binding[slot] ? j->binding[slot] : id;
        if (k == TERM_BNODE && existential_values && scope != SCOPE_QUOTED)
            for (unsigned e = 0; e < r->existential_count; e++)
                if (r->existentials[e] == id)
                    return existential_values[e];
        return id;
    }
    if (k != TERM_LIST && k != TERM_FORMULA)
        return id;
    /* the term table counts blank nodes as ground, but a body's blank nodes are the rule's variables */
    if (terms_is_ground(t, id) && !r->bnode_vars && (!existential_values || scope == SCOPE_QUOTED))
        return id;
    size_t n;
    if (k == TERM_LIST) {
        const term_id *items = terms_list_items(t, id, &n);
        term_id *copy = xmalloc((n ? n : 1) * sizeof *copy);
        for (size_t i = 0; i < n; i++)
            copy[i] = instantiate(j, items[i], existential_values, scope);
        term_id result = terms_list(t, copy, n);
        free(copy);
        return result;
    }
    const triple *ts = terms_formula_triples(t, id, &n);
    triple *copy = xmalloc((n ? n : 1) * sizeof *copy);
    for (size_t i = 0; i < n; i++)
        copy[i] = (triple){instantiate(j, ts[i].s, existential_values, SCOPE_QUOTED),
                           instantiate(j, ts[i].p, existential_values, SCOPE_QUOTED),
                           instantiate(j, ts[i].o, existential_values, SCOPE_QUOTED)};
    term_id result = terms_formula(t, copy, n);
    free(copy);
    return result;
}

/* True when an instantiated term still holds a variable: a TERM_VAR, or a blank node that is one of the
 * rule's (unbound) variables, which the term table counts as ground. */
static bool holds_variable(const join *j, term_id id) {
    const terms *t = j->R->t;
    if (terms_is_ground(t, id) && !j->rule->bnode_vars)
        return false;
    enum term_kind k = terms_kind(t, id);
    if (k == TERM_VAR)
        return true;
    if (k == TERM_BNODE)
        return slot_of_term(j->rule, id) >= 0;
    size_t n;
    if (k == TERM_LIST) {
        const term_id *items = terms_list_items(t, id, &n);
        for (size_t i = 0; i < n; i++)
            if (holds_variable(j, items[i]))
                return true;
    }
    return k == TERM_FORMULA && !terms_is_ground(t, id);
}

/* The value of a position code under the current binding: 0 when it is (or holds) an unbound variable. */
static term_id code_value(join *j, pos_code code, bool structured) {
    if (code < 0)
        return j->binding[-code - 1];
    if (!structured)
        return (term_id)code;
    term_id value = instantiate(j, (term_id)code, NULL, SCOPE_HEAD);
    return holds_variable(j, value) ? 0 : value;
}

/* The value at position k of an atom; a quoted formula with the bound variables put in, its own left. */
static term_id position_value(join *j, const rule_atom *a, int k) {
    if (a->quoted[k])
        return instantiate(j, (term_id)a->pos[k], NULL, SCOPE_HEAD);
    return code_value(j, a->pos[k], a->structured[k]);
}

static bool unify_triples(join *j, const triple *ps, const triple *vs, size_t n, uint64_t used, size_t i,
                          unsigned *trail, unsigned *trail_len);
static void undo(join *j, const unsigned *trail, unsigned trail_len);

/* Unifies a body position with a value, recording newly bound slots in trail. */
static bool unify(join *j, term_id pattern, term_id value, unsigned *trail, unsigned *trail_len) {
    terms *t = j->R->t;
    if (pattern == value)
        return true;
    enum term_kind k = terms_kind(t, pattern);
    if (k == TERM_VAR || k == TERM_BNODE) {
        int slot = slot_of_term(j->rule, pattern);
        if (slot < 0)
            return false;
        if (j->binding[slot])
            return j->binding[slot] == value;
        j->binding[slot] = value;
        trail[(*trail_len)++] = (unsigned)slot;
        return true;
    }
    if (k == TERM_LIST && terms_kind(t, value) != TERM_LIST)
        value = rdf_list_read(t, j->R->st, value); /* a collection from RDF data is the same list */
    if (k == TERM_LIST && value) {
        size_t pn, vn;
        const term_id *ps = terms_list_items(t, pattern, &pn);
        const term_id *vs = terms_list_items(t, value, &vn);
        if (pn != vn)
            return false;
        for (size_t i = 0; i < pn; i++)
            if (!unify(j, ps[i], vs[i], trail, trail_len))
                return false;
        return true;
    }
    if (k == TERM_FORMULA && terms_kind(t, value) == TERM_FORMULA) {
        size_t pn, vn;
        const triple *ps = terms_formula_triples(t, pattern, &pn);
        const triple *vs = terms_formula_triples(t, value, &vn);
        return pn == vn && pn <= 64 && unify_triples(j, ps, vs, pn, 0, 0, trail, trail_len);
    }
    return false;
}

/* A formula pattern unifies with a formula when its triples map one to one onto the formula's, the
 * variables bound alike throughout: triple i of the pattern tried against each unused one, backtracking.
 * The first such mapping binds the variables (another may exist; it is not looked for). */
static bool unify_triples(join *j, const triple *ps, const triple *vs, size_t n, uint64_t used, size_t i,
                          unsigned *trail, unsigned *trail_len) {
    if (i == n)
        return true;
    for (size_t v = 0; v < n; v++) {
        if (used >> v & 1)
            continue;
        unsigned mark = *trail_len;
        if (unify(j, ps[i].s, vs[v].s, trail, trail_len) && unify(j, ps[i].p, vs[v].p, trail, trail_len) &&
            unify(j, ps[i].o, vs[v].o, trail, trail_len) &&
            unify_triples(j, ps, vs, n, used | (uint64_t)1 << v, i + 1, trail, trail_len))
            return true;
        undo(j, trail + mark, *trail_len - mark);
        *trail_len = mark;
    }
    return false;
}

/* Runs for every position of every candidate triple: inlined, the calls were 4% of a large derivation's
 * instructions (callgrind). */
static inline __attribute__((always_inline)) bool unify_code(join *j, const rule_atom *a, int k, term_id value,
                                                             unsigned *trail, unsigned *trail_len) {
    pos_code code = a->pos[k];
    if (code < 0) {
        unsigned slot = (unsigned)(-code - 1);
        if (j->binding[slot])
            return j->binding[slot] == value;
        j->binding[slot] = value;
        trail[(*trail_len)++] = slot;
        return true;
    }
    if (!a->structured[k])
        return (term_id)code == value;
    if (a->quoted[k]) /* a builtin's answer for a quoted formula is that formula, not a pattern to bind */
        return position_value(j, a, k) == value;
    return unify(j, (term_id)code, value, trail, trail_len);
}

static void undo(join *j, const unsigned *trail, unsigned trail_len) {
    for (unsigned i = 0; i < trail_len; i++)
        j->binding[trail[i]] = 0;
}

/* A builtin's argument with the collections of the data in it read as lists: a blank node heading an
 * rdf:first/rdf:rest chain, or an IRI doing so for builtins other than log:'s (which take IRIs as names),
 * and such nodes among the items of a list term. Returns value itself when nothing is a collection. */
static term_id as_list_data(join *j, const rule_atom *a, term_id value, unsigned depth) {
    terms *t = j->R->t;
    enum term_kind kind = terms_kind(t, value);
    if (kind == TERM_BNODE || (kind == TERM_IRI && a->iri_lists)) {
        term_id list = rdf_list_read(t, j->R->st, value);
        return list ? list : value;
    }
    if (kind != TERM_LIST || depth > 32)
        return value;
    size_t n;
    const term_id *items = terms_list_items(t, value, &n);
    term_id *read = NULL;
    for (size_t i = 0; i < n; i++) {
        term_id item = as_list_data(j, a, items[i], depth + 1);
        if (item != items[i] && !read) {
            read = xmalloc(n * sizeof *read);
            memcpy(read, items, n * sizeof *read);
        }
        if (read)
            read[i] = item;
    }
    if (!read)
        return value;
    term_id result = terms_list(t, read, n);
    free(read);
    return result;
}

typedef struct builtin_step {
    join *j;
    const rule_atom *atom;
    const cont *next;
    term_id given[2], read[2]; /* subject and object as bound, and as the builtin read them (as_list_data) */
} builtin_step;

static bool on_builtin_solution(void *user, term_id subject, term_id object) {
    builtin_step *bs = user;
    join *j = bs->j;
    /* a collection the builtin read as a list is answered as the node the binding holds */
    if (subject && subject == bs->read[0])
        subject = bs->given[0];
    if (object && object == bs->read[1])
        object = bs->given[1];
    unsigned trail[RULE_MAX_VARS * 2], trail_len = 0;
    if (unify_code(j, bs->atom, 0, subject, trail, &trail_len) &&
        unify_code(j, bs->atom, 2, object, trail, &trail_len))
        step(j, bs->next);
    undo(j, trail, trail_len);
    return !j->stop;
}

static term_id skolem(join *j, unsigned e) {
    reasoner *R = j->R;
    const rule *r = j->rule;
    term_id key[RULE_MAX_VARS + 1];
    uint32_t n = r->head_var_count + 1;
    key[0] = r->existentials[e];
    for (unsigned i = 0; i < r->head_var_count; i++)
        key[i + 1] = j->binding[r->head_vars[i]];
    uint32_t *newest = u64map_put(&R->skolem, hash_bytes(key, n * sizeof *key, 0), 0, NULL);
    for (uint32_t k = *newest; k; k = R->skolems[k - 1].next) {
        const struct skolem_entry *s = &R->skolems[k - 1];
        if (s->count == n && memcmp(R->skolem_items + s->items, key, n * sizeof *key) == 0)
            return s->node;
    }
    if (R->stats.fresh_nodes >= R->opt.max_fresh_nodes) {
        snprintf(R->error, sizeof R->error,
                 "rule %s created more than %u fresh blank nodes (its chase does not terminate?)", r->name,
                 R->opt.max_fresh_nodes);
        j->stop = true;
        return 0;
    }
    if (R->skolem_count == R->skolem_cap) {
        R->skolem_cap = R->skolem_cap ? R->skolem_cap * 2 : 64;
        R->skolems = xrealloc(R->skolems, R->skolem_cap * sizeof *R->skolems);
    }
    if (R->skolem_items_len + n > R->skolem_items_cap) {
        R->skolem_items_cap = R->skolem_items_cap ? R->skolem_items_cap * 2 : 256;
        while (R->skolem_items_len + n > R->skolem_items_cap)
            R->skolem_items_cap *= 2;
        R->skolem_items = xrealloc(R->skolem_items, R->skolem_items_cap * sizeof *R->skolem_items);
    }
    memcpy(R->skolem_items + R->skolem_items_len, key, n * sizeof *key);
    term_id node = terms_fresh_bnode(R->t);
    R->skolems[R->skolem_count] = (struct skolem_entry){R->skolem_items_len, n, *newest, node};
    R->skolem_items_len += n;
    *newest = (uint32_t)++R->skolem_count;
    R->stats.fresh_nodes++;
    return node;
}

/* Adds the pending derived triples; false when the derived-triple cap was passed (rule r named). */
static bool flush_pending(reasoner *R, const rule *r) {
    unsigned count = R->pending_count;
    R->pending_count = 0;
    R->stats.attempts += count;
    R->stats.derived += store_add_batch(R->st, R->pending, R->pending_hash, count, R->opt.derived_graph);
    if (R->stats.derived > R->opt.max_derived) {
        snprintf(R->error, sizeof R->error, "rule %s derived more than %u triples in this run", r->name,
                 R->opt.max_derived);
        return false;
    }
    return true;
}

/* Queues a derived triple for the next batch (flushing a full batch); false when a cap stopped it. */
static bool queue_derived(reasoner *R, const rule *r, term_id s, term_id p, term_id o) {
    uint64_t hash = store_hash(s, p, o);
    store_prefetch(R->st, hash);
    R->pending_hash[R->pending_count] = hash;
    R->pending[R->pending_count++] = (triple){s, p, o};
    return R->pending_count < PENDING_BATCH || flush_pending(R, r);
}

static bool same_record(const reasoner *R, const struct negation_record *rec, const rule *r, unsigned atom,
                        const term_id *values, size_t n) {
    /* no values: record_values may still be NULL, which memcmp must not be given even for 0 bytes */
    return rec->r == r && rec->atom == atom &&
           (n == 0 || memcmp(R->record_values + rec->values, values, n * sizeof *values) == 0);
}

/* Remembers, once, each binding of the negations of a negation_checked rule that fires. */
static void record_negations(join *j) {
    reasoner *R = j->R;
    const rule *r = j->rule;
    for (unsigned b = 0; b < r->body_count; b++) {
        const rule_atom *a = &r->body[b];
        if ((a->kind != ATOM_NOT && a->kind != ATOM_COLLECT && a->kind != ATOM_FORALL) || a->scoped)
            continue;
        term_id values[RULE_MAX_VARS + 1];
        size_t n = 0;
        uint64_t hash = (uint64_t)r->index * 0x9e3779b97f4a7c15ULL + b;
        for (uint64_t needs = a->needs; needs; needs &= needs - 1) {
            values[n] = j->binding[__builtin_ctzll(needs)];
            hash = (hash ^ values[n++]) * 0x100000001b3ULL;
        }
        if (a->kind == ATOM_COLLECT) { /* and the list it gave */
            values[n] = code_value(j, a->result, a->result_structured);
            hash = (hash ^ values[n++]) * 0x100000001b3ULL;
        }
        bool inserted;
        uint32_t *seen = u64map_put(&R->record_seen, hash, 0, &inserted);
        if (!inserted && same_record(R, &R->records[*seen - 1], r, b, values, n))
            continue;
        if (R->record_count == R->record_cap) {
            R->record_cap = R->record_cap ? R->record_cap * 2 : 64;
            R->records = xrealloc(R->records, R->record_cap * sizeof *R->records);
        }
        if (R->record_values_len + n > R->record_values_cap) {
            R->record_values_cap = (R->record_values_len + n) * 2;
            R->record_values = xrealloc(R->record_values, R->record_values_cap * sizeof *R->record_values);
        }
        if (n) /* record_values stays NULL while no record has values */
            memcpy(R->record_values + R->record_values_len, values, n * sizeof *values);
        R->records[R->record_count++] = (struct negation_record){r, b, R->record_values_len};
        R->record_values_len += n;
        if (inserted)
            *seen = (uint32_t)R->record_count;
    }
}

/* " with ?x = <a>, ?y = 1" for the slots in `slots` that binding binds (nothing when none is). */
static void describe_binding(const terms *t, const rule *r, const term_id *binding, uint64_t slots, buf *out) {
    bool first = true;
    for (; slots; slots &= slots - 1) {
        unsigned slot = (unsigned)__builtin_ctzll(slots);
        if (!binding[slot] || terms_kind(t, r->vars[slot]) != TERM_VAR)
            continue;
        buf_printf(out, "%s?%s = ", first ? " with " : ", ", terms_lex(t, r->vars[slot], NULL));
        rdf_write_term_nt(t, binding[slot], out);
        first = false;
    }
}

static void blow_fuse(join *j) {
    buf binding = {0};
    uint64_t all = j->rule->var_count >= 64 ? UINT64_MAX : ((uint64_t)1 << j->rule->var_count) - 1;
    describe_binding(j->R->t, j->rule, j->binding, all, &binding);
    snprintf(j->R->error, sizeof j->R->error, "inference fuse: rule %s fired%s", j->rule->name, buf_cstr(&binding));
    buf_free(&binding);
    j->R->fuse_blown = true;
    j->stop = true;
}

static void fire(join *j) {
    reasoner *R = j->R;
    const rule *r = j->rule;
    ((rule *)r)->fired++;
    if (r->is_fuse) {
        blow_fuse(j);
        return;
    }
    if (r->negation_checked)
        record_negations(j);
    if (!r->existential_count && !r->is_request && !r->head_structured) {
        /* the common case, once per derivation attempt: every head position a constant or a bound variable */
        for (unsigned h = 0; h < r->head_count; h++) {
            const pos_code *code = r->head_codes[h].pos;
            term_id v[3];
            for (int k = 0; k < 3; k++)
                v[k] = code[k] > 0 ? (term_id)code[k] : j->binding[-code[k] - 1];
            if (!queue_derived(R, r, v[0], v[1], v[2])) {
                j->stop = true;
                return;
            }
        }
        return;
    }
    term_id existential_values[RULE_MAX_VARS];
    for (unsigned e = 0; e < r->existential_count; e++) {
        existential_values[e] = skolem(j, e);
        if (j->stop)
            return;
    }
    if (r->is_request) {
        size_t n;
        const triple *ts = terms_formula_triples(R->t, r->head_formula, &n);
        if (n > R->head_cap) {
            R->head_cap = n;
            R->head = xrealloc(R->head, n * sizeof *R->head);
        }
        for (size_t i = 0; i < n; i++)
            R->head[i] = (triple){instantiate(j, ts[i].s, existential_values, SCOPE_HEAD),
                                  instantiate(j, ts[i].p, existential_values, SCOPE_HEAD),
                                  instantiate(j, ts[i].o, existential_values, SCOPE_HEAD)};
        n = triples_canonical(R->head, n); /* the order and set the formula term would have */
        R->stats.requests++;
        if (R->opt.request_sink)
            R->opt.request_sink(R->opt.request_sink_user, r, R->head, n);
        return;
    }
    for (unsigned h = 0; h < r->head_count; h++) {
        const rule_atom *code = &r->head_codes[h];
        term_id v[3];
        for (int k = 0; k < 3; k++) {
            pos_code c = code->pos[k];
            if (code->structured[k])
                v[k] = instantiate(j, (term_id)c, existential_values, SCOPE_HEAD);
            else if (c > 0)
                v[k] = (term_id)c;
            else if (c >= -(pos_code)RULE_MAX_VARS)
                v[k] = j->binding[-c - 1];
            else
                v[k] = existential_values[-c - RULE_MAX_VARS - 1];
        }
        if (!queue_derived(R, r, v[0], v[1], v[2])) {
            j->stop = true;
            return;
        }
    }
}

static term_id lookup_binding(void *user, term_id var) {
    join *j = user;
    int slot = slot_of_term(j->rule, var);
    return slot >= 0 ? j->binding[slot] : 0;
}

static bool filter_holds(join *j, const struct sq_expr *e) { return filter_holds_for(j->R->t, e, lookup_binding, j); }

/* True when value is the list `list`, or an IRI or blank node heading a collection of the data that is. */
static bool same_list(join *j, term_id value, term_id list) {
    if (value == list)
        return true;
    enum term_kind kind = terms_kind(j->R->t, value);
    return (kind == TERM_BNODE || kind == TERM_IRI) && rdf_list_read(j->R->t, j->R->st, value) == list;
}

/* What the store lookup of an atom fixes (fixed[k], 0 = any) and, for a position holding a list, the list
 * each candidate must be (lists[k]): a list term in the data and a collection of rdf:first/rdf:rest triples
 * are the same list, so such a position cannot be looked up by its term. */
typedef struct lookup {
    term_id fixed[3];
    term_id lists[3];
} lookup;

/* Continues the join with one candidate triple for atom a, whose fixed positions are known to match. */
static inline __attribute__((always_inline)) void candidate(join *j, const rule_atom *a, const lookup *l,
                                                            const triple *tr, const cont *next, bool fires) {
    unsigned trail[RULE_MAX_VARS * 2], trail_len = 0;
    term_id v[3] = {tr->s, tr->p, tr->o};
    bool ok = true;
    for (int k = 0; k < 3 && ok; k++)
        if (!l->fixed[k])
            ok = l->lists[k] ? same_list(j, v[k], l->lists[k]) : unify_code(j, a, k, v[k], trail, &trail_len);
    if (ok) {
        if (fires)
            fire(j);
        else
            step(j, next);
    }
    undo(j, trail, trail_len);
}

/* `L rdf:first X` and `L rdf:rest R` hold for every non-empty list term L: what a collection written as
 * triples states, answered for a list that is a term. */
static void match_list_axioms(join *j, const rule_atom *a, const lookup *l, const cont *next, bool fires) {
    terms *t = j->R->t;
    size_t n;
    const term_id *items = terms_list_items(t, l->lists[0], &n);
    if (n == 0)
        return;
    term_id rest = n > 1 ? terms_list(t, items + 1, n - 1) : T_RDF_NIL;
    const triple axioms[2] = {{l->lists[0], T_RDF_FIRST, items[0]}, {l->lists[0], T_RDF_REST, rest}};
    lookup exact = *l;
    exact.fixed[0] = l->lists[0];
    exact.lists[0] = 0;
    for (int i = 0; i < 2 && !j->stop && !(next->probe && *next->found); i++)
        if ((!l->fixed[1] || l->fixed[1] == axioms[i].p) && (!l->fixed[2] || l->fixed[2] == axioms[i].o))
            candidate(j, a, &exact, &axioms[i], next, fires);
}

/* Whether triple n is in the view a viewed atom matches in; every triple is, for an atom without one. A view
 * whose viewer is not known yet sees nothing (the plans never get there). */
static bool in_view(const join *j, const rule_atom *a, uint32_t n) {
    if (!a->viewed || !j->R->opt.visible)
        return true;
    term_id viewer = j->binding[-j->rule->viewer - 1];
    return viewer && j->R->opt.visible(j->R->opt.visible_user, viewer, n);
}

/* Every triple of the store in [lo, hi) that matches l's fixed positions, each a candidate. */
static void match_range(join *j, const rule_atom *a, const lookup *l, uint32_t lo, uint32_t hi, const cont *next,
                        bool fires) {
    store_iter it;
    store_match(j->R->st, l->fixed[0], l->fixed[1], l->fixed[2], lo, hi, &it);
    store_entry batch[64];
    for (uint32_t got; !j->stop && !(next->probe && *next->found) && (got = store_next_batch(&it, batch, 64));) {
        ((rule *)j->rule)->probed += got;
        for (uint32_t i = 0; i < got && !j->stop && !(next->probe && *next->found); i++)
            if (in_view(j, a, batch[i].n))
                candidate(j, a, l, &batch[i].t, next, fires);
    }
}

/* An atom whose position k holds the list l->lists[k], looked up by index rather than by a scan of every
 * triple of its other positions: the triples whose position k is the list term itself, then those whose
 * position k is the head of a collection of the data that reads as the list; such a head has the list's
 * first item as its rdf:first. False (nothing done) when that item is a list itself, which a collection
 * holds as the head of another: then the caller scans. */
static bool match_by_list(join *j, const rule_atom *a, const lookup *l, int k, uint32_t lo, uint32_t hi,
                          const cont *next, bool fires) {
    terms *t = j->R->t;
    term_id list = l->lists[k];
    size_t n;
    const term_id *items = terms_list_items(t, list, &n);
    if (n == 0 || terms_kind(t, items[0]) == TERM_LIST)
        return false;
    lookup exact = *l;
    exact.lists[k] = 0;
    exact.fixed[k] = list;
    match_range(j, a, &exact, lo, hi, next, fires);
    store_iter heads;
    store_match(j->R->st, 0, T_RDF_FIRST, items[0], 0, store_size(j->R->st), &heads);
    uint32_t m;
    for (const triple *tr; !j->stop && !(next->probe && *next->found) && (tr = store_next(&heads, &m));) {
        term_id head = tr->s;
        if (!same_list(j, head, list))
            continue;
        exact.fixed[k] = head;
        match_range(j, a, &exact, lo, hi, next, fires);
    }
    return true;
}

static void match_atom(join *j, const rule_atom *a, unsigned atom_index, bool top_level, const cont *next) {
    lookup l = {.fixed = {position_value(j, a, 0), position_value(j, a, 1), position_value(j, a, 2)}};
    /* the last atom of a rule body: each match fires the head, without another step */
    bool fires = next->k == next->count && !next->next && !next->found && !next->probe && !next->on_solution;
    ((rule *)j->rule)->probed++;
    if (next->scope) { /* a quoted formula's triples, not the store's */
        size_t n;
        const triple *ts = terms_formula_triples(j->R->t, next->scope, &n);
        lookup any = {.fixed = {0}};
        for (size_t i = 0; i < n && !j->stop && !(next->probe && *next->found); i++)
            if ((!l.fixed[0] || l.fixed[0] == ts[i].s) && (!l.fixed[1] || l.fixed[1] == ts[i].p) &&
                (!l.fixed[2] || l.fixed[2] == ts[i].o))
                candidate(j, a, &any, &ts[i], next, fires);
        return;
    }
    for (int k = 0; k < 3; k += 2)
        if (l.fixed[k] && terms_kind(j->R->t, l.fixed[k]) == TERM_LIST) {
            l.lists[k] = l.fixed[k];
            l.fixed[k] = 0;
        }
    uint32_t lo = 0, hi = j->hi;
    if (top_level && atom_index == j->delta_atom)
        lo = j->lo;
    else if (top_level && atom_index < j->delta_atom)
        hi = j->lo;
    if (l.fixed[0] && l.fixed[1] && l.fixed[2]) { /* a probe: one lookup in the set, nothing to bind */
        uint32_t n = store_find(j->R->st, l.fixed[0], l.fixed[1], l.fixed[2]);
        if (n == UINT32_MAX || n < lo || n >= hi || j->stop)
            return;
        ((rule *)j->rule)->probed++;
        if (!in_view(j, a, n))
            return;
        if (fires)
            fire(j);
        else
            step(j, next);
        return;
    }
    /* the axioms of list terms hold from the start: they belong to no round's delta */
    if (l.lists[0] && lo == 0 && (!l.fixed[1] || l.fixed[1] == T_RDF_FIRST || l.fixed[1] == T_RDF_REST))
        match_list_axioms(j, a, &l, next, fires);
    int list_at = l.lists[0] && !l.lists[2] ? 0 : l.lists[2] && !l.lists[0] ? 2 : -1;
    if (list_at >= 0 && match_by_list(j, a, &l, list_at, lo, hi, next, fires))
        return;
    match_range(j, a, &l, lo, hi, next, fires);
}

/* A list argument with its unbound variables as variable terms (a body blank node becomes a variable
 * named by its slot), for a builtin with open_subject. */
static term_id open_argument(join *j, term_id id) {
    terms *t = j->R->t;
    enum term_kind k = terms_kind(t, id);
    int slot = k == TERM_VAR || k == TERM_BNODE ? slot_of_term(j->rule, id) : -1;
    if (slot >= 0) {
        if (j->binding[slot])
            return j->binding[slot];
        char name[32];
        int len = snprintf(name, sizeof name, "open%d", slot);
        return terms_var(t, name, (size_t)len);
    }
    if (k != TERM_LIST)
        return id;
    size_t n;
    const term_id *items = terms_list_items(t, id, &n);
    term_id *open = xmalloc((n ? n : 1) * sizeof *open);
    for (size_t i = 0; i < n; i++)
        open[i] = open_argument(j, items[i]);
    term_id result = terms_list(t, open, n);
    free(open);
    return result;
}

/* True when the slots the atom needs bound before it runs (rule_atom.needs) are. */
static bool needs_met(const join *j, const rule_atom *a) {
    for (uint64_t needs = a->needs; needs; needs &= needs - 1)
        if (!j->binding[__builtin_ctzll(needs)])
            return false;
    return true;
}

static bool builtin_can_run(join *j, const rule_atom *a) {
    if (!needs_met(j, a)) /* a quoted formula waits for the variables the body binds in it */
        return false;
    bool s = a->quoted[0] || position_value(j, a, 0) != 0, o = a->quoted[2] || position_value(j, a, 2) != 0;
    switch (a->builtin->mode) {
    case BUILTIN_SUBJECT_IN: return s;
    case BUILTIN_OBJECT_IN: return o;
    case BUILTIN_BOTH_IN: return s && o;
    default: return s || o;
    }
}

/* Whether every position of a plain pattern is known: its lookup is one probe of the triple set, which no
 * other pattern's estimate beats but an empty bucket, so the estimates need not be computed. */
static bool pattern_bound(const join *j, const rule_atom *a) {
    for (int k = 0; k < 3; k++)
        if (a->quoted[k] || a->structured[k] || (a->pos[k] < 0 && !j->binding[-a->pos[k] - 1]))
            return false;
    return true;
}

/* The next body atom of an N3 rule under the current bindings: a builtin as soon as it can run, else a
 * pattern all of whose positions are known, else the pattern with the fewest candidate triples (its index
 * bucket's size). A static order can be badly wrong when a variable's selectivity depends on data (an
 * atom over every artifact instance versus one over one artifact's stages); choosing per binding keeps
 * joins linear in what they produce. */
static unsigned next_adaptive(join *j, const cont *c) {
    int best = -1, fallback = -1, first_left = -1, probe = -1;
    uint32_t best_estimate = UINT32_MAX;
    unsigned candidates = c->count - c->k; /* each step joins one atom and marks it done */
    uint64_t all = c->count == 64 ? UINT64_MAX : ((uint64_t)1 << c->count) - 1;
    for (uint64_t left = all & ~c->done; left; left &= left - 1) { /* the atoms not joined, in order */
        unsigned i = (unsigned)__builtin_ctzll(left);
        const rule_atom *a = &c->atoms[i];
        if (first_left < 0)
            first_left = (int)i;
        if (a->viewed && !j->binding[-j->rule->viewer - 1]) /* whose view it matches in is not known yet */
            continue;
        if (fallback < 0)
            fallback = (int)i;
        if (candidates == 1)
            return i;
        if (a->kind == ATOM_NOT || a->kind == ATOM_INCLUDES || a->kind == ATOM_COLLECT ||
            a->kind == ATOM_FORALL) { /* over what is bound: as soon as it can run */
            if (needs_met(j, a))
                return i;
            continue;
        }
        /* a sentry's OPTIONAL, UNION and FILTER keep their place after the patterns */
        if (a->kind != ATOM_MATCH && a->kind != ATOM_BUILTIN)
            continue;
        if (a->kind == ATOM_BUILTIN) {
            if (builtin_can_run(j, a))
                return i;
            continue;
        }
        if (probe >= 0)
            continue; /* only a builtin or negation that can run goes before it */
        if (pattern_bound(j, a)) {
            probe = (int)i;
            continue;
        }
        uint32_t estimate = store_estimate(j->R->st, position_value(j, a, 0), position_value(j, a, 1),
                                           position_value(j, a, 2));
        if (estimate < best_estimate) {
            best_estimate = estimate;
            best = (int)i;
        }
    }
    if (probe >= 0)
        return (unsigned)probe;
    /* only viewed patterns left with no viewer (the plans prevent it): match_range sees nothing for them */
    return (unsigned)(best >= 0 ? best : fallback >= 0 ? fallback : first_left);
}

/* log:collectAllIn: the template's value for each match of the where group, in the order found. */
typedef struct collection {
    const rule_atom *atom;
    term_id *items;
    size_t count, cap;
} collection;

static void collect_template(join *j, const cont *c) {
    collection *col = c->context;
    term_id value = code_value(j, col->atom->template, col->atom->template_structured);
    if (!value)
        return; /* a template variable the pattern does not bind */
    if (col->count == col->cap) {
        col->cap = col->cap ? col->cap * 2 : 16;
        col->items = xrealloc(col->items, col->cap * sizeof *col->items);
    }
    col->items[col->count++] = value;
}

/* log:forAllIn: each match of the where group must extend to a match of the then group; *c->found is set
 * (stopping the where group) at the first that does not. */
static void check_then(join *j, const cont *c) {
    const rule_atom *a = c->context;
    bool found = false;
    cont then = {.atoms = a->groups[1].atoms, .count = a->groups[1].count, .found = &found, .probe = true,
                 .adaptive = a->groups[1].count <= 64, .scope = c->scope};
    step(j, &then);
    if (!found)
        *c->found = true;
}

/* Evaluates a log:collectAllIn (its list into *result) or log:forAllIn (false when it does not hold) over
 * scope (0: the store). */
static bool quantify(join *j, const rule_atom *a, term_id scope, term_id *result) {
    *result = 0;
    if (a->kind == ATOM_FORALL) {
        bool counterexample = false;
        cont where = {.atoms = a->groups[0].atoms, .count = a->groups[0].count, .found = &counterexample,
                      .probe = true, .adaptive = a->groups[0].count <= 64, .scope = scope,
                      .on_solution = check_then, .context = (void *)a};
        step(j, &where);
        return !counterexample;
    }
    collection col = {.atom = a};
    cont where = {.atoms = a->groups[0].atoms, .count = a->groups[0].count, .adaptive = a->groups[0].count <= 64,
                  .scope = scope, .on_solution = collect_template, .context = &col};
    step(j, &where);
    *result = terms_list(j->R->t, col.items, col.count);
    free(col.items);
    return true;
}

/* A sentry group evaluated alone and joined with the bindings made before it (rule_seq.hidden): the
 * outer values of the variables it reads but does not bind are hidden while it runs; each of its
 * solutions must agree with them, and takes them back where it left them unbound. */
typedef struct rejoin_state {
    const cont *next;
    bool *found;
    uint64_t hidden;
    term_id outer[RULE_MAX_VARS];
} rejoin_state;

static void rejoin(join *j, const cont *c) {
    rejoin_state *r = c->context;
    uint64_t restored = 0;
    bool compatible = true;
    for (uint64_t m = r->hidden; m && compatible; m &= m - 1) {
        unsigned slot = (unsigned)__builtin_ctzll(m);
        if (!j->binding[slot]) {
            j->binding[slot] = r->outer[slot];
            restored |= (uint64_t)1 << slot;
        } else {
            compatible = j->binding[slot] == r->outer[slot];
        }
    }
    if (compatible) {
        if (r->found)
            *r->found = true;
        step(j, r->next);
    }
    for (uint64_t m = restored; m; m &= m - 1)
        j->binding[__builtin_ctzll(m)] = 0;
}

/* Runs a sentry group (an OPTIONAL's, a UNION's alternative) before `next`, setting *found (when given)
 * if it had a solution. */
static void run_group(join *j, const rule_seq *group, const cont *next, bool *found) {
    rejoin_state r = {.next = next, .found = found};
    for (uint64_t m = group->hidden; m; m &= m - 1) {
        unsigned slot = (unsigned)__builtin_ctzll(m);
        if (j->binding[slot]) {
            r.hidden |= (uint64_t)1 << slot;
            r.outer[slot] = j->binding[slot];
            j->binding[slot] = 0;
        }
    }
    /* Adaptive like a rule body: a group's patterns joined in written order can be quadratic (a stage
     * instance looked up among every artifact's, `?s gsm:isInstanceOf ?S`, before the one artifact's,
     * `?s gsm:inArtifactInstance ?this`); its OPTIONALs, UNIONs and FILTERs keep their place after them. */
    bool adaptive = group->count <= 64;
    if (!r.hidden) { /* nothing to hide: the group joins as it goes */
        cont inner = {.atoms = group->atoms, .count = group->count, .next = next, .found = found, .adaptive = adaptive};
        step(j, &inner);
        return;
    }
    cont inner = {.atoms = group->atoms, .count = group->count, .on_solution = rejoin, .context = &r,
                  .adaptive = adaptive};
    step(j, &inner);
    for (uint64_t m = r.hidden; m; m &= m - 1) {
        unsigned slot = (unsigned)__builtin_ctzll(m);
        j->binding[slot] = r.outer[slot];
    }
}

static void step(join *j, const cont *c) {
    if (j->stop)
        return;
    if (c->k == c->count) {
        if (c->on_solution) {
            c->on_solution(j, c);
            return;
        }
        if (c->found)
            *c->found = true;
        if (c->probe)
            return;
        if (c->next)
            step(j, c->next);
        else
            fire(j);
        return;
    }
    unsigned atom_index = c->order ? c->order[c->k] : c->k;
    if (c->adaptive && (c->k > 0 || !c->order)) /* a top-level body starts with its plan's delta atom */
        atom_index = next_adaptive(j, c);
    const rule_atom *a = &c->atoms[atom_index];
    cont next = *c;
    next.k++;
    next.done |= (uint64_t)1 << atom_index;
    switch (a->kind) {
    case ATOM_MATCH:
        match_atom(j, a, atom_index, c->top_level, &next);
        return;
    case ATOM_BUILTIN: {
        builtin_step bs = {.j = j, .atom = a, .next = &next,
                           .given = {position_value(j, a, 0), position_value(j, a, 2)}};
        if (!bs.given[0] && a->builtin->open_subject && a->structured[0])
            bs.given[0] = open_argument(j, (term_id)a->pos[0]);
        for (int k = 0; k < 2; k++)
            bs.read[k] = as_list_data(j, a, bs.given[k], 0);
        a->builtin->eval(j->R->t, bs.read[0], bs.read[1], on_builtin_solution, &bs);
        return;
    }
    case ATOM_FILTER:
        if (filter_holds(j, a->filter))
            step(j, &next);
        return;
    case ATOM_OPTIONAL: {
        /* the group's solutions continue the join; without any, it goes on with its variables unbound */
        bool found = false;
        run_group(j, &a->groups[0], &next, &found);
        if (!found)
            step(j, &next);
        return;
    }
    case ATOM_NOT: {
        term_id scope = a->scoped ? position_value(j, a, 0) : 0;
        if (a->scoped && terms_kind(j->R->t, scope) != TERM_FORMULA)
            return; /* only a formula can be looked into */
        bool found = false;
        cont probe = {.atoms = a->groups[0].atoms, .count = a->groups[0].count, .found = &found, .probe = true,
                      .adaptive = a->groups[0].count <= 64, .scope = scope};
        step(j, &probe);
        if (!found)
            step(j, &next);
        return;
    }
    case ATOM_INCLUDES: {
        term_id scope = position_value(j, a, 0);
        if (terms_kind(j->R->t, scope) != TERM_FORMULA)
            return;
        cont inner = {.atoms = a->groups[0].atoms, .count = a->groups[0].count, .next = &next,
                      .adaptive = a->groups[0].count <= 64, .scope = scope};
        step(j, &inner);
        return;
    }
    case ATOM_COLLECT:
    case ATOM_FORALL: {
        term_id scope = a->scoped ? position_value(j, a, 2) : 0;
        if (a->scoped && terms_kind(j->R->t, scope) != TERM_FORMULA)
            return;
        term_id result;
        if (!quantify(j, a, scope, &result))
            return;
        if (a->kind == ATOM_FORALL) {
            step(j, &next);
            return;
        }
        unsigned trail[RULE_MAX_VARS * 2], trail_len = 0;
        term_id pattern = a->result < 0 ? j->rule->vars[-a->result - 1] : (term_id)a->result;
        if (unify(j, pattern, result, trail, &trail_len))
            step(j, &next);
        undo(j, trail, trail_len);
        return;
    }
    case ATOM_UNION:
        for (unsigned g = 0; g < a->group_count && !j->stop; g++)
            run_group(j, &a->groups[g], &next, NULL);
        return;
    }
}

/* Picks the join order for one (rule, delta atom) pair in a round: the plan led by the atom with the
 * fewest matches in its range, counting only its constant positions. The delta atom need not lead: with
 * `{ ?p rdfs:subPropertyOf ?q . ?x ?p ?y }` and a large delta, visiting the few sub-property triples
 * first and then the delta triples of each ?p is far cheaper than one lookup per delta triple. Returns
 * NULL when some atom has no match at all, so the join cannot produce anything. */
static const unsigned *choose_plan(reasoner *R, const rule *r, unsigned delta_atom, uint32_t lo, uint32_t hi) {
    unsigned best = 0;
    uint32_t best_count = UINT32_MAX;
    for (unsigned p = 0; p < r->matched_count; p++) {
        unsigned atom_index = r->plans[p][0];
        const rule_atom *a = &r->body[atom_index];
        term_id key[3];
        for (int k = 0; k < 3; k++)
            key[k] = a->pos[k] > 0 && !a->structured[k] && terms_kind(R->t, (term_id)a->pos[k]) != TERM_LIST
                         ? (term_id)a->pos[k]
                         : 0;
        uint32_t from = 0, to = hi;
        if (atom_index == delta_atom)
            from = lo;
        else if (atom_index < delta_atom)
            to = lo;
        uint32_t count = store_count(R->st, key[0], key[1], key[2], from, to);
        /* a list's rdf:first and rdf:rest are not in the store (match_list_axioms) */
        bool list_axioms = from == 0 && !key[0] && (a->pos[1] < 0 || key[1] == T_RDF_FIRST || key[1] == T_RDF_REST);
        if (count == 0 && !list_axioms)
            return NULL;
        if (count == 0) /* matches only lists bound elsewhere: never the atom to lead */
            count = UINT32_MAX - 1;
        if (count < best_count) {
            best_count = count;
            best = p;
        }
    }
    return r->plans[best];
}

int reasoner_run(reasoner *R, const rule_set *rs, int stratum) { return reasoner_run_from(R, rs, stratum, 0); }

/* Evaluates rule r once over the store: semi-naive with delta [lo, hi) when first_round is false; every
 * triple counts as new otherwise. Returns false when a cap stopped it. */
static bool evaluate(reasoner *R, const rule *r, uint32_t lo, uint32_t hi, bool first_round) {
    /* In the first round everything is delta: only the plan led by the first atom can match. */
    unsigned plans = first_round || !r->matched_count ? 1 : r->matched_count;
    for (unsigned p = 0; p < plans; p++) {
        join j = {.R = R, .rule = r, .lo = lo, .hi = hi, .delta_atom = r->matched_count ? r->plans[p][0] : UINT32_MAX};
        j.plan = r->matched_count ? choose_plan(R, r, j.delta_atom, lo, hi) : r->plans[0];
        if (!j.plan)
            continue;
        cont start = {.atoms = r->body, .order = j.plan, .count = r->body_count, .top_level = true,
                      .adaptive = r->body_count <= 64 && r->body_count > 2};
        step(&j, &start);
        if (!j.stop && !flush_pending(R, r))
            j.stop = true;
        if (j.stop) {
            R->pending_count = 0;
            return false;
        }
    }
    return true;
}

static void report_derived(reasoner *R) {
    uint32_t size = store_size(R->st);
    if (R->opt.on_derived && size > R->reported)
        R->opt.on_derived(R->opt.on_derived_user, R->reported, size);
    R->reported = size;
}

/* Whether fixpoint evaluates rule r in a round (the first, or another). */
static bool in_round(const rule *r, int stratum, bool first_round) {
    if (r->disabled || r->stratum != stratum || r->has_negation)
        return false;
    return first_round || (r->matched_count && !r->single_pass); /* a body without data atoms holds once */
}

/* The rules without negation of a stratum, to a fixpoint, the triples from `from` on being new. After the
 * first round only the rules some new triple can fire run (*activation, made when first needed). */
static int fixpoint(reasoner *R, const rule_set *rs, int stratum, uint32_t from, rule_activation **activation) {
    uint32_t lo = from, hi = store_size(R->st);
    for (bool first_round = from == 0;; first_round = false) {
        R->stats.rounds++;
        if (first_round || R->opt.every_rule_every_round) {
            for (unsigned i = 0; i < rs->count; i++)
                if (in_round(rs->rules[i], stratum, first_round) && !evaluate(R, rs->rules[i], lo, hi, first_round))
                    return -1;
        } else {
            if (!*activation)
                *activation = rule_activation_new(R->t, rs, stratum);
            unsigned count;
            const unsigned *due = rule_activation_due(*activation, R->st, lo, hi, &count);
            for (unsigned i = 0; i < count; i++)
                if (!evaluate(R, rs->rules[due[i]], lo, hi, false))
                    return -1;
        }
        report_derived(R);
        uint32_t size = store_size(R->st);
        if (size == hi)
            return 0;
        lo = hi;
        hi = size;
    }
}

/* Each negation a negation_checked rule fired with must still hold at the fixpoint: if one no longer
 * does, what the rule derived rests on a premise the result contradicts. Returns false (error set) then. */
static bool check_negations(reasoner *R) {
    for (size_t i = 0; i < R->record_count; i++) {
        const struct negation_record *rec = &R->records[i];
        const rule_atom *a = &rec->r->body[rec->atom];
        join j = {.R = R, .rule = rec->r, .hi = store_size(R->st), .delta_atom = UINT32_MAX};
        size_t k = 0;
        for (uint64_t needs = a->needs; needs; needs &= needs - 1)
            j.binding[__builtin_ctzll(needs)] = R->record_values[rec->values + k++];
        bool changed = false;
        const char *what = "its negation (log:notIncludes) held", *now = "no longer holds";
        if (a->kind == ATOM_NOT) {
            cont probe = {.atoms = a->groups[0].atoms, .count = a->groups[0].count, .found = &changed,
                          .probe = true, .adaptive = a->groups[0].count <= 64};
            step(&j, &probe);
        } else {
            term_id list;
            bool holds = quantify(&j, a, 0, &list);
            changed = a->kind == ATOM_FORALL ? !holds : list != R->record_values[rec->values + k];
            what = a->kind == ATOM_FORALL ? "its log:forAllIn held" : "its log:collectAllIn gave one list";
            now = a->kind == ATOM_FORALL ? "no longer holds" : "gives another";
        }
        if (!changed)
            continue;
        buf binding = {0};
        describe_binding(R->t, rec->r, j.binding, a->needs, &binding);
        snprintf(R->error, sizeof R->error,
                 "rule %s: %s when the rule fired%s, and %s once everything is derived: the rules contradict "
                 "each other, so the program is not stratifiable",
                 rec->r->name, what, buf_cstr(&binding), now);
        buf_free(&binding);
        return false;
    }
    return true;
}

static int ascending_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The fixpoint of a stratum's rules without negation, then its negation layers (reasoner_run_from). */
static int run_layers(reasoner *R, const rule_set *rs, int stratum, uint32_t from, rule_activation **activation) {
    if (fixpoint(R, rs, stratum, from, activation) != 0)
        return -1;
    /* Stratified negation: each layer's negation rules over what the lower layers closed, then the other
     * rules on what they derived, until the layer adds nothing: a negation rule may read (positively) what
     * another of its layer derives. What they negate is closed below, so evaluating again only adds; where
     * no layering could close it (negation_checked), check_negations verifies the premises at the end.
     * negations: the stratum's negation rules as (layer << 32 | number), sorted: by layer, each layer's in
     * the rule set's order. */
    uint64_t *negations = xmalloc((rs->count ? rs->count : 1) * sizeof *negations);
    uint32_t negation_count = 0;
    for (unsigned i = 0; i < rs->count; i++)
        if (!rs->rules[i]->disabled && rs->rules[i]->has_negation && rs->rules[i]->stratum == stratum)
            negations[negation_count++] = (uint64_t)rs->rules[i]->layer << 32 | i;
    if (negation_count > 1)
        qsort(negations, negation_count, sizeof *negations, ascending_u64);
    int rc = 0;
    for (uint32_t first = 0, end; first < negation_count && rc == 0; first = end) {
        for (end = first; end < negation_count && negations[end] >> 32 == negations[first] >> 32;)
            end++;
        for (uint32_t mark = 0; mark != store_size(R->st) && rc == 0;) {
            mark = store_size(R->st);
            /* each sees what those before it derived: fewer premises the end will contradict */
            for (uint32_t i = first; i < end && rc == 0; i++)
                if (!evaluate(R, rs->rules[(uint32_t)negations[i]], 0, store_size(R->st), true))
                    rc = -1;
            if (rc != 0)
                break;
            report_derived(R);
            if (store_size(R->st) > mark && fixpoint(R, rs, stratum, mark, activation) != 0)
                rc = -1;
            /* a contradiction is final: stop at once rather than derive on (a count counting itself) */
            else if (R->record_count && !check_negations(R))
                rc = -1;
        }
    }
    free(negations);
    return rc == 0 && check_negations(R) ? 0 : -1;
}

int reasoner_run_from(reasoner *R, const rule_set *rs, int stratum, uint32_t from) {
    R->error[0] = '\0';
    R->fuse_blown = false;
    R->reported = store_size(R->st);
    rule_activation *activation = NULL;
    int rc = run_layers(R, rs, stratum, from, &activation);
    rule_activation_free(activation);
    return rc;
}
