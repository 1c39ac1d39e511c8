/* shipped.h: finding the files ldgsm ships (ontology/, rules/, ldp-fixtures/) and putting the GSM ontology
 * and rules in front of a run's own programs, for `ldgsm run --instance` and `ldgsm demo`. */
#ifndef LDGSM_CLI_SHIPPED_H
#define LDGSM_CLI_SHIPPED_H

#include <stddef.h>

#include "agent/agent.h"

typedef struct shipped_files {
    char *paths[16];
    size_t count;
} shipped_files;

/* Where a shipped file or folder is: $LDGSM_HOME, beside the binary (its parent directory, as in a build
 * tree, or an install prefix's share/ldgsm), or the source tree it was built from. The caller frees the
 * path; NULL when none is readable. */
char *shipped_path(const char *name);

/* Puts the shipped GSM rules (and rules/compat-authors-draft.n3 when opt->compat_authors_draft) in front of
 * opt's programs and the shipped ontology after its inputs; files holds the paths until shipped_files_free.
 * -1 after a message on standard error naming command. The lists are reallocated: the caller frees
 * opt->programs and opt->inputs. */
int shipped_add_gsm(agent_options *opt, shipped_files *files, const char *command);
/* The same for state machines (`ldgsm run --machine`): rules/rdfs.n3 and rules/calls.n3 (unless the GSM
 * rules brought them), rules/wsm.n3 and ontology/wsm.ttl. */
int shipped_add_wsm(agent_options *opt, shipped_files *files, const char *command);
void shipped_files_free(shipped_files *files);

#endif
