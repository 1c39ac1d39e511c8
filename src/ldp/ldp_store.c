/* ldp_store.c: the LDP server's tree of resources and containers: lookup, snapshots, and the write
 * operations (PUT, POST, DELETE) with their LDP checks, written through to ldp_disk when durable. */
#include "ldp/ldp_store.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ldp/ldp_disk.h"
#include "ldp/ldp_path.h"
#include "rdf/hashmap.h"
#include "rdf/strmap.h"
#include "rdf/vocab_ns.h"

/* ---------------------------------------------------------------- the tree */

typedef struct node {
    char *path;
    size_t path_len;
    uint64_t hash;
    bool is_container;
    struct node *parent;
    struct node **members; /* sorted by path */
    size_t member_count, member_cap;
    ldp_bytes *own;        /* a resource's stored Turtle; a container's own triples (may be NULL) */
    bool own_edited;       /* own is what an edit wrote (ldp_store_edit_fn's own_writing) */
    ldp_doc *doc;          /* current snapshot; NULL when stale (only containers go stale) */
    time_t modified;       /* Last-Modified of its representation (a container's moves with membership) */
    struct node *next;     /* hash chain */
} node;

struct ldp_store {
    char *data_dir;
    char *base_url;
    ldp_variant_free_fn variant_free;
    const log_sink *log;
    const char *const *turtle_prefixes;
    pthread_mutex_t lock;       /* the tree and the snapshot pointers; held briefly */
    pthread_mutex_t write_lock; /* one writer at a time, across its disk I/O (design note 3) */
    node **buckets;
    size_t bucket_count, node_count;
    node *root;
    strmap deleted;     /* design note 5: every path ever deleted, under s->lock */
    buf deleted_record; /* the same, one per line, as LDP_DISK_DELETED_FILE holds it */
    uint64_t last_member_name; /* ldp_path_ordered_name's clock, under s->lock */
    size_t listings_built;     /* container snapshots made, under s->lock */
    atomic_size_t bodies_parsed; /* prepare_body's checks, made by writers at once */
    ldp_store_change_fn on_change; /* design note 7 */
    void *on_change_user;
    bool recording;     /* a write holds the write lock: changes go to pending */
    struct pending_change {
        enum ldp_activity activity;
        char *path, *object;
    } *pending;         /* the current write's changes, under the write lock */
    size_t pending_count, pending_cap;
};

static uint64_t path_hash(const char *path, size_t len) { return hash_bytes(path, len, 0x6c6470); }

static node *find(const ldp_store *s, const char *path, size_t len) {
    uint64_t h = path_hash(path, len);
    for (node *n = s->buckets[h & (s->bucket_count - 1)]; n; n = n->next)
        if (n->hash == h && n->path_len == len && memcmp(n->path, path, len) == 0)
            return n;
    return NULL;
}

static void rehash(ldp_store *s) {
    size_t count = s->bucket_count * 2;
    node **buckets = xcalloc(count, sizeof *buckets);
    for (size_t i = 0; i < s->bucket_count; i++)
        for (node *n = s->buckets[i], *next; n; n = next) {
            next = n->next;
            n->next = buckets[n->hash & (count - 1)];
            buckets[n->hash & (count - 1)] = n;
        }
    free(s->buckets);
    s->buckets = buckets;
    s->bucket_count = count;
}

/* The path of the container holding path ("/a/b" and "/a/b/" -> "/a/"); length into *len. */
static size_t parent_len(const char *path, size_t len) {
    size_t i = len - 1; /* skip a container's own trailing '/' */
    while (i > 0 && path[i - 1] != '/')
        i--;
    return i;
}

/* Design note 7: notes a change of the current write. Called with the write lock held. */
static void record_change(ldp_store *s, enum ldp_activity activity, const char *path, const char *object) {
    if (!s->recording || !s->on_change)
        return;
    if (activity == LDP_ACTIVITY_ADD)
        for (size_t i = 0; i < s->pending_count; i++)
            if (s->pending[i].activity == LDP_ACTIVITY_CREATE && strcmp(s->pending[i].path, path) == 0)
                return; /* a container this write created: its Create says it all */
    if (s->pending_count == s->pending_cap) {
        s->pending_cap = s->pending_cap ? 2 * s->pending_cap : 4;
        s->pending = xrealloc(s->pending, s->pending_cap * sizeof *s->pending);
    }
    s->pending[s->pending_count++] = (struct pending_change){
        activity, xstrndup(path, strlen(path)), object ? xstrndup(object, strlen(object)) : NULL};
}

