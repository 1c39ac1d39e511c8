/* condition_text.c: splits a condition's SPARQL ASK text into its prefixes and its group, renaming
 * variables and blank node labels apart. */
#include "gsm/condition_text.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int failure(char *err, size_t err_len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int failure(char *err, size_t err_len, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_len, fmt, ap);
    va_end(ap);
    return -1;
}

static const char *skip_space_and_comments(const char *s) {
    for (;;) {
        while (isspace((unsigned char)*s))
            s++;
        if (*s != '#')
            return s;
        while (*s && *s != '\n')
            s++;
    }
}

/* The end of an IRIREF starting at s ('<'), or NULL when s is the less-than operator. */
static const char *iri_end(const char *s) {
    for (const char *c = s + 1; *c; c++) {
        if (*c == '>')
            return c + 1;
        if (isspace((unsigned char)*c) || strchr("<\"{}|^`\\", *c))
            return NULL;
    }
    return NULL;
}

/* The end of a string literal starting at s (a quote), or NULL when it is not closed. */
static const char *string_end(const char *s) {
    char q = *s;
    bool long_form = s[1] == q && s[2] == q;
    const char *c = s + (long_form ? 3 : 1);
    while (*c) {
        if (*c == '\\' && c[1]) {
            c += 2;
        } else if (long_form ? (c[0] == q && c[1] == q && c[2] == q) : *c == q) {
            return c + (long_form ? 3 : 1);
        } else if (!long_form && *c == '\n') {
            return NULL;
        } else {
            c++;
        }
    }
    return NULL;
}

static bool is_var_char(char c) { return isalnum((unsigned char)c) || c == '_' || (unsigned char)c >= 0x80; }

static bool keyword(const char **s, const char *word) {
    size_t n = strlen(word);
    if (strncasecmp(*s, word, n) != 0 || is_var_char((*s)[n]) || (*s)[n] == ':')
        return false;
    *s += n;
    return true;
}

static void add_prefix(condition_text *c, const char *name, size_t name_len, const char *iri, size_t iri_len) {
    c->prefix_names = xrealloc(c->prefix_names, (c->prefix_count + 1) * sizeof *c->prefix_names);
    c->prefix_iris = xrealloc(c->prefix_iris, (c->prefix_count + 1) * sizeof *c->prefix_iris);
    c->prefix_names[c->prefix_count] = xstrndup(name, name_len);
    c->prefix_iris[c->prefix_count] = xstrndup(iri, iri_len);
    c->prefix_count++;
}

/* Copies the group from s (just after its '{') to its matching '}', renaming; returns the text after it. */
static const char *copy_group(const char *s, const char *rename, buf *out, char *err, size_t err_len) {
    int depth = 1;
    while (*s) {
        const char *end;
        if (*s == '#') {
            while (*s && *s != '\n')
                s++;
        } else if (*s == '"' || *s == '\'') {
            if (!(end = string_end(s))) {
                failure(err, err_len, "a string is not closed");
                return NULL;
            }
            buf_append(out, s, (size_t)(end - s));
            s = end;
        } else if (*s == '<' && (end = iri_end(s))) {
            buf_append(out, s, (size_t)(end - s));
            s = end;
        } else if ((*s == '?' || *s == '$') && is_var_char(s[1])) {
            buf_putc(out, '?');
            buf_puts(out, rename);
            for (s++; is_var_char(*s); s++)
                buf_putc(out, *s);
        } else if (s[0] == '_' && s[1] == ':') {
            buf_puts(out, "_:");
            buf_puts(out, rename);
            for (s += 2; is_var_char(*s) || *s == '-' || *s == '.'; s++)
                buf_putc(out, *s);
        } else if (*s == '{' || *s == '}') {
            depth += *s == '{' ? 1 : -1;
            if (depth == 0)
                return s + 1;
            buf_putc(out, *s++);
        } else {
            /* a prefixed name's or keyword's characters go as they are, whole, so that `a_b:c` is not read
             * as the start of a blank node label */
            if (is_var_char(*s))
                while (is_var_char(*s) || *s == ':' || *s == '-' || *s == '.')
                    buf_putc(out, *s++);
            else
                buf_putc(out, *s++);
        }
    }
    failure(err, err_len, "the group after ASK is not closed with '}'");
    return NULL;
}

int condition_text_split(const char *text, const char *rename, condition_text *out, char *err, size_t err_len) {
    *out = (condition_text){0};
    const char *s = skip_space_and_comments(text);
    for (;;) {
        if (keyword(&s, "BASE")) {
            condition_text_free(out);
            return failure(err, err_len, "BASE is not supported in a condition (relative IRIs resolve against "
                                         "the compiled model)");
        }
        if (!keyword(&s, "PREFIX"))
            break;
        s = skip_space_and_comments(s);
        const char *name = s;
        while (is_var_char(*s) || *s == '-' || *s == '.')
            s++;
        if (*s != ':') {
            condition_text_free(out);
            return failure(err, err_len, "PREFIX must be followed by a prefix name and ':'");
        }
        size_t name_len = (size_t)(++s - name);
        s = skip_space_and_comments(s);
        const char *end = *s == '<' ? iri_end(s) : NULL;
        if (!end) {
            condition_text_free(out);
            return failure(err, err_len, "PREFIX %.*s must be followed by <iri>", (int)name_len, name);
        }
        add_prefix(out, name, name_len, s + 1, (size_t)(end - s - 2));
        s = skip_space_and_comments(end);
    }
    if (!keyword(&s, "ASK")) {
        condition_text_free(out);
        return failure(err, err_len, "a condition is a SPARQL ASK query (PREFIX ... ASK { ... })");
    }
    s = skip_space_and_comments(s);
    if (keyword(&s, "WHERE"))
        s = skip_space_and_comments(s);
    if (*s != '{') {
        condition_text_free(out);
        return failure(err, err_len, "ASK must be followed by a group { ... }");
    }
    buf group = {0};
    s = copy_group(s + 1, rename, &group, err, err_len);
    if (!s) {
        buf_free(&group);
        condition_text_free(out);
        return -1;
    }
    if (*skip_space_and_comments(s)) {
        buf_free(&group);
        condition_text_free(out);
        return failure(err, err_len, "text after the ASK query's group (a condition is one ASK query)");
    }
    out->group = buf_cstr(&group);
    return 0;
}

void condition_text_free(condition_text *c) {
    for (size_t i = 0; i < c->prefix_count; i++) {
        free(c->prefix_names[i]);
        free(c->prefix_iris[i]);
    }
    free(c->prefix_names);
    free(c->prefix_iris);
    free(c->group);
    *c = (condition_text){0};
}
