/* pattern_term.h: the compact term syntax of workflow patterns (ontology/README.md, "The term syntax"):
 * `seq(task(a), par(task(b), task(c)), loop(while(more), task(d)))`. A name `a` is the IRI
 * names_base#a (its names file's fragment), `<iri>` any IRI; `#` starts a comment to the end of the line.
 * The parse checks what the seed requires of each kernel (two or more branches for par, join, xor and
 * defer; a policy's K between 1 and the branches; an activity cancel around a task; ...). */
#ifndef LDGSM_PATTERNS_PATTERN_TERM_H
#define LDGSM_PATTERNS_PATTERN_TERM_H

#include <stddef.h>

#include "patterns/pattern.h"

/* Returns the tree, or NULL with "LINE:COL: what" in err. */
pattern *pattern_parse_term(const char *text, size_t len, const char *names_base, char *err, size_t err_len);

/* The checks every pattern tree passes, however it was read: 0, or -1 with what is wrong in err
 * ("LINE:COL: " first when the term has a position). */
int pattern_check(const pattern *p, char *err, size_t err_len);

#endif
