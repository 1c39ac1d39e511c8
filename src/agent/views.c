/* views.c: each instance's view of working memory (views.h), answered per triple with two caches. */
#include "agent/views.h"

#include <stdlib.h>

#include "rdf/buf.h"
#include "rdf/hashmap.h"

enum { GRAPH_HIDDEN = 1, GRAPH_SEEN = 2 };

struct views {
    const store *wm;
    const doc_state *docs;
    u64map doc_of_graph;   /* a fetched document's graph -> its index */
    u64map graph_verdict;  /* (viewer, graph) -> GRAPH_HIDDEN or GRAPH_SEEN */
    u64map viewer_graphs;  /* viewer -> its slot in seen_graphs */
    u32vec *seen_graphs;   /* per viewer: the graphs of wm it sees (built when a triple has more sources) */
    size_t viewer_count, viewer_cap;
};

views *views_new(void) { return xcalloc(1, sizeof(views)); }

static void forget(views *v) {
    for (size_t i = 0; i < v->viewer_count; i++)
        u32vec_free(&v->seen_graphs[i]);
    v->viewer_count = 0;
    u64map_clear(&v->doc_of_graph);
    u64map_clear(&v->graph_verdict);
    u64map_clear(&v->viewer_graphs);
}

void views_free(views *v) {
    if (!v)
        return;
    forget(v);
    free(v->seen_graphs);
    u64map_free(&v->doc_of_graph);
    u64map_free(&v->graph_verdict);
    u64map_free(&v->viewer_graphs);
    free(v);
}

void views_begin(views *v, const store *wm, const doc_state *docs, size_t doc_count) {
    forget(v);
    v->wm = wm;
    v->docs = docs;
    for (size_t i = 0; i < doc_count; i++)
        u64map_put(&v->doc_of_graph, docs[i].graph, (uint32_t)i, NULL);
}

static bool graph_seen(views *v, term_id viewer, term_id graph) {
    bool inserted;
    uint32_t *verdict = u64map_put(&v->graph_verdict, (uint64_t)viewer << 32 | graph, GRAPH_HIDDEN, &inserted);
    if (!inserted)
        return *verdict == GRAPH_SEEN;
    const uint32_t *doc_index = u64map_get(&v->doc_of_graph, graph);
    bool seen = !doc_index || v->docs[*doc_index].asked_ungrouped ||
                u64map_get(&v->docs[*doc_index].group_set, viewer);
    *verdict = seen ? GRAPH_SEEN : GRAPH_HIDDEN;
    return seen;
}

static const u32vec *seen_graphs(views *v, term_id viewer) {
    bool inserted;
    uint32_t slot = *u64map_put(&v->viewer_graphs, viewer, (uint32_t)v->viewer_count, &inserted);
    if (!inserted)
        return &v->seen_graphs[slot];
    if (v->viewer_count == v->viewer_cap) {
        v->viewer_cap = v->viewer_cap ? v->viewer_cap * 2 : 8;
        v->seen_graphs = xrealloc(v->seen_graphs, v->viewer_cap * sizeof *v->seen_graphs);
    }
    u32vec *list = &v->seen_graphs[v->viewer_count++];
    *list = (u32vec){0};
    for (uint32_t i = 0; i < store_graph_count(v->wm); i++)
        if (graph_seen(v, viewer, store_graph_at(v->wm, i)))
            u32vec_push(list, store_graph_at(v->wm, i));
    return list;
}

bool views_visible(void *user, term_id viewer, uint32_t n) {
    views *v = user;
    if (graph_seen(v, viewer, store_first_graph(v->wm, n)))
        return true;
    if (!store_has_more_graphs(v->wm, n))
        return false;
    const u32vec *graphs = seen_graphs(v, viewer);
    for (uint32_t i = 0; i < graphs->len; i++)
        if (store_in_graph(v->wm, n, graphs->data[i]))
            return true;
    return false;
}
