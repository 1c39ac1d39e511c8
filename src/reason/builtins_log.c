/* builtins_log.c: the log: builtins that are functions of their arguments alone: term equality, IRIs as
 * strings and taken apart, literals taken apart and built (log:dtlit, log:langlit), formulas joined
 * (log:conjunction), a term's kind (log:rawType) and names made from terms (log:skolem, log:uuid). The
 * ones that read the store, other documents or the rules (log:includes, log:collectAllIn, log:semantics,
 * ...) belong to the engine.
 *
 * NOTES ON THE DESIGN
 *  1. log:skolem is a function of the subject's content: the IRI <http://www.w3.org/2000/10/swap/genid#H>
 *     (the report's form) where H is the unpadded base64url form of the first 16 bytes of a SHA-256 of
 *     the term: its kind (enum term_kind) as a byte, then for a list or formula the number of items (a
 *     formula's triples as s, p, o runs) as 8 little-endian bytes and each item so, otherwise the length
 *     of its text (8 bytes) and the text, and for a literal its tag with a NUL or its datatype IRI so.
 *     It is the same in every run for a term without blank nodes or formulas (a formula's triples come
 *     in the table's order). EYE's names (<https://eyereasoner.github.io/.well-known/genid/RUN#t_N>)
 *     are numbered per run instead.
 *  2. log:uuid is the name-based (version 5, SHA-1) UUID of the subject IRI in the URL namespace of RFC
 *     9562, the same in every run; EYE draws a random one per IRI and run.
 *  3. log:localName and log:namespace split an IRI after its last '#', else its last '/', else its last
 *     ':', as EYE does; log:racine is the IRI before its '#'. */
#include "reason/builtin_family.h"

#include <nettle/base64.h>
#include <nettle/sha1.h>
#include <nettle/sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdf/buf.h"
#include "rdf/vocab_ns.h"

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
static void iri_string_relation(terms *t, term_id subject, term_id object, bool iri_is_subject, builtin_emit emit,
                                void *user) {
    term_id iri = iri_is_subject ? subject : object, string = iri_is_subject ? object : subject;
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

BUILTIN_VARIANT(log_uri_to_string, iri_string_relation, true)
BUILTIN_VARIANT(log_string_to_uri, iri_string_relation, false)

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

/* A language tag as Turtle writes one: letters, then groups of letters and digits after hyphens. */
static bool language_tag_ok(const char *tag, size_t len) {
    size_t group = 0;
    bool first_group = true;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)tag[i];
        bool letter = (c | 0x20) >= 'a' && (c | 0x20) <= 'z', digit = c >= '0' && c <= '9';
        if (c == '-') {
            if (group == 0)
                return false;
            group = 0;
            first_group = false;
        } else if (letter || (digit && !first_group)) {
            group++;
        } else {
            return false;
        }
    }
    return group > 0;
}

/* ("lex" "tag") log:langlit "lex"@tag, both ways; the term table lower-cases the tag. */
static void log_langlit(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    const char *lex, *tag;
    size_t len, tag_len;
    if (subject) {
        term_id text, language;
        if (!pair_of(t, subject, &text, &language) || !string_of(t, text, &lex, &len) || terms_datatype(t, text) ||
            !c_string_of(t, language, &tag, &tag_len) || terms_datatype(t, language) ||
            !language_tag_ok(tag, tag_len))
            return;
        emit_result(subject, object, terms_literal(t, lex, len, 0, tag, tag_len), emit, user);
    } else if (object) {
        if (!string_of(t, object, &lex, &len) || !(tag = terms_lang(t, object)))
            return;
        term_id parts[2] = {simple_literal(t, lex, len), terms_string(t, tag)};
        emit(user, terms_list(t, parts, 2), object);
    }
}

