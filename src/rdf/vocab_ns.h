/* vocab_ns.h: the one place in src/ where the vocabularies' namespaces are written (W3C RDF, RDFS, XSD, OWL,
 * the N3 builtins', HTTP-in-RDF, LDP, Solid, SPIN; GSM's gsm:, ldgsm:'s own, wsm:, pat:, and the agent's
 * internal urn:ldgsm: terms), the IRIs more than one file reads as string constants built on them, and
 * the helpers the layers above intern and recognise them with.
 *
 * Written by hand, not generated from the ontology/ files: the C reads terms no ontology file declares (the W3C
 * vocabularies, the agent's internal urn:ldgsm:gsm# terms, the authors' draft namespace it maps from), and
 * string constants cost nothing at run time while a generator would be one more build step to keep working.
 * A term that a single file reads stays in that file, written as NS_X "localName", so its meaning is read
 * where it is used; a term a second file needs moves here. */
#ifndef LDGSM_RDF_VOCAB_NS_H
#define LDGSM_RDF_VOCAB_NS_H

#include <stdint.h>

/* As in term.h, which includes this header for its users' NS_RDF, NS_XSD ... */
typedef uint32_t term_id;
typedef struct terms terms;

/* W3C and N3 (SWAP) vocabularies */
#define NS_RDF "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
#define NS_RDFS "http://www.w3.org/2000/01/rdf-schema#"
#define NS_XSD "http://www.w3.org/2001/XMLSchema#"
#define NS_OWL "http://www.w3.org/2002/07/owl#"
#define NS_LOG "http://www.w3.org/2000/10/swap/log#"
#define NS_MATH "http://www.w3.org/2000/10/swap/math#"
#define NS_STRING "http://www.w3.org/2000/10/swap/string#"
#define NS_LIST "http://www.w3.org/2000/10/swap/list#"
#define NS_CRYPTO "http://www.w3.org/2000/10/swap/crypto#"
#define NS_TIME "http://www.w3.org/2000/10/swap/time#"
#define NS_GENID "http://www.w3.org/2000/10/swap/genid#" /* skolem IRIs (log:skolem) */
#define NS_SPARQL_RESULTS "http://www.w3.org/2005/sparql-results#"
#define NS_HTTP "http://www.w3.org/2011/http#"
#define NS_HTTPM "http://www.w3.org/2011/http-methods#"
#define NS_LDP "http://www.w3.org/ns/ldp#"
#define NS_SOLID "http://www.w3.org/ns/solid/terms#"
#define NS_PIM "http://www.w3.org/ns/pim/space#"
#define NS_SP "http://spinrdf.org/sp#"

/* GSM and ldgsm's own vocabularies (ontology/README.md) */
#define NS_GSM "http://purl.org/gsm/vocab#"
#define NS_LDGSM "https://w3id.org/ldgsm#"
#define NS_WSM "https://w3id.org/ldgsm/wsm#"
#define NS_PAT "https://w3id.org/ldgsm/patterns#"
/* The GSM authors' draft namespace: models written against it are read through rules/compat-authors-draft.n3. */
#define NS_DRAFT "http://tok450s.lan:8080/ldbbc/gsm-vocab.ttl#"

/* Terms only the agent's rules and C exchange, never published: rules/gsm*.n3's (gx:) and rules/wsm.n3's (wx:). */
#define NS_GX "urn:ldgsm:gsm#"
#define NS_WX "urn:ldgsm:wsm#"
/* Linked Data-Fu's `this:` placeholder: a request's own resource, its fragments relative to it. */
#define NS_THIS_DOCUMENT                                                                                              \
    "http://this.nxparser.github.io/reference/to/URI/of/current/rdf/graph/for/representing/permanently/relative/"    \
    "URIs/in/N-Triples/"
#define NS_THIS NS_THIS_DOCUMENT "#"

/* The IRI ns followed by local, interned in t. */
term_id vocab_iri(terms *t, const char *ns, const char *local);

/* The local name of iri if it lies in namespace ns ("hasState" for gsm:hasState and NS_GSM), else NULL. */
const char *vocab_local(const char *iri, const char *ns);

#endif
