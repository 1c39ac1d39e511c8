/* oidc_token.c: the Solid-OIDC session (oidc_token.h): issuer discovery, the client credentials grant
 * with a DPoP proof, renewal, and the http_client hook that puts a token and a fresh proof on every hop
 * to the session's origins. Token requests go through an http_client of the session's own (the hook runs
 * inside the agent client's batch). JSON with jansson, base64 with nettle. */
#include "http/oidc_token.h"

#include <curl/curl.h>
#include <jansson.h>
#include <nettle/base64.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "http/dpop.h"
#include "http/http_url.h"
#include "rdf/buf.h"
#include "rdf/rdfio.h"
#include "rdf/store.h"
#include "rdf/term.h"

enum { ERROR_SIZE = 640 }; /* a URL, an HTTP failure message and some words */

struct oidc_session {
    auth_credentials cred;
    char **origins; /* where tokens go */
    size_t origin_count;
    const log_sink *log;
    http_client *http; /* the token requests' own */
    dpop_key *key;
    char *token_endpoint, *issuer_origin;
    char *token;            /* NULL: none yet */
    unsigned generation;    /* of the token: counts the tokens obtained */
    double renew_at, expires_at; /* CLOCK_MONOTONIC seconds */
    double failed_until;    /* guarantee 4 */
    char last_error[ERROR_SIZE];
};

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static char *copy_of(const char *s) { return xstrndup(s, strlen(s)); }

/* One request on the session's client; 0 and a 2xx answer in *r, else -1 and error says why (what names
 * the request for the message). */
static int fetch(oidc_session *s, const http_request *rq, http_result *r, const char *what, char *error,
                 size_t error_len) {
    http_run(s->http, rq, 1, r);
    if (r->failure != HTTP_FAIL_NONE) {
        snprintf(error, error_len, "%s %s: %s (%s)", what, rq->url, http_failure_name(r->failure), r->message);
        return -1;
    }
    if (r->status >= 200 && r->status < 300)
        return 0;
    /* an OAuth error answer names its error code (RFC 6749 5.2); anything else only its status */
    json_t *body = r->body.len ? json_loadb(r->body.data, r->body.len, 0, NULL) : NULL;
    const char *code = json_string_value(json_object_get(body, "error"));
    bool bad_client = code && (strcmp(code, "invalid_client") == 0 || strcmp(code, "unauthorized_client") == 0);
    snprintf(error, error_len, "%s %s answered %ld%s%s%s%s", what, rq->url, r->status, code ? " (" : "",
             code ? code : "", code ? ")" : "", bad_client ? ": wrong client_id or client_secret?" : "");
    json_decref(body);
    return -1;
}

/* The JSON object of a 2xx answer, or NULL and error says why. */
static json_t *json_answer(const http_result *r, const char *what, const char *url, char *error, size_t error_len) {
    json_t *obj = r->body.len ? json_loadb(r->body.data, r->body.len, 0, NULL) : NULL;
    if (!json_is_object(obj)) {
        snprintf(error, error_len, "%s %s answered %ld with %s", what, url, r->status,
                 r->body.len ? "a body that is not a JSON object" : "no body");
        json_decref(obj);
        return NULL;
    }
    return obj;
}

/* The issuer a WebID's profile names (solid:oidcIssuer), or NULL and error says why. */
static char *issuer_of_webid(oidc_session *s, const char *webid, char *error, size_t error_len) {
    http_header accept = {"Accept", "text/turtle"};
    http_request rq = {.method = "GET", .url = webid, .headers = &accept, .header_count = 1};
    http_result r;
    char *issuer = NULL;
    if (fetch(s, &rq, &r, "the WebID", error, error_len) == 0) {
        terms *t = terms_new();
        rdfio *io = rdfio_new(t);
        store *st = store_new();
        rdf_error perr = {0};
        char *doc = http_url_without_fragment(r.final_url ? r.final_url : webid);
        enum rdf_syntax syntax = rdf_syntax_from_media_type(r.content_type ? r.content_type : "text/turtle");
        if (rdf_parse(io, st, syntax ? syntax : RDF_TURTLE, r.body.data, r.body.len, doc, 0, webid, &perr) != 0) {
            snprintf(error, error_len, "the WebID %s: its profile does not parse", webid);
        } else {
            term_id o = store_first_object(st, terms_iri_cstr(t, webid),
                                           terms_iri_cstr(t, "http://www.w3.org/ns/solid/terms#oidcIssuer"));
            if (o && terms_kind(t, o) == TERM_IRI)
                issuer = copy_of(terms_lex(t, o, NULL));
            else
                snprintf(error, error_len, "the WebID %s names no solid:oidcIssuer", webid);
        }
        free(doc);
        store_free(st);
        rdfio_free(io);
        terms_free(t);
    }
    http_result_free(&r);
    return issuer;
}

