/* n3_reader.c: the N3 grammar over n3_lexer's tokens. Recursive descent with one token of lookahead:
 * directives, triples with ';' ',' '[ ]' '( )', formulas, rules, and the normalizations n3_reader.h
 * promises. Triples of open formulas sit on one stack (innermost last) and list items on another, so a
 * closing '}' or ')' turns the top of its stack into a term in time linear in its size. Nesting is
 * capped at N3_MAX_NESTING so that hostile input gets an error instead of a stack overflow. */
#include "n3/n3_reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "n3/iri_resolve.h"
#include "n3/n3_lexer.h"
#include "rdf/buf.h"
#include "rdf/strmap.h"

/* ---- names (prefixes, blank node labels) to terms ---- */

static term_id name_get(const strmap *m, const char *key, size_t len) {
    const uint32_t *value = strmap_get_n(m, key, len);
    return value ? *value : 0;
}

static void name_set(strmap *m, const char *key, size_t len, term_id value) {
    *strmap_put_n(m, key, len, value, NULL) = value;
}

/* ---- the parser ---- */

typedef struct n3_parser {
    terms *t;
    n3_lexer lx;
    n3_token tok;
    char *base; /* current base IRI, NULL when none */
    size_t base_len;
    strmap prefixes; /* prefix -> namespace IRI */
    strmap bnodes;   /* label -> this document's blank node */
    triple *formula_triples; /* triples of the open formulas, innermost last */
    size_t formula_len, formula_cap;
    unsigned formula_depth; /* 0: statements go to the output */
    u32vec list_items;      /* items of the open lists, innermost last */
    unsigned nesting;       /* open '{', '(' and '[' */
    term_id empty_formula, owl_same_as;
    buf scratch; /* IRIs being built */
    buf lexical; /* a literal's lexical form (or a prefix) while the next token is read */
    unsigned stmt_line, stmt_col;
    n3_doc *out;
    size_t out_cap;
} n3_parser;

static void advance(n3_parser *p) { n3_lexer_next(&p->lx, &p->tok); }

static bool at(const n3_parser *p, enum n3_token_kind kind) { return p->tok.kind == kind; }

static bool at_word(const n3_parser *p, const char *word) {
    return at(p, N3_TOK_WORD) && strcmp(p->lx.value.data, word) == 0;
}

/* Reports "expected <what>, found <current token>"; returns -1. */
static int fail_expected(n3_parser *p, const char *what) {
    char found[128];
    n3_lexer_describe(&p->lx, &p->tok, found, sizeof found);
    n3_lexer_fail(&p->lx, p->tok.start, "expected %s, found %s", what, found);
    return -1;
}

/* Reports a missing closer: "expected '}' to close the '{' opened at 2:5, found ..."; returns -1. */
static int fail_unclosed(n3_parser *p, char closer, char opener, size_t open_offset) {
    unsigned line, col;
    n3_lexer_position(&p->lx, open_offset, &line, &col);
    char what[96];
    snprintf(what, sizeof what, "'%c' to close the '%c' opened at %u:%u", closer, opener, line, col);
    return fail_expected(p, what);
}

static bool enter_nesting(n3_parser *p) {
    if (p->nesting >= N3_MAX_NESTING) {
        n3_lexer_fail(&p->lx, p->tok.start, "expected at most %d nested '{', '(' and '[', found deeper nesting",
                      N3_MAX_NESTING);
        return false;
    }
    p->nesting++;
    return true;
}

