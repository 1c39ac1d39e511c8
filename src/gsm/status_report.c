/* status_report.c: the report of status_report.h: built from working memory into a tree of views (plain
 * strings, so it outlives the iteration), then printed as text or JSON from the same views. */
#include "gsm/status_report.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rdf/hashmap.h"
#include "rdf/json_out.h"
#include "rdf/rdf_list.h"
#include "rdf/vocab_ns.h"

typedef struct vocab {
    term_id label, comment;
    term_id stage, artifact_instance, is_instance_of, in_artifact, has_state, active, uninitialized;
    term_id has_child, has_guard, has_condition, has_milestone, achieving, of_stage, is_achieved, is_completed;
    term_id holds_for, reads, reads_container, contains, sp_ask, rule_condition, held_because, waits_because;
    term_id call_record, call_state, alternative, alternatives, retries_left, deadline, last_failure, answer_status;
    term_id has_http_request, mthd, request_uri;
    term_id sent_method, sent_uri, results;
    term_id sequence, at, changed, property, from, to;
    term_id copy_index, spawned;
} vocab;

static void vocab_init(vocab *v, terms *t) {
    *v = (vocab){
        .label = terms_iri_cstr(t, RDFS_label), .comment = terms_iri_cstr(t, RDFS_comment),
        .stage = terms_iri_cstr(t, GSM_Stage), .artifact_instance = terms_iri_cstr(t, GSM_ArtifactInstance),
        .is_instance_of = terms_iri_cstr(t, GSM_isInstanceOf),
        .in_artifact = terms_iri_cstr(t, GSM_inArtifactInstance),
        .has_state = terms_iri_cstr(t, GSM_hasState), .active = terms_iri_cstr(t, GSM_active),
        .uninitialized = terms_iri_cstr(t, GSM_uninitialized),
        .has_child = terms_iri_cstr(t, GSM_hasChildStage), .has_guard = terms_iri_cstr(t, GSM_hasGuard),
        .has_condition = terms_iri_cstr(t, GSM_hasCondition),
        .has_milestone = terms_iri_cstr(t, GSM_hasMilestone),
        .achieving = terms_iri_cstr(t, GSM_hasAchievingSentry), .of_stage = terms_iri_cstr(t, LDGSM_ofStage),
        .is_achieved = terms_iri_cstr(t, GSM_isAchieved), .is_completed = terms_iri_cstr(t, LDGSM_isCompleted),
        .holds_for = terms_iri_cstr(t, LDGSM_holdsFor), .reads = terms_iri_cstr(t, LDGSM_reads),
        .reads_container = terms_iri_cstr(t, LDGSM_readsContainer),
        .contains = terms_iri_cstr(t, LDP_contains), .sp_ask = terms_iri_cstr(t, SP_Ask),
        .rule_condition = terms_iri_cstr(t, LDGSM_RuleCondition),
        .held_because = terms_iri_cstr(t, LDGSM_heldBecause),
        .waits_because = terms_iri_cstr(t, LDGSM_waitsBecause),
        .call_record = terms_iri_cstr(t, NS_LDGSM "CallRecord"), .call_state = terms_iri_cstr(t, LDGSM_callState),
        .alternative = terms_iri_cstr(t, LDGSM_alternative),
        .alternatives = terms_iri_cstr(t, LDGSM_alternatives),
        .retries_left = terms_iri_cstr(t, LDGSM_retriesLeft), .deadline = terms_iri_cstr(t, LDGSM_deadline),
        .last_failure = terms_iri_cstr(t, LDGSM_lastFailure),
        .answer_status = terms_iri_cstr(t, LDGSM_answerStatus),
        .sent_method = terms_iri_cstr(t, NS_LDGSM "sentMethod"), .sent_uri = terms_iri_cstr(t, NS_LDGSM "sentURI"),
        .results = terms_iri_cstr(t, LDGSM_results),
        .has_http_request = terms_iri_cstr(t, GSM_hasHttpRequest), .mthd = terms_iri_cstr(t, HTTP_mthd),
        .request_uri = terms_iri_cstr(t, HTTP_requestURI),
        .sequence = terms_iri_cstr(t, LDGSM_sequence),
        .at = terms_iri_cstr(t, LDGSM_at), .changed = terms_iri_cstr(t, LDGSM_changed),
        .property = terms_iri_cstr(t, LDGSM_property), .from = terms_iri_cstr(t, LDGSM_from),
        .to = terms_iri_cstr(t, LDGSM_to),
        .copy_index = terms_iri_cstr(t, NS_PAT "copyIndex"), .spawned = terms_iri_cstr(t, NS_PAT "spawned"),
    };
}

/* --- the views ------------------------------------------------------------------------------------ */

typedef struct read_view {
    char *iri;
    bool container; /* an ldgsm:readsContainer (its members are listed only when their read failed) */
    bool known;     /* the iteration read it */
    long status;
    char *failure;
    bool unparsable;
    char *parse_error; /* unparsable: the reader's message, "doc:1:9: what" */
} read_view;

static void read_view_free(read_view *r) {
    free(r->iri);
    free(r->failure);
    free(r->parse_error);
}

enum verdict { HOLDS, DOES_NOT_HOLD, NOT_EVALUATED, NOT_DESCRIBED };

typedef struct sentry_view {
    char *iri;          /* NULL for a blank node */
    char *id;           /* "<#fragment>" in the root model's document, else "<iri>", or "[]" */
    char *description;  /* rdfs:label or rdfs:comment; NULL when it has neither */
    enum verdict verdict;
    bool by_rules;      /* an ldgsm:RuleCondition: the rules decide it, no query */
    read_view *reads;
    size_t read_count;
} sentry_view;

typedef struct guard_view {
    char *iri, *name;
    sentry_view *conditions;
    size_t condition_count;
} guard_view;

typedef struct milestone_view {
    char *model, *name, *fragment;
    bool achieved;
    sentry_view *sentries; /* achieving sentries, shown for an active stage's unachieved milestones */
    size_t sentry_count;
} milestone_view;

typedef struct call_view {
    char *record, *state, *request, *deadline, *last_failure;
    char *sent;  /* the request evaluated from its arguments, as the record keeps it ("POST <uri>"), or NULL */
    char *bound; /* what the answer bound (ldgsm:results): "shop:price = 40, ...", or NULL */
    long alternative, alternatives, retries_left, answer_status; /* -1: not given */
} call_view;

enum why { WHY_NONE, WHY_NOT_SET_UP, WHY_WORKFLOW_COMPLETE, WHY_PARENT, WHY_COMPLETED, WHY_NO_GUARD, WHY_GUARDS };

