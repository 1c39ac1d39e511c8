/* n3_lexer.h: the tokenizer of the N3 reader. Turns N3 text into tokens with their decoded text
 * (escapes resolved, UTF-8 checked), and turns byte offsets into line:col for messages.
 *
 * Tokens follow the Turtle terminals (IRIREF, PNAME_LN with PN_LOCAL escapes, BLANK_NODE_LABEL, the
 * four string forms, INTEGER/DECIMAL/DOUBLE, LANGTAG) plus N3's `?var`, `{ }`, `=>`, `<=`, `<-`, `=`
 * and the path operators `!` and `^`. `<=` and `<-` are operators unless a '>' closes an IRI before
 * any character an IRI cannot hold (`<-s>` is an IRI, `<-<-p>` the operator and an IRI).
 * The first error is kept (later ones are dropped) and every later token is N3_TOK_ERROR. */
#ifndef LDGSM_N3_LEXER_H
#define LDGSM_N3_LEXER_H

#include <stdbool.h>
#include <stddef.h>

#include "n3/n3_reader.h"
#include "rdf/buf.h"

enum n3_token_kind {
    N3_TOK_EOF,
    N3_TOK_ERROR,
    N3_TOK_IRI,     /* <...>; value: the IRI with \u escapes decoded, not yet resolved */
    N3_TOK_PNAME,   /* prefix:local; value: "prefix:local" with local escapes decoded */
    N3_TOK_BNODE,   /* _:label; value: the label */
    N3_TOK_VAR,     /* ?name; value: the name */
    N3_TOK_STRING,  /* value: the decoded lexical form */
    N3_TOK_INTEGER, /* numbers: the value is the source text */
    N3_TOK_DECIMAL,
    N3_TOK_DOUBLE,
    N3_TOK_AT_WORD, /* @word: a directive or a language tag; value: the word without '@' */
    N3_TOK_WORD,    /* a bare word: a, true, false, PREFIX, BASE, or an unknown one */
    N3_TOK_DOT,
    N3_TOK_SEMICOLON,
    N3_TOK_COMMA,
    N3_TOK_LBRACKET,
    N3_TOK_RBRACKET,
    N3_TOK_LPAREN,
    N3_TOK_RPAREN,
    N3_TOK_LBRACE,
    N3_TOK_RBRACE,
    N3_TOK_CARETS,     /* ^^ */
    N3_TOK_IMPLIES,    /* => */
    N3_TOK_IMPLIED_BY, /* <= */
    N3_TOK_EQUALS,     /* = */
    N3_TOK_INVERSE,    /* <- */
    N3_TOK_BANG,       /* ! (forward path) */
    N3_TOK_CARET,      /* ^ (backward path) */
};

typedef struct n3_token {
    enum n3_token_kind kind;
    size_t start, end; /* byte offsets of the token's source text */
    size_t prefix_len; /* N3_TOK_PNAME: length of the prefix at the start of the value */
} n3_token;

typedef struct n3_lexer {
    const char *src;
    size_t len, pos;
    const char *source_name;
    n3_error *err;
    bool failed;
    buf value; /* the current token's decoded text, NUL-terminated */
    /* line:col of byte offset cursor_offset; moved forward on demand so positions cost linear time */
    size_t cursor_offset;
    unsigned cursor_line, cursor_col;
} n3_lexer;

/* err must stay valid while the lexer is used; source_name may be NULL. */
void n3_lexer_init(n3_lexer *lx, const char *src, size_t len, const char *source_name, n3_error *err);
void n3_lexer_free(n3_lexer *lx);
/* Lexes the next token into *tok (its decoded text in lx->value) and returns its kind. */
enum n3_token_kind n3_lexer_next(n3_lexer *lx, n3_token *tok);
/* 1-based line and column (columns count characters) of a byte offset. */
void n3_lexer_position(n3_lexer *lx, size_t offset, unsigned *line, unsigned *col);
/* Records "source:line:col: <message>" for the byte offset, unless an error is already recorded. */
void n3_lexer_fail(n3_lexer *lx, size_t offset, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A short printable description of a token for "found ..." ("'}'", "end of input", "literal \"x\""). */
void n3_lexer_describe(const n3_lexer *lx, const n3_token *tok, char *out, size_t cap);

#endif
