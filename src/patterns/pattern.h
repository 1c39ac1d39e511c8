/* pattern.h: a workflow pattern term (seed 004's nine kernels, docs/DESIGN.md §6.2) as a tree, read from
 * the term syntax (pattern_term.h) or from RDF in the pattern vocabulary (pattern_rdf.h), and written
 * back as term text (what a compiled stage's rdfs:label shows). Names (tasks, conditions, item lists)
 * are IRIs once read: the term syntax's `a` is `<#a>` of its names file. */
#ifndef LDGSM_PATTERNS_PATTERN_H
#define LDGSM_PATTERNS_PATTERN_H

#include <stddef.h>

#include "rdf/buf.h"
#include "rdf/nesting.h"

enum pattern_kind { PAT_TASK, PAT_SEQ, PAT_JOIN, PAT_XOR, PAT_LOOP, PAT_DEFER, PAT_CANCEL, PAT_MI };
/* PAR is JOIN with JOIN_ALL, written par(...) when it was read so. */
enum join_policy { JOIN_ALL, JOIN_SYNC_MERGE, JOIN_FIRST_COMPLETE, JOIN_FIRST_N, JOIN_N_OF_M };
enum loop_policy { LOOP_WHILE, LOOP_UNTIL, LOOP_COUNT };
enum cancel_scope { CANCEL_ACTIVITY, CANCEL_REGION, CANCEL_CASE };

/* Upper bounds that keep a compiled model small enough to read and to evaluate every poll; terms nest as
 * deep as any reader allows (rdf/nesting.h). */
enum { PATTERN_MAX_CHILDREN = 1000, PATTERN_MAX_COPIES = 1000, PATTERN_MAX_DEPTH = MAX_NESTING };
/* A dynamic mi's sentries walk the item list cell by cell (sentries have no property paths), MAX + 2
 * cells at most, and a sentry, like any rule, holds at most 64 variables. */
enum { PATTERN_MAX_DYNAMIC = 50 };

typedef struct pattern pattern;
struct pattern {
    enum pattern_kind kind;
    char *name;        /* TASK: the request; LOOP while/until: the condition; CANCEL: the trigger;
                          MI dynamic: the item list (IRIs) */
    enum join_policy policy; /* JOIN and MI */
    long k, m;               /* first_n(k), n_of_m(k, m) */
    int written_as_par;      /* JOIN_ALL read as par(...) */
    enum loop_policy loop;
    long count;              /* LOOP_COUNT's N; MI fixed's N */
    enum cancel_scope scope;
    int mi_dynamic;
    long min, max;           /* MI dynamic */
    pattern **children;      /* SEQ, JOIN: the parts; XOR, DEFER: the branches; LOOP, CANCEL, MI: one body */
    char **guards;           /* XOR: each branch's condition (NULL for else); DEFER: each branch's event */
    size_t n;
    int line, col;           /* where the term starts (term syntax; 0 when read from RDF) */
};

pattern *pattern_new(enum pattern_kind kind, int line, int col);
/* Appends a child (and its branch guard, copied, or NULL). */
void pattern_add(pattern *p, pattern *child, const char *guard);
void pattern_free(pattern *p);

/* Term text of p. Names are written as `base` would abbreviate them: an IRI `base#x` as x, any other
 * as <iri>. When max_len > 0 the text is cut past max_len bytes with "..." (a label). */
void pattern_format(const pattern *p, const char *base, size_t max_len, buf *out);

const char *pattern_kind_name(enum pattern_kind kind);

#endif
