/* shape.h: a GSM workflow model as a picture shows it (the drawing, draw.h, and the server's page, page.h):
 * its stages nested as gsm:hasChildStage and ldgsm:alternativeStages nest them, each stage's milestones and
 * guards, the milestones each guard's sentries read, names for people, and, for one workflow instance, the
 * state its status document gives each stage and milestone (docs/DESIGN.md §5.1, the status layout).
 *
 *  1. A stage is what lint takes for one (lint.h): typed gsm:Stage or used as one. A root is a stage that
 *     is no stage's child; with an instance, the root is the stage its gsm:isInstanceOf names. A stage
 *     reached twice (a model lint rejects) is shown once, where it is first reached.
 *  2. A sentry reads a milestone when one of its triple patterns is `?x gsm:isInstanceOf <milestone>`
 *     (SPIN sp:where or SPARQL sp:text, parsed by reason/sentry_ast.h); the read is negated when the
 *     same subject is asked to be `gsm:isAchieved false`. A sentry that does not parse reads nothing and
 *     leaves a warning.
 *  3. Names: the rdfs:label (the first in document order), else the IRI's fragment, else its last path
 *     segment, else the whole IRI.
 *  4. A model in the authors' draft vocabulary is read through rules/compat-authors-draft.n3 (the
 *     reasoner applies it to the loaded documents) when its path is given; without it such a model is an
 *     error saying so.
 *  5. An instance whose model is not among the loaded documents still has a shape: its root and the
 *     stages and milestones its status document holds, flat, named after their model IRIs
 *     (has_model false); nothing can be drawn of it.
 *  6. What a guard waits for: the descriptions (rdfs:label, else rdfs:comment) of its conditions' sentries,
 *     " or " between them (a guard holds when one condition does); a guard none of whose sentries is
 *     described waits for the milestones they read ("m1", "not m2b"), else for nothing said.
 *  7. With an instance, a stage's call: the state of the call records of its stage instance
 *     (ldgsm:CallRecord ldgsm:ofStage it, docs/DESIGN.md §6.1): calling (retrying when it has an
 *     ldgsm:lastFailure), exhausted or answered; of several records, the first in that order. */
#ifndef LDGSM_GSM_SHAPE_H
#define LDGSM_GSM_SHAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rdf/rdfio.h"

#define GSM_SHAPE_NONE SIZE_MAX

/* A stage's call (design note 7). */
enum gsm_shape_call { GSM_CALL_NONE, GSM_CALL_ANSWERED, GSM_CALL_EXHAUSTED, GSM_CALL_CALLING, GSM_CALL_RETRYING };

/* "", "answered", "exhausted", "calling", "retrying". */
const char *gsm_shape_call_name(enum gsm_shape_call call);

enum gsm_shape_state {
    GSM_STATE_UNKNOWN,       /* no instance, or the status document does not say (not set up yet) */
    GSM_STATE_UNINITIALIZED, /* gsm:uninitialized: a root before set-up */
    GSM_STATE_INACTIVE,
    GSM_STATE_ACTIVE,
};

/* "unknown", "uninitialized", "inactive", "active". */
const char *gsm_shape_state_name(enum gsm_shape_state state);

typedef struct gsm_shape_stage {
    char *iri;               /* the stage model ("_:label" for a blank node) */
    char *name;
    size_t parent;           /* GSM_SHAPE_NONE for a root */
    size_t depth;            /* 0 for a root */
    bool is_alternative;     /* a member of its parent's ldgsm:alternativeStages */
    size_t next_alternative; /* the alternative given its turn when this one gives way, or GSM_SHAPE_NONE */
    enum gsm_shape_state state;
    int completed;           /* ldgsm:isCompleted: 1, 0, or -1 when the status document does not say */
    enum gsm_shape_call call; /* design note 7 */
} gsm_shape_stage;

typedef struct gsm_shape_milestone {
    char *iri, *name;
    size_t stage;            /* the stage it belongs to (a milestone model of two stages is two entries) */
    int achieved;            /* gsm:isAchieved: 1, 0, or -1 when the status document does not say */
} gsm_shape_milestone;

typedef struct gsm_shape_read {
    size_t milestone;
    bool negated;            /* the sentry asks that the milestone is not achieved */
} gsm_shape_read;

typedef struct gsm_shape_guard {
    char *iri, *name;
    char *waits_for;         /* design note 6, or NULL */
    size_t stage;
    gsm_shape_read *reads;   /* design note 2, each (milestone, negated) once */
    size_t read_count;
} gsm_shape_guard;

typedef struct gsm_shape_rdf gsm_shape_rdf;

typedef struct gsm_shape {
    /* Filled by gsm_shape_build; read-only afterwards. */
    gsm_shape_stage *stages;  /* depth first: a parent before its children, siblings in document order */
    size_t stage_count;
    gsm_shape_milestone *milestones; /* grouped by stage, in stage order */
    size_t milestone_count;
    gsm_shape_guard *guards;
    size_t guard_count;
    char *instance;           /* the instance shown, or NULL */
    bool has_model;           /* design note 5 */
    char **warnings;          /* what could not be read, one line each */
    size_t warning_count;
    gsm_shape_rdf *rdf;       /* the loaded documents until the shape is built (internal) */
} gsm_shape;

/* How people call a stage's state: "active", "completed" (inactive after a milestone), "inactive",
 * "uninitialized", or "not set up" (an instance's stage its status document does not hold yet); "" without
 * an instance. */
const char *gsm_shape_stage_word(const gsm_shape *shape, const gsm_shape_stage *stage);

/* compat_rules: the path of rules/compat-authors-draft.n3, or NULL (design note 4). */
gsm_shape *gsm_shape_new(const char *compat_rules);
void gsm_shape_free(gsm_shape *shape);

/* Loads one document (the model, a part of it, or an instance's status document) with base IRI base;
 * name is how messages call it. RDF_SYNTAX_UNKNOWN reads Turtle. Returns 0, or -1 with a message
 * (name:line:col: what). */
int gsm_shape_load(gsm_shape *shape, const char *name, const char *base, enum rdf_syntax syntax, const char *text,
                   size_t len, char *error, size_t error_len);

/* Reads the shape of the loaded documents, with the states of instance (an IRI, or NULL for the model
 * alone). Call once. Returns 0, or -1 with a message: no stage in the documents (not a workflow model),
 * the instance not described (no gsm:isInstanceOf), the draft vocabulary without its rules, the rules
 * failing. */
int gsm_shape_build(gsm_shape *shape, const char *instance, char *error, size_t error_len);

#endif