typedef struct stage_view {
    char *model, *name, *fragment, *state;
    bool completed;
    milestone_view *milestones;
    size_t milestone_count;
    call_view *calls;
    size_t call_count;
    enum why why;
    char *parent_name; /* WHY_PARENT */
    guard_view *guards;
    size_t guard_count;
    struct stage_view *children;
    size_t child_count;
    long copies, copies_spawned; /* an mi: its copies (pat:copyIndex) and how many spawned; -1: not an mi */
} stage_view;

typedef struct transition_view {
    long sequence;
    char *at, *changed, *name, *property;
    char **from, **to;
    size_t from_count, to_count;
} transition_view;

struct status_report {
    char *instance, *model, *error;
    char **held; /* why the instance's writes are held: failed reads, set-up waiting */
    size_t held_count;
    char **waits; /* why it cannot go on (ldgsm:waitsBecause): a stage whose arguments have no solution */
    size_t waits_count;
    stage_view root;
    transition_view *history;
    size_t history_count;
    size_t transitions_recorded; /* all of the instance's, before the limit */
};

/* What building needs. */
typedef struct ctx {
    terms *t;
    store *wm;
    vocab v;
    term_id instance;
    bool artifact_active;   /* sentries are evaluated only for an active artifact */
    char *model_doc;        /* the root model's document: sentries in it are shown as <#fragment> */
    const status_input *in;
    status_report *r;
    u64map shown;           /* stage models in the tree: one met again (a cycle, a shared stage; lint
                               rejects both) is left out, so the tree stays finite */
    u64map names;           /* status fragment -> index in name_list */
    char **name_list;
    size_t name_count;
} ctx;

/* Grows a view array by one element and gives a pointer to it (views hold few elements each). */
#define PUSH(array, count) ((array) = xrealloc((array), ((count) + 1) * sizeof *(array)), &(array)[(count)++])

static char *dup_str(const char *s) {
    return s ? xstrndup(s, strlen(s)) : NULL;
}

static const char *lex(const ctx *c, term_id id) {
    return terms_lex(c->t, id, NULL);
}

static bool has(const ctx *c, term_id s, term_id p, term_id o) {
    return store_find(c->wm, s, p, o) != UINT32_MAX;
}

static term_id literal_object(const ctx *c, term_id s, term_id p) {
    store_iter it;
    store_match(c->wm, s, p, 0, 0, store_size(c->wm), &it);
    uint32_t n;
    for (const triple *tr; (tr = store_next(&it, &n));)
        if (terms_kind(c->t, tr->o) == TERM_LITERAL)
            return tr->o;
    return 0;
}

static long integer_object(const ctx *c, term_id s, term_id p) {
    term_id o = literal_object(c, s, p);
    if (!o)
        return -1;
    char *end;
    long value = strtol(lex(c, o), &end, 10);
    return *end ? -1 : value;
}

/* Text on one line: whitespace runs become one space (comments in models span lines). */
static char *one_line(const char *s) {
    buf b = {0};
    buf_puts_one_line(&b, s);
    return buf_cstr(&b);
}

/* The local name of an IRI: its fragment, else its last path segment. The guards, conditions and
 * milestones rules/gsm-alternatives.n3 makes are fragments "ldgsm-its-turn-<12 hex digits>": shown as
 * "its turn". */
static char *iri_short(const char *iri) {
    const char *hash = strrchr(iri, '#');
    if (!hash || !hash[1]) {
        size_t len = hash ? (size_t)(hash - iri) : strlen(iri);
        while (len && iri[len - 1] == '/')
            len--;
        size_t start = len;
        while (start && iri[start - 1] != '/')
            start--;
        return start < len ? xstrndup(iri + start, len - start) : dup_str(iri);
    }
    const char *name = hash + 1;
    if (strncmp(name, "ldgsm-", 6) != 0)
        return dup_str(name);
    name += 6;
    size_t len = strlen(name);
    bool hashed = len > 13 && name[len - 13] == '-';
    for (size_t i = len - 12; hashed && i < len; i++)
        hashed = isxdigit((unsigned char)name[i]);
    char *out = xstrndup(name, hashed ? len - 13 : len);
    for (char *p = out; *p; p++)
        if (*p == '-')
            *p = ' ';
    return out;
}

/* A model part's name: its rdfs:label, else its IRI's local name. */
static char *model_name(const ctx *c, term_id node) {
    term_id label = literal_object(c, node, c->v.label);
    if (label)
        return one_line(lex(c, label));
    return terms_kind(c->t, node) == TERM_IRI ? iri_short(lex(c, node)) : dup_str("[]");
}

static char *doc_of(const char *iri) {
    const char *hash = strchr(iri, '#');
    return xstrndup(iri, hash ? (size_t)(hash - iri) : strlen(iri));
}

/* A value as shown: gsm: and ldgsm: IRIs by their local name, other IRIs whole, literals' lexical form. */
static char *value_text(const ctx *c, term_id o) {
    const char *s = lex(c, o);
    if (terms_kind(c->t, o) == TERM_IRI) {
        if (strncmp(s, NS_GSM, strlen(NS_GSM)) == 0)
            return dup_str(s + strlen(NS_GSM));
        if (strncmp(s, NS_LDGSM, strlen(NS_LDGSM)) == 0)
            return dup_str(s + strlen(NS_LDGSM));
    }
    return dup_str(s);
}

static void name_fragment(ctx *c, term_id fragment, char *name) {
    if (!fragment)
        return;
    bool inserted;
    u64map_put(&c->names, fragment, (uint32_t)c->name_count, &inserted);
    if (inserted)
        *PUSH(c->name_list, c->name_count) = dup_str(name);
}

/* --- building -------------------------------------------------------------------------------------- */

static void read_of(ctx *c, const char *iri, bool container, read_view *out) {
    *out = (read_view){.iri = dup_str(iri), .container = container};
    status_read r = {0};
    if (!c->in->read || !c->in->read(c->in->read_user, iri, &r))
        return;
    out->known = true;
    out->status = r.status;
    out->failure = dup_str(r.failure);
    out->unparsable = r.unparsable;
    out->parse_error = dup_str(r.parse_error);
}

/* A read's outcome, as the agent classifies a GET (DESIGN section 2). */
enum read_outcome { READ_DATA, READ_EMPTY, READ_UNSUPPORTED, READ_UNPARSABLE, READ_FAILED, READ_NO_ANSWER,
                    READ_NOT_READ };
static const char *const outcome_names[] = {"data", "empty", "unsupported", "unparsable", "failed", "no answer",
                                             "not read"};

