/* nesting.h: the one bound on how deep any reader of the project lets its input nest (Turtle and TriG
 * blank nodes and collections, RDF/XML elements, N3 formulas, lists and blank nodes, SPARQL and SPIN
 * expressions and groups, RDF lists inside lists, pattern terms, dependency expressions). Each reader
 * refuses deeper input with NESTING_ERROR at the place where the bound is passed, before it recurses
 * further, so no input reaches a deep stack or a parser whose cost grows with depth.
 *
 * 128 levels is far beyond what a model, a rule program or a sensor's document nests, and keeps the
 * deepest reader (the pattern compiler, a few KB of path buffers a level) under 2 MB of stack with ASan.
 *
 * SPARQL graph patterns (groups, OPTIONAL, UNION, MINUS, FILTER EXISTS) nest at most
 * SPARQL_GROUP_NESTING deep: rasqal 0.9.33's query preparation (rasqal_query_build_variables_use) is
 * exponential in their depth (nested OPTIONALs: 10 levels 0.28 s, 14 levels 34 s; nested UNIONs: 20
 * levels 0.4 s, 24 levels 4.5 s, measured here), so the sentry reader checks it before rasqal sees the
 * text. */
#ifndef LDGSM_RDF_NESTING_H
#define LDGSM_RDF_NESTING_H

#define MAX_NESTING 128
#define SPARQL_GROUP_NESTING 8
#define NESTING_ERROR "nested deeper than 128 levels"
#define SPARQL_GROUP_NESTING_ERROR "graph patterns nested deeper than 8 levels"

#endif