/* ( {formula} ... ) → the formula with all their triples. */
static void log_conjunction(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    const term_id *formulas;
    size_t count, n, total = 0;
    if (!subject || !list_of(t, subject, &formulas, &count))
        return;
    for (size_t i = 0; i < count; i++) {
        if (terms_kind(t, formulas[i]) != TERM_FORMULA)
            return;
        terms_formula_triples(t, formulas[i], &n);
        total += n;
    }
    triple *all = xmalloc((total ? total : 1) * sizeof *all);
    size_t at = 0;
    for (size_t i = 0; i < count; i++) {
        const triple *ts = terms_formula_triples(t, formulas[i], &n);
        memcpy(all + at, ts, n * sizeof *ts);
        at += n;
    }
    emit_result(subject, object, terms_formula(t, all, total), emit, user);
    free(all);
}

/* The kind of a term: rdf:List, log:Formula, log:Literal, log:LabeledBlankNode (EYE's name for a blank
 * node) or log:Other (an IRI). */
static void log_raw_type(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    const char *type;
    if (!subject)
        return;
    switch (subject == T_RDF_NIL ? TERM_LIST : terms_kind(t, subject)) {
    case TERM_LIST: type = NS_RDF "List"; break;
    case TERM_FORMULA: type = NS_LOG "Formula"; break;
    case TERM_LITERAL: type = NS_LOG "Literal"; break;
    case TERM_BNODE: type = NS_LOG "LabeledBlankNode"; break;
    case TERM_IRI: type = NS_LOG "Other"; break;
    default: return;
    }
    emit_result(subject, object, terms_iri_cstr(t, type), emit, user);
}

/* A length as 8 little-endian bytes, whatever the host's byte order. */
static void hash_length(struct sha256_ctx *hash, uint64_t length) {
    uint8_t bytes[8];
    for (int i = 0; i < 8; i++)
        bytes[i] = (uint8_t)(length >> (8 * i));
    sha256_update(hash, sizeof bytes, bytes);
}

/* Feeds a term's content to the hash (NOTES 1): a kind byte, then its text, datatype and tag, or its
 * items, each preceded by its length so that no two terms feed the same bytes. */
static void hash_term(const terms *t, term_id id, struct sha256_ctx *hash) {
    enum term_kind kind = terms_kind(t, id);
    uint8_t kind_byte = (uint8_t)kind;
    sha256_update(hash, 1, &kind_byte);
    size_t n;
    if (kind == TERM_LIST || kind == TERM_FORMULA) {
        const term_id *items = kind == TERM_LIST ? terms_list_items(t, id, &n)
                                                 : (const term_id *)terms_formula_triples(t, id, &n);
        if (kind == TERM_FORMULA)
            n *= 3;
        hash_length(hash, n);
        for (size_t i = 0; i < n; i++)
            hash_term(t, items[i], hash);
        return;
    }
    const char *text = terms_lex(t, id, &n);
    hash_length(hash, n);
    sha256_update(hash, n, (const uint8_t *)text);
    if (kind != TERM_LITERAL)
        return;
    const char *lang = terms_lang(t, id);
    if (lang) {
        sha256_update(hash, strlen(lang) + 1, (const uint8_t *)lang);
        return;
    }
    term_id datatype = terms_datatype(t, id);
    if (datatype)
        hash_term(t, datatype, hash);
}

static void log_skolem(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    if (!subject)
        return;
    struct sha256_ctx hash;
    uint8_t digest[SHA256_DIGEST_SIZE];
    sha256_init(&hash);
    hash_term(t, subject, &hash);
    sha256_digest(&hash, sizeof digest, digest);
    static const char prefix[] = NS_GENID;
    char iri[sizeof prefix + BASE64_ENCODE_LENGTH(16) + BASE64_ENCODE_FINAL_LENGTH];
    memcpy(iri, prefix, sizeof prefix - 1);
    struct base64_encode_ctx encoder;
    base64url_encode_init(&encoder);
    size_t len = sizeof prefix - 1;
    len += base64_encode_update(&encoder, iri + len, 16, digest);
    len += base64_encode_final(&encoder, iri + len);
    while (iri[len - 1] == '=')
        len--;
    emit_result(subject, object, terms_iri(t, iri, len), emit, user);
}

