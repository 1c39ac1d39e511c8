/* commands.h: the ldgsm subcommands; each takes the arguments after its own name (argv[0] is the
 * subcommand) and returns the process exit code. */
#ifndef LDGSM_CLI_COMMANDS_H
#define LDGSM_CLI_COMMANDS_H

#include <signal.h>

int cmd_reason(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_lint(int argc, char **argv);
int cmd_demo(int argc, char **argv);
int cmd_draw(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_compile(int argc, char **argv);
int cmd_deps(int argc, char **argv);

/* Set by SIGINT or SIGTERM once cli_catch_stop_signals() ran: `run` and `demo` finish the iteration in
 * progress and exit. */
extern volatile sig_atomic_t cli_stop_requested;
void cli_catch_stop_signals(void);
/* Sleeps ms milliseconds, or less when a stop signal comes. */
void cli_pause_ms(long ms);

#endif