static enum read_outcome outcome(const read_view *r) {
    if (!r->known)
        return READ_NOT_READ;
    if (r->failure)
        return READ_NO_ANSWER;
    if ((r->status >= 200 && r->status < 300) || r->status == 304)
        return r->unparsable ? READ_UNPARSABLE : READ_DATA;
    if (r->status == 404 || r->status == 410)
        return READ_EMPTY; /* an answer: the resource has no triples */
    if (r->status == 406 || r->status == 415)
        return READ_UNSUPPORTED; /* adds nothing, and is no failure */
    return READ_FAILED;
}

/* "404 (empty)", "timeout (no answer)", "200 (RDF that does not parse)", "not read in this iteration". */
static void outcome_text(const read_view *r, buf *out) {
    if (!r->known)
        buf_puts(out, "not read in this iteration");
    else if (r->failure)
        buf_printf(out, "%s (no answer)", r->failure);
    else if (r->unparsable && r->parse_error)
        buf_printf(out, "%ld (RDF that does not parse: %s)", r->status, r->parse_error);
    else if (r->unparsable)
        buf_printf(out, "%ld (RDF that does not parse)", r->status);
    else
        buf_printf(out, "%ld (%s)", r->status, outcome_names[outcome(r)]);
}

/* A failure in the hold policy's sense: it holds back the writes of the instance that asked for it. */
static bool read_failed(const read_view *r) {
    enum read_outcome o = outcome(r);
    return o == READ_FAILED || o == READ_NO_ANSWER || o == READ_UNPARSABLE;
}

static void note_held(ctx *c, const read_view *r) {
    if (!read_failed(r))
        return;
    buf line = {0};
    buf_printf(&line, "a read failed: %s: ", r->iri);
    outcome_text(r, &line);
    for (size_t i = 0; i < c->r->held_count; i++)
        if (strcmp(c->r->held[i], buf_cstr(&line)) == 0) {
            buf_free(&line);
            return;
        }
    *PUSH(c->r->held, c->r->held_count) = buf_cstr(&line);
}

static void build_sentry(ctx *c, term_id node, sentry_view *s) {
    *s = (sentry_view){0};
    bool iri = terms_kind(c->t, node) == TERM_IRI;
    if (iri) {
        s->iri = dup_str(lex(c, node));
        char *doc = doc_of(s->iri);
        const char *hash = strchr(s->iri, '#');
        buf id = {0};
        if (hash && c->model_doc && strcmp(doc, c->model_doc) == 0)
            buf_printf(&id, "<%s>", hash);
        else
            buf_printf(&id, "<%s>", s->iri);
        s->id = buf_cstr(&id);
        free(doc);
    } else {
        s->id = dup_str("[]");
    }
    term_id text = literal_object(c, node, c->v.label);
    if (!text)
        text = literal_object(c, node, c->v.comment);
    s->by_rules = has(c, node, T_RDF_TYPE, c->v.rule_condition);
    if (text)
        s->description = one_line(lex(c, text));
    else if (s->by_rules && iri)
        s->description = iri_short(s->iri);
    if (has(c, node, c->v.holds_for, c->instance))
        s->verdict = HOLDS;
    else if (!c->artifact_active)
        s->verdict = NOT_EVALUATED;
    else if (!s->by_rules && !has(c, node, T_RDF_TYPE, c->v.sp_ask))
        s->verdict = NOT_DESCRIBED;
    else
        s->verdict = DOES_NOT_HOLD;
    if (s->verdict == NOT_DESCRIBED && iri) {
        /* where its description should have come from */
        read_of(c, s->iri, false, PUSH(s->reads, s->read_count));
        note_held(c, &s->reads[s->read_count - 1]);
        return;
    }
    u32vec reads = {0};
    store_objects(c->wm, node, c->v.reads, &reads);
    for (size_t i = 0; i < reads.len; i++) {
        read_of(c, lex(c, reads.data[i]), false, PUSH(s->reads, s->read_count));
        note_held(c, &s->reads[s->read_count - 1]);
    }
    u32vec_free(&reads);
    u32vec containers = {0}, members = {0};
    store_objects(c->wm, node, c->v.reads_container, &containers);
    for (size_t i = 0; i < containers.len; i++) {
        if (terms_kind(c->t, containers.data[i]) != TERM_IRI)
            continue;
        read_of(c, lex(c, containers.data[i]), true, PUSH(s->reads, s->read_count));
        note_held(c, &s->reads[s->read_count - 1]);
        /* members are shown only when their read failed; they are read leniently: one that does not parse
         * adds nothing and holds nothing back */
        store_objects(c->wm, containers.data[i], c->v.contains, &members);
        for (size_t k = 0; k < members.len; k++) {
            read_view member;
            read_of(c, lex(c, members.data[k]), false, &member);
            if (read_failed(&member)) {
                *PUSH(s->reads, s->read_count) = member;
                if (!member.unparsable)
                    note_held(c, &member);
            } else {
                read_view_free(&member);
            }
        }
    }
    u32vec_free(&members);
    u32vec_free(&containers);
}

/* The instance fragment of a stage model (the root's is the instance itself), or 0 before set-up. */
static term_id stage_fragment(const ctx *c, term_id model, bool root) {
    if (root)
        return c->instance;
    store_iter it;
    store_match(c->wm, 0, c->v.is_instance_of, model, 0, store_size(c->wm), &it);
    uint32_t n;
    for (const triple *tr; (tr = store_next(&it, &n));)
        if (has(c, tr->s, c->v.in_artifact, c->instance))
            return tr->s;
    return 0;
}

static term_id milestone_fragment(const ctx *c, term_id model, term_id stage) {
    if (!stage)
        return 0;
    store_iter it;
    store_match(c->wm, 0, c->v.is_instance_of, model, 0, store_size(c->wm), &it);
    uint32_t n;
    for (const triple *tr; (tr = store_next(&it, &n));)
        if (has(c, tr->s, c->v.of_stage, stage))
            return tr->s;
    return 0;
}

/* "PUT http://host/devices/alarm" for the i-th (1-based) alternative of a stage's task, with how many
 * there are. */
static char *call_request(const ctx *c, term_id stage_model, long i, long *count) {
    term_id task = store_first_object(c->wm, stage_model, c->v.has_http_request);
    *count = task ? 1 : -1;
    if (!task)
        return NULL;
    term_id alternative = task;
    term_id list = store_first_object(c->wm, task, c->v.alternatives);
    if (list) {
        *count = 0;
        alternative = 0;
        /* a list that loops is cut at 1000 cells */
        for (term_id cell = list; cell && cell != T_RDF_NIL && *count < 1000; cell = store_first_object(c->wm, cell, T_RDF_REST)) {
            ++*count;
            if (*count == i)
                alternative = store_first_object(c->wm, cell, T_RDF_FIRST);
        }
    } else if (i != 1) {
        alternative = 0;
    }
    if (!alternative)
        return NULL;
    term_id method = store_first_object(c->wm, alternative, c->v.mthd), uri = store_first_object(c->wm, alternative, c->v.request_uri);
    if (!method && !uri)
        return NULL; /* not described where the crawl read */
    buf text = {0};
    if (method) {
        /* httpm:PUT as "PUT" */
        const char *name = lex(c, method), *hash = strrchr(name, '#');
        buf_printf(&text, "%s ", hash && terms_kind(c->t, method) == TERM_IRI ? hash + 1 : name);
    }
    buf_puts(&text, uri ? lex(c, uri) : "(no URI)");
    return buf_cstr(&text);
}

