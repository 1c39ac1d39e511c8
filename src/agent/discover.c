/* discover.c: instances taken from LDP containers (discover.h). Members and instances are kept as text:
 * the agent releases an iteration's terms (rdf/term.h), and these outlive it. */
#include "agent/discover.h"

#include <stdlib.h>
#include <string.h>

#include "agent/shard.h"
#include "http/http_url.h"
#include "rdf/buf.h"
#include "rdf/strmap.h"
#include "rdf/vocab_ns.h"

enum member_kind {
    MEMBER_UNREAD,       /* this agent's, not read successfully yet: a candidate every iteration */
    MEMBER_OTHER_SHARD,  /* another agent's */
    MEMBER_READ,         /* read: its instances (maybe none) are known */
};

typedef struct member {
    char *doc;
    enum member_kind kind;
    char **instances;
    size_t instance_count;
    unsigned long listed; /* the iteration a listing last named it */
    uint32_t container;   /* ... and which one */
    bool asked;           /* asserted as a candidate in this iteration */
} member;

struct discovery {
    terms *t;
    const agent_vocab *v;
    const log_sink *log;
    term_id *containers;
    bool *listing_taken; /* per container: its listing was looked at in this iteration */
    bool *unchanged;     /* ... or is known unchanged (discovery_begin) */
    /* per container: its members, and how many of them its listing named in this iteration: when every
     * listing read named all of its members, none left, and no walk over every member is needed */
    size_t *member_counts, *listed_counts;
    size_t work; /* members and instances walked over in this iteration (discovery_work) */
    size_t listings_read; /* how many were looked at or known unchanged */
    bool some_read;       /* some listing was looked at in this iteration */
    char **unreadable;    /* per container: why its last listing could not be read (NULL: it could) */
    size_t container_count;
    unsigned shard_index, shard_count;
    term_id ldp_contains, instances_from, instance_candidate;
    member *members;
    size_t member_count, member_cap;
    size_t unread; /* members of this agent's shard not read yet */
    bool more;     /* this iteration left some for the next: DISCOVERY_CANDIDATES_PER_ITERATION were asked */
    size_t taken;  /* ... and how many of them it read */
    strmap member_index; /* doc -> 1 + index in members */
    char **asked;        /* the candidates asserted in this iteration and not read yet */
    size_t asked_count, asked_cap;
    char **asked_all;    /* every candidate asserted in this iteration (their flags are reset at the next) */
    size_t asked_all_count, asked_all_cap;
    unsigned long iteration;
    const char **current; /* discovery_instances' answer: made again when some left, added to as some join */
    size_t current_count, current_cap;
    bool current_stale;
    const char **joined; /* the instances that joined the run in this iteration */
    size_t joined_count, joined_cap;
    bool some_left;      /* some instance left the run in this iteration */
    /* the text of members that left in this iteration: freed at the next one's start, so that the instance
     * lists handed out before they left (discovery_instances, the agent's) stay valid until then */
    char **left;
    size_t left_count, left_cap;
};

discovery *discovery_new(char *const *containers, size_t container_count, unsigned shard_index,
                         unsigned shard_count, terms *t, const agent_vocab *v, const log_sink *log) {
    discovery *d = xcalloc(1, sizeof *d);
    d->t = t;
    d->v = v;
    d->log = log;
    d->containers = xcalloc(container_count + 1, sizeof *d->containers);
    d->listing_taken = xcalloc(container_count + 1, sizeof *d->listing_taken);
    d->unchanged = xcalloc(container_count + 1, sizeof *d->unchanged);
    d->unreadable = xcalloc(container_count + 1, sizeof *d->unreadable);
    d->member_counts = xcalloc(container_count + 1, sizeof *d->member_counts);
    d->listed_counts = xcalloc(container_count + 1, sizeof *d->listed_counts);
    for (size_t i = 0; i < container_count; i++)
        d->containers[i] = terms_iri_cstr(t, containers[i]);
    d->container_count = container_count;
    d->shard_index = shard_index;
    d->shard_count = shard_count;
    d->ldp_contains = terms_iri_cstr(t, LDP_contains);
    d->instances_from = terms_iri_cstr(t, NS_LDGSM "instancesFrom");
    d->instance_candidate = terms_iri_cstr(t, NS_LDGSM "instanceCandidate");
    d->current_stale = true;
    return d;
}

static void member_forget_instances(member *m) {
    for (size_t k = 0; k < m->instance_count; k++)
        free(m->instances[k]);
    free(m->instances);
    m->instances = NULL;
    m->instance_count = 0;
}

static void free_left(discovery *d) {
    for (size_t i = 0; i < d->left_count; i++)
        free(d->left[i]);
    d->left_count = 0;
}