static void emit(n3_parser *p, term_id s, term_id pred, term_id o) {
    if (pred == T_LOG_IMPLIES && s == T_TRUE)
        s = p->empty_formula; /* `true => {H}` */
    triple tr = {s, pred, o};
    if (p->formula_depth) {
        if (p->formula_len == p->formula_cap) {
            p->formula_cap *= 2;
            p->formula_triples = xrealloc(p->formula_triples, p->formula_cap * sizeof *p->formula_triples);
        }
        p->formula_triples[p->formula_len++] = tr;
        return;
    }
    n3_doc *out = p->out;
    if (out->count == p->out_cap) {
        p->out_cap = p->out_cap ? p->out_cap * 2 : 64;
        out->statements = xrealloc(out->statements, p->out_cap * sizeof *out->statements);
    }
    out->statements[out->count++] = (n3_statement){.t = tr, .line = p->stmt_line, .col = p->stmt_col};
}

/* ---- IRIs ---- */

static void set_base(n3_parser *p, const char *iri, size_t len) {
    free(p->base);
    p->base = xstrndup(iri, len);
    p->base_len = len;
}

/* The IRI term of an IRIREF's text, resolved against the base. */
static term_id resolve_iri(n3_parser *p, const char *ref, size_t len) {
    if (!p->base)
        return terms_iri(p->t, ref, len);
    p->scratch.len = 0;
    iri_resolve(p->base, p->base_len, ref, len, &p->scratch);
    return terms_iri(p->t, p->scratch.data ? p->scratch.data : "", p->scratch.len);
}

/* The IRI of the current prefixed-name token, or 0 after reporting an undefined prefix. */
static term_id expand_pname(n3_parser *p) {
    const char *name = p->lx.value.data;
    size_t prefix_len = p->tok.prefix_len;
    term_id ns = name_get(&p->prefixes, name, prefix_len);
    if (!ns) {
        n3_lexer_fail(&p->lx, p->tok.start, "expected a declared prefix, found undefined prefix '%.*s:'",
                      (int)(prefix_len < 64 ? prefix_len : 64), name);
        return 0;
    }
    size_t ns_len;
    const char *ns_iri = terms_lex(p->t, ns, &ns_len);
    p->scratch.len = 0;
    buf_append(&p->scratch, ns_iri, ns_len);
    buf_append(&p->scratch, name + prefix_len + 1, p->lx.value.len - prefix_len - 1);
    return terms_iri(p->t, p->scratch.data, p->scratch.len);
}

/* ---- terms ---- */

static term_id parse_term(n3_parser *p, const char *what);
static int parse_predicate_object_list(n3_parser *p, term_id subject);
static int parse_statements(n3_parser *p, size_t open_offset);

/* A string literal with its optional @lang or ^^datatype. */
static term_id parse_string_literal(n3_parser *p) {
    p->lexical.len = 0;
    buf_append(&p->lexical, p->lx.value.data, p->lx.value.len);
    advance(p);
    term_id id;
    if (at(p, N3_TOK_AT_WORD)) {
        id = terms_literal(p->t, p->lexical.data, p->lexical.len, 0, p->lx.value.data, p->lx.value.len);
    } else if (at(p, N3_TOK_CARETS)) {
        advance(p);
        term_id datatype = 0;
        if (at(p, N3_TOK_IRI))
            datatype = resolve_iri(p, p->lx.value.data, p->lx.value.len);
        else if (at(p, N3_TOK_PNAME))
            datatype = expand_pname(p); /* 0 after reporting an undefined prefix */
        else
            fail_expected(p, "a datatype IRI after '^^'");
        if (!datatype)
            return 0;
        id = terms_literal(p->t, p->lexical.data, p->lexical.len, datatype, NULL, 0);
    } else {
        return terms_literal(p->t, p->lexical.data, p->lexical.len, 0, NULL, 0);
    }
    advance(p);
    return id;
}

/* [ predicate-object list ] or [] */
static term_id parse_blank_node_property_list(n3_parser *p) {
    size_t open = p->tok.start;
    if (!enter_nesting(p))
        return 0;
    advance(p);
    term_id node = terms_fresh_bnode(p->t);
    if (!at(p, N3_TOK_RBRACKET)) {
        if (parse_predicate_object_list(p, node) != 0)
            return 0;
        if (!at(p, N3_TOK_RBRACKET)) {
            fail_unclosed(p, ']', '[', open);
            return 0;
        }
    }
    advance(p);
    p->nesting--;
    return node;
}