/* The request a call sent, evaluated from its arguments (DESIGN 8), as its record keeps it. */
static char *sent_request(ctx *c, term_id record) {
    term_id method = store_first_object(c->wm, record, c->v.sent_method), uri = store_first_object(c->wm, record, c->v.sent_uri);
    if (!method || !uri)
        return NULL;
    const char *name = lex(c, method), *hash = strrchr(name, '#');
    buf text = {0};
    buf_printf(&text, "%s %s", hash ? hash + 1 : name, lex(c, uri));
    return buf_cstr(&text);
}

/* The instance's values of the properties the stage's call binds from its answer (ldgsm:results). */
static char *bound_results(ctx *c, term_id model, term_id record) {
    term_id task = store_first_object(c->wm, model, c->v.has_http_request);
    term_id results = task ? store_first_object(c->wm, task, c->v.results) : 0;
    term_id instance = store_first_object(c->wm, record, c->v.in_artifact);
    term_id list = results ? rdf_list_read(c->t, c->wm, results) : 0;
    if (!list || !instance)
        return NULL;
    size_t count;
    const term_id *items = terms_list_items(c->t, list, &count);
    buf text = {0};
    for (size_t i = 0; i < count; i++) {
        term_id property = store_first_object(c->wm, items[i], c->v.property);
        term_id value = property ? store_first_object(c->wm, instance, property) : 0;
        if (!value)
            continue;
        char *shown = value_text(c, value);
        buf_printf(&text, "%s%s = %s", text.len ? ", " : "", lex(c, property), shown);
        free(shown);
    }
    return text.len ? buf_cstr(&text) : (buf_free(&text), NULL);
}

static void build_calls(ctx *c, term_id model, term_id fragment, stage_view *s) {
    if (!fragment)
        return;
    store_iter it;
    store_match(c->wm, 0, c->v.of_stage, fragment, 0, store_size(c->wm), &it);
    uint32_t n;
    for (const triple *tr; (tr = store_next(&it, &n));) {
        term_id record = tr->s;
        if (!has(c, record, T_RDF_TYPE, c->v.call_record))
            continue;
        call_view *call = PUSH(s->calls, s->call_count);
        term_id state = store_first_object(c->wm, record, c->v.call_state), deadline = literal_object(c, record, c->v.deadline);
        term_id failure = store_first_object(c->wm, record, c->v.last_failure);
        *call = (call_view){.record = dup_str(lex(c, record)), .state = state ? value_text(c, state) : NULL,
                            .deadline = deadline ? dup_str(lex(c, deadline)) : NULL,
                            .last_failure = failure ? value_text(c, failure) : NULL,
                            .alternative = integer_object(c, record, c->v.alternative),
                            .retries_left = integer_object(c, record, c->v.retries_left),
                            .answer_status = integer_object(c, record, c->v.answer_status)};
        call->request = call_request(c, model, call->alternative, &call->alternatives);
        call->sent = sent_request(c, record);
        call->bound = bound_results(c, model, record);
        buf name = {0};
        buf_printf(&name, "call of %s", s->name);
        name_fragment(c, record, buf_cstr(&name));
        buf_free(&name);
    }
}

/* A child stage and where it is shown: an mi's copies (pat:copyIndex) by their index, after the other
 * children, which keep their order. */
typedef struct child_order {
    term_id stage;
    long copy; /* its pat:copyIndex, or 0 */
    size_t at;
} child_order;

static int by_copy_index(const void *a, const void *b) {
    const child_order *x = a, *y = b;
    if (x->copy != y->copy)
        return (x->copy > y->copy) - (x->copy < y->copy);
    return (x->at > y->at) - (x->at < y->at);
}

static child_order *children_in_order(const ctx *c, const u32vec *children, size_t *count) {
    child_order *order = xmalloc((children->len ? children->len : 1) * sizeof *order);
    for (size_t i = 0; i < children->len; i++) {
        long index = integer_object(c, children->data[i], c->v.copy_index);
        order[i] = (child_order){children->data[i], index > 0 ? index : 0, i};
    }
    if (children->len)
        qsort(order, children->len, sizeof *order, by_copy_index);
    *count = children->len;
    return order;
}

