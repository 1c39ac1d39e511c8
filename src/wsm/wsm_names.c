/* wsm_names.c: the vocabulary and names of wsm_names.h. */
#include "wsm/wsm_names.h"

#include <stdbool.h>
#include <string.h>

#include "rdf/buf.h"
#include "rdf/vocab_ns.h"

void wsm_terms_init(wsm_terms *v, terms *t) {
    *v = (wsm_terms){
        .label = terms_iri_cstr(t, RDFS_label),
        .sp_text = terms_iri_cstr(t, SP_text),
        .contains = terms_iri_cstr(t, LDP_contains),
        .waits_because = terms_iri_cstr(t, LDGSM_waitsBecause),
        .held_because = terms_iri_cstr(t, LDGSM_heldBecause),
        .schema = terms_iri_cstr(t, WSM_Schema),
        .initial_state = terms_iri_cstr(t, WSM_initialState),
        .transition = terms_iri_cstr(t, WSM_transition),
        .variable = terms_iri_cstr(t, WSM_variable),
        .initial_value = terms_iri_cstr(t, WSM_initialValue),
        .from = terms_iri_cstr(t, WSM_from),
        .to = terms_iri_cstr(t, WSM_to),
        .on = terms_iri_cstr(t, WSM_on),
        .condition = terms_iri_cstr(t, WSM_condition),
        .assigns = terms_iri_cstr(t, WSM_assigns),
        .value = terms_iri_cstr(t, WSM_value),
        .instance_of = terms_iri_cstr(t, WSM_instanceOf),
        .inbox = terms_iri_cstr(t, NS_WSM "inbox"),
        .current_state = terms_iri_cstr(t, NS_WSM "currentState"),
        .taken = terms_iri_cstr(t, NS_WSM "taken"),
        .event = terms_iri_cstr(t, NS_WSM "event"),
        .entry_of = terms_iri_cstr(t, NS_WSM "entryOf"),
        .sequence = terms_iri_cstr(t, NS_WSM "sequence"),
        .event_resource = terms_iri_cstr(t, NS_WSM "eventResource"),
        .from_state = terms_iri_cstr(t, NS_WSM "fromState"),
        .to_state = terms_iri_cstr(t, NS_WSM "toState"),
        .at = terms_iri_cstr(t, NS_WSM "at"),
        .outcome = terms_iri_cstr(t, NS_WSM "outcome"),
        .reason = terms_iri_cstr(t, NS_WSM "reason"),
        .failed_condition = terms_iri_cstr(t, NS_WSM "failedCondition"),
        .fired_transition = terms_iri_cstr(t, NS_WSM "firedTransition"),
    };
}

const char *wsm_text(const terms *t, term_id id) {
    enum term_kind kind = terms_kind(t, id);
    return kind == TERM_IRI || kind == TERM_LITERAL ? terms_lex(t, id, NULL) : "[]";
}

/* A condition written in place ([ a sp:Ask ; sp:text "ASK { ... }" ]) is shown by its query, on one line
 * and cut at WSM_QUERY_SHOWN bytes (never inside a UTF-8 sequence). */
enum { WSM_QUERY_SHOWN = 60 };

static char *query_line(const char *query) {
    buf line = {0};
    for (const char *p = query; *p && line.len < WSM_QUERY_SHOWN; p++) {
        bool space = *p == ' ' || *p == '\t' || *p == '\n' || *p == '\r';
        if (!space)
            buf_putc(&line, *p);
        else if (line.len && line.data[line.len - 1] != ' ')
            buf_putc(&line, ' ');
    }
    size_t cut = line.len;
    bool cut_short = strlen(query) > cut && line.len >= WSM_QUERY_SHOWN;
    while (cut_short && cut && ((unsigned char)line.data[cut] & 0xC0) == 0x80)
        cut--;
    line.len = cut;
    if (cut_short)
        buf_puts(&line, "...");
    return buf_cstr(&line);
}

char *wsm_name(const terms *t, store *st, const wsm_terms *v, term_id id) {
    term_id label = store_first_object(st, id, v->label);
    if (label && terms_kind(t, label) == TERM_LITERAL)
        return xstrndup(terms_lex(t, label, NULL), strlen(terms_lex(t, label, NULL)));
    term_id query = terms_kind(t, id) == TERM_BNODE ? store_first_object(st, id, v->sp_text) : 0;
    if (query && terms_kind(t, query) == TERM_LITERAL)
        return query_line(terms_lex(t, query, NULL));
    const char *text = wsm_text(t, id);
    const char *hash = terms_kind(t, id) == TERM_IRI ? strrchr(text, '#') : NULL;
    if (hash && hash[1])
        text = hash + 1;
    return xstrndup(text, strlen(text));
}
