/* builtins_log.c: the log: builtins: term equality, IRIs as strings, and typed literals taken apart and
 * built (log:dtlit). */
#include "reason/builtin_family.h"

#include <stdlib.h>
#include <string.h>

#include "rdf/buf.h"

static void log_equal_to(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    (void)t;
    if (subject && object) {
        if (subject == object)
            emit(user, subject, object);
    } else if (subject || object) {
        term_id known = subject ? subject : object;
        emit(user, known, known);
    }
}

static void log_not_equal_to(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    (void)t;
    if (subject && object && subject != object)
        emit(user, subject, object);
}

/* Text usable as an IRI: not empty, no space, control character or character IRIs exclude. */
static bool iri_text_ok(const char *text, size_t len) {
    if (len == 0)
        return false;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c <= 0x20 || c == 0x7f || strchr("<>\"{}|\\^`", c))
            return false;
    }
    return true;
}

/* The relation between an IRI and the simple literal of its text, from whichever side is bound;
 * iri_is_subject says which side of the builtin the IRI is on. */
static void iri_string_relation(terms *t, term_id iri, term_id string, bool iri_is_subject, builtin_emit emit,
                                void *user) {
    size_t len;
    if (iri) {
        if (terms_kind(t, iri) != TERM_IRI)
            return;
        const char *text = terms_lex(t, iri, &len);
        term_id computed = simple_literal(t, text, len);
        if (string && string != computed)
            return;
        string = computed;
    } else if (string) {
        const char *text;
        if (!string_of(t, string, &text, &len) || terms_datatype(t, string) != 0 || !iri_text_ok(text, len))
            return;
        iri = terms_iri(t, text, len);
    } else {
        return;
    }
    if (iri_is_subject)
        emit(user, iri, string);
    else
        emit(user, string, iri);
}

static void log_uri_to_string(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    iri_string_relation(t, subject, object, true, emit, user);
}

static void log_string_to_uri(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    iri_string_relation(t, object, subject, false, emit, user);
}

/* ("lex" <datatype>) log:dtlit "lex"^^<datatype>; a simple literal's datatype is xsd:string. Language
 * tagged literals are not typed literals (log:langlit's domain): no solution. */
static void log_dtlit(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    const char *lex;
    size_t len;
    if (subject) {
        const term_id *items;
        size_t n;
        if (!list_of(t, subject, &items, &n) || n != 2 || !string_of(t, items[0], &lex, &len) ||
            terms_kind(t, items[1]) != TERM_IRI || items[1] == T_RDF_LANGSTRING)
            return;
        emit_result(subject, object, terms_literal(t, lex, len, items[1], NULL, 0), emit, user);
    } else if (object) {
        if (!string_of(t, object, &lex, &len) || terms_lang(t, object))
            return;
        term_id datatype = terms_datatype(t, object);
        term_id parts[2] = {simple_literal(t, lex, len), datatype ? datatype : T_XSD_STRING};
        emit(user, terms_list(t, parts, 2), object);
    }
}

const builtin builtins_log[] = {
    {NS_LOG "equalTo", BUILTIN_EITHER_IN, log_equal_to},
    {NS_LOG "notEqualTo", BUILTIN_BOTH_IN, log_not_equal_to},
    {NS_LOG "uri", BUILTIN_EITHER_IN, log_uri_to_string},
    {NS_LOG "uriToString", BUILTIN_EITHER_IN, log_uri_to_string},
    {NS_LOG "stringToUri", BUILTIN_EITHER_IN, log_string_to_uri},
    {NS_LOG "dtlit", BUILTIN_EITHER_IN, log_dtlit},
};
const size_t builtins_log_count = sizeof builtins_log / sizeof builtins_log[0];
