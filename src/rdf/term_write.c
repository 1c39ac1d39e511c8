/* term_write.c: terms written as text without raptor2: N-Triples terms (formulas and what they hold in N3
 * notation), IRIs relative to a document, and the compact Turtle of PUT bodies and stored documents, which
 * abbreviates rdf:, xsd: and the namespaces its caller names. */
#include "rdf/rdfio.h"

#include <ctype.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

static bool is_hex_upper(char c) { return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F'); }

/* A variable's name as N3 can read it: a name of letters, digits and '_' as it is; any other (an
 * @forAll variable is named by its IRI) with each character but letters and digits written _XX. A name
 * holding `_XX` is escaped too, so two names never print the same. */
static void write_variable_name(const char *name, size_t len, buf *out) {
    bool escape = false;
    for (size_t i = 0; i < len && !escape; i++) {
        unsigned char c = (unsigned char)name[i];
        escape = !(isalnum(c) || c == '_') ||
                 (c == '_' && i + 2 < len && is_hex_upper(name[i + 1]) && is_hex_upper(name[i + 2]));
    }
    if (!escape) {
        buf_append(out, name, len);
        return;
    }
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)name[i];
        if (isalnum(c) && c < 0x80)
            buf_putc(out, (char)c);
        else
            buf_printf(out, "_%02X", c);
    }
}

/* N-Triples escaping: IRIs escape what IRIREF forbids; literals use ECHAR for the usual controls. */
static bool iri_char_needs_escape(unsigned char c) {
    return c <= 0x20 || c == '<' || c == '>' || c == '"' || c == '{' || c == '}' || c == '|' || c == '^' ||
           c == '`' || c == '\\';
}

static void write_iri(const char *s, size_t len, buf *out) {
    buf_reserve(out, len + 2);
    out->data[out->len++] = '<';
    size_t start = 0;
    for (size_t i = 0; i < len; i++) {
        if (!iri_char_needs_escape((unsigned char)s[i]))
            continue;
        buf_append(out, s + start, i - start);
        buf_printf(out, "\\u%04X", (unsigned char)s[i]);
        start = i + 1;
    }
    buf_append(out, s + start, len - start);
    buf_putc(out, '>');
}

static void write_string(const char *s, size_t len, buf *out) {
    buf_putc(out, '"');
    size_t start = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        const char *escape = NULL;
        switch (c) {
        case '"': escape = "\\\""; break;
        case '\\': escape = "\\\\"; break;
        case '\n': escape = "\\n"; break;
        case '\r': escape = "\\r"; break;
        case '\t': escape = "\\t"; break;
        case '\b': escape = "\\b"; break;
        case '\f': escape = "\\f"; break;
        default:
            if (c < 0x20) {
                buf_append(out, s + start, i - start);
                buf_printf(out, "\\u%04X", c);
                start = i + 1;
            }
            continue;
        }
        buf_append(out, s + start, i - start);
        buf_puts(out, escape);
        start = i + 1;
    }
    buf_append(out, s + start, len - start);
    buf_putc(out, '"');
}

static void write_term(const terms *t, term_id id, bool quoted, buf *out);

void rdf_write_term_nt(const terms *t, term_id id, buf *out) { write_term(t, id, false, out); }

/* A term in N-Triples, or in N3 notation for formulas and what they hold (`quoted`): a list inside a
 * formula is written `( ... )`, as its items have no triples of their own there. */
static void write_term(const terms *t, term_id id, bool quoted, buf *out) {
    size_t len;
    const char *lex = terms_lex(t, id, &len);
    switch (terms_kind(t, id)) {
    case TERM_IRI:
        write_iri(lex, len, out);
        break;
    case TERM_BNODE:
        buf_puts(out, "_:");
        buf_append(out, lex, len);
        break;
    case TERM_LITERAL: {
        write_string(lex, len, out);
        const char *lang = terms_lang(t, id);
        term_id datatype = terms_datatype(t, id);
        if (lang) {
            buf_putc(out, '@');
            buf_puts(out, lang);
        } else if (datatype) {
            buf_puts(out, "^^");
            size_t dlen;
            const char *dt = terms_lex(t, datatype, &dlen);
            write_iri(dt, dlen, out);
        }
        break;
    }
    case TERM_VAR:
        buf_putc(out, '?');
        write_variable_name(lex, len, out);
        break;
    case TERM_FORMULA: {
        size_t n;
        const triple *ts = terms_formula_triples(t, id, &n);
        if (n == 0) { /* N3 reads `{}` and true as one */
            buf_puts(out, "\"true\"^^<" NS_XSD "boolean>");
            break;
        }
        buf_puts(out, "{ ");
        for (size_t i = 0; i < n; i++) {
            write_term(t, ts[i].s, true, out);
            buf_putc(out, ' ');
            write_term(t, ts[i].p, true, out);
            buf_putc(out, ' ');
            write_term(t, ts[i].o, true, out);
            buf_puts(out, " . ");
        }
        buf_putc(out, '}');
        break;
    }
    case TERM_LIST: {
        size_t n;
        const term_id *items = terms_list_items(t, id, &n);
        if (quoted) {
            buf_putc(out, '(');
            for (size_t i = 0; i < n; i++) {
                buf_putc(out, ' ');
                write_term(t, items[i], true, out);
            }
            buf_puts(out, " )");
        } else if (n == 0) {
            write_iri(NS_RDF "nil", strlen(NS_RDF "nil"), out);
        } else {
            buf_printf(out, "_:list%u", id);
        }
        break;
    }
    default:
        buf_puts(out, "<urn:ldgsm:none>");
    }
}