static void log_uuid(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    static const uint8_t url_namespace[16] = {0x6b, 0xa7, 0xb8, 0x11, 0x9d, 0xad, 0x11, 0xd1,
                                              0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8};
    if (!subject || terms_kind(t, subject) != TERM_IRI)
        return;
    size_t len;
    const char *iri = terms_lex(t, subject, &len);
    struct sha1_ctx hash;
    uint8_t digest[SHA1_DIGEST_SIZE];
    sha1_init(&hash);
    sha1_update(&hash, sizeof url_namespace, url_namespace);
    sha1_update(&hash, len, (const uint8_t *)iri);
    sha1_digest(&hash, sizeof digest, digest);
    digest[6] = (uint8_t)((digest[6] & 0x0f) | 0x50); /* version 5 */
    digest[8] = (uint8_t)((digest[8] & 0x3f) | 0x80); /* the RFC's variant */
    char text[37];
    size_t at = 0;
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            text[at++] = '-';
        at += (size_t)snprintf(text + at, sizeof text - at, "%02x", digest[i]);
    }
    emit_result(subject, object, simple_literal(t, text, at), emit, user);
}

/* Where an IRI's local name starts (NOTES 3): after its last '#', '/' or ':' in that preference; 0 when
 * it has none. */
static size_t local_name_start(const char *iri, size_t len) {
    static const char separators[] = "#/:";
    for (const char *sep = separators; *sep; sep++)
        for (size_t i = len; i > 0; i--)
            if (iri[i - 1] == *sep)
                return i;
    return 0;
}

/* An IRI's local name (local) or namespace (!local) as a string. */
static void iri_part(terms *t, term_id subject, term_id object, bool local, builtin_emit emit, void *user) {
    if (!subject || terms_kind(t, subject) != TERM_IRI)
        return;
    size_t len;
    const char *iri = terms_lex(t, subject, &len);
    size_t start = local_name_start(iri, len);
    if (start == 0)
        return;
    term_id part = local ? simple_literal(t, iri + start, len - start) : simple_literal(t, iri, start);
    emit_result(subject, object, part, emit, user);
}

BUILTIN_VARIANT(log_local_name, iri_part, true)
BUILTIN_VARIANT(log_namespace, iri_part, false)

/* The IRI before its fragment: <http://ex.org/a#b> → <http://ex.org/a>. */
static void log_racine(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    if (!subject || terms_kind(t, subject) != TERM_IRI)
        return;
    size_t len;
    const char *iri = terms_lex(t, subject, &len);
    const char *hash = memchr(iri, '#', len);
    if (hash && hash > iri)
        emit_result(subject, object, terms_iri(t, iri, (size_t)(hash - iri)), emit, user);
}

const builtin builtins_log[] = {
    {NS_LOG "equalTo", BUILTIN_EITHER_IN, log_equal_to, false},
    {NS_LOG "notEqualTo", BUILTIN_BOTH_IN, log_not_equal_to, false},
    {NS_LOG "uri", BUILTIN_EITHER_IN, log_uri_to_string, false},
    {NS_LOG "uriToString", BUILTIN_EITHER_IN, log_uri_to_string, false},
    {NS_LOG "stringToUri", BUILTIN_EITHER_IN, log_string_to_uri, false},
    {NS_LOG "dtlit", BUILTIN_EITHER_IN, log_dtlit, false},
    {NS_LOG "langlit", BUILTIN_EITHER_IN, log_langlit, false},
    {NS_LOG "conjunction", BUILTIN_SUBJECT_IN, log_conjunction, false},
    {NS_LOG "rawType", BUILTIN_SUBJECT_IN, log_raw_type, false},
    {NS_LOG "skolem", BUILTIN_SUBJECT_IN, log_skolem, false},
    {NS_LOG "uuid", BUILTIN_SUBJECT_IN, log_uuid, false},
    {NS_LOG "localName", BUILTIN_SUBJECT_IN, log_local_name, false},
    {NS_LOG "namespace", BUILTIN_SUBJECT_IN, log_namespace, false},
    {NS_LOG "racine", BUILTIN_SUBJECT_IN, log_racine, false},
};
const size_t builtins_log_count = sizeof builtins_log / sizeof builtins_log[0];