static void set_doc(node *n, ldp_doc *doc) {
    ldp_doc_release(n->doc);
    n->doc = doc;
}

static void make_resource_doc(ldp_store *s, node *n) {
    set_doc(n, ldp_doc_new(n->path, s->base_url, false, ldp_bytes_retain(n->own), s->variant_free));
    n->doc->modified = n->modified;
}

/* Design note 2: type and containment first, with full IRIs and no prefix, then the own triples as
 * stored, so nothing the owner wrote (a @base, a prefix) changes what the header means. */
static ldp_doc *container_doc(ldp_store *s, node *n) {
    s->listings_built++;
    buf turtle = {0};
    buf_puts(&turtle, "<> a <" NS_LDP "BasicContainer>, <" NS_LDP "Container>, <" NS_LDP "Resource>");
    for (size_t i = 0; i < n->member_count; i++) {
        const node *m = n->members[i];
        buf_puts(&turtle, i == 0 ? " ;\n    <" NS_LDP "contains> <" : ",\n        <");
        size_t start = n->path_len, end = m->path_len - (m->is_container ? 1 : 0);
        ldp_member_ref(m->path + start, end - start, m->is_container, &turtle);
        buf_putc(&turtle, '>');
    }
    buf_puts(&turtle, " .\n");
    if (n->own && n->own->len) {
        buf_putc(&turtle, '\n');
        buf_append(&turtle, n->own->data, n->own->len);
    }
    ldp_bytes *bytes = ldp_bytes_new(turtle.data, turtle.len);
    buf_free(&turtle);
    ldp_doc *doc = ldp_doc_new(n->path, s->base_url, true, bytes, s->variant_free);
    doc->modified = n->modified;
    return doc;
}

/* The node's snapshot, built when stale. Called with s->lock held. */
static ldp_doc *node_doc(ldp_store *s, node *n) {
    if (!n->doc)
        n->doc = container_doc(s, n);
    return n->doc;
}