static void keep_until_next_iteration(discovery *d, char *text) {
    if (d->left_count == d->left_cap) {
        d->left_cap = d->left_cap ? d->left_cap * 2 : 16;
        d->left = xrealloc(d->left, d->left_cap * sizeof *d->left);
    }
    d->left[d->left_count++] = text;
}

void discovery_free(discovery *d) {
    if (!d)
        return;
    for (size_t i = 0; i < d->member_count; i++) {
        member_forget_instances(&d->members[i]);
        free(d->members[i].doc);
    }
    free(d->members);
    strmap_free(&d->member_index);
    free(d->asked);
    free(d->asked_all);
    free(d->containers);
    free(d->listing_taken);
    free(d->unchanged);
    free(d->member_counts);
    free(d->listed_counts);
    free(d->joined);
    for (size_t i = 0; i < d->container_count; i++)
        free(d->unreadable[i]);
    free(d->unreadable);
    free(d->current);
    free_left(d);
    free(d->left);
    free(d);
}

static member *find_member(discovery *d, const char *doc);

static void assert_fact(discovery *d, store *wm, term_id p, term_id o) {
    store_add(wm, d->v->agent, p, o, d->v->clock_graph);
}

bool discovery_reads(const discovery *d, term_id group) {
    for (size_t i = 0; i < d->container_count; i++)
        if (d->containers[i] == group)
            return true;
    return terms_kind(d->t, group) == TERM_IRI && strmap_get(&d->member_index, terms_lex(d->t, group, NULL));
}

void discovery_begin(discovery *d, store *wm, bool assert_known, const bool *unchanged) {
    d->iteration++;
    d->work = 0;
    for (size_t i = 0; i < d->asked_all_count; i++) { /* before free_left: a member that left is named there */
        member *m = find_member(d, d->asked_all[i]);
        if (m)
            m->asked = false;
    }
    d->asked_all_count = 0;
    d->asked_count = 0;
    free_left(d);
    d->listings_read = 0;
    d->some_read = false;
    d->joined_count = 0;
    d->some_left = false;
    d->more = false;
    d->taken = 0;
    for (size_t i = 0; i < d->container_count; i++) {
        d->listed_counts[i] = 0;
        d->unchanged[i] = unchanged && unchanged[i];
        d->listing_taken[i] = d->unchanged[i];
        if (d->unchanged[i])
            d->listings_read++; /* as if read: its members stay */
        else
            assert_fact(d, wm, d->instances_from, d->containers[i]);
    }
    for (size_t i = 0; i < d->member_count && assert_known; i++)
        for (size_t k = 0; k < d->members[i].instance_count; k++)
            assert_fact(d, wm, d->v->instance, terms_iri_cstr(d->t, d->members[i].instances[k]));
}

static member *find_member(discovery *d, const char *doc) {
    const uint32_t *slot = strmap_get(&d->member_index, doc);
    return slot && *slot ? &d->members[*slot - 1] : NULL;
}

static member *add_member(discovery *d, const char *doc) {
    if (d->member_count == d->member_cap) {
        d->member_cap = d->member_cap ? d->member_cap * 2 : 64;
        d->members = xrealloc(d->members, d->member_cap * sizeof *d->members);
    }
    bool ours = !d->shard_count || shard_of(doc, d->shard_count) == d->shard_index;
    d->members[d->member_count] =
        (member){.doc = xstrndup(doc, strlen(doc)), .kind = ours ? MEMBER_UNREAD : MEMBER_OTHER_SHARD};
    d->unread += ours;
    *strmap_put(&d->member_index, doc, 0, NULL) = (uint32_t)++d->member_count;
    return &d->members[d->member_count - 1];
}

/* Members that no listing taken in this iteration names leave, with their instances; a member of a
 * container that could not be read stays (its listing was not taken), and so does one of a container known
 * unchanged. Nothing to do unless some listing was read. */
static void drop_unlisted(discovery *d) {
    if (d->listings_read < d->container_count || !d->some_read)
        return;
    bool all_named = true;
    for (size_t i = 0; i < d->container_count && all_named; i++)
        all_named = d->unchanged[i] || d->listed_counts[i] == d->member_counts[i];
    if (all_named)
        return;
    size_t kept = 0;
    d->work += d->member_count;
    for (size_t i = 0; i < d->member_count; i++) {
        member *m = &d->members[i];
        if (m->listed == d->iteration || d->unchanged[m->container]) {
            d->members[kept++] = *m;
            continue;
        }
        d->unread -= m->kind == MEMBER_UNREAD;
        d->member_counts[m->container]--;
        if (m->instance_count) {
            log_msg(d->log, LOG_INFO, "instances-from: <%s> is no longer listed: its instances leave the run",
                    m->doc);
            d->current_stale = true;
            d->some_left = true;
        }
        for (size_t k = 0; k < m->instance_count; k++)
            keep_until_next_iteration(d, m->instances[k]);
        free(m->instances);
        keep_until_next_iteration(d, m->doc);
    }
    if (kept == d->member_count)
        return;
    d->member_count = kept;
    /* a map without deletion: built again from the members that stay */
    strmap_free(&d->member_index);
    d->member_index = (strmap){0};
    for (size_t i = 0; i < d->member_count; i++)
        *strmap_put(&d->member_index, d->members[i].doc, 0, NULL) = (uint32_t)(i + 1);
}

