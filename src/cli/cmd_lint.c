/* cmd_lint.c: `ldgsm lint`: checks a GSM model spread over one or more documents (src/gsm/lint.h) and the
 * workflow state machine schemas among them (src/wsm/wsm_lint.h), and prints one line per finding, then a
 * summary. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "gsm/lint.h"
#include "rdf/vocab_ns.h"
#include "wsm/wsm_lint.h"

static const char lint_usage[] =
    "usage: ldgsm lint [--compat authors-draft] MODEL...\n"
    "\n"
    "Checks a GSM workflow model (gsm: <" NS_GSM ">), the workflow state machine schemas\n"
    "(wsm: <" NS_WSM ">, ontology/wsm.ttl), or both, before they run. Every MODEL file is one\n"
    "document of the same model; relative IRIs resolve against each file's own file: IRI, so documents\n"
    "can refer to each other (<other.ttl#s2>). The syntax comes from the extension (.ttl Turtle, .nt\n"
    "N-Triples, .nq N-Quads, .rdf/.owl/.xml RDF/XML, .trig TriG); a file without one is Turtle, as in\n"
    "ldp-fixtures/. A root stage is a stage that is no stage's child: what an instance document's\n"
    "gsm:isInstanceOf names. A schema is what is typed wsm:Schema or has wsm:initialState or wsm:transition.\n"
    "\n"
    "GSM errors (exit 1):\n"
    "  - a gsm:hasChildStage, hasGuard, hasMilestone, hasCondition, hasAchievingSentry,\n"
    "    hasInvalidatingSentry or hasHttpRequest whose object no file describes, or is a literal\n"
    "  - a milestone without an achieving sentry\n"
    "  - a sentry (object of hasCondition, hasAchievingSentry, hasInvalidatingSentry) that is not an\n"
    "    sp:Ask, or whose SPIN RDF (sp:where) or SPARQL text (sp:text) does not parse\n"
    "  - a stage model occurring twice under one root (two gsm:hasChildStage paths, or a cycle)\n"
    "  - one sentry both achieving and invalidating a milestone (the paper's 4.3.1)\n"
    "  - a stage's guard condition that is an achieving sentry of a milestone of one of its ancestors,\n"
    "    the root included (the paper's 4.3.2: the ancestor closes whenever the stage could open)\n"
    "  - a task (gsm:hasHttpRequest) without http:mthd or http:requestURI, with an http:body that is not a\n"
    "    literal, with a body but no Content-Type header, or whose http:headers is not a list\n"
    "GSM warnings (exit 0 when there is no error):\n"
    "  - a stage below a root without a guard, or a guard without a condition (it never opens; a root\n"
    "    stage needs no guard: set-up opens it)\n"
    "  - a milestone model shared by several stages\n"
    "  - an achieving and an invalidating sentry of one milestone, or a guard condition and an\n"
    "    ancestor's achieving sentry, that ask the same query (disjointness suspected, not proven)\n"
    "  - a root stage without milestones (an instance of it never completes)\n"
    "  - a root milestone with an invalidating sentry (ignored: completion is final)\n"
    "  - terms of the authors' draft vocabulary read without --compat authors-draft\n"
    "WSM errors (exit 1):\n"
    "  - two transitions of a schema from one state on one event (the seed's \"if t is not exactly defined,\n"
    "    an exception is thrown\"): both are named, with the state and the event\n"
    "  - a schema without exactly one wsm:initialState; a wsm:transition no file describes\n"
    "  - a transition without exactly one wsm:from, wsm:on and wsm:to\n"
    "  - a wsm:condition that is not an sp:Ask, or whose SPIN RDF or sp:text does not parse or cannot be\n"
    "    compiled as the agent compiles a condition (wsm:thisInstance, wsm:thisEvent bound)\n"
    "  - an assignment (wsm:assigns) without exactly one wsm:variable and one wsm:value true or false, or\n"
    "    setting a variable the schema does not declare (wsm:variable of the schema)\n"
    "  - one transition setting a variable both true and false\n"
    "  - a wsm:actions that is not an RDF list, an action without http:mthd or http:requestURI\n"
    "  - a wsm:initialValue that is not true or false\n"
    "WSM warnings (exit 0 when there is no error):\n"
    "  - a state no path of transitions leads to from the initial state (conditions ignored)\n"
    "  - a state or event typed in a schema's file that no transition uses\n"
    "  - a transition no schema lists; a variable no transition sets and no condition reads\n"
    "any file set (exit 1):\n"
    "  - error: a file that cannot be read or does not parse (then nothing else is checked)\n"
    "  - error: files that describe neither a GSM stage nor a WSM schema (\"no stage is described\")\n"
    "\n"
    "output: one line per finding on standard output, ordered by file, then a summary line:\n"
    "  FILE: error: <term>: what\n"
    "  FILE: warning: <term>: what\n"
    "FILE is the file that describes the term. A term whose IRI lies beside FILE is shown relative to it\n"
    "(<#s1>, <other.ttl#m2>), other IRIs in full, a blank node by the triple that reaches it\n"
    "([] (gsm:hasCondition of <#g1>)). A syntax error is FILE:LINE[:COL]: error: what.\n"
    "\n"
    "options:\n"
    "  --compat authors-draft  read models written in the authors' draft vocabulary\n"
    "                          (http://tok450s.lan:8080/ldbbc/gsm-vocab.ttl#): hasValidatingSentry,\n"
    "                          StageModel, MilestoneModel and hasMilestoneModel are read as\n"
    "                          gsm:hasAchievingSentry, Stage, Milestone and hasMilestone; a stage's\n"
    "                          draft:hasTask node carrying draft:hasHttpRequest R (or a hasTask naming\n"
    "                          the request R itself) as gsm:hasHttpRequest R; every other draft term as\n"
    "                          the gsm: term of the same local name (default: no compatibility mode)\n"
    "  -h, --help              this text\n"
    "\n"
    "exit status: 0 no error (warnings allowed), 1 an error, 2 usage error\n";

int cmd_lint(int argc, char **argv) {
    enum { OPT_COMPAT = 256 };
    static const struct option options[] = {
        {"compat", required_argument, NULL, OPT_COMPAT},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    lint_options lopt = {0};
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
        switch (c) {
        case OPT_COMPAT:
            if (strcmp(optarg, "authors-draft") != 0) {
                fprintf(stderr, "ldgsm lint: unknown --compat mode '%s' (authors-draft)\n", optarg);
                return 2;
            }
            lopt.compat_authors_draft = true;
            break;
        case 'h': fputs(lint_usage, stdout); return 0;
        default: fputs(lint_usage, stderr); return 2;
        }
    }
    if (optind >= argc) {
        fputs("ldgsm lint: no model files\n\n", stderr);
        fputs(lint_usage, stderr);
        return 2;
    }

    gsm_lint *l = gsm_lint_new(&lopt);
    for (int i = optind; i < argc; i++)
        gsm_lint_load_file(l, argv[i]);
    wsm_lint_check(l, LINT_ERROR);
    gsm_lint_check(l);
    for (size_t i = 0; i < gsm_lint_message_count(l); i++)
        printf("%s\n", gsm_lint_message(l, i)->line);
    size_t errors = gsm_lint_count(l, LINT_ERROR), warnings = gsm_lint_count(l, LINT_WARNING);
    int files = argc - optind;
    printf("ldgsm lint: %zu error%s, %zu warning%s in %d file%s\n", errors, errors == 1 ? "" : "s", warnings,
           warnings == 1 ? "" : "s", files, files == 1 ? "" : "s");
    gsm_lint_free(l);
    return errors ? 1 : 0;
}