static void build_stage(ctx *c, term_id model, const stage_view *parent, stage_view *s) {
    bool root = parent == NULL;
    *s = (stage_view){.model = dup_str(lex(c, model)), .name = model_name(c, model)};
    term_id fragment = stage_fragment(c, model, root);
    term_id state = fragment ? store_first_object(c->wm, fragment, c->v.has_state) : 0;
    s->fragment = fragment ? dup_str(lex(c, fragment)) : NULL;
    s->state = state ? value_text(c, state) : dup_str("uninitialized");
    s->completed = fragment && has(c, fragment, c->v.is_completed, T_TRUE);
    bool active = state == c->v.active;
    name_fragment(c, fragment, s->name);

    u32vec milestones = {0}, sentries = {0};
    store_objects(c->wm, model, c->v.has_milestone, &milestones);
    for (size_t i = 0; i < milestones.len; i++) {
        milestone_view *m = PUSH(s->milestones, s->milestone_count);
        term_id ms = milestones.data[i], mf = milestone_fragment(c, ms, fragment);
        *m = (milestone_view){.model = dup_str(lex(c, ms)), .name = model_name(c, ms),
                              .fragment = mf ? dup_str(lex(c, mf)) : NULL,
                              .achieved = mf && has(c, mf, c->v.is_achieved, T_TRUE)};
        name_fragment(c, mf, m->name);
        if (!active || m->achieved)
            continue;
        store_objects(c->wm, ms, c->v.achieving, &sentries);
        for (size_t j = 0; j < sentries.len; j++)
            build_sentry(c, sentries.data[j], PUSH(m->sentries, m->sentry_count));
    }
    u32vec_free(&sentries);
    u32vec_free(&milestones);
    build_calls(c, model, fragment, s);

    if (active)
        s->why = WHY_NONE;
    else if (root)
        s->why = state == c->v.uninitialized || !state ? WHY_NOT_SET_UP : s->completed ? WHY_WORKFLOW_COMPLETE : WHY_NONE;
    else if (strcmp(parent->state, "active") != 0) {
        s->why = WHY_PARENT;
        s->parent_name = dup_str(parent->name);
    } else if (s->completed)
        s->why = WHY_COMPLETED;
    else {
        u32vec guards = {0}, conditions = {0};
        store_objects(c->wm, model, c->v.has_guard, &guards);
        s->why = guards.len ? WHY_GUARDS : WHY_NO_GUARD;
        for (size_t i = 0; i < guards.len; i++) {
            term_id guard = guards.data[i];
            guard_view *gv = PUSH(s->guards, s->guard_count);
            *gv = (guard_view){.iri = terms_kind(c->t, guard) == TERM_IRI ? dup_str(lex(c, guard)) : NULL,
                               .name = model_name(c, guard)};
            store_objects(c->wm, guard, c->v.has_condition, &conditions);
            for (size_t j = 0; j < conditions.len; j++)
                build_sentry(c, conditions.data[j], PUSH(gv->conditions, gv->condition_count));
        }
        u32vec_free(&conditions);
        u32vec_free(&guards);
    }

    u32vec children = {0};
    store_objects(c->wm, model, c->v.has_child, &children);
    size_t count;
    child_order *order = children_in_order(c, &children, &count);
    s->copies = s->copies_spawned = -1;
    if (count && order[count - 1].copy > 0) {
        /* an mi: its copies spawned, as its stage instance says (none before it opens) */
        s->copies = 0;
        for (size_t i = 0; i < count; i++)
            s->copies += order[i].copy > 0;
        s->copies_spawned = fragment ? integer_object(c, fragment, c->v.spawned) : -1;
        if (s->copies_spawned < 0)
            s->copies_spawned = 0;
    }
    for (size_t i = 0; i < count; i++) {
        if (s->copies >= 0 && order[i].copy > s->copies_spawned)
            continue;
        bool first;
        u64map_put(&c->shown, order[i].stage, 1, &first);
        if (first)
            build_stage(c, order[i].stage, s, PUSH(s->children, s->child_count));
    }
    free(order);
    u32vec_free(&children);
}

static int by_sequence(const void *a, const void *b) {
    long x = ((const transition_view *)a)->sequence, y = ((const transition_view *)b)->sequence;
    return (x > y) - (x < y);
}

static void transition_free(transition_view *tv) {
    free(tv->at);
    free(tv->changed);
    free(tv->name);
    free(tv->property);
    for (size_t i = 0; i < tv->from_count; i++)
        free(tv->from[i]);
    for (size_t i = 0; i < tv->to_count; i++)
        free(tv->to[i]);
    free(tv->from);
    free(tv->to);
}

/* A flag given its first value, false (gsm:isAchieved, ldgsm:isCompleted from no value to false): set-up
 * writing what was already meant, not a change worth a line. */
static bool flag_set_up(const ctx *c, term_id node) {
    term_id property = store_first_object(c->wm, node, c->v.property), to = store_first_object(c->wm, node, c->v.to);
    if (!property || terms_kind(c->t, property) != TERM_IRI || store_first_object(c->wm, node, c->v.from) || !to)
        return false;
    const char *name = lex(c, property);
    return (strcmp(name, GSM_isAchieved) == 0 || strcmp(name, LDGSM_isCompleted) == 0) &&
           terms_kind(c->t, to) == TERM_LITERAL && strcmp(lex(c, to), "false") == 0;
}

/* The transitions of the instance's own fragments, oldest first (flags set up left out), the last
 * in->history of them kept. */
static void build_history(ctx *c) {
    status_report *r = c->r;
    store_iter it;
    store_match(c->wm, 0, c->v.sequence, 0, 0, store_size(c->wm), &it); /* every entry has one */
    uint32_t n;
    transition_view *all = NULL;
    size_t count = 0;
    u32vec values = {0};
    for (const triple *tr; (tr = store_next(&it, &n));) {
        term_id node = tr->s, changed = store_first_object(c->wm, node, c->v.changed);
        if (!changed || (changed != c->instance && !has(c, changed, c->v.in_artifact, c->instance)))
            continue;
        if (flag_set_up(c, node))
            continue;
        transition_view *tv = PUSH(all, count);
        term_id at = literal_object(c, node, c->v.at), property = store_first_object(c->wm, node, c->v.property);
        const uint32_t *known = u64map_get(&c->names, changed);
        *tv = (transition_view){.sequence = integer_object(c, node, c->v.sequence),
                                .at = at ? dup_str(lex(c, at)) : NULL, .changed = dup_str(lex(c, changed)),
                                .name = known ? dup_str(c->name_list[*known]) : iri_short(lex(c, changed)),
                                .property = property ? dup_str(lex(c, property)) : NULL};
        store_objects(c->wm, node, c->v.from, &values);
        for (size_t i = 0; i < values.len; i++)
            *PUSH(tv->from, tv->from_count) = value_text(c, values.data[i]);
        store_objects(c->wm, node, c->v.to, &values);
        for (size_t i = 0; i < values.len; i++)
            *PUSH(tv->to, tv->to_count) = value_text(c, values.data[i]);
    }
    u32vec_free(&values);
    if (count)
        qsort(all, count, sizeof *all, by_sequence);
    r->transitions_recorded = count;
    size_t keep = count < c->in->history ? count : c->in->history;
    for (size_t i = 0; i < count - keep; i++)
        transition_free(&all[i]);
    if (keep) {
        r->history = xmalloc(keep * sizeof *r->history);
        memcpy(r->history, all + (count - keep), keep * sizeof *r->history);
    }
    r->history_count = keep;
    free(all);
}

/* Why the instance cannot be shown: its document or its model's was not read, or they say no workflow. */
static char *instance_error(ctx *c, term_id *model) {
    const char *instance = c->in->instance;
    buf why = {0};
    read_view doc;
    read_of(c, instance, false, &doc);
    *model = store_first_object(c->wm, c->instance, c->v.is_instance_of);
    if (outcome(&doc) != READ_DATA) {
        buf_puts(&why, "cannot read the instance document: ");
        outcome_text(&doc, &why);
    } else if (!*model || terms_kind(c->t, *model) != TERM_IRI) {
        buf_printf(&why, "the instance document says nothing of <%s> with gsm:isInstanceOf: not a workflow instance%s",
                   instance, strchr(instance, '#') ? "" : " (an instance is a fragment of its document, e.g. ...#it)");
    }
    read_view_free(&doc);
    if (why.len)
        return buf_cstr(&why);
    read_of(c, lex(c, *model), false, &doc);
    if (outcome(&doc) != READ_DATA) {
        buf_printf(&why, "cannot read its model <%s>: ", doc.iri);
        outcome_text(&doc, &why);
    } else if (!has(c, *model, T_RDF_TYPE, c->v.stage) && !store_first_object(c->wm, *model, c->v.has_milestone) &&
               !store_first_object(c->wm, *model, c->v.has_child) && !store_first_object(c->wm, *model, c->v.has_guard)) {
        buf_printf(&why, "its model document does not describe the stage <%s>", doc.iri);
    }
    read_view_free(&doc);
    return why.len ? buf_cstr(&why) : NULL;
}