/* ( item ... ) */
static term_id parse_list(n3_parser *p) {
    size_t open = p->tok.start;
    if (!enter_nesting(p))
        return 0;
    advance(p);
    uint32_t mark = p->list_items.len;
    while (!at(p, N3_TOK_RPAREN)) {
        if (at(p, N3_TOK_EOF) || at(p, N3_TOK_RBRACE) || at(p, N3_TOK_RBRACKET)) {
            fail_unclosed(p, ')', '(', open);
            return 0;
        }
        term_id item = parse_term(p, "a list item or ')'");
        if (!item)
            return 0;
        u32vec_push(&p->list_items, item);
    }
    advance(p);
    term_id list = terms_list(p->t, p->list_items.data + mark, p->list_items.len - mark);
    p->list_items.len = mark;
    p->nesting--;
    return list;
}

/* { statements } */
static term_id parse_formula(n3_parser *p) {
    size_t open = p->tok.start;
    if (!enter_nesting(p))
        return 0;
    advance(p);
    size_t mark = p->formula_len;
    p->formula_depth++;
    if (parse_statements(p, open) != 0)
        return 0;
    advance(p); /* the '}' */
    term_id formula = terms_formula(p->t, p->formula_triples + mark, p->formula_len - mark);
    p->formula_len = mark;
    p->formula_depth--;
    p->nesting--;
    return formula;
}

/* Any term; `what` names it in the error message ("a subject", "an object"). Returns 0 on error. */
static term_id parse_term(n3_parser *p, const char *what) {
    const char *value = p->lx.value.data;
    size_t len = p->lx.value.len;
    term_id id = 0;
    switch (p->tok.kind) {
    case N3_TOK_IRI: id = resolve_iri(p, value, len); break;
    case N3_TOK_PNAME: id = expand_pname(p); break;
    case N3_TOK_BNODE:
        id = name_get(&p->bnodes, value, len);
        if (!id) {
            id = terms_fresh_bnode(p->t);
            name_set(&p->bnodes, value, len, id);
        }
        break;
    case N3_TOK_VAR: id = terms_var(p->t, value, len); break;
    case N3_TOK_INTEGER:
    case N3_TOK_DECIMAL:
    case N3_TOK_DOUBLE: {
        term_id datatype = at(p, N3_TOK_INTEGER)   ? T_XSD_INTEGER
                           : at(p, N3_TOK_DECIMAL) ? T_XSD_DECIMAL
                                                   : T_XSD_DOUBLE;
        id = terms_literal(p->t, p->lx.src + p->tok.start, p->tok.end - p->tok.start, datatype, NULL, 0);
        break;
    }
    case N3_TOK_WORD:
        if (strcmp(value, "true") == 0)
            id = T_TRUE;
        else if (strcmp(value, "false") == 0)
            id = T_FALSE;
        if (!id) {
            fail_expected(p, what);
            return 0;
        }
        break;
    case N3_TOK_STRING: return parse_string_literal(p);
    case N3_TOK_LBRACKET: return parse_blank_node_property_list(p);
    case N3_TOK_LPAREN: return parse_list(p);
    case N3_TOK_LBRACE: return parse_formula(p);
    default:
        fail_expected(p, what);
        return 0;
    }
    if (id)
        advance(p);
    return id;
}

/* ---- triples ---- */

/* A predicate; *inverse is set for `<=` (subject and object swap). Literals, formulas and lists are
 * refused here. */
