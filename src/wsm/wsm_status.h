/* wsm_status.h: what `ldgsm status` shows of a workflow state machine instance (docs/DESIGN.md §6.5), from
 * the working memory of one read-only iteration of the agent with the shipped machine rules (the instance
 * asserted as `ldgsm run --machine` asserts it): the instance and its schema, the current state, every
 * variable of the schema and its value, the events waiting in the inbox in the order they will be taken
 * (lexical order of their IRIs, those a history entry names left out) with the event each names and, for
 * the first, what the rules derived it will do; why the instance waits or is held when the rules say so
 * (ldgsm:waitsBecause, ldgsm:heldBecause); and the last entries of its history. States, events, variables
 * and conditions are named by rdfs:label, else the IRI's fragment (wsm_names.h). */
#ifndef LDGSM_WSM_WSM_STATUS_H
#define LDGSM_WSM_WSM_STATUS_H

#include <stdbool.h>

#include "http/http_client.h"
#include "rdf/buf.h"
#include "rdf/store.h"
#include "rdf/term.h"

typedef struct wsm_status_input {
    terms *t;
    store *wm;            /* the working memory of the iteration */
    const char *instance; /* e.g. http://host/documents/doc1#it */
    unsigned history;     /* how many of the last history entries to show */
} wsm_status_input;

/* True when the document of iri (GET within the timeouts, in milliseconds; 0 for the defaults) is RDF
 * saying `<iri> wsm:instanceOf ?schema`: `ldgsm status` shows such an instance as a state machine. auth: the
 * credentials of `--auth` (hop_headers NULL: none). */
bool wsm_status_is_machine(const char *iri, long connect_timeout_ms, long timeout_ms, const http_auth *auth);

/* Appends the report as indented text, or as one JSON object on one line (schema: `ldgsm status --help`).
 * Returns 0; 1 when the instance or its schema could not be read; 6 when it is held (its writes held back:
 * its schema is refused by lint or not exactly defined where its next event is, ...) or waits (it cannot
 * go on): the report says why. */
int wsm_status_text(const wsm_status_input *in, buf *out);
int wsm_status_json(const wsm_status_input *in, buf *out);

#endif