/* The token endpoint from the issuer's configuration (guarantee 1); 0, or -1 and error says why. */
static int discover(oidc_session *s, char *error, size_t error_len) {
    if (!s->cred.issuer && !(s->cred.issuer = issuer_of_webid(s, s->cred.webid, error, error_len)))
        return -1;
    s->issuer_origin = http_url_origin(s->cred.issuer);
    if (!s->issuer_origin) {
        snprintf(error, error_len, "the issuer %s is not an http or https URL", s->cred.issuer);
        return -1;
    }
    buf url = {0};
    buf_puts(&url, s->cred.issuer);
    while (url.len && url.data[url.len - 1] == '/')
        url.len--;
    buf_puts(&url, "/.well-known/openid-configuration");
    http_header accept = {"Accept", "application/json"};
    http_request rq = {.method = "GET", .url = buf_cstr(&url), .headers = &accept, .header_count = 1};
    http_result r;
    int rc = -1;
    json_t *conf = NULL;
    if (fetch(s, &rq, &r, "the issuer's configuration", error, error_len) == 0 &&
        (conf = json_answer(&r, "the issuer's configuration", rq.url, error, error_len))) {
        const char *endpoint = json_string_value(json_object_get(conf, "token_endpoint"));
        char *origin = endpoint ? http_url_origin(endpoint) : NULL;
        json_t *algs = json_object_get(conf, "dpop_signing_alg_values_supported");
        bool es256 = !algs;
        for (size_t i = 0; i < json_array_size(algs); i++)
            es256 |= strcmp(json_string_value(json_array_get(algs, i)) ?: "", "ES256") == 0;
        if (!endpoint)
            snprintf(error, error_len, "the issuer's configuration %s names no token_endpoint", rq.url);
        else if (!origin || strcmp(origin, s->issuer_origin) != 0)
            snprintf(error, error_len, "the token endpoint %s is not on the issuer's origin %s (the secret goes only there)",
                     endpoint, s->issuer_origin);
        else if (!es256)
            snprintf(error, error_len, "the issuer %s does not take ES256 DPoP proofs", s->cred.issuer);
        else {
            s->token_endpoint = copy_of(endpoint);
            rc = 0;
        }
        free(origin);
    }
    json_decref(conf);
    http_result_free(&r);
    buf_free(&url);
    return rc;
}

/* "Basic base64(urlencode(id):urlencode(secret))" (RFC 6749 2.3.1); the caller zeroes and frees it. */
static char *basic_credentials(const auth_credentials *c) {
    char *id = curl_easy_escape(NULL, c->client_id, 0), *secret = curl_easy_escape(NULL, c->client_secret, 0);
    if (!id || !secret)
        abort(); /* libcurl fails only without memory */
    buf pair = {0};
    buf_printf(&pair, "%s:%s", id, secret);
    explicit_bzero(secret, strlen(secret));
    curl_free(id);
    curl_free(secret);
    struct base64_encode_ctx ctx;
    base64_encode_init(&ctx);
    buf out = {0};
    buf_puts(&out, "Basic ");
    buf_reserve(&out, BASE64_ENCODE_LENGTH(pair.len) + BASE64_ENCODE_FINAL_LENGTH + 1);
    out.len += base64_encode_update(&ctx, out.data + out.len, pair.len, (const uint8_t *)pair.data);
    out.len += base64_encode_final(&ctx, out.data + out.len);
    explicit_bzero(pair.data, pair.len);
    buf_free(&pair);
    return buf_cstr(&out);
}