status_report *status_report_build(const status_input *in) {
    status_report *r = xcalloc(1, sizeof *r);
    ctx c = {.t = in->t, .wm = in->wm, .in = in, .r = r};
    vocab_init(&c.v, in->t);
    c.instance = terms_iri_cstr(in->t, in->instance);
    r->instance = dup_str(in->instance);
    term_id model = 0;
    r->error = instance_error(&c, &model);
    if (!r->error) {
        r->model = dup_str(lex(&c, model));
        c.model_doc = doc_of(r->model);
        c.artifact_active = has(&c, c.instance, T_RDF_TYPE, c.v.artifact_instance) &&
                            has(&c, c.instance, c.v.has_state, c.v.active);
        u32vec because = {0};
        store_objects(c.wm, c.instance, c.v.held_because, &because);
        for (size_t i = 0; i < because.len; i++)
            if (terms_kind(c.t, because.data[i]) == TERM_LITERAL)
                *PUSH(r->held, r->held_count) = one_line(lex(&c, because.data[i]));
        store_objects(c.wm, c.instance, c.v.waits_because, &because);
        for (size_t i = 0; i < because.len; i++)
            if (terms_kind(c.t, because.data[i]) == TERM_LITERAL)
                *PUSH(r->waits, r->waits_count) = one_line(lex(&c, because.data[i]));
        u32vec_free(&because);
        u64map_put(&c.shown, model, 1, NULL);
        build_stage(&c, model, NULL, &r->root);
        build_history(&c);
    }
    free(c.model_doc);
    for (size_t i = 0; i < c.name_count; i++)
        free(c.name_list[i]);
    free(c.name_list);
    u64map_free(&c.names);
    u64map_free(&c.shown);
    return r;
}

const char *status_report_error(const status_report *r) {
    return r->error;
}

bool status_report_waits(const status_report *r) {
    return r->held_count || r->waits_count;
}

/* --- freeing ---------------------------------------------------------------------------------------- */

static void sentry_free(sentry_view *s) {
    free(s->iri);
    free(s->id);
    free(s->description);
    for (size_t i = 0; i < s->read_count; i++)
        read_view_free(&s->reads[i]);
    free(s->reads);
}

static void stage_free(stage_view *s) {
    free(s->model);
    free(s->name);
    free(s->fragment);
    free(s->state);
    free(s->parent_name);
    for (size_t i = 0; i < s->milestone_count; i++) {
        milestone_view *m = &s->milestones[i];
        free(m->model);
        free(m->name);
        free(m->fragment);
        for (size_t k = 0; k < m->sentry_count; k++)
            sentry_free(&m->sentries[k]);
        free(m->sentries);
    }
    free(s->milestones);
    for (size_t i = 0; i < s->call_count; i++) {
        call_view *cv = &s->calls[i];
        free(cv->record);
        free(cv->state);
        free(cv->request);
        free(cv->sent);
        free(cv->bound);
        free(cv->deadline);
        free(cv->last_failure);
    }
    free(s->calls);
    for (size_t i = 0; i < s->guard_count; i++) {
        for (size_t k = 0; k < s->guards[i].condition_count; k++)
            sentry_free(&s->guards[i].conditions[k]);
        free(s->guards[i].conditions);
        free(s->guards[i].iri);
        free(s->guards[i].name);
    }
    free(s->guards);
    for (size_t i = 0; i < s->child_count; i++)
        stage_free(&s->children[i]);
    free(s->children);
}

void status_report_free(status_report *r) {
    if (!r)
        return;
    free(r->instance);
    free(r->model);
    free(r->error);
    for (size_t i = 0; i < r->held_count; i++)
        free(r->held[i]);
    free(r->held);
    for (size_t i = 0; i < r->waits_count; i++)
        free(r->waits[i]);
    free(r->waits);
    stage_free(&r->root);
    for (size_t i = 0; i < r->history_count; i++)
        transition_free(&r->history[i]);
    free(r->history);
    free(r);
}

/* --- text ------------------------------------------------------------------------------------------- */

static void indent(buf *out, int depth) {
    for (int i = 0; i < depth; i++)
        buf_puts(out, "  ");
}

static void read_text(const read_view *r, int depth, buf *out) {
    indent(out, depth);
    buf_printf(out, "reads %s%s: ", r->container ? "the container " : "", r->iri);
    outcome_text(r, out);
    buf_putc(out, '\n');
}

static const char *verdict_text(enum verdict v) {
    switch (v) {
    case HOLDS: return "holds";
    case DOES_NOT_HOLD: return "does not hold";
    case NOT_EVALUATED: return "is not evaluated (the workflow is not active)";
    case NOT_DESCRIBED: return "is not described: its document was not read";
    }
    return "";
}

/* "<#sentry> does not hold", then its description and what it reads, one level deeper. */
static void sentry_text(const sentry_view *s, int depth, buf *out) {
    buf_printf(out, "%s %s\n", s->id, verdict_text(s->verdict));
    if (s->description) {
        indent(out, depth + 1);
        buf_printf(out, "\"%s\"\n", s->description);
    }
    if (s->by_rules) {
        indent(out, depth + 1);
        buf_puts(out, "decided by the rules, not by a query\n");
    } else if (!s->read_count && s->verdict != NOT_DESCRIBED) {
        indent(out, depth + 1);
        buf_puts(out, "reads only this workflow's status\n");
    }
    for (size_t i = 0; i < s->read_count; i++)
        read_text(&s->reads[i], depth + 1, out);
}

