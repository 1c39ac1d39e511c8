/* vocab_ns.c: interning and recognising the IRIs of the vocabularies (vocab_ns.h). */
#include "rdf/vocab_ns.h"

#include <string.h>

#include "rdf/buf.h"
#include "rdf/term.h"

term_id vocab_iri(terms *t, const char *ns, const char *local) {
    buf iri = {0};
    buf_puts(&iri, ns);
    buf_puts(&iri, local);
    term_id id = terms_iri(t, iri.data, iri.len);
    buf_free(&iri);
    return id;
}

const char *vocab_local(const char *iri, const char *ns) {
    size_t len = strlen(ns);
    return strncmp(iri, ns, len) == 0 ? iri + len : NULL;
}
