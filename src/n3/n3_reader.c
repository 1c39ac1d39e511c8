/* n3_reader.c: the N3 grammar over n3_lexer's tokens. Recursive descent with one token of lookahead:
 * directives, quantifiers, triples with ';' ',' '[ ]' '( )', paths, inverse verbs, formulas, rules, and
 * the normalizations n3_reader.h promises. Triples of open formulas sit on one stack (innermost last)
 * and list items on another, so a closing '}' or ')' turns the top of its stack into a term in time
 * linear in its size; @forAll/@forSome declarations sit on a third, cut back when their formula closes.
 * Nesting is capped at MAX_NESTING (rdf/nesting.h) so that hostile input gets an error instead of a stack overflow. */
#include "n3/n3_reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "n3/iri_resolve.h"
#include "n3/n3_lexer.h"
#include "rdf/buf.h"
#include "rdf/nesting.h"
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
    u32vec quantified;      /* (IRI, variable or blank node) pairs of the @forAll/@forSome in scope */
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
    if (p->nesting >= MAX_NESTING) {
        n3_lexer_fail(&p->lx, p->tok.start, "%s ('{', '(' and '[')", NESTING_ERROR);
        return false;
    }
    p->nesting++;
    return true;
}

/* Adds the triple to the innermost open formula, or to the output at top level; backward marks a
 * top-level rule written with `<=`. */
