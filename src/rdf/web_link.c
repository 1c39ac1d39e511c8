/* web_link.c: RFC 8288 Link header values, link by link (web_link.h). */
#include "rdf/web_link.h"

#include <string.h>
#include <strings.h>

bool web_link_next(const char **cursor, web_link *link) {
    const char *open = strchr(*cursor, '<');
    const char *close = open ? strchr(open, '>') : NULL;
    if (!close) {
        *cursor += strlen(*cursor);
        return false;
    }
    /* the link's parameters run to the next ',' outside a quoted string */
    const char *end = close + 1;
    bool in_quotes = false;
    while (*end && (in_quotes || *end != ',')) {
        if (in_quotes && *end == '\\' && end[1]) /* a quoted pair (RFC 9110 5.6.4) */
            end++;
        else if (*end == '"')
            in_quotes = !in_quotes;
        end++;
    }
    *link = (web_link){.target = open + 1, .target_len = (size_t)(close - open - 1), .params = close + 1,
                       .params_end = end};
    *cursor = *end ? end + 1 : end;
    return true;
}

static bool is_blank(char c) { return c == ' ' || c == '\t'; }

/* True when the space-separated list [w, end) holds word, case aside. */
static bool list_holds(const char *w, const char *end, const char *word) {
    size_t word_len = strlen(word);
    while (w < end) {
        while (w < end && is_blank(*w))
            w++;
        const char *start = w;
        while (w < end && !is_blank(*w))
            w++;
        if ((size_t)(w - start) == word_len && strncasecmp(start, word, word_len) == 0)
            return true;
    }
    return false;
}

bool web_link_has_rel(const web_link *link, const char *relation) {
    const char *p = link->params, *end = link->params_end;
    while (p < end) {
        while (p < end && (*p == ';' || is_blank(*p)))
            p++;
        const char *name = p;
        while (p < end && *p != '=' && *p != ';')
            p++;
        size_t name_len = (size_t)(p - name);
        while (name_len && is_blank(name[name_len - 1]))
            name_len--;
        if (p >= end || *p != '=')
            continue;
        p++;
        while (p < end && is_blank(*p))
            p++;
        bool quoted = p < end && *p == '"';
        if (quoted)
            p++;
        const char *value = p;
        while (p < end && (quoted ? *p != '"' : *p != ';'))
            p += quoted && *p == '\\' && p + 1 < end ? 2 : 1;
        const char *value_end = p;
        if (quoted && p < end)
            p++;
        /* only the first rel counts (RFC 8288 section 3.3) */
        if (name_len == 3 && strncasecmp(name, "rel", 3) == 0)
            return list_holds(value, value_end, relation);
    }
    return false;
}