/* A token fits in a header: RFC 6750's token68 characters only. */
static bool is_token68(const char *s) {
    if (!*s)
        return false;
    for (; *s; s++)
        if (!(strchr("-._~+/=", *s) || (*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
            return false;
    return true;
}

static void forget_token(oidc_session *s) {
    if (s->token)
        explicit_bzero(s->token, strlen(s->token));
    free(s->token);
    s->token = NULL;
}

/* The client credentials grant: a new token (guarantee 3); 0, or -1 and error says why. */
static int obtain(oidc_session *s, char *error, size_t error_len) {
    char *proof = dpop_proof(s->key, "POST", s->token_endpoint, NULL);
    char *basic = basic_credentials(&s->cred);
    http_header headers[] = {{"Content-Type", "application/x-www-form-urlencoded"}, {"Accept", "application/json"},
                             {"Authorization", basic}, {"DPoP", proof}};
    static const char body[] = "grant_type=client_credentials&scope=webid";
    http_request rq = {.method = "POST", .url = s->token_endpoint, .headers = headers, .header_count = 4,
                       .body = body, .body_len = sizeof body - 1};
    http_result r;
    int rc = fetch(s, &rq, &r, "the token endpoint", error, error_len);
    explicit_bzero(basic, strlen(basic));
    free(basic);
    free(proof);
    json_t *answer = rc == 0 ? json_answer(&r, "the token endpoint", s->token_endpoint, error, error_len) : NULL;
    if (rc == 0 && answer) {
        const char *token = json_string_value(json_object_get(answer, "access_token"));
        const char *type = json_string_value(json_object_get(answer, "token_type"));
        json_t *expires = json_object_get(answer, "expires_in");
        rc = -1;
        if (!token || !is_token68(token))
            snprintf(error, error_len, "the token endpoint %s answered without a usable access_token", s->token_endpoint);
        else if (!type || strcasecmp(type, "DPoP") != 0)
            snprintf(error, error_len, "the token endpoint %s gave a token of type %s, not DPoP", s->token_endpoint,
                     type ? type : "(none)");
        else if (expires && (!json_is_number(expires) || json_number_value(expires) <= 0))
            snprintf(error, error_len, "the token endpoint %s answered an expires_in that is not a positive number",
                     s->token_endpoint);
        else {
            /* without expires_in the token lasts until a 401 says otherwise; renewed after 5 minutes anyway */
            double life = expires ? json_number_value(expires) : 300, now = now_s();
            double margin = life / 4 < 60 ? life / 4 : 60;
            forget_token(s);
            s->token = copy_of(token);
            s->generation++;
            s->expires_at = now + life;
            s->renew_at = now + life - margin;
            log_msg(s->log, LOG_INFO, "auth: access token %u from %s, for %.0f s", s->generation, s->token_endpoint, life);
            rc = 0;
        }
        explicit_bzero((char *)(token ? token : ""), token ? strlen(token) : 0);
    } else {
        rc = -1;
    }
    json_decref(answer);
    if (r.body.data)
        explicit_bzero(r.body.data, r.body.len);
    http_result_free(&r);
    return rc;
}

static bool hop_headers(void *ctx, const char *origin, const char *method, const char *url, bool renew,
                        unsigned *generation, buf *lines, char *error, size_t error_len) {
    oidc_session *s = ctx;
    size_t i = 0;
    while (i < s->origin_count && strcmp(s->origins[i], origin) != 0)
        i++;
    if (i == s->origin_count)
        return true; /* not an origin the token goes to */
    double now = now_s();
    bool due = renew ? *generation == s->generation : now >= s->renew_at;
    if (due && now < s->failed_until) {
        due = false; /* guarantee 4: the last failure stands for a second */
        if (renew || now >= s->expires_at) { /* after a 401 the old token is known to be refused */
            snprintf(error, error_len, "no access token: %s", s->last_error);
            return false;
        }
    }
    if (due) {
        char why[ERROR_SIZE];
        if (obtain(s, why, sizeof why) != 0) {
            snprintf(s->last_error, sizeof s->last_error, "%s", why);
            s->failed_until = now + 1;
            log_msg(s->log, LOG_ERROR, "auth: %s", why);
            if (renew || now >= s->expires_at) {
                snprintf(error, error_len, "no access token: %s", why);
                return false;
            }
        }
    }
    char *proof = dpop_proof(s->key, method, url, s->token);
    if (!proof) {
        snprintf(error, error_len, "no DPoP proof for %s", url);
        return false;
    }
    buf_printf(lines, "Authorization: DPoP %s\nDPoP: %s\n", s->token, proof);
    free(proof);
    *generation = s->generation;
    return true;
}

http_auth oidc_session_hook(oidc_session *s) { return (http_auth){.hop_headers = hop_headers, .ctx = s}; }

unsigned oidc_session_tokens(const oidc_session *s) { return s->generation; }

oidc_session *oidc_session_new(auth_credentials *cred, const char *const *origins, size_t origin_count,
                               const http_options *http, char *error, size_t error_len) {
    oidc_session *s = xcalloc(1, sizeof *s);
    s->cred = *cred;
    *cred = (auth_credentials){0};
    s->log = http ? http->log : NULL;
    s->origins = xcalloc(origin_count + 1, sizeof *s->origins);
    for (size_t i = 0; i < origin_count; i++)
        if ((s->origins[s->origin_count] = http_url_origin(origins[i])))
            s->origin_count++;
    http_options o = http ? *http : http_options_default();
    o.stop = NULL; /* a token is fetched for a request that goes even when stopping */
    s->http = http_client_new(&o);
    char why[ERROR_SIZE];
    if (!s->http) {
        snprintf(error, error_len, "--auth: cannot start the HTTP client");
    } else if (!(s->key = dpop_key_new())) {
        snprintf(error, error_len, "--auth: no random bytes for a DPoP key");
    } else if (discover(s, why, sizeof why) != 0 || obtain(s, why, sizeof why) != 0) {
        snprintf(error, error_len, "--auth: %s", why);
    } else {
        return s;
    }
    oidc_session_free(s);
    return NULL;
}

void oidc_session_free(oidc_session *s) {
    if (!s)
        return;
    forget_token(s);
    auth_credentials_free(&s->cred);
    for (size_t i = 0; i < s->origin_count; i++)
        free(s->origins[i]);
    free(s->origins);
    http_client_free(s->http);
    dpop_key_free(s->key);
    free(s->token_endpoint);
    free(s->issuer_origin);
    free(s);
}
