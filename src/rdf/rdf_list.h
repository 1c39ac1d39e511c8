/* rdf_list.h: an RDF collection written as rdf:first/rdf:rest triples in a store, read as a list term, so
 * that a list from Turtle or crawled data and a list written `( ... )` in N3 are the same list to whoever
 * asks (the reasoner's builtins and patterns). */
#ifndef LDGSM_RDF_RDF_LIST_H
#define LDGSM_RDF_RDF_LIST_H

#include "rdf/store.h"
#include "rdf/term.h"

/* The list term of the collection headed by node (an IRI or blank node): every node of the chain has
 * exactly one rdf:first and one rdf:rest, the chain ends in rdf:nil and visits no node twice. Items that
 * head collections themselves are read as lists too, MAX_NESTING deep (rdf/nesting.h). rdf:nil reads as the empty list.
 * 0 when node heads no such chain. */
term_id rdf_list_read(terms *t, store *st, term_id node);

#endif
