/* compile.h: a workflow pattern (pattern.h) compiled into a GSM model (docs/DESIGN.md §5, §6.2), by the
 * scheme ontology/README.md ("What each kernel compiles to") writes down: one stage per term with `done`
 * and `failed` milestones (and `cancelled` for a cancel term), guards and milestones as generated SPARQL
 * ASK sentries over the instance's status, and the tasks' requests copied from the names document.
 *
 * Every IRI of the model is based at model_base, the IRI the model will be published at: the names
 * document was read with that base, so its `<#a>` is the model's `<#a>` and its relative IRIs keep their
 * meaning. */
#ifndef LDGSM_PATTERNS_COMPILE_H
#define LDGSM_PATTERNS_COMPILE_H

#include <stddef.h>

#include "patterns/pattern.h"
#include "rdf/store.h"
#include "rdf/term.h"

/* The model's triples, in the order a reader wants them (root, stages depth first with their guards,
 * milestones and sentries, then the tasks). Returns 0, or -1 with what is wrong in err (a name the names
 * document does not describe, a condition that is no ASK query, a join too wide to write). */
int pattern_compile(terms *t, store *names, const char *model_base, const pattern *p, triple **out,
                    size_t *count, char *err, size_t err_len);

/* The most stages a model may have by default (`ldgsm compile --max-stages`): far above a workflow written
 * by hand, and about 34 MB of Turtle (3.4 KB a stage). Copies multiply: loop(count(1000), loop(count(1000),
 * task(a))) is 1,001,002 stages, gigabytes. */
enum { PATTERN_DEFAULT_MAX_STAGES = 10000 };

/* pattern_compile with a cap on the model's stages (the root included): a term that passes it is refused
 * before anything is built, the error naming the innermost term that does and the figure. pattern_compile
 * is this with PATTERN_DEFAULT_MAX_STAGES. */
int pattern_compile_bounded(terms *t, store *names, const char *model_base, const pattern *p, size_t max_stages,
                            triple **out, size_t *count, char *err, size_t err_len);

#endif