/* Says when container i's listing becomes unreadable, and why, and when it is read again; false while it
 * cannot be read (the instances known keep running). */
static bool say_readable(discovery *d, size_t i, const agent_read *outcome) {
    char why[64] = "";
    if (outcome->failure)
        snprintf(why, sizeof why, "%s", outcome->failure);
    else if (outcome->unparsable)
        snprintf(why, sizeof why, "RDF that does not parse");
    else if (outcome->status < 200 || outcome->status >= 300)
        snprintf(why, sizeof why, "answers %ld", outcome->status);
    const char *container = terms_lex(d->t, d->containers[i], NULL);
    if (*why && (!d->unreadable[i] || strcmp(d->unreadable[i], why) != 0)) {
        size_t known = 0;
        discovery_instances(d, &known);
        log_msg(d->log, LOG_WARN, "instances-from: <%s> cannot be read (%s): no instance joins or leaves the run "
                "until it can; the %zu known keep running", container, why, known);
        free(d->unreadable[i]);
        d->unreadable[i] = xstrndup(why, strlen(why));
    } else if (!*why && d->unreadable[i]) {
        log_msg(d->log, LOG_INFO, "instances-from: <%s> can be read again", container);
        free(d->unreadable[i]);
        d->unreadable[i] = NULL;
    }
    return !*why;
}

/* Takes container i's listing when this iteration read it; returns the candidates asserted. */
static size_t take_listing(discovery *d, size_t i, store *wm, discovery_read_fn read, void *user) {
    agent_read outcome;
    const char *container = terms_lex(d->t, d->containers[i], NULL);
    if (d->listing_taken[i] || !read(user, container, &outcome))
        return 0;
    d->listing_taken[i] = true;
    if (!say_readable(d, i, &outcome))
        return 0;
    d->listings_read++;
    d->some_read = true;
    size_t asked = 0;
    store_iter it;
    store_match(wm, d->containers[i], d->ldp_contains, 0, 0, store_size(wm), &it);
    uint32_t n;
    for (const triple *tr; (tr = store_next(&it, &n));) {
        if (terms_kind(d->t, tr->o) != TERM_IRI)
            continue;
        const char *doc = terms_lex(d->t, tr->o, NULL);
        member *m = find_member(d, doc);
        if (!m) {
            m = add_member(d, doc);
            m->container = (uint32_t)i;
            d->member_counts[i]++;
        } else if (m->container != i) { /* named by another listing now */
            d->member_counts[m->container]--;
            d->member_counts[i]++;
            if (m->listed == d->iteration)
                d->listed_counts[m->container]--;
            m->container = (uint32_t)i;
            m->listed = 0;
        }
        if (m->listed != d->iteration)
            d->listed_counts[i]++;
        m->listed = d->iteration;
        if (m->kind == MEMBER_UNREAD && !m->asked && d->asked_all_count >= DISCOVERY_CANDIDATES_PER_ITERATION)
            d->more = true;
        else if (m->kind == MEMBER_UNREAD && !m->asked) {
            m->asked = true;
            assert_fact(d, wm, d->instance_candidate, tr->o);
            if (d->asked_count == d->asked_cap) {
                d->asked_cap = d->asked_cap ? d->asked_cap * 2 : 64;
                d->asked = xrealloc(d->asked, d->asked_cap * sizeof *d->asked);
            }
            d->asked[d->asked_count++] = m->doc;
            if (d->asked_all_count == d->asked_all_cap) {
                d->asked_all_cap = d->asked_all_cap ? d->asked_all_cap * 2 : 64;
                d->asked_all = xrealloc(d->asked_all, d->asked_all_cap * sizeof *d->asked_all);
            }
            d->asked_all[d->asked_all_count++] = m->doc;
            asked++;
        }
    }
    return asked;
}

/* True when s is a stage of another instance (gsm:inArtifactInstance): the rules write a root's own
 * inArtifactInstance as itself, so an instance run before is a root still. */
