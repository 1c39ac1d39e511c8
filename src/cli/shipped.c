/* shipped.c: the shipped files (shipped.h). */
#include "cli/shipped.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rdf/buf.h"

char *shipped_path(const char *name) {
    const char *home = getenv("LDGSM_HOME");
    char *exe = realpath("/proc/self/exe", NULL);
    buf candidates[4] = {{0}};
    if (home)
        buf_printf(&candidates[0], "%s/%s", home, name);
    if (exe) {
        char *slash = strrchr(exe, '/');
        if (slash)
            *slash = '\0';
        buf_printf(&candidates[1], "%s/../share/ldgsm/%s", exe, name);
        buf_printf(&candidates[2], "%s/../%s", exe, name);
    }
    buf_printf(&candidates[3], "%s/%s", LDGSM_SOURCE_DIR, name);
    free(exe);
    char *found = NULL;
    for (int i = 0; i < 4; i++) {
        if (!found && candidates[i].len && access(buf_cstr(&candidates[i]), R_OK) == 0)
            found = xstrndup(candidates[i].data, candidates[i].len);
        buf_free(&candidates[i]);
    }
    return found;
}

void shipped_files_free(shipped_files *files) {
    for (size_t i = 0; i < files->count; i++)
        free(files->paths[i]);
    files->count = 0;
}

/* Finds rule_count rules and input_count inputs (names[], rules first), puts the rules in front of opt's
 * programs and the inputs after its inputs. */
static int add_shipped(agent_options *opt, shipped_files *files, const char *command, const char *const *names,
                       size_t rule_count, size_t input_count) {
    size_t first = files->count;
    for (size_t i = 0; i < rule_count + input_count; i++) {
        char *path = shipped_path(names[i]);
        if (!path) {
            fprintf(stderr, "%s: cannot find the shipped %s (set LDGSM_HOME to the directory holding rules/ and "
                    "ontology/)\n", command, names[i]);
            shipped_files_free(files);
            return -1;
        }
        files->paths[files->count++] = path;
    }
    char **programs = xcalloc(opt->program_count + rule_count, sizeof *programs);
    memcpy(programs, files->paths + first, rule_count * sizeof *programs);
    if (opt->program_count)
        memcpy(programs + rule_count, opt->programs, opt->program_count * sizeof *programs);
    free(opt->programs);
    opt->programs = programs;
    opt->program_count += rule_count;
    opt->inputs = xrealloc(opt->inputs, (opt->input_count + input_count) * sizeof *opt->inputs);
    for (size_t i = 0; i < input_count; i++)
        opt->inputs[opt->input_count++] = files->paths[first + rule_count + i];
    return 0;
}

int shipped_add_gsm(agent_options *opt, shipped_files *files, const char *command) {
    static const char *const rules[] = {"rules/rdfs.n3", "rules/ldp-crawl.n3", "rules/gsm-setup.n3",
                                        "rules/gsm-fcr.n3", "rules/gsm-events.n3", "rules/calls.n3", "rules/gsm-call.n3",
                                        "rules/gsm-alternatives.n3", "rules/gsm-stalls.n3",
                                        "rules/compat-authors-draft.n3"};
    size_t rule_count = sizeof rules / sizeof *rules - (opt->compat_authors_draft ? 0 : 1);
    const char *names[sizeof rules / sizeof *rules + 1];
    memcpy(names, rules, rule_count * sizeof *names);
    names[rule_count] = "ontology/gsm.ttl";
    return add_shipped(opt, files, command, names, rule_count, 1);
}

int shipped_add_wsm(agent_options *opt, shipped_files *files, const char *command) {
    static const char *const rules[] = {"rules/rdfs.n3", "rules/calls.n3", "rules/wsm.n3"};
    const char *names[sizeof rules / sizeof *rules + 1];
    size_t rule_count = 0;
    for (size_t r = 0; r < sizeof rules / sizeof *rules; r++) {
        bool loaded = false; /* by the GSM rules already */
        for (size_t i = 0; i < files->count; i++)
            loaded |= strstr(files->paths[i], rules[r]) != NULL;
        if (!loaded)
            names[rule_count++] = rules[r];
    }
    names[rule_count] = "ontology/wsm.ttl";
    return add_shipped(opt, files, command, names, rule_count, 1);
}