static term_id parse_verb(n3_parser *p, bool *inverse) {
    *inverse = false;
    term_id verb = 0;
    switch (p->tok.kind) {
    case N3_TOK_WORD:
        if (at_word(p, "a"))
            verb = T_RDF_TYPE;
        break;
    case N3_TOK_IMPLIES: verb = T_LOG_IMPLIES; break;
    case N3_TOK_IMPLIED_BY:
        verb = T_LOG_IMPLIES;
        *inverse = true;
        break;
    case N3_TOK_EQUALS: verb = p->owl_same_as; break;
    case N3_TOK_IRI:
    case N3_TOK_PNAME:
    case N3_TOK_VAR:
    case N3_TOK_BNODE:
    case N3_TOK_LBRACKET: return parse_term(p, "a predicate");
    default: break;
    }
    if (!verb) {
        fail_expected(p, "a predicate");
        return 0;
    }
    advance(p);
    return verb;
}

static int parse_object_list(n3_parser *p, term_id subject, term_id verb, bool inverse) {
    for (;;) {
        term_id object = parse_term(p, "an object");
        if (!object)
            return -1;
        if (inverse)
            emit(p, object, verb, subject);
        else
            emit(p, subject, verb, object);
        if (!at(p, N3_TOK_COMMA))
            return 0;
        advance(p);
    }
}

/* True at a token that ends a predicate-object list (after a trailing ';'). */
static bool at_list_end(const n3_parser *p) {
    return at(p, N3_TOK_DOT) || at(p, N3_TOK_RBRACKET) || at(p, N3_TOK_RBRACE) || at(p, N3_TOK_EOF);
}

static int parse_predicate_object_list(n3_parser *p, term_id subject) {
    for (;;) {
        bool inverse;
        term_id verb = parse_verb(p, &inverse);
        if (!verb || parse_object_list(p, subject, verb, inverse) != 0)
            return -1;
        if (!at(p, N3_TOK_SEMICOLON))
            return 0;
        while (at(p, N3_TOK_SEMICOLON))
            advance(p);
        if (at_list_end(p))
            return 0;
    }
}

static bool at_directive(const n3_parser *p) {
    if (at(p, N3_TOK_AT_WORD))
        return true;
    return at(p, N3_TOK_WORD) &&
           (strcasecmp(p->lx.value.data, "prefix") == 0 || strcasecmp(p->lx.value.data, "base") == 0);
}

/* True where a bare top-level formula may end without its '.': the next statement begins. */
static bool at_statement_start(const n3_parser *p) {
    return at(p, N3_TOK_EOF) || at(p, N3_TOK_LBRACE) || at(p, N3_TOK_LBRACKET) || at(p, N3_TOK_LPAREN) ||
           at_directive(p);
}

/* subject predicate-object-list, `[ ... ]` alone, or (top level) a bare formula. *dot_optional is set
 * when the statement may end without '.'. */
static int parse_triples(n3_parser *p, bool *dot_optional) {
    bool top_level = p->formula_depth == 0;
    bool subject_formula = at(p, N3_TOK_LBRACE), subject_bracket = at(p, N3_TOK_LBRACKET);
    if (top_level)
        n3_lexer_position(&p->lx, p->tok.start, &p->stmt_line, &p->stmt_col);
    term_id subject = parse_term(p, "a subject");
    if (!subject)
        return -1;
    if (top_level && subject_formula && (at(p, N3_TOK_DOT) || at_statement_start(p))) {
        emit(p, p->empty_formula, T_LOG_IMPLIES, subject);
        *dot_optional = true;
        return 0;
    }
    if (subject_bracket && at_list_end(p))
        return 0;
    return parse_predicate_object_list(p, subject);
}