static void call_text(const call_view *cv, int depth, buf *out) {
    indent(out, depth);
    buf_printf(out, "call: %s", cv->state ? cv->state : "(no state)");
    if (cv->alternative >= 0) {
        buf_printf(out, ", alternative %ld", cv->alternative);
        if (cv->alternatives >= 0)
            buf_printf(out, " of %ld", cv->alternatives);
        if (cv->request)
            buf_printf(out, " (%s)", cv->request);
    }
    bool calling = cv->state && strcmp(cv->state, "calling") == 0;
    if (calling && cv->retries_left >= 0)
        buf_printf(out, ", %ld retries left", cv->retries_left);
    if (calling && cv->deadline)
        buf_printf(out, ", deadline %s", cv->deadline);
    if (cv->answer_status >= 0)
        buf_printf(out, ", answered %ld", cv->answer_status);
    if (cv->last_failure && (!cv->state || strcmp(cv->state, "answered") != 0))
        buf_printf(out, ", last failure %s", cv->last_failure);
    buf_putc(out, '\n');
    if (cv->sent) {
        indent(out, depth + 1);
        buf_printf(out, "sent %s\n", cv->sent);
    }
    if (cv->bound) {
        indent(out, depth + 1);
        buf_printf(out, "bound %s\n", cv->bound);
    }
}

/* A stage that is not active but one of whose guards holds: an agent's next iteration opens it. */
static bool a_guard_holds(const stage_view *s) {
    for (size_t g = 0; g < s->guard_count; g++)
        for (size_t k = 0; k < s->guards[g].condition_count; k++)
            if (s->guards[g].conditions[k].verdict == HOLDS)
                return true;
    return false;
}

/* held: the instance's writes are held (its held: lines), so no agent sets it up until that is fixed. */
static void why_text(const stage_view *s, int depth, bool held, buf *out) {
    if (s->why == WHY_NONE)
        return;
    indent(out, depth);
    switch (s->why) {
    case WHY_NONE: break;
    case WHY_NOT_SET_UP:
        buf_puts(out, held ? "not set up yet: no agent sets the workflow up while it is held (held: above)\n"
                           : "not set up yet: an agent's next iteration sets the workflow up\n");
        break;
    case WHY_WORKFLOW_COMPLETE: buf_puts(out, "the workflow is complete\n"); break;
    case WHY_PARENT: buf_printf(out, "does not open: its parent \"%s\" is not active\n", s->parent_name); break;
    case WHY_COMPLETED:
        buf_puts(out, "does not open: completed (it runs again when one of its milestones is invalidated or its "
                      "parent opens again)\n");
        break;
    case WHY_NO_GUARD: buf_puts(out, "does not open: it has no guard\n"); break;
    case WHY_GUARDS: {
        buf_puts(out, a_guard_holds(s) ? "opens: a guard holds (an agent's next iteration opens it unless its writes are held)\n"
                            : "does not open: no guard holds\n");
        for (size_t g = 0; g < s->guard_count; g++) {
            const guard_view *gv = &s->guards[g];
            if (!gv->condition_count) {
                indent(out, depth + 1);
                buf_printf(out, "guard \"%s\" has no condition\n", gv->name);
            }
            for (size_t k = 0; k < gv->condition_count; k++) {
                indent(out, depth + 1);
                buf_printf(out, "guard \"%s\": ", gv->name);
                sentry_text(&gv->conditions[k], depth + 1, out);
            }
        }
        break;
    }
    }
}

static void stage_text(const stage_view *s, int depth, bool held, buf *out) {
    indent(out, depth);
    buf_printf(out, "stage \"%s\": %s%s\n", s->name, s->state, s->completed ? ", completed" : "");
    for (size_t i = 0; i < s->milestone_count; i++) {
        const milestone_view *m = &s->milestones[i];
        indent(out, depth + 1);
        buf_printf(out, "milestone \"%s\": %s\n", m->name, m->achieved ? "achieved" : "not achieved");
        for (size_t k = 0; k < m->sentry_count; k++) {
            indent(out, depth + 2);
            buf_puts(out, "closes the stage when ");
            sentry_text(&m->sentries[k], depth + 2, out);
        }
    }
    for (size_t i = 0; i < s->call_count; i++)
        call_text(&s->calls[i], depth + 1, out);
    why_text(s, depth + 1, held, out);
    for (size_t i = 0; i < s->child_count; i++)
        stage_text(&s->children[i], depth + 1, held, out);
    if (s->copies > s->copies_spawned) {
        indent(out, depth + 1);
        buf_printf(out, "%ld of its %ld copies spawned\n", s->copies_spawned, s->copies);
    }
}

/* A value of a transition: achieved/completed flags in words, other values as they are. */
static void transition_values(const transition_view *tv, char **values, size_t n, buf *out) {
    if (!n)
        buf_puts(out, "(none)");
    bool achieved = tv->property && strcmp(tv->property, GSM_isAchieved) == 0;
    bool completed = tv->property && strcmp(tv->property, LDGSM_isCompleted) == 0;
    for (size_t i = 0; i < n; i++) {
        if (i)
            buf_puts(out, ", ");
        bool yes = strcmp(values[i], "true") == 0;
        if (achieved)
            buf_puts(out, yes ? "achieved" : "not achieved");
        else if (completed)
            buf_puts(out, yes ? "completed" : "not completed");
        else
            buf_puts(out, values[i]);
    }
}

/* The held: and waiting: lines, at depth. */
static void waits_text(const status_report *r, int depth, buf *out) {
    for (size_t i = 0; i < r->held_count; i++) {
        indent(out, depth);
        buf_printf(out, "held: %s\n", r->held[i]);
    }
    for (size_t i = 0; i < r->waits_count; i++) {
        indent(out, depth);
        buf_printf(out, "waiting: %s\n", r->waits[i]);
    }
}

/* The calls of s and the stages below it that are not answered, each after its stage's name. */
static void open_calls_text(const stage_view *s, buf *out) {
    for (size_t i = 0; i < s->call_count; i++) {
        const call_view *cv = &s->calls[i];
        if (cv->state && strcmp(cv->state, "answered") == 0)
            continue;
        buf_printf(out, "stage \"%s\" ", s->name);
        call_text(cv, 0, out);
    }
    for (size_t i = 0; i < s->child_count; i++)
        open_calls_text(&s->children[i], out);
}

void status_report_why_text(const status_report *r, buf *out) {
    if (r->error) {
        buf_printf(out, "cannot be shown: %s\n", r->error);
        return;
    }
    waits_text(r, 0, out);
    if (r->root.why == WHY_NOT_SET_UP || r->root.why == WHY_WORKFLOW_COMPLETE)
        why_text(&r->root, 0, r->held_count > 0, out);
    open_calls_text(&r->root, out);
}

