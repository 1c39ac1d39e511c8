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

/* The IRIs that more than one file reads, named after their prefixed names (gsm:hasState is GSM_hasState),
 * so a reader goes from the Turtle to the C and back with one grep. */
#define RDF_first NS_RDF "first"
#define RDF_nil NS_RDF "nil"
#define RDF_rest NS_RDF "rest"
#define RDF_type NS_RDF "type"

#define RDFS_comment NS_RDFS "comment"
#define RDFS_label NS_RDFS "label"

#define XSD_dateTime NS_XSD "dateTime"
#define XSD_dayTimeDuration NS_XSD "dayTimeDuration"
#define XSD_duration NS_XSD "duration"
#define XSD_yearMonthDuration NS_XSD "yearMonthDuration"

#define LOG_collectAllIn NS_LOG "collectAllIn"
#define LOG_forAllIn NS_LOG "forAllIn"
#define LOG_notIncludes NS_LOG "notIncludes"

#define HTTP_body NS_HTTP "body"
#define HTTP_fieldName NS_HTTP "fieldName"
#define HTTP_headers NS_HTTP "headers"
#define HTTP_mthd NS_HTTP "mthd"
#define HTTP_requestURI NS_HTTP "requestURI"

#define LDP_contains NS_LDP "contains"

#define SP_Ask NS_SP "Ask"
#define SP_text NS_SP "text"
#define SP_where NS_SP "where"

#define GSM_ArtifactInstance NS_GSM "ArtifactInstance"
#define GSM_Milestone NS_GSM "Milestone"
#define GSM_Stage NS_GSM "Stage"
#define GSM_active NS_GSM "active"
#define GSM_hasAchievingSentry NS_GSM "hasAchievingSentry"
#define GSM_hasChildStage NS_GSM "hasChildStage"
#define GSM_hasCondition NS_GSM "hasCondition"
#define GSM_hasGuard NS_GSM "hasGuard"
#define GSM_hasHttpRequest NS_GSM "hasHttpRequest"
#define GSM_hasInvalidatingSentry NS_GSM "hasInvalidatingSentry"
#define GSM_hasMilestone NS_GSM "hasMilestone"
#define GSM_hasState NS_GSM "hasState"
#define GSM_inArtifactInstance NS_GSM "inArtifactInstance"
#define GSM_inactive NS_GSM "inactive"
#define GSM_isAchieved NS_GSM "isAchieved"
#define GSM_isInstanceOf NS_GSM "isInstanceOf"
#define GSM_uninitialized NS_GSM "uninitialized"

#define LDGSM_AllAlternativesFailed NS_LDGSM "AllAlternativesFailed"
#define LDGSM_FailureMilestone NS_LDGSM "FailureMilestone"
#define LDGSM_RuleCondition NS_LDGSM "RuleCondition"
#define LDGSM_alternative NS_LDGSM "alternative"
#define LDGSM_alternativeStages NS_LDGSM "alternativeStages"
#define LDGSM_alternatives NS_LDGSM "alternatives"
#define LDGSM_answerStatus NS_LDGSM "answerStatus"
#define LDGSM_arguments NS_LDGSM "arguments"
#define LDGSM_at NS_LDGSM "at"
#define LDGSM_callState NS_LDGSM "callState"
#define LDGSM_calledAt NS_LDGSM "calledAt"
#define LDGSM_calling NS_LDGSM "calling"
#define LDGSM_changed NS_LDGSM "changed"
#define LDGSM_deadline NS_LDGSM "deadline"
#define LDGSM_exhausted NS_LDGSM "exhausted"
#define LDGSM_from NS_LDGSM "from"
#define LDGSM_heldBecause NS_LDGSM "heldBecause"
#define LDGSM_holdsFor NS_LDGSM "holdsFor"
#define LDGSM_isCompleted NS_LDGSM "isCompleted"
#define LDGSM_lastFailure NS_LDGSM "lastFailure"
#define LDGSM_ofStage NS_LDGSM "ofStage"
#define LDGSM_property NS_LDGSM "property"
#define LDGSM_readFailure NS_LDGSM "readFailure"
#define LDGSM_reads NS_LDGSM "reads"
#define LDGSM_readsContainer NS_LDGSM "readsContainer"
#define LDGSM_results NS_LDGSM "results"
#define LDGSM_retriesLeft NS_LDGSM "retriesLeft"
#define LDGSM_sequence NS_LDGSM "sequence"
#define LDGSM_to NS_LDGSM "to"
#define LDGSM_waitsBecause NS_LDGSM "waitsBecause"

#define WSM_Schema NS_WSM "Schema"
#define WSM_assigns NS_WSM "assigns"
#define WSM_condition NS_WSM "condition"
#define WSM_from NS_WSM "from"
#define WSM_initialState NS_WSM "initialState"
#define WSM_initialValue NS_WSM "initialValue"
#define WSM_instanceOf NS_WSM "instanceOf"
#define WSM_on NS_WSM "on"
#define WSM_to NS_WSM "to"
#define WSM_transition NS_WSM "transition"
#define WSM_value NS_WSM "value"
#define WSM_variable NS_WSM "variable"

/* The agent's own graphs: what the reasoner derives, and what a watcher writes beside working memory. */
#define LDGSM_DERIVED_GRAPH "urn:ldgsm:derived"
#define LDGSM_WATCH_GRAPH "urn:ldgsm:watch"

/* The IRI ns followed by local, interned in t. */
term_id vocab_iri(terms *t, const char *ns, const char *local);

/* The local name of iri if it lies in namespace ns ("hasState" for gsm:hasState and NS_GSM), else NULL. */
const char *vocab_local(const char *iri, const char *ns);

#endif
