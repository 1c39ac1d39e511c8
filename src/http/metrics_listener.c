/* metrics_listener.c: GET /metrics on libmicrohttpd (metrics_listener.h). */
#include "http/metrics_listener.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http/listen_address.h"
#include "http/listener.h"

struct metrics_listener {
    struct MHD_Daemon *daemon;
    metrics_render_fn render;
    void *user;
    char url[96];
};

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                                  const char *version, const char *upload_data, size_t *upload_size, void **state) {
    (void)version;
    (void)upload_data;
    metrics_listener *l = cls;
    if (!*state) { /* the head: answer once it is complete, leaving any body unread */
        /* Another method at once, before its body: answered after a body, it got an empty reply. */
        if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
            return listener_answer_text(c, 405, "only GET\n");
        *state = l;
        return MHD_YES;
    }
    *upload_size = 0;
    if (strcmp(url, "/metrics") != 0)
        return listener_answer_text(c, 404, "the metrics are at /metrics\n");
    buf body = {0};
    l->render(l->user, &body);
    enum MHD_Result rc = listener_answer(c, 200, "text/plain; version=0.0.4; charset=utf-8", body.data, body.len);
    buf_free(&body);
    return rc;
}

metrics_listener *metrics_listener_new(const char *address, metrics_render_fn render, void *user, char *error,
                                       size_t error_len) {
    buf given = {0};
    if (strspn(address, "0123456789") == strlen(address))
        buf_printf(&given, "127.0.0.1:%s", address); /* guarantee 3 */
    else
        buf_puts(&given, address);
    struct sockaddr_storage sa;
    socklen_t sa_len;
    bool parsed = listen_address_parse(buf_cstr(&given), &sa, &sa_len);
    buf_free(&given);
    if (!parsed) {
        snprintf(error, error_len, "--metrics wants ADDR:PORT or PORT (a numeric address, [ADDR] for IPv6; port 0: "
                 "any free one), not '%s'", address);
        return NULL;
    }
    metrics_listener *l = xcalloc(1, sizeof *l);
    l->render = render;
    l->user = user;
    listener_config config = {on_request, NULL, l, METRICS_MAX_CONNECTIONS, METRICS_IDLE_SECS};
    char base[sizeof l->url - sizeof "/metrics" + 1];
    l->daemon = listener_start(&sa, &config, base, sizeof base);
    if (!l->daemon) {
        snprintf(error, error_len, "--metrics %s: cannot listen there (in use, or not an address of this machine)",
                 address);
        free(l);
        return NULL;
    }
    snprintf(l->url, sizeof l->url, "%s/metrics", base);
    return l;
}

void metrics_listener_free(metrics_listener *l) {
    if (!l)
        return;
    MHD_stop_daemon(l->daemon);
    free(l);
}

const char *metrics_listener_url(const metrics_listener *l) {
    return l->url;
}
