/* filter.c: the FILTER evaluator of filter.h. A value is a term (computed ones are interned); an error is
 * the term 0. */
#include "reason/filter.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rdf/buf.h"
#include "reason/numeric.h"

typedef struct eval_ctx {
    terms *t;
    filter_lookup lookup;
    void *user;
} eval_ctx;

static term_id eval(eval_ctx *c, const sq_expr *e);

static bool is_string(const terms *t, term_id v) {
    return terms_kind(t, v) == TERM_LITERAL && terms_datatype(t, v) == 0;
}

/* Effective boolean value: 1 true, 0 false, -1 error. */
static int ebv(const terms *t, term_id v) {
    if (!v || terms_kind(t, v) != TERM_LITERAL)
        return -1;
    if (v == T_TRUE)
        return 1;
    if (v == T_FALSE)
        return 0;
    if (terms_datatype(t, v) == T_XSD_BOOLEAN) {
        const char *lex = terms_lex(t, v, NULL);
        return strcmp(lex, "1") == 0 ? 1 : strcmp(lex, "0") == 0 ? 0 : -1;
    }
    number n = {0};
    if (terms_datatype(t, v) != 0 && number_from_term(t, v, &n)) {
        int sign = number_sign(&n); /* 0 for NaN too */
        number_clear(&n);
        return sign != 0;
    }
    if (is_string(t, v) || terms_lang(t, v))
        return terms_lex(t, v, NULL)[0] != '\0';
    return -1;
}

static term_id boolean(bool b) { return b ? T_TRUE : T_FALSE; }

/* xsd:dateTime to seconds since the epoch (no zone: read as UTC); false when it does not parse. */
static bool instant(const terms *t, term_id v, double *out) {
    if (terms_kind(t, v) != TERM_LITERAL || terms_datatype(t, v) != T_XSD_DATETIME)
        return false;
    const char *s = terms_lex(t, v, NULL);
    struct tm tm = {0};
    int consumed = 0;
    if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min,
               &tm.tm_sec, &consumed) != 6)
        return false;
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    double seconds = (double)timegm(&tm);
    const char *rest = s + consumed;
    if (*rest == '.') {
        char *end;
        seconds += strtod(rest, &end);
        rest = end;
    }
    if (*rest == '+' || *rest == '-') {
        int hours, minutes;
        if (sscanf(rest + 1, "%2d:%2d", &hours, &minutes) != 2)
            return false;
        int offset = (hours * 60 + minutes) * 60;
        seconds -= *rest == '+' ? offset : -offset;
    } else if (*rest && strcmp(rest, "Z") != 0) {
        return false;
    }
    *out = seconds;
    return true;
}

/* -1, 0, 1, or 2 when the two values cannot be ordered (an error in SPARQL). */
static int compare(const terms *t, term_id a, term_id b) {
    number x = {0}, y = {0};
    if (number_from_term(t, a, &x) && number_from_term(t, b, &y) && terms_datatype(t, a) && terms_datatype(t, b)) {
        enum number_order o = number_compare(&x, &y);
        number_clear(&x);
        number_clear(&y);
        return o == NUMBER_LESS ? -1 : o == NUMBER_EQUAL ? 0 : o == NUMBER_GREATER ? 1 : 2;
    }
    number_clear(&x);
    number_clear(&y);
    double p, q;
    if (instant(t, a, &p) && instant(t, b, &q))
        return p < q ? -1 : p > q;
    if (is_string(t, a) && is_string(t, b)) {
        int c = strcmp(terms_lex(t, a, NULL), terms_lex(t, b, NULL));
        return c < 0 ? -1 : c > 0;
    }
    bool ab = terms_datatype(t, a) == T_XSD_BOOLEAN, bb = terms_datatype(t, b) == T_XSD_BOOLEAN;
    if (ab && bb) {
        int x1 = ebv(t, a), y1 = ebv(t, b);
        return x1 < 0 || y1 < 0 ? 2 : (x1 > y1) - (x1 < y1);
    }
    return 2;
}

static term_id equality(eval_ctx *c, term_id a, term_id b, bool equal) {
    if (!a || !b)
        return 0;
    int order = compare(c->t, a, b);
    if (order != 2)
        return boolean((order == 0) == equal);
    /* RDFterm-equal; two literals of types we cannot compare are an error, not "different" */
    if (a == b)
        return boolean(equal);
    if (terms_kind(c->t, a) == TERM_LITERAL && terms_kind(c->t, b) == TERM_LITERAL &&
        terms_datatype(c->t, a) != terms_datatype(c->t, b) && !terms_lang(c->t, a) && !terms_lang(c->t, b))
        return 0;
    return boolean(!equal);
}

/* Operands are numeric literals: number_from_term also reads a simple literal's text as a number (N3's
 * math builtins do), and in SPARQL `-"1"` is a type error. */
