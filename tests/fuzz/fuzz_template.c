/* fuzz_template.c: libFuzzer target for request templates (agent/template.h): the first byte picks a URI
 * ('u'), header ('h') or body ('b') template (any other byte: by its value modulo 3), the rest is the
 * template, filled with hostile values (quotes, '>', '}', CR LF, backslashes, non-ASCII, an IRI, a blank
 * node). Any text is filled or refused with one line, leaving the output as it was, never a crash or a
 * leak; what is filled keeps the module's promises: a URI holds only URI characters, a header value no
 * control character but TAB and no whitespace at either end, a body parses as Turtle, to as many triples
 * as the same template filled with plain values (a value adds no triple). And lint's list
 * agrees: template_variables accepts every template that fills, and lists only variables the bindings give. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "agent/template.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define BASE "http://fuzz.example/dir/doc"
#define KEPT "kept"

static bool uri_text(const char *s, size_t len) {
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                     (c && strchr("-._~:/?#[]@!$&'()*+,;=", c));
        if (c == '%') {
            if (i + 2 >= len || hex_digit_value((unsigned char)s[i + 1]) < 0 ||
                hex_digit_value((unsigned char)s[i + 2]) < 0)
                return false;
        } else if (!plain) {
            return false;
        }
    }
    return true;
}

static bool header_text(const char *s, size_t len) {
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c < 0x20 && c != '\t') || c == 0x7F)
            return false;
    }
    return !len || (s[0] != ' ' && s[0] != '\t' && s[len - 1] != ' ' && s[len - 1] != '\t');
}

/* How many distinct triples a filled body parses to (it must parse). */
static size_t triple_count(rdfio *io, const char *text, size_t len) {
    triple *ts;
    size_t count;
    rdf_error err;
    if (rdf_parse_triples(io, RDF_TURTLE, text, len, BASE, "filled", &ts, &count, &err) != 0)
        abort();
    if (count) /* an empty body gives no array (qsort takes none) */
        count = triples_canonical(ts, count);
    free(ts);
    return count;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || memchr(data, '\0', size))
        return 0; /* a template is a literal's lexical form: it holds no NUL */
    enum template_kind kind = data[0] == 'u'   ? TEMPLATE_URI
                              : data[0] == 'h' ? TEMPLATE_HEADER
                              : data[0] == 'b' ? TEMPLATE_BODY
                                               : (enum template_kind)(data[0] % 3);
    char *tmpl = xstrndup((const char *)data + 1, size - 1);
    terms *t = terms_new();
    rdfio *io = rdfio_new(t);
    term_id blank = terms_fresh_bnode(t);
    const template_binding b[] = {
        {"x", terms_string(t, "\"\"\" }> ''' \n\r\\ \\u0022 ?x {x} %41 caf\xc3\xa9 \xf0\x9f\x98\x80 # .")},
        {"y", terms_iri_cstr(t, "http://ex/a?b=c&d#e%20f")},
        {"z", terms_literal(t, "chat", 4, 0, "fr", 2)},
        {"w", terms_literal(t, "0042", 4, T_XSD_INTEGER, NULL, 0)},
        {"h", terms_string(t, "a b\t\"c\" {d}")},
        {"e", terms_string(t, "")},
        {"bn", blank},
    };
    const size_t n = sizeof b / sizeof *b;
    buf out = {0};
    buf_puts(&out, KEPT);
    char error[600] = "";
    int rc = kind == TEMPLATE_URI      ? template_uri(t, tmpl, b, n, &out, error, sizeof error)
             : kind == TEMPLATE_HEADER ? template_header(t, tmpl, b, n, &out, error, sizeof error)
                                       : template_body(t, io, tmpl, BASE, b, n, &out, error, sizeof error);
    if (rc != 0 && rc != -1)
        abort();
    const char *filled = buf_cstr(&out) + strlen(KEPT);
    size_t filled_len = out.len - strlen(KEPT);
    if (memcmp(out.data, KEPT, strlen(KEPT)) != 0)
        abort(); /* what the output held before is not the function's */
    if (rc == -1 && (!error[0] || strchr(error, '\n') || filled_len))
        abort(); /* a failure without its one line, or leaving a partial fill */
    if (rc == 0 && kind == TEMPLATE_URI && !uri_text(filled, filled_len))
        abort();
    if (rc == 0 && kind == TEMPLATE_HEADER && !header_text(filled, filled_len))
        abort();
    if (kind == TEMPLATE_BODY) {
        /* the same template filled with plain values of the same kinds: a hostile value changes the body's
         * triples only where it stands, so both fill or neither, with as many triples */
        const template_binding plain[] = {
            {"x", terms_string(t, "plain-x")},
            {"y", terms_iri_cstr(t, "http://ex/plain-y")},
            {"z", terms_literal(t, "plain-z", 7, 0, "fr", 2)},
            {"w", terms_literal(t, "7", 1, T_XSD_INTEGER, NULL, 0)},
            {"h", terms_string(t, "plain-h")},
            {"e", terms_string(t, "plain-e")},
            {"bn", blank},
        };
        buf other = {0};
        if (template_body(t, io, tmpl, BASE, plain, n, &other, error, sizeof error) != rc)
            abort();
        if (rc == 0 && triple_count(io, filled, filled_len) != triple_count(io, buf_cstr(&other), other.len))
            abort();
        buf_free(&other);
    }
    strmap names = {0};
    int listed = template_variables(tmpl, kind, &names, error, sizeof error);
    if (rc == 0 && listed != 0)
        abort(); /* lint would refuse a template that fills */
    for (uint32_t i = 0; rc == 0 && i < names.count; i++) {
        bool given = false;
        for (size_t k = 0; k < n; k++)
            given = given || strcmp(names.keys[i], b[k].name) == 0;
        if (!given)
            abort(); /* lint would call a variable unbound that the fill found bound */
    }
    strmap_free(&names);
    buf_free(&out);
    rdfio_free(io);
    terms_free(t);
    free(tmpl);
    return 0;
}
