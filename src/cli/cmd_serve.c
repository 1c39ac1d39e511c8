/* cmd_serve.c: `ldgsm serve`, the embedded LDP server (being written; see issue 3). */
#include <stdio.h>

#include "cli/commands.h"

int cmd_serve(int argc, char **argv) {
    (void)argc;
    (void)argv;
    fputs("ldgsm serve: not built yet\n", stderr);
    return 2;
}