/* The length of the scheme and authority of an IRI ("http://host:port"), 0 when it has none. */
static size_t authority_length(const char *iri, size_t len) {
    const char *colon = memchr(iri, ':', len);
    if (!colon || (size_t)(colon - iri) + 3 > len || colon[1] != '/' || colon[2] != '/')
        return 0;
    const char *path = memchr(colon + 3, '/', len - (size_t)(colon + 3 - iri));
    return path ? (size_t)(path - iri) : len;
}

/* Appends <iri> relative to base (a document IRI without fragment): the document itself and its
 * fragments as <> and <#f>, IRIs of the same host with ../ steps as needed, others absolute. */
static void write_relative_iri(const char *iri, size_t len, const char *base, size_t base_len, buf *out) {
    size_t auth = authority_length(base, base_len);
    if (len >= base_len && memcmp(iri, base, base_len) == 0 && (len == base_len || iri[base_len] == '#')) {
        write_iri(iri + base_len, len - base_len, out);
        return;
    }
    if (!auth || authority_length(iri, len) != auth || memcmp(iri, base, auth) != 0 || memchr(iri, '?', len) ||
        memchr(base, '?', base_len)) {
        write_iri(iri, len, out);
        return;
    }
    /* the longest common directory prefix, then one ../ per base directory below it */
    size_t common = auth;
    for (size_t i = auth; i < len && i < base_len && iri[i] == base[i]; i++)
        if (iri[i] == '/')
            common = i + 1;
    buf rel = {0};
    for (size_t i = common; i < base_len; i++)
        if (base[i] == '/')
            buf_puts(&rel, "../");
    buf_append(&rel, iri + common, len > common ? len - common : 0); /* common <= len; said for LTO */
    if (rel.len == 0 || rel.data[0] == '#')
        buf_puts(&rel, "./"); /* never confuse a path with the document itself */
    write_iri(rel.data, rel.len, out);
    buf_free(&rel);
}

void rdf_write_relative_iri(const char *iri, const char *base, buf *out) {
    write_relative_iri(iri, strlen(iri), base, strlen(base), out);
}

/* The namespaces every compact document abbreviates, this layer's own (the terms it writes bare or as `a`
 * are in them); the caller's table (pairs of name and namespace IRI, then NULL) follows: the vocabularies
 * of the documents it writes, which this layer does not know. */
static const char *const standard_prefixes[] = {"rdf", NS_RDF, "xsd", NS_XSD, NULL};

/* The prefixes a compact writer uses, the standard ones first, with their lengths: measured once per
 * document, not once per IRI (a status document's IRIs were 5% of an agent's instructions in strlen). */
typedef struct prefix_entry {
    const char *name, *namespace;
    size_t name_len, namespace_len;
} prefix_entry;

typedef struct prefix_table {
    prefix_entry *entries;
    size_t count;
} prefix_table;

static prefix_table prefix_table_of(const char *const *prefixes) {
    const char *const *tables[] = {standard_prefixes, prefixes};
    prefix_table p = {0};
    size_t cap = 0;
    for (size_t table = 0; table < sizeof tables / sizeof *tables; table++)
        for (size_t k = 0; tables[table] && tables[table][k]; k += 2) {
            if (p.count == cap) {
                cap = cap ? cap * 2 : 8;
                p.entries = xrealloc(p.entries, cap * sizeof *p.entries);
            }
            p.entries[p.count++] = (prefix_entry){tables[table][k], tables[table][k + 1], strlen(tables[table][k]),
                                                  strlen(tables[table][k + 1])};
        }
    return p;
}

/* Writes iri as prefix:local when a compact prefix covers it and local is a plain name (the first
 * namespace covering it decides). */