static void insert_member(node *parent, node *n) {
    if (parent->member_count == parent->member_cap) {
        parent->member_cap = parent->member_cap ? parent->member_cap * 2 : 8;
        parent->members = xrealloc(parent->members, parent->member_cap * sizeof *parent->members);
    }
    size_t lo = 0, hi = parent->member_count;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (strcmp(parent->members[mid]->path, n->path) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    memmove(parent->members + lo + 1, parent->members + lo, (parent->member_count - lo) * sizeof *parent->members);
    parent->members[lo] = n;
    parent->member_count++;
    parent->modified = time(NULL);
    set_doc(parent, NULL);
}

/* Adds a node under its (existing) parent container, taking over own. Called with s->lock held (or
 * before the server starts). */
static node *add_node(ldp_store *s, const char *path, bool is_container, ldp_bytes *own) {
    node *n = xcalloc(1, sizeof *n);
    n->path_len = strlen(path);
    n->path = xstrndup(path, n->path_len);
    n->hash = path_hash(path, n->path_len);
    n->is_container = is_container;
    n->own = own;
    n->modified = time(NULL);
    if (s->node_count + 1 > s->bucket_count)
        rehash(s);
    size_t b = n->hash & (s->bucket_count - 1);
    n->next = s->buckets[b];
    s->buckets[b] = n;
    s->node_count++;
    if (n->path_len > 1) {
        n->parent = find(s, path, parent_len(path, n->path_len));
        insert_member(n->parent, n);
        record_change(s, LDP_ACTIVITY_ADD, n->parent->path, n->path);
    }
    record_change(s, LDP_ACTIVITY_CREATE, n->path, NULL);
    if (!is_container)
        make_resource_doc(s, n);
    return n;
}

static void free_node(node *n) {
    ldp_doc_release(n->doc);
    ldp_bytes_release(n->own);
    free(n->members);
    free(n->path);
    free(n);
}

/* Unlinks a member-less node from the hash table and its parent. Called with s->lock held. */
static void remove_node(ldp_store *s, node *n) {
    node **link = &s->buckets[n->hash & (s->bucket_count - 1)];
    while (*link != n)
        link = &(*link)->next;
    *link = n->next;
    s->node_count--;
    node *parent = n->parent;
    record_change(s, LDP_ACTIVITY_REMOVE, parent->path, n->path);
    record_change(s, LDP_ACTIVITY_DELETE, n->path, NULL);
    size_t i = 0;
    while (parent->members[i] != n)
        i++;
    memmove(parent->members + i, parent->members + i + 1, (parent->member_count - i - 1) * sizeof *parent->members);
    parent->member_count--;
    parent->modified = time(NULL);
    set_doc(parent, NULL);
    free_node(n);
}

/* ---------------------------------------------------------------- opening */

static int load_container(void *user, const char *path, const char *own, size_t own_len) {
    ldp_store *s = user;
    ldp_bytes *bytes = own_len ? ldp_bytes_new(own, own_len) : NULL;
    if (strcmp(path, "/") == 0) {
        ldp_bytes_release(s->root->own);
        s->root->own = bytes;
    } else {
        add_node(s, path, true, bytes);
    }
    return 0;
}

static int load_resource(void *user, const char *path, const char *data, size_t len) {
    add_node(user, path, false, ldp_bytes_new(data, len));
    return 0;
}

static void load_skipped(void *user, const char *file, const char *why) {
    ldp_store *s = user;
    log_msg(s->log, LOG_WARN, "%s: not served: %s", file, why);
}

static void remember_deleted(ldp_store *s, const char *path, size_t len) {
    bool inserted;
    strmap_put_n(&s->deleted, path, len, 0, &inserted);
    if (inserted) {
        buf_append(&s->deleted_record, path, len);
        buf_putc(&s->deleted_record, '\n');
    }
}

/* Design note 5: the deleted paths a previous run recorded. */
static void load_deleted(ldp_store *s) {
    buf file = {0};
    buf_printf(&file, "%s/" LDP_DISK_DELETED_FILE, s->data_dir);
    size_t len = 0;
    char *data = ldp_disk_read_file(file.data, &len);
    for (char *line = data, *end; line && line < data + len; line = end + 1) {
        end = memchr(line, '\n', (size_t)(data + len - line));
        if (!end)
            end = data + len;
        if (end > line && line[0] == '/')
            remember_deleted(s, line, (size_t)(end - line));
    }
    free(data);
    buf_free(&file);
}

/* Design note 6: after a restart a representation is as old as its files say. */
static void load_modified(ldp_store *s) {
    for (size_t i = 0; i < s->bucket_count; i++)
        for (node *n = s->buckets[i]; n; n = n->next) {
            time_t modified = ldp_disk_modified(s->data_dir, n->path);
            if (modified)
                n->modified = modified;
            if (n->is_container)
                set_doc(n, NULL);
            else
                make_resource_doc(s, n);
        }
}

ldp_store *ldp_store_open(const ldp_store_config *config, char *message, size_t size) {
    ldp_store *s = xcalloc(1, sizeof *s);
    s->data_dir = config->data_dir ? xstrndup(config->data_dir, strlen(config->data_dir)) : NULL;
    s->base_url = xstrndup(config->base_url, strlen(config->base_url));
    s->variant_free = config->variant_free;
    s->log = config->log;
    s->turtle_prefixes = config->turtle_prefixes;
    s->on_change = config->on_change;
    s->on_change_user = config->on_change_user;
    pthread_mutex_init(&s->lock, NULL);
    pthread_mutex_init(&s->write_lock, NULL);
    s->bucket_count = 64;
    s->buckets = xcalloc(s->bucket_count, sizeof *s->buckets);
    s->root = add_node(s, "/", true, NULL);
    if (s->data_dir) {
        ldp_disk_visitor visitor = {load_container, load_resource, load_skipped, s};
        if (ldp_disk_walk(s->data_dir, true, &visitor, message, size) != 0) {
            ldp_store_free(s);
            return NULL;
        }
        load_deleted(s);
        load_modified(s);
    }
    return s;
}

void ldp_store_free(ldp_store *s) {
    if (!s)
        return;
    for (size_t i = 0; i < s->bucket_count; i++)
        for (node *n = s->buckets[i], *next; n; n = next) {
            next = n->next;
            free_node(n);
        }
    free(s->buckets);
    free(s->pending);
    strmap_free(&s->deleted);
    buf_free(&s->deleted_record);
    pthread_mutex_destroy(&s->lock);
    pthread_mutex_destroy(&s->write_lock);
    free(s->data_dir);
    free(s->base_url);
    free(s);
}

const char *ldp_store_data_dir(const ldp_store *s) { return s->data_dir; }

const char *const *ldp_store_turtle_prefixes(const ldp_store *s) { return s->turtle_prefixes; }

size_t ldp_store_bodies_parsed(ldp_store *s) {
    return atomic_load_explicit(&s->bodies_parsed, memory_order_relaxed);
}

size_t ldp_store_listings_built(ldp_store *s) {
    pthread_mutex_lock(&s->lock);
    size_t built = s->listings_built;
    pthread_mutex_unlock(&s->lock);
    return built;
}

ldp_doc *ldp_store_get(ldp_store *s, const char *path) {
    pthread_mutex_lock(&s->lock);
    node *n = find(s, path, strlen(path));
    ldp_doc *doc = n ? ldp_doc_retain(node_doc(s, n)) : NULL;
    pthread_mutex_unlock(&s->lock);
    return doc;
}

static int doc_path_order(const void *a, const void *b) {
    return strcmp((*(ldp_doc *const *)a)->path, (*(ldp_doc *const *)b)->path);
}

void ldp_store_view_take(ldp_store *s, ldp_store_view *view) {
    pthread_mutex_lock(&s->lock);
    view->count = s->node_count;
    view->docs = xmalloc((view->count ? view->count : 1) * sizeof *view->docs);
    size_t n = 0;
    for (size_t i = 0; i < s->bucket_count; i++)
        for (node *member = s->buckets[i]; member; member = member->next)
            view->docs[n++] = ldp_doc_retain(node_doc(s, member));
    pthread_mutex_unlock(&s->lock);
    qsort(view->docs, view->count, sizeof *view->docs, doc_path_order);
}

void ldp_store_view_release(ldp_store_view *view) {
    for (size_t i = 0; i < view->count; i++)
        ldp_doc_release(view->docs[i]);
    free(view->docs);
    view->docs = NULL;
    view->count = 0;
}

/* ---------------------------------------------------------------- writing */

void ldp_outcome_clear(ldp_outcome *outcome) {
    free(outcome->path);
    memset(outcome, 0, sizeof *outcome);
}

/* Every write runs between write_begin and write_end. */
static void write_begin(ldp_store *s) {
    pthread_mutex_lock(&s->write_lock);
    s->recording = true;
}

/* Design note 7: reports the write's changes and lets the next write in. */
static void write_end(ldp_store *s) {
    s->recording = false;
    if (s->pending_count) {
        ldp_store_change *changes = xcalloc(s->pending_count, sizeof *changes);
        for (size_t i = 0; i < s->pending_count; i++)
            changes[i] = (ldp_store_change){s->pending[i].activity, s->pending[i].path, s->pending[i].object};
        s->on_change(s->on_change_user, changes, s->pending_count);
        free(changes);
        for (size_t i = 0; i < s->pending_count; i++) {
            free(s->pending[i].path);
            free(s->pending[i].object);
        }
        s->pending_count = 0;
    }
    pthread_mutex_unlock(&s->write_lock);
}

/* fmt has one %s, for arg. */
static void set_outcome(ldp_outcome *outcome, int status, const char *fmt, const char *arg) {
    outcome->status = status;
    snprintf(outcome->message, sizeof outcome->message, fmt, arg);
}

/* Design note 4. Called with s->lock held; n is the current node or NULL. Returns 0 or a status. */
static int check_conditions(ldp_store *s, node *n, const ldp_conditions *c) {
    if (!c)
        return 0;
    ldp_doc *doc = n ? node_doc(s, n) : NULL;
    if (c->if_match && (!doc || (!ldp_etag_is_any(c->if_match) && !ldp_doc_etag_listed(doc, c->if_match))))
        return 412;
    if (c->if_none_match && doc && (ldp_etag_is_any(c->if_none_match) || ldp_doc_etag_listed(doc, c->if_none_match)))
        return 412;
    if (c->required && doc && !c->if_match && !c->if_none_match)
        return 428;
    return 0;
}

/* Why path cannot be created: a resource where a container of its ancestry would be, or the same name
 * taken by the other kind. Called with s->lock held; NULL when it can. */
static const char *creation_conflict(ldp_store *s, const char *path, size_t len, char *blocking, size_t size) {
    for (size_t i = 1; i < len; i++) {
        if (path[i] != '/')
            continue;
        if (find(s, path, i)) {
            snprintf(blocking, size, "%.*s", (int)i, path);
            return "is a resource, not a container";
        }
    }
    bool container = ldp_path_is_container(path, len);
    size_t other_len = container ? len - 1 : len + 1;
    char *other = xmalloc(other_len + 1);
    memcpy(other, path, container ? len - 1 : len);
    if (!container)
        other[len] = '/';
    other[other_len] = '\0';
    const char *why = find(s, other, other_len) ? "exists with the same name" : NULL;
    if (why)
        snprintf(blocking, size, "%s", other);
    free(other);
    return why;
}

/* Creates the missing containers above path, each durably before it is published. Called with the
 * write lock held and the tree lock not. */
static int create_ancestors(ldp_store *s, const char *path, ldp_outcome *outcome) {
    size_t len = strlen(path) - (ldp_path_is_container(path, strlen(path)) ? 1 : 0);
    for (size_t i = 1; i < len; i++) {
        if (path[i] != '/')
            continue;
        char *ancestor = xstrndup(path, i + 1);
        pthread_mutex_lock(&s->lock);
        bool exists = find(s, ancestor, i + 1) != NULL;
        pthread_mutex_unlock(&s->lock);
        int rc = 0;
        if (!exists && s->data_dir)
            rc = ldp_disk_make_container(s->data_dir, ancestor, "", 0, outcome->message, sizeof outcome->message);
        if (!exists && rc == 0) {
            pthread_mutex_lock(&s->lock);
            add_node(s, ancestor, true, NULL);
            pthread_mutex_unlock(&s->lock);
        }
        free(ancestor);
        if (rc != 0) {
            outcome->status = 500;
            return -1;
        }
    }
    return 0;
}

static char *uri_of(const ldp_store *s, const char *path) {
    buf uri = {0};
    buf_puts(&uri, s->base_url);
    ldp_path_encode(path, strlen(path), &uri);
    return buf_cstr(&uri);
}

/* Checks the body for the resource at path and produces its stored Turtle (design note 2). */
static int prepare_body(ldp_store *s, const char *path, const ldp_body *body, buf *stored, ldp_outcome *outcome) {
    atomic_fetch_add_explicit(&s->bodies_parsed, 1, memory_order_relaxed);
    char *uri = uri_of(s, path);
    bool container = ldp_path_is_container(path, strlen(path));
    enum ldp_rdf_result r =
        ldp_rdf_check_body(body->media, body->data, body->len, uri, body->source_name, container,
                           s->turtle_prefixes, stored, outcome->message, sizeof outcome->message);
    free(uri);
    if (r == LDP_RDF_OK)
        return 0;
    outcome->status = r == LDP_RDF_CONTAINMENT ? 409 : 400;
    return -1;
}

/* Writes path durably (when there is a data directory) and publishes it. Called with the write lock
 * held; existing is the node being replaced or NULL; edited: stored is an edit's writing. */
static void commit(ldp_store *s, const char *path, node *existing, buf *stored, bool edited, ldp_outcome *outcome) {
    bool container = ldp_path_is_container(path, strlen(path));
    if (s->data_dir) {
        int rc;
        if (!container)
            rc = ldp_disk_write_resource(s->data_dir, path, stored->data ? stored->data : "", stored->len,
                                         outcome->message, sizeof outcome->message);
        else if (existing)
            rc = ldp_disk_write_container_triples(s->data_dir, path, stored->data, stored->len, outcome->message,
                                                  sizeof outcome->message);
        else
            rc = ldp_disk_make_container(s->data_dir, path, stored->data, stored->len, outcome->message,
                                         sizeof outcome->message);
        if (rc != 0) {
            outcome->status = 500;
            return;
        }
    }
    ldp_bytes *own = stored->len || !container ? ldp_bytes_new(stored->data ? stored->data : "", stored->len) : NULL;
    pthread_mutex_lock(&s->lock);
    node *n = existing;
    if (n) {
        record_change(s, LDP_ACTIVITY_UPDATE, n->path, NULL);
        ldp_bytes_release(n->own);
        n->own = own;
        n->modified = time(NULL);
        if (container)
            set_doc(n, NULL);
        else
            make_resource_doc(s, n);
    } else {
        n = add_node(s, path, container, own);
    }
    n->own_edited = edited;
    memcpy(outcome->etag, node_doc(s, n)->etag[LDP_MEDIA_TURTLE], LDP_ETAG_SIZE);
    pthread_mutex_unlock(&s->lock);
    outcome->status = existing ? 204 : 201;
    outcome->path = xstrndup(path, strlen(path));
}

/* The checks of a write that creates or replaces path, made under the write lock: no resource where a
 * container of its ancestry would be, then the preconditions. Returns 0 with *existing (the node
 * replaced, or NULL), or -1 with the outcome set. */
static int check_write(ldp_store *s, const char *path, const ldp_conditions *conditions, node **existing,
                       ldp_outcome *outcome) {
    size_t len = strlen(path);
    pthread_mutex_lock(&s->lock);
    *existing = find(s, path, len);
    char blocking[LDP_PATH_MAX + 1];
    const char *conflict = *existing ? NULL : creation_conflict(s, path, len, blocking, sizeof blocking);
    int status = conflict ? 409 : check_conditions(s, *existing, conditions);
    pthread_mutex_unlock(&s->lock);
    if (conflict) {
        snprintf(outcome->message, sizeof outcome->message, "%.400s %s", blocking, conflict);
        outcome->status = 409;
    } else if (status) {
        set_outcome(outcome, status,
                    status == 412 ? "precondition failed on %s" : "%s exists: this server needs If-Match to change it",
                    path);
    }
    return conflict || status ? -1 : 0;
}

void ldp_store_put(ldp_store *s, const char *path, const ldp_body *body, const ldp_conditions *conditions,
                   ldp_outcome *outcome) {
    memset(outcome, 0, sizeof *outcome);
    buf stored = {0};
    if (prepare_body(s, path, body, &stored, outcome) != 0)
        return;
    write_begin(s);
    node *existing;
    if (check_write(s, path, conditions, &existing, outcome) == 0 &&
        (existing || create_ancestors(s, path, outcome) == 0))
        commit(s, path, existing, &stored, false, outcome);
    write_end(s);
    buf_free(&stored);
}

void ldp_store_edit(ldp_store *s, const char *path, const ldp_conditions *conditions, ldp_store_edit_fn edit,
                    void *user, ldp_outcome *outcome) {
    memset(outcome, 0, sizeof *outcome);
    write_begin(s);
    node *existing;
    if (check_write(s, path, conditions, &existing, outcome) == 0) {
        /* Only writers replace a node's own bytes, and this thread is the writer now. */
        const ldp_bytes *own = existing ? existing->own : NULL;
        char *uri = uri_of(s, path);
        buf edited = {0};
        int status = edit(user, own ? own->data : NULL, own ? own->len : 0, existing && existing->own_edited, uri,
                          &edited, outcome->message, sizeof outcome->message);
        free(uri);
        /* The edit wrote its Turtle from checked terms (ldp_store_edit_fn), so only a container's is parsed
         * again, for the containment triples the server manages: a resource's is stored as written. */
        buf checked = {0}, *stored = &edited;
        if (!status && ldp_path_is_container(path, strlen(path))) {
            ldp_body body = {edited.data ? edited.data : "", edited.len, LDP_MEDIA_TURTLE, "the edited resource"};
            stored = &checked;
            if (prepare_body(s, path, &body, &checked, outcome) != 0)
                status = outcome->status;
        }
        if (status)
            outcome->status = status;
        else if (existing || create_ancestors(s, path, outcome) == 0)
            commit(s, path, existing, stored, stored == &edited, outcome);
        buf_free(&checked);
        buf_free(&edited);
    }
    write_end(s);
}

/* A member path for container: the slug when safe, free and short enough, else a fresh name; NULL when
 * not even a fresh name fits in LDP_PATH_MAX. Called with s->lock held. */
static char *member_path(ldp_store *s, const char *container, const char *slug, bool make_container) {
    enum { FRESH_NAME_LEN = 16 };
    if (strlen(container) + FRESH_NAME_LEN + 1 > LDP_PATH_MAX)
        return NULL;
    char name[LDP_NAME_MAX + 1];
    bool use_slug = slug && ldp_slug_name(slug, name, sizeof name);
    for (;;) {
        buf path = {0};
        buf_puts(&path, container);
        if (use_slug)
            buf_puts(&path, name);
        else
            ldp_path_ordered_name(&path, &s->last_member_name);
        size_t name_end = path.len;
        buf_putc(&path, '/');
        bool taken = find(s, path.data, path.len) || find(s, path.data, name_end) ||
                     strmap_get_n(&s->deleted, path.data, path.len) || strmap_get_n(&s->deleted, path.data, name_end);
        if (!taken && path.len <= LDP_PATH_MAX) {
            if (!make_container)
                path.len = name_end;
            return buf_cstr(&path);
        }
        buf_free(&path);
        use_slug = false;
    }
}

void ldp_store_post(ldp_store *s, const char *container, const char *slug, bool make_container,
                    const ldp_body *body, const ldp_conditions *conditions, ldp_outcome *outcome) {
    memset(outcome, 0, sizeof *outcome);
    write_begin(s);
    pthread_mutex_lock(&s->lock);
    node *c = find(s, container, strlen(container));
    int status = c && c->is_container ? check_conditions(s, c, conditions) : 0;
    char *path = c && c->is_container && !status ? member_path(s, container, slug, make_container) : NULL;
    pthread_mutex_unlock(&s->lock);
    if (!c) {
        set_outcome(outcome, 404, "no container %s", container);
    } else if (!c->is_container) {
        set_outcome(outcome, 405, "%s is not a container", container);
    } else if (status) {
        set_outcome(outcome, status, "precondition failed on %s", container);
    } else if (!path) {
        set_outcome(outcome, 400, "the path of container %s leaves no room for a member's name", container);
    } else {
        buf stored = {0};
        if (prepare_body(s, path, body, &stored, outcome) == 0)
            commit(s, path, NULL, &stored, false, outcome);
        buf_free(&stored);
    }
    free(path);
    write_end(s);
}

/* Design note 5: path is recorded as deleted (durably first) before it goes. Called with the write lock
 * held. */
static int record_deleted(ldp_store *s, const char *path, ldp_outcome *outcome) {
    pthread_mutex_lock(&s->lock);
    remember_deleted(s, path, strlen(path));
    pthread_mutex_unlock(&s->lock);
    if (!s->data_dir)
        return 0;
    buf file = {0};
    buf_printf(&file, "%s/" LDP_DISK_DELETED_FILE, s->data_dir);
    int rc = ldp_disk_replace_file(s->data_dir, file.data, s->deleted_record.data, s->deleted_record.len,
                                   outcome->message, sizeof outcome->message);
    buf_free(&file);
    return rc;
}

void ldp_store_delete(ldp_store *s, const char *path, const ldp_conditions *conditions, ldp_outcome *outcome) {
    memset(outcome, 0, sizeof *outcome);
    write_begin(s);
    pthread_mutex_lock(&s->lock);
    node *n = find(s, path, strlen(path));
    int status = !n ? 404 : n == s->root ? 405 : n->member_count ? 409 : check_conditions(s, n, conditions);
    pthread_mutex_unlock(&s->lock);
    if (status) {
        set_outcome(outcome, status,
                    status == 404   ? "no resource %s"
                    : status == 405 ? "the root container %s cannot be deleted"
                    : status == 409 ? "container %s is not empty"
                    : status == 412 ? "precondition failed on %s"
                                    : "%s exists: this server needs If-Match to delete it",
                    path);
    } else if (record_deleted(s, path, outcome) != 0 ||
               (s->data_dir && ldp_disk_remove(s->data_dir, path, outcome->message, sizeof outcome->message) != 0)) {
        outcome->status = 500;
    } else {
        pthread_mutex_lock(&s->lock);
        remove_node(s, n);
        pthread_mutex_unlock(&s->lock);
        outcome->status = 204;
        outcome->path = xstrndup(path, strlen(path));
    }
    write_end(s);
}
