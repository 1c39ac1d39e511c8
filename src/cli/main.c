/* main.c: the ldgsm command line: dispatches to a subcommand. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "cli/commands.h"

static const char usage[] =
    "usage: ldgsm <command> [options]\n"
    "\n"
    "A Linked Data GSM rule agent: N3 rules over Read-Write Linked Data.\n"
    "\n"
    "commands:\n"
    "  demo     run the GSM paper's fire-alarm workflow on the embedded server, as a table\n"
    "  reason   derive the closure of RDF data under N3 rules (like EYE's --pass modes)\n"
    "  run      run N3 request rules as a polling Read-Write Linked Data agent\n"
    "  serve    run the embedded LDP server\n"
    "  lint     check a GSM model: references, sentries, structure, disjointness (4.3)\n"
    "  draw     draw a GSM model with Graphviz (SVG, PNG, dot), coloured by an instance's state\n"
    "  status   show workflow instances as their models' trees, and why a stage waits\n"
    "  compile  compile a workflow pattern (seq, par, join, xor, loop, defer, cancel, mi) to a GSM model\n"
    "  deps     intertask dependencies: guards, attributes, enforceability, the scheduler's decisions\n"
    "\n"
    "`ldgsm <command> --help` describes each command's options; `ldgsm --version` prints the version.\n";

volatile sig_atomic_t cli_stop_requested;

static void on_stop_signal(int sig) {
    (void)sig;
    cli_stop_requested = 1;
}

void cli_catch_stop_signals(void) {
    struct sigaction sa = {.sa_handler = on_stop_signal};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

void cli_pause_ms(long ms) {
    /* in slices, so that a stop signal ends the pause at once */
    while (ms > 0 && !cli_stop_requested) {
        long slice = ms < 50 ? ms : 50;
        struct timespec ts = {slice / 1000, (slice % 1000) * 1000000L};
        nanosleep(&ts, NULL);
        ms -= slice;
    }
}

int main(int argc, char **argv) {
#if defined(__GLIBC__)
    /* Blocks of 128 KiB and more are mapped on their own, always (rdf/buf.h counts on it): by default glibc
     * raises that threshold to the largest block freed, so once an agent's first iteration freed its working
     * memory, every later one was laid out in the heap, and what an iteration freed stayed resident as holes
     * beside what the next one used (a tenth of the agent's peak at 1000 instances). */
    mallopt(M_MMAP_THRESHOLD, 128 << 10);
#endif
    if (argc < 2) {
        fputs(usage, stderr);
        return 2;
    }
    const char *command = argv[1];
    if (strcmp(command, "--help") == 0 || strcmp(command, "-h") == 0 || strcmp(command, "help") == 0) {
        fputs(usage, stdout);
        return 0;
    }
    if (strcmp(command, "--version") == 0) {
        puts("ldgsm " LDGSM_VERSION);
        return 0;
    }
    if (strcmp(command, "reason") == 0)
        return cmd_reason(argc - 1, argv + 1);
    if (strcmp(command, "run") == 0)
        return cmd_run(argc - 1, argv + 1);
    if (strcmp(command, "demo") == 0)
        return cmd_demo(argc - 1, argv + 1);
    if (strcmp(command, "lint") == 0)
        return cmd_lint(argc - 1, argv + 1);
    if (strcmp(command, "serve") == 0)
        return cmd_serve(argc - 1, argv + 1);
    if (strcmp(command, "draw") == 0)
        return cmd_draw(argc - 1, argv + 1);
    if (strcmp(command, "status") == 0)
        return cmd_status(argc - 1, argv + 1);
    if (strcmp(command, "compile") == 0)
        return cmd_compile(argc - 1, argv + 1);
    if (strcmp(command, "deps") == 0)
        return cmd_deps(argc - 1, argv + 1);
    fprintf(stderr, "ldgsm: unknown command '%s'\n\n%s", command, usage);
    return 2;
}