static bool write_prefixed(const char *iri, size_t len, const prefix_table *prefixes, buf *out) {
    for (size_t k = 0; k < prefixes->count; k++) {
        const prefix_entry *e = &prefixes->entries[k];
        size_t ns = e->namespace_len;
        if (len <= ns || (ns && iri[ns - 1] != e->namespace[ns - 1]) || memcmp(iri, e->namespace, ns) != 0)
            continue;
        const char *local = iri + ns;
        size_t local_len = len - ns;
        bool plain = isalpha((unsigned char)local[0]) || local[0] == '_';
        for (size_t i = 1; i < local_len && plain; i++)
            plain = isalnum((unsigned char)local[i]) || local[i] == '_' || local[i] == '-';
        if (!plain)
            return false;
        buf_append(out, e->name, e->name_len);
        buf_putc(out, ':');
        buf_append(out, local, local_len);
        return true;
    }
    return false;
}

static bool all_digits(const char *s, size_t len) {
    size_t i = len && (s[0] == '-' || s[0] == '+');
    if (i == len)
        return false;
    for (; i < len; i++)
        if (!isdigit((unsigned char)s[i]))
            return false;
    return true;
}

static void write_compact_term(const terms *t, term_id id, const char *base, size_t base_len,
                               const prefix_table *prefixes, bool predicate, buf *out) {
    size_t len;
    const char *lex = terms_lex(t, id, &len);
    switch (terms_kind(t, id)) {
    case TERM_IRI:
        if (predicate && id == T_RDF_TYPE)
            buf_putc(out, 'a');
        else if (!write_prefixed(lex, len, prefixes, out))
            write_relative_iri(lex, len, base, base_len, out);
        return;
    case TERM_LITERAL: {
        term_id datatype = terms_datatype(t, id);
        if (!terms_lang(t, id) && datatype == T_XSD_BOOLEAN && (strcmp(lex, "true") == 0 || strcmp(lex, "false") == 0)) {
            buf_append(out, lex, len);
            return;
        }
        if (!terms_lang(t, id) && datatype == T_XSD_INTEGER && all_digits(lex, len)) {
            buf_append(out, lex, len);
            return;
        }
        if (!terms_lang(t, id) && datatype && datatype != T_XSD_STRING) {
            size_t dlen;
            const char *dt = terms_lex(t, datatype, &dlen);
            size_t mark = out->len;
            write_string(lex, len, out);
            buf_puts(out, "^^");
            if (write_prefixed(dt, dlen, prefixes, out))
                return;
            out->len = mark;
        }
        rdf_write_term_nt(t, id, out);
        return;
    }
    default:
        rdf_write_term_nt(t, id, out);
    }
}

void rdf_write_compact_prefixes(const char *const *prefixes, buf *out) {
    const char *const *tables[] = {standard_prefixes, prefixes};
    for (size_t table = 0; table < sizeof tables / sizeof *tables; table++)
        for (size_t k = 0; tables[table] && tables[table][k]; k += 2)
            buf_printf(out, "@prefix %s: <%s> .\n", tables[table][k], tables[table][k + 1]);
}

void rdf_write_turtle_compact(const terms *t, const triple *ts, size_t n, const char *base,
                              const char *const *prefixes, buf *out) {
    rdf_write_compact_prefixes(prefixes, out);
    rdf_write_compact_statements(t, ts, n, base, prefixes, out);
}

void rdf_write_compact_statements(const terms *t, const triple *ts, size_t n, const char *base,
                                  const char *const *prefix_list, buf *out) {
    size_t base_len = strlen(base);
    prefix_table table = prefix_table_of(prefix_list);
    const prefix_table *prefixes = &table;
    for (size_t i = 0; i < n; i++) {
        bool same_subject = i && ts[i].s == ts[i - 1].s;
        bool same_predicate = same_subject && ts[i].p == ts[i - 1].p;
        if (same_predicate) {
            buf_puts(out, " ,\n        ");
        } else if (same_subject) {
            buf_puts(out, " ;\n    ");
        } else {
            if (i)
                buf_puts(out, " .\n");
            write_compact_term(t, ts[i].s, base, base_len, prefixes, false, out);
            buf_putc(out, ' ');
        }
        if (!same_predicate) {
            write_compact_term(t, ts[i].p, base, base_len, prefixes, true, out);
            buf_putc(out, ' ');
        }
        write_compact_term(t, ts[i].o, base, base_len, prefixes, false, out);
    }
    if (n)
        buf_puts(out, " .\n");
    free(table.entries);
}

void rdf_write_compact_subject(const terms *t, term_id id, const char *base, const char *const *prefix_list,
                               buf *out) {
    prefix_table table = prefix_table_of(prefix_list);
    write_compact_term(t, id, base, strlen(base), &table, false, out);
    free(table.entries);
}