static void emit(n3_parser *p, term_id s, term_id pred, term_id o, bool backward) {
    if (pred == T_LOG_IMPLIES && s == T_TRUE)
        s = p->empty_formula; /* `true => {H}` */
    if (pred == T_LOG_IMPLIES && o == T_TRUE && terms_kind(p->t, s) == TERM_FORMULA)
        o = p->empty_formula; /* `{B} => true`, as the writer prints an empty head */
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
    out->statements[out->count++] =
        (n3_statement){.t = tr, .line = p->stmt_line, .col = p->stmt_col, .backward = backward};
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
    if (!ns && prefix_len == 0) /* the undeclared empty prefix is <#> */
        ns = resolve_iri(p, "#", 1);
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

/* The IRI of the current IRIREF or prefixed name, after which it advances; 0 after reporting an
 * undefined prefix or, naming `what` was expected, any other token. */
static term_id parse_iri(n3_parser *p, const char *what) {
    term_id iri = 0;
    if (at(p, N3_TOK_IRI))
        iri = resolve_iri(p, p->lx.value.data, p->lx.value.len);
    else if (at(p, N3_TOK_PNAME))
        iri = expand_pname(p);
    else
        fail_expected(p, what);
    if (iri)
        advance(p);
    return iri;
}

/* What an IRI reads as: the variable or blank node of the innermost @forAll/@forSome naming it, or
 * the IRI itself. */
static term_id quantified(const n3_parser *p, term_id iri) {
    for (uint32_t i = p->quantified.len; i >= 2; i -= 2)
        if (p->quantified.data[i - 2] == iri)
            return p->quantified.data[i - 1];
    return iri;
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
    if (at(p, N3_TOK_AT_WORD)) {
        term_id id = terms_literal(p->t, p->lexical.data, p->lexical.len, 0, p->lx.value.data, p->lx.value.len);
        advance(p);
        return id;
    }
    if (at(p, N3_TOK_CARETS)) {
        advance(p);
        term_id datatype = parse_iri(p, "a datatype IRI after '^^'");
        return datatype ? terms_literal(p->t, p->lexical.data, p->lexical.len, datatype, NULL, 0) : 0;
    }
    return terms_literal(p->t, p->lexical.data, p->lexical.len, 0, NULL, 0);
}

/* [ predicate-object list ], [] or the iriPropertyList [ id <iri> predicate-object list ] */
static term_id parse_blank_node_property_list(n3_parser *p) {
    size_t open = p->tok.start;
    if (!enter_nesting(p))
        return 0;
    advance(p);
    term_id node;
    if (at_word(p, "id")) {
        advance(p);
        node = parse_iri(p, "an IRI after 'id'");
        if (!node)
            return 0;
        node = quantified(p, node);
        if (parse_predicate_object_list(p, node) != 0)
            return 0;
    } else {
        node = terms_fresh_bnode(p->t);
        if (!at(p, N3_TOK_RBRACKET) && parse_predicate_object_list(p, node) != 0)
            return 0;
    }
    if (!at(p, N3_TOK_RBRACKET)) {
        fail_unclosed(p, ']', '[', open);
        return 0;
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

/* { statements }: its @forAll/@forSome end with it. */
static term_id parse_formula(n3_parser *p) {
    size_t open = p->tok.start;
    if (!enter_nesting(p))
        return 0;
    advance(p);
    size_t mark = p->formula_len;
    uint32_t quantified_mark = p->quantified.len;
    p->formula_depth++;
    if (parse_statements(p, open) != 0)
        return 0;
    advance(p); /* the '}' */
    term_id formula = terms_formula(p->t, p->formula_triples + mark, p->formula_len - mark);
    p->formula_len = mark;
    p->quantified.len = quantified_mark;
    p->formula_depth--;
    p->nesting--;
    return formula;
}

/* A path item (the grammar's pathItem): any term but a path. `what` names it in the error message
 * ("a subject", "an object"). Returns 0 on error. */
static term_id parse_path_item(n3_parser *p, const char *what) {
    const char *value = p->lx.value.data;
    size_t len = p->lx.value.len;
    term_id id = 0;
    switch (p->tok.kind) {
    case N3_TOK_IRI: id = quantified(p, resolve_iri(p, value, len)); break;
    case N3_TOK_PNAME:
        id = expand_pname(p);
        if (id)
            id = quantified(p, id);
        break;
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

/* Any term (the grammar's expression): a path item followed by `!p` or `^p` steps, read left to right;
 * each step adds its triple and stands for its fresh blank node. Returns 0 on error. */
static term_id parse_term(n3_parser *p, const char *what) {
    term_id node = parse_path_item(p, what);
    while (node && (at(p, N3_TOK_BANG) || at(p, N3_TOK_CARET))) {
        bool forward = at(p, N3_TOK_BANG);
        advance(p);
        term_id step = parse_path_item(p, forward ? "a predicate after '!'" : "a predicate after '^'");
        if (!step)
            return 0;
        term_id next = terms_fresh_bnode(p->t);
        if (forward)
            emit(p, node, step, next, false);
        else
            emit(p, next, step, node, false);
        node = next;
    }
    return node;
}

/* ---- triples ---- */

typedef struct verb {
    term_id predicate;
    bool inverse;  /* `is P of`, `<- P`, `<=`: subject and object swap */
    bool backward; /* `<=` */
} verb;

static bool at_keyword(const n3_parser *p, const char *word) {
    return (at(p, N3_TOK_WORD) || at(p, N3_TOK_AT_WORD)) && strcmp(p->lx.value.data, word) == 0;
}

/* A verb: `a`, `has P`, `is P of`, `<- P`, `=`, `=>`, `<=` or any term. Returns -1 on error. */
static int parse_verb(n3_parser *p, verb *v) {
    *v = (verb){0};
    switch (p->tok.kind) {
    case N3_TOK_IMPLIES: v->predicate = T_LOG_IMPLIES; break;
    case N3_TOK_IMPLIED_BY:
        v->predicate = T_LOG_IMPLIES;
        v->inverse = v->backward = true;
        break;
    case N3_TOK_EQUALS: v->predicate = p->owl_same_as; break;
    case N3_TOK_INVERSE:
        advance(p);
        v->inverse = true;
        v->predicate = parse_term(p, "a predicate after '<-'");
        return v->predicate ? 0 : -1;
    case N3_TOK_WORD:
    case N3_TOK_AT_WORD:
        if (at_keyword(p, "a")) {
            v->predicate = T_RDF_TYPE;
        } else if (at_keyword(p, "has")) {
            advance(p);
            v->predicate = parse_term(p, "a predicate after 'has'");
            return v->predicate ? 0 : -1;
        } else if (at_keyword(p, "is")) {
            advance(p);
            v->inverse = true;
            v->predicate = parse_term(p, "a predicate after 'is'");
            if (!v->predicate)
                return -1;
            if (!at_keyword(p, "of"))
                return fail_expected(p, "'of' after 'is' and its predicate");
            break;
        } else {
            v->predicate = parse_term(p, "a predicate"); /* true, false, or the error naming the word */
            return v->predicate ? 0 : -1;
        }
        break;
    default:
        v->predicate = parse_term(p, "a predicate");
        return v->predicate ? 0 : -1;
    }
    advance(p);
    return 0;
}

/* True for a term that lets `H <= B` be a rule: a formula, `true` or a variable. */
static bool may_be_rule_side(const n3_parser *p, term_id term) {
    enum term_kind kind = terms_kind(p->t, term);
    return kind == TERM_FORMULA || kind == TERM_VAR || term == T_TRUE;
}

static int parse_object_list(n3_parser *p, term_id subject, const verb *v) {
    for (;;) {
        term_id object = parse_term(p, "an object");
        if (!object)
            return -1;
        /* `<=` is log:isImpliedBy as written, but for a rule of the document (t is (B, log:implies, H),
         * marked backward): quoted inside a formula it stays what was written */
        if (v->backward && (p->formula_depth || (!may_be_rule_side(p, subject) && !may_be_rule_side(p, object))))
            emit(p, subject, T_LOG_IS_IMPLIED_BY, object, false);
        else if (v->inverse)
            emit(p, object, v->predicate, subject, v->backward);
        else
            emit(p, subject, v->predicate, object, false);
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
        verb v;
        if (parse_verb(p, &v) != 0 || parse_object_list(p, subject, &v) != 0)
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

/* subject predicate-object-list, or a subject alone (`:a .`, `[ ... ] .`; at top level a bare formula
 * `{ ... } .` is a fact-producing rule). *dot_optional is set when the statement may end without '.'. */
static int parse_triples(n3_parser *p, bool *dot_optional) {
    bool top_level = p->formula_depth == 0;
    if (top_level)
        n3_lexer_position(&p->lx, p->tok.start, &p->stmt_line, &p->stmt_col);
    term_id subject = parse_term(p, "a subject");
    if (!subject)
        return -1;
    if (top_level && terms_kind(p->t, subject) == TERM_FORMULA && (at(p, N3_TOK_DOT) || at_statement_start(p))) {
        emit(p, p->empty_formula, T_LOG_IMPLIES, subject, false);
        *dot_optional = true;
        return 0;
    }
    if (at_list_end(p))
        return 0;
    return parse_predicate_object_list(p, subject);
}

/* @forAll :x, :y .  @forSome :z . Each IRI reads as a variable (named by the IRI) or a fresh blank node
 * until its formula closes. */
static int parse_quantifier(n3_parser *p) {
    bool universal = strcmp(p->lx.value.data, "forAll") == 0;
    advance(p);
    for (;;) {
        term_id iri = parse_iri(p, universal ? "an IRI after @forAll" : "an IRI after @forSome");
        if (!iri)
            return -1;
        size_t len;
        const char *text = terms_lex(p->t, iri, &len);
        u32vec_push(&p->quantified, iri);
        u32vec_push(&p->quantified, universal ? terms_var(p->t, text, len) : terms_fresh_bnode(p->t));
        if (!at(p, N3_TOK_COMMA))
            break;
        advance(p);
    }
    if (at(p, N3_TOK_DOT)) {
        advance(p);
        return 0;
    }
    if (p->formula_depth && at(p, N3_TOK_RBRACE))
        return 0;
    return fail_expected(p, universal ? "',' or '.' after @forAll" : "',' or '.' after @forSome");
}

/* @prefix p: <iri> .  @base <iri> .  PREFIX p: <iri>  BASE <iri>  and the quantifiers */
static int parse_directive(n3_parser *p) {
    bool sparql_style = at(p, N3_TOK_WORD);
    if (!sparql_style && (strcmp(p->lx.value.data, "forAll") == 0 || strcmp(p->lx.value.data, "forSome") == 0))
        return parse_quantifier(p);
    bool is_prefix = strcasecmp(p->lx.value.data, "prefix") == 0;
    if (!is_prefix && strcasecmp(p->lx.value.data, "base") != 0)
        return fail_expected(p, "@prefix, @base, @forAll or @forSome");
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
    u32vec_free(&p.quantified);
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