static bool stage_of_another(discovery *d, store *wm, term_id s) {
    store_iter it;
    store_match(wm, s, d->v->in_artifact_instance, 0, 0, store_size(wm), &it);
    uint32_t n;
    for (const triple *tr; (tr = store_next(&it, &n));)
        if (tr->o != s)
            return true;
    return false;
}

/* The workflow instances member m's document describes: its own IRIs with a gsm:isInstanceOf that are no
 * stage of another instance. */
static void take_candidate(discovery *d, member *m, store *wm) {
    char *identity = http_url_identity(m->doc);
    if (!identity)
        return;
    uint32_t count;
    const uint32_t *ns = store_graph_triples(wm, terms_iri_cstr(d->t, identity), &count);
    for (uint32_t k = 0; k < count; k++) {
        const triple *tr = store_triple(wm, ns[k]);
        if (tr->p != d->v->is_instance_of || terms_kind(d->t, tr->s) != TERM_IRI || stage_of_another(d, wm, tr->s))
            continue;
        const char *instance = terms_lex(d->t, tr->s, NULL);
        char *subject = http_url_identity(instance);
        bool own = subject && strcmp(subject, identity) == 0;
        free(subject);
        bool known = false;
        for (size_t j = 0; j < m->instance_count && !known; j++)
            known = strcmp(m->instances[j], instance) == 0;
        if (!own || known)
            continue;
        m->instances = xrealloc(m->instances, (m->instance_count + 1) * sizeof *m->instances);
        m->instances[m->instance_count++] = xstrndup(instance, strlen(instance));
        log_msg(d->log, LOG_INFO, "instances-from: <%s> joins the run", instance);
        if (!d->current_stale) {
            if (d->current_count + 1 >= d->current_cap) {
                d->current_cap = 2 * d->current_cap + 16;
                d->current = xrealloc(d->current, d->current_cap * sizeof *d->current);
            }
            d->current[d->current_count++] = m->instances[m->instance_count - 1];
            d->current[d->current_count] = NULL;
        }
        if (d->joined_count == d->joined_cap) {
            d->joined_cap = d->joined_cap ? d->joined_cap * 2 : 16;
            d->joined = xrealloc(d->joined, d->joined_cap * sizeof *d->joined);
        }
        d->joined[d->joined_count++] = m->instances[m->instance_count - 1];
    }
    free(identity);
    d->taken++;
    d->unread -= m->kind == MEMBER_UNREAD;
    m->kind = MEMBER_READ;
}

size_t discovery_scan(discovery *d, store *wm, discovery_read_fn read, void *user) {
    size_t asserted = 0;
    for (size_t i = 0; i < d->container_count; i++)
        asserted += take_listing(d, i, wm, read, user);
    drop_unlisted(d);
    for (size_t i = 0; i < d->asked_count;) {
        member *m = find_member(d, d->asked[i]);
        agent_read outcome;
        if (m && !read(user, m->doc, &outcome)) {
            i++; /* not fetched yet */
            continue;
        }
        d->asked[i] = d->asked[--d->asked_count];
        /* not answered, or not found (a member deleted since it was listed): tried again next iteration */
        if (!m || outcome.failure || outcome.status < 200 || outcome.status >= 300)
            continue;
        take_candidate(d, m, wm);
        for (size_t k = 0; k < m->instance_count; k++)
            asserted += store_add(wm, d->v->agent, d->v->instance, terms_iri_cstr(d->t, m->instances[k]),
                                  d->v->clock_graph);
    }
    return asserted;
}

const char *const *discovery_instances(discovery *d, size_t *count) {
    if (d->current_stale) {
        d->current_count = 0;
        d->work += d->member_count;
        for (size_t i = 0; i < d->member_count; i++)
            d->current_count += d->members[i].instance_count;
        free(d->current);
        d->current_cap = d->current_count + 1;
        d->current = xcalloc(d->current_cap, sizeof *d->current);
        size_t at = 0;
        for (size_t i = 0; i < d->member_count; i++)
            for (size_t k = 0; k < d->members[i].instance_count; k++)
                d->current[at++] = d->members[i].instances[k];
        d->current_stale = false;
    }
    *count = d->current_count;
    return d->current;
}

const char *const *discovery_joined(const discovery *d, size_t *count) {
    *count = d->joined_count;
    return d->joined;
}

size_t discovery_work(const discovery *d) {
    return d->work;
}

bool discovery_some_left(const discovery *d) {
    return d->some_left;
}

bool discovery_unread(const discovery *d) {
    return d->unread > 0;
}

bool discovery_more(const discovery *d) {
    return d->more && d->taken > 0; /* not while every read fails: then the iterations keep their pace */
}
