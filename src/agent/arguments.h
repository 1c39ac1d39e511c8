/* arguments.h: Eval_ρ(Ē) of seed 000 (docs/DESIGN.md §8.3): from the solutions of a request's
 * argument query in a context (a stage instance about to call, an action about to run) to the request it
 * sends, or to the reason it cannot be sent.
 *
 * The sentry table evaluates every argument query in the contexts the rules name (`?ctx gx:evaluates
 * ?request`, sentries.h) and hands each distinct solution to arguments_take. After the sentries,
 * arguments_bind looks at every (context, request) pair and asserts into working memory either
 *   ?ctx gx:evaluated ?e . ?e gx:ofRequest ?request ; gx:method <httpm:M> ; gx:uri <absolute IRI> ;
 *        gx:headerBlock "Name: value\n..." ; gx:body "text" ; gx:requestHash "hex"
 * when the query has exactly one solution and every template fills (the URI an RFC 6570 template, header
 * values `{var}` templates, the body an N3 template whose `?var`s become terms), or
 *   ?ctx gx:argumentsProblem "what"
 * when it has none ("has no solution"), several, or a template cannot be filled; the rules decide what a
 * problem does (a stage does not open; several solutions hold its instance). The request hash is SHA-1 over
 * the method, URI, header block and body: it goes into the call's Idempotency-Key, so two different
 * requests never share a key. */
#ifndef LDGSM_AGENT_ARGUMENTS_H
#define LDGSM_AGENT_ARGUMENTS_H

#include <stddef.h>

#include "agent/vocab.h"
#include "rdf/log.h"
#include "rdf/rdfio.h"
#include "rdf/store.h"

typedef struct argument_solutions argument_solutions;

argument_solutions *arguments_new(void);
void arguments_free(argument_solutions *a);
/* Forgets the solutions of the last iteration. */
void arguments_begin(argument_solutions *a);
/* Takes one solution head (a formula, sentries.h) of an argument query's rule. */
void arguments_take(argument_solutions *a, const terms *t, const agent_vocab *v, term_id head);
/* Asserts, for every `?ctx gx:evaluates ?request` in wm, the evaluated request or the problem. Returns how
 * many requests were evaluated. */
size_t arguments_bind(argument_solutions *a, terms *t, const agent_vocab *v, store *wm, rdfio *io);

#endif
