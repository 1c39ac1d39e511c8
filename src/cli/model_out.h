/* model_out.h: writing a GSM model a command compiled (`ldgsm compile`, `ldgsm deps --gsm`): serialized as
 * Turtle after the header the command wrote, checked by `ldgsm lint` (its messages printed; an error
 * refuses the model), and written to a file or to standard output. A model lint rejects is never written. */
#ifndef LDGSM_CLI_MODEL_OUT_H
#define LDGSM_CLI_MODEL_OUT_H

#include <stddef.h>

#include "rdf/buf.h"
#include "rdf/rdfio.h"

/* text holds the header; the model is appended to it. 0 written; -1 refused or failed, said on standard
 * error after "ldgsm COMMAND: ". output NULL: standard output. */
int model_out_write(const char *command, rdfio *io, const triple *ts, size_t n, const char *base, buf *text,
                    const char *output);

#endif
