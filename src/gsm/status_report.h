/* status_report.h: what `ldgsm status` shows of a workflow instance (docs/DESIGN.md §6.5): the instance as
 * its model's tree, built from the working memory of one read-only agent iteration (the instance, its
 * model and what its sentries read, the sentries evaluated) and the outcome of each GET of it.
 *
 * The tree: stages and milestones named by rdfs:label, else by the model IRI's fragment (never by the
 * status document's #s-/#m- fragments), each stage's state and completion, each milestone achieved or not,
 * nested as gsm:hasChildStage nests them; each stage's call records (ldgsm:CallRecord). For a stage that is
 * not active, why it does not open: the workflow is not set up, the parent is not active, it is completed,
 * or, for each guard, each condition's sentry, whether it holds for this instance and each resource it
 * reads with that read's outcome. For an active stage, likewise the achieving sentries of the milestones
 * that would close it. Then the last transitions of the status document's history (ldgsm:Transition).
 *
 * Read outcomes come in through a callback, so this layer knows no HTTP and no agent. */
#ifndef LDGSM_GSM_STATUS_REPORT_H
#define LDGSM_GSM_STATUS_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "rdf/buf.h"
#include "rdf/store.h"

/* How the GET of a document went. */
typedef struct status_read {
    long status;         /* the answer's status code; 0 when there was no answer */
    const char *failure; /* no answer: its kind ("timeout", "connect failure", ...); else NULL */
    bool unparsable;     /* answered with RDF that does not parse */
    const char *parse_error; /* then the reader's message ("doc:1:9: what"), or NULL */
} status_read;

/* The outcome of the GET of iri's document; false when it was not read. */
typedef bool (*status_read_fn)(void *user, const char *iri, status_read *out);

typedef struct status_input {
    terms *t;
    store *wm;            /* the working memory of the iteration (sentry results included) */
    const char *instance; /* the instance IRI, e.g. http://host/status/alarm1#it */
    status_read_fn read;
    void *read_user;
    unsigned history;     /* how many of the last transitions to show */
} status_input;

typedef struct status_report status_report;

/* Builds the report; it copies what it needs, so the working memory may go once it returns. */
status_report *status_report_build(const status_input *in);
void status_report_free(status_report *r);
/* NULL when the instance and its model were read; else why not (the instance cannot be shown). */
const char *status_report_error(const status_report *r);
/* True when the instance is held (its writes held back: a read failed, set-up waits, its model is refused
 * by lint) or waiting (it cannot go on): the report's held: and waiting: lines say why. */
bool status_report_waits(const status_report *r);
/* Why the instance waits, as lines a console shows beside it (gsm/page.h): the error line when there is
 * one, else its held: and waiting: lines, why the workflow does not run (not set up yet, complete) and
 * each call not answered after its stage's name (state, alternative, retries left, deadline, last
 * failure), as the text below prints them. */
void status_report_why_text(const status_report *r, buf *out);
/* The report as indented text (only the error line when there is an error). */
void status_report_text(const status_report *r, buf *out);
/* The report as one JSON object on one line (schema: `ldgsm status --help`). */
void status_report_json(const status_report *r, buf *out);

#endif
