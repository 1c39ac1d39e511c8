/* wsm_draw.h: a workflow state machine schema (ontology/wsm.ttl) as a state diagram, laid out and rendered
 * by Graphviz as gsm/draw.h draws a GSM model (in a child process, through gsm_draw_graph):
 *
 *   state        a rounded box named by its rdfs:label, else its IRI's fragment; the initial state has an
 *                arrow from a small point
 *   transition   an arrow from its wsm:from to its wsm:to, labelled "event [conditions] / assignments"
 *                (names as for states; "variable := value")
 *   schema       a box around its states, named in bold
 *
 * With an instance only its schema (wsm:instanceOf) is drawn: its current state filled and marked
 * "current", and a note naming the instance with each variable's value (or saying it is not set up). */
#ifndef LDGSM_WSM_WSM_DRAW_H
#define LDGSM_WSM_WSM_DRAW_H

#include <stdbool.h>
#include <stddef.h>

#include "gsm/draw.h"
#include "rdf/buf.h"
#include "rdf/rdfio.h"

/* One document read: how messages name it, the IRI it is based at, its syntax and text. */
typedef struct wsm_draw_document {
    const char *name, *base;
    enum rdf_syntax syntax;
    const char *text;
    size_t len;
} wsm_draw_document;

/* True when doc parses and describes a schema (a wsm:Schema, or something with a wsm:initialState). */
bool wsm_draw_is_schema(const wsm_draw_document *doc);

/* Appends the picture of the schemas docs[0] describes (of the instance's schema only, when instance is not
 * NULL; the instance's document is one of docs) in format to out. Returns 0, or -1 with a message (a
 * document that does not parse, an instance without wsm:instanceOf or whose schema docs[0] does not
 * describe, Graphviz failing). */
int wsm_draw(const wsm_draw_document *docs, size_t doc_count, const char *instance, enum gsm_draw_format format,
             buf *out, char *error, size_t error_len);

#endif