/* @prefix p: <iri> .  @base <iri> .  PREFIX p: <iri>  BASE <iri> */
static int parse_directive(n3_parser *p) {
    bool sparql_style = at(p, N3_TOK_WORD);
    bool is_prefix = strcasecmp(p->lx.value.data, "prefix") == 0;
    if (!is_prefix && strcasecmp(p->lx.value.data, "base") != 0)
        return fail_expected(p, "@prefix or @base");
    advance(p);
    if (is_prefix) {
        if (!at(p, N3_TOK_PNAME) || p->lx.value.len != p->tok.prefix_len + 1)
            return fail_expected(p, "a prefix name ending in ':'");
        p->lexical.len = 0;
        buf_append(&p->lexical, p->lx.value.data, p->tok.prefix_len);
        advance(p);
    }
    if (!at(p, N3_TOK_IRI))
        return fail_expected(p, "an IRI in angle brackets");
    term_id iri = resolve_iri(p, p->lx.value.data, p->lx.value.len);
    if (is_prefix) {
        name_set(&p->prefixes, p->lexical.data, p->lexical.len, iri);
    } else {
        size_t len;
        const char *text = terms_lex(p->t, iri, &len);
        set_base(p, text, len);
    }
    advance(p);
    if (sparql_style)
        return 0;
    if (!at(p, N3_TOK_DOT))
        return fail_expected(p, is_prefix ? "'.' after @prefix" : "'.' after @base");
    advance(p);
    return 0;
}

/* Statements up to the end of input (top level: open_offset is SIZE_MAX) or up to the '}' closing the
 * formula opened at open_offset, which is left as the current token. */
static int parse_statements(n3_parser *p, size_t open_offset) {
    bool in_formula = open_offset != SIZE_MAX;
    for (;;) {
        switch (p->tok.kind) {
        case N3_TOK_EOF:
            return in_formula ? fail_unclosed(p, '}', '{', open_offset) : 0;
        case N3_TOK_RBRACE:
            return in_formula ? 0 : fail_expected(p, "a statement");
        case N3_TOK_RBRACKET:
        case N3_TOK_RPAREN:
            return in_formula ? fail_unclosed(p, '}', '{', open_offset) : fail_expected(p, "a statement");
        default: break;
        }
        if (at_directive(p)) {
            if (parse_directive(p) != 0)
                return -1;
            continue;
        }
        bool dot_optional = false;
        if (parse_triples(p, &dot_optional) != 0)
            return -1;
        if (at(p, N3_TOK_DOT)) {
            advance(p);
        } else if (in_formula && (at(p, N3_TOK_RBRACKET) || at(p, N3_TOK_RPAREN) || at(p, N3_TOK_EOF))) {
            return fail_unclosed(p, '}', '{', open_offset);
        } else if (!(in_formula && at(p, N3_TOK_RBRACE)) && !dot_optional) {
            return fail_expected(p, "'.' after statement");
        }
    }
}

int n3_parse(terms *t, const char *text, size_t len, const char *source_name, const char *base, n3_doc *out,
             n3_error *err) {
    n3_error unused;
    if (!err)
        err = &unused;
    memset(err, 0, sizeof *err);
    out->statements = NULL;
    out->count = 0;

    n3_parser p = {.t = t, .out = out};
    n3_lexer_init(&p.lx, text, len, source_name, err);
    p.formula_cap = 64;
    p.formula_triples = xmalloc(p.formula_cap * sizeof *p.formula_triples);
    p.list_items.cap = 64;
    p.list_items.data = xmalloc(p.list_items.cap * sizeof *p.list_items.data);
    triple none = {0};
    p.empty_formula = terms_formula(t, &none, 0);
    p.owl_same_as = terms_iri_cstr(t, NS_OWL "sameAs");
    if (base)
        set_base(&p, base, strlen(base));

    advance(&p);
    int rc = parse_statements(&p, SIZE_MAX);
    if (p.lx.failed)
        rc = -1;

    n3_lexer_free(&p.lx);
    free(p.base);
    strmap_free(&p.prefixes);
    strmap_free(&p.bnodes);
    free(p.formula_triples);
    u32vec_free(&p.list_items);
    buf_free(&p.scratch);
    buf_free(&p.lexical);
    if (rc != 0)
        n3_doc_free(out);
    return rc;
}

void n3_doc_free(n3_doc *doc) {
    free(doc->statements);
    doc->statements = NULL;
    doc->count = 0;
}