static term_id arithmetic(eval_ctx *c, enum sq_op op, term_id a, term_id b) {
    number x = {0}, y = {0}, r = {0};
    bool ok = a && terms_datatype(c->t, a) && number_from_term(c->t, a, &x);
    if (ok && op == SQ_NEG)
        ok = number_negate(&x, &r);
    else if (ok)
        ok = b && terms_datatype(c->t, b) && number_from_term(c->t, b, &y) &&
             (op == SQ_ADD   ? number_add(&x, &y, &r)
              : op == SQ_SUB ? number_subtract(&x, &y, &r)
              : op == SQ_MUL ? number_multiply(&x, &y, &r)
                             : number_divide(&x, &y, &r));
    term_id result = ok ? number_to_term(c->t, &r) : 0;
    number_clear(&x);
    number_clear(&y);
    number_clear(&r);
    return result;
}

static term_id regex_match(eval_ctx *c, const sq_expr *e) {
    term_id text = eval(c, e->args[0]), pattern = eval(c, e->args[1]);
    term_id flags = e->arg_count > 2 ? eval(c, e->args[2]) : 0;
    if (!text || !pattern || terms_kind(c->t, text) != TERM_LITERAL || terms_kind(c->t, pattern) != TERM_LITERAL)
        return 0;
    int cflags = REG_EXTENDED | REG_NOSUB;
    if (flags && strchr(terms_lex(c->t, flags, NULL), 'i'))
        cflags |= REG_ICASE;
    regex_t re;
    if (regcomp(&re, terms_lex(c->t, pattern, NULL), cflags) != 0)
        return 0;
    bool matched = regexec(&re, terms_lex(c->t, text, NULL), 0, NULL, 0) == 0;
    regfree(&re);
    return boolean(matched);
}

static term_id eval(eval_ctx *c, const sq_expr *e) {
    terms *t = c->t;
    switch (e->op) {
    case SQ_TERM:
        return terms_kind(t, e->term) == TERM_VAR ? c->lookup(c->user, e->term) : e->term;
    case SQ_AND:
    case SQ_OR: {
        int x = ebv(t, eval(c, e->args[0])), y = ebv(t, eval(c, e->args[1]));
        if (e->op == SQ_AND)
            return x == 0 || y == 0 ? T_FALSE : x == 1 && y == 1 ? T_TRUE : 0;
        return x == 1 || y == 1 ? T_TRUE : x == 0 && y == 0 ? T_FALSE : 0;
    }
    case SQ_NOT: {
        int x = ebv(t, eval(c, e->args[0]));
        return x < 0 ? 0 : boolean(!x);
    }
    case SQ_EQ:
    case SQ_NE:
        return equality(c, eval(c, e->args[0]), eval(c, e->args[1]), e->op == SQ_EQ);
    case SQ_LT:
    case SQ_GT:
    case SQ_LE:
    case SQ_GE: {
        term_id a = eval(c, e->args[0]), b = eval(c, e->args[1]);
        if (!a || !b)
            return 0;
        int o = compare(t, a, b);
        if (o == 2)
            return 0;
        return boolean(e->op == SQ_LT ? o < 0 : e->op == SQ_GT ? o > 0 : e->op == SQ_LE ? o <= 0 : o >= 0);
    }
    case SQ_ADD:
    case SQ_SUB:
    case SQ_MUL:
    case SQ_DIV:
        return arithmetic(c, e->op, eval(c, e->args[0]), eval(c, e->args[1]));
    case SQ_NEG:
        return arithmetic(c, e->op, eval(c, e->args[0]), 0);
    case SQ_BOUND:
        return boolean(e->arg_count && e->args[0]->op == SQ_TERM && c->lookup(c->user, e->args[0]->term) != 0);
    case SQ_IS_IRI:
    case SQ_IS_BLANK:
    case SQ_IS_LITERAL: {
        term_id v = eval(c, e->args[0]);
        if (!v)
            return 0;
        enum term_kind k = terms_kind(t, v);
        return boolean(e->op == SQ_IS_IRI ? k == TERM_IRI : e->op == SQ_IS_BLANK ? k == TERM_BNODE : k == TERM_LITERAL);
    }
    case SQ_STR: {
        term_id v = eval(c, e->args[0]);
        if (!v || (terms_kind(t, v) != TERM_IRI && terms_kind(t, v) != TERM_LITERAL))
            return 0;
        size_t len;
        const char *lex = terms_lex(t, v, &len);
        return terms_literal(t, lex, len, 0, NULL, 0);
    }
    case SQ_LANG: {
        term_id v = eval(c, e->args[0]);
        if (!v || terms_kind(t, v) != TERM_LITERAL)
            return 0;
        const char *lang = terms_lang(t, v);
        return terms_string(t, lang ? lang : "");
    }
    case SQ_DATATYPE: {
        term_id v = eval(c, e->args[0]);
        if (!v || terms_kind(t, v) != TERM_LITERAL)
            return 0;
        term_id dt = terms_datatype(t, v);
        return dt ? dt : T_XSD_STRING;
    }
    case SQ_SAME_TERM: {
        term_id a = eval(c, e->args[0]), b = eval(c, e->args[1]);
        return a && b ? boolean(a == b) : 0;
    }
    case SQ_REGEX:
        return e->arg_count >= 2 ? regex_match(c, e) : 0;
    }
    return 0;
}

bool filter_holds_for(terms *t, const sq_expr *e, filter_lookup lookup, void *user) {
    eval_ctx c = {t, lookup, user};
    return ebv(t, eval(&c, e)) == 1;
}
