/* trace.h: `ldgsm run --trace FILE`: what each iteration did, as JSON Lines (one object a line), so runs
 * can be inspected and compared with jq or a script.
 *
 * RECORDS (their fields: docs/guide/run.md, "Tracing a run"). Each has "kind", "iteration" (1, 2, ...) and
 * "now" (the ldgsm:now the iteration asserted); an iteration's records come in the order of its work:
 *   get        one per GET made, with the agent's classification of its answer (a revalidation of
 *              --incremental: "unchanged" or "changed")
 *   request    one per unsafe request decided: each request sent (a composed PUT is one request, naming
 *              every rule whose update it holds; identical requests are one, naming every rule that asked),
 *              each one the plan did not send (withheld, conflicting, yielded, refused, unchanged), each
 *              task withheld because the write it waits for failed, each one printed by --dry-run
 *   iteration  last: the phases' timings and the iteration's counts
 * The file is flushed at the end of every iteration, so a running agent's trace can be followed (tail -f).
 * A failure to write it is reported once through the log and the run goes on without it.
 *
 * Every function does nothing when the trace is NULL (no --trace). */
#ifndef LDGSM_AGENT_TRACE_H
#define LDGSM_AGENT_TRACE_H

#include <stdbool.h>
#include <stddef.h>

#include "agent/agent.h"
#include "agent/plan.h"
#include "http/http_client.h"

typedef struct trace trace;

/* path "-" is standard output. NULL with a message in error when the file cannot be opened. */
trace *trace_open(const char *path, const log_sink *log, char *error, size_t error_len);
void trace_close(trace *tr);

/* Starts the next iteration's records; now is the clock it asserts. */
void trace_begin_iteration(trace *tr, const char *now);
/* A GET made and what the agent made of it (doc as get_take_result left it, get_outcome.h). */
void trace_get(trace *tr, const doc_state *doc, const http_result *res);
/* A revalidation of --incremental (agent/incremental.h) and whether it found resource unchanged; a changed
 * document's answer the crawl then takes is recorded again, by trace_get, as the read it became. */
void trace_revalidation(trace *tr, const char *resource, const http_result *res, bool unchanged);
/* The requests the plan made from in did not send, with its reasons; remembers in's requests (by
 * identity, to name every rule that asked for one) for trace_sent and trace_unsent until the iteration
 * ends. */
void trace_plan(trace *tr, const plan_input *in, const plan *p);
/* A write or task of that plan, sent: res is its answer or failure; reason is the text logged for an
 * answer that is not 2xx or a failure (NULL for a 2xx). */
void trace_sent(trace *tr, const planned_write *w, const http_result *res, const char *reason);
/* A write or task of that plan not sent: outcome "withheld" (reason: why) or "dry-run". */
void trace_unsent(trace *tr, const planned_write *w, const char *outcome, const char *reason);
/* The iteration record (rc as agent_iterate returns it); flushes the file. */
void trace_end_iteration(trace *tr, const iteration_stats *stats, int rc);

#endif