void status_report_text(const status_report *r, buf *out) {
    buf_printf(out, "%s\n", r->instance);
    if (r->error) {
        buf_printf(out, "  cannot be shown: %s\n", r->error);
        return;
    }
    buf_printf(out, "  workflow \"%s\" <%s>\n", r->root.name, r->model);
    waits_text(r, 1, out);
    stage_text(&r->root, 0, r->held_count > 0, out);
    if (!r->transitions_recorded) {
        buf_puts(out, "last transitions: no history recorded\n");
        return;
    }
    buf_printf(out, "last transitions (%zu of %zu):\n", r->history_count, r->transitions_recorded);
    for (size_t i = 0; i < r->history_count; i++) {
        const transition_view *tv = &r->history[i];
        /* the time of day of "YYYY-MM-DDThh:mm:ss.sssZ" */
        const char *tee = tv->at ? strchr(tv->at, 'T') : NULL;
        size_t len = tee ? strcspn(tee + 1, "Z") : 0;
        buf_printf(out, "  %.*s %s", (int)len, tee ? tee + 1 : "", tv->name);
        if (tv->property && strcmp(tv->property, GSM_hasState) != 0 &&
            strcmp(tv->property, GSM_isAchieved) != 0 && strcmp(tv->property, LDGSM_isCompleted) != 0) {
            char *property = iri_short(tv->property);
            buf_printf(out, " %s", property);
            free(property);
        }
        buf_puts(out, ": ");
        transition_values(tv, tv->from, tv->from_count, out);
        buf_puts(out, " -> ");
        transition_values(tv, tv->to, tv->to_count, out);
        buf_putc(out, '\n');
    }
}

/* --- JSON ------------------------------------------------------------------------------------------- */

static json_t *read_json(const read_view *r) {
    return json_pack("{s:o, s:b, s:o, s:o, s:s}",
                     "resource", json_out_string(r->iri),
                     "container", r->container,
                     "status", json_out_count(r->known && !r->failure ? r->status : -1),
                     "failure", json_out_string(r->failure),
                     "outcome", outcome_names[outcome(r)]);
}

static json_t *sentry_json(const sentry_view *s) {
    static const char *const verdicts[] = {"holds", "does not hold", "not evaluated", "not described"};
    json_t *holds = s->verdict == HOLDS ? json_true() : s->verdict == DOES_NOT_HOLD ? json_false() : json_null();
    json_t *reads = json_array();
    for (size_t i = 0; i < s->read_count; i++)
        json_array_append_new(reads, read_json(&s->reads[i]));
    return json_pack("{s:o, s:o, s:o, s:s, s:b, s:o}",
                     "sentry", json_out_string(s->iri),
                     "description", json_out_string(s->description),
                     "holds", holds,
                     "verdict", verdicts[s->verdict],
                     "byRules", s->by_rules,
                     "reads", reads);
}

static json_t *sentries_json(const sentry_view *s, size_t n) {
    json_t *array = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(array, sentry_json(&s[i]));
    return array;
}

static json_t *milestone_json(const milestone_view *m) {
    return json_pack("{s:o, s:o, s:o, s:b, s:o}",
                     "model", json_out_string(m->model),
                     "name", json_out_string(m->name),
                     "fragment", json_out_string(m->fragment),
                     "achieved", m->achieved,
                     "achievingSentries", sentries_json(m->sentries, m->sentry_count));
}

static json_t *call_json(const call_view *cv) {
    return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
                     "record", json_out_string(cv->record),
                     "state", json_out_string(cv->state),
                     "alternative", json_out_count(cv->alternative),
                     "alternatives", json_out_count(cv->alternatives),
                     "request", json_out_string(cv->request),
                     "sent", json_out_string(cv->sent),
                     "bound", json_out_string(cv->bound),
                     "retriesLeft", json_out_count(cv->retries_left),
                     "deadline", json_out_string(cv->deadline),
                     "lastFailure", json_out_string(cv->last_failure),
                     "answerStatus", json_out_count(cv->answer_status));
}

/* Why the stage is not active: null when it is. */
static json_t *why_json(const stage_view *s) {
    static const char *const whys[] = {NULL, "not set up", "workflow complete", "parent not active", "completed",
                                       "no guard", "no guard holds"};
    if (s->why == WHY_NONE)
        return json_null();
    json_t *guards = json_array();
    for (size_t g = 0; g < s->guard_count; g++)
        json_array_append_new(guards, json_pack("{s:o, s:o, s:o}",
                                                "guard", json_out_string(s->guards[g].iri),
                                                "name", json_out_string(s->guards[g].name),
                                                "conditions", sentries_json(s->guards[g].conditions,
                                                                            s->guards[g].condition_count)));
    return json_pack("{s:s, s:o, s:o}",
                     "reason", s->why == WHY_GUARDS && a_guard_holds(s) ? "a guard holds" : whys[s->why],
                     "parent", json_out_string(s->parent_name),
                     "guards", guards);
}

static json_t *stage_json(const stage_view *s) {
    json_t *milestones = json_array(), *calls = json_array(), *children = json_array();
    for (size_t i = 0; i < s->milestone_count; i++)
        json_array_append_new(milestones, milestone_json(&s->milestones[i]));
    for (size_t i = 0; i < s->call_count; i++)
        json_array_append_new(calls, call_json(&s->calls[i]));
    for (size_t i = 0; i < s->child_count; i++)
        json_array_append_new(children, stage_json(&s->children[i]));
    return json_pack("{s:o, s:o, s:o, s:o, s:b, s:o, s:o, s:o, s:o, s:o, s:o}",
                     "model", json_out_string(s->model),
                     "name", json_out_string(s->name),
                     "fragment", json_out_string(s->fragment),
                     "state", json_out_string(s->state),
                     "completed", s->completed,
                     "milestones", milestones,
                     "calls", calls,
                     "whyNot", why_json(s),
                     "children", children,
                     "copies", json_out_count(s->copies),
                     "copiesSpawned", json_out_count(s->copies_spawned));
}

static json_t *transition_json(const transition_view *tv) {
    return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
                     "sequence", json_out_count(tv->sequence),
                     "at", json_out_string(tv->at),
                     "changed", json_out_string(tv->changed),
                     "name", json_out_string(tv->name),
                     "property", json_out_string(tv->property),
                     "from", json_out_strings(tv->from, tv->from_count),
                     "to", json_out_strings(tv->to, tv->to_count));
}

void status_report_json(const status_report *r, buf *out) {
    json_t *report = json_pack("{s:o, s:o}",
                               "instance", json_out_string(r->instance),
                               "error", json_out_string(r->error));
    if (!r->error) {
        json_t *history = json_array();
        for (size_t i = 0; i < r->history_count; i++)
            json_array_append_new(history, transition_json(&r->history[i]));
        json_object_update_new(report, json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}",
                                                 "model", json_out_string(r->model),
                                                 "held", json_out_strings(r->held, r->held_count),
                                                 "waiting", json_out_strings(r->waits, r->waits_count),
                                                 "root", stage_json(&r->root),
                                                 "transitionsRecorded", json_out_count((long)r->transitions_recorded),
                                                 "history", history));
    }
    json_out_line(report, out);
}
