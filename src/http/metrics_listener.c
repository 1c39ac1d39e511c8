/* metrics_listener.c: GET /metrics on libmicrohttpd (metrics_listener.h). */
#include "http/metrics_listener.h"

#include <arpa/inet.h>
#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http/listen_address.h"

struct metrics_listener {
    struct MHD_Daemon *daemon;
    metrics_render_fn render;
    void *user;
    char url[96];
};

static enum MHD_Result answer(struct MHD_Connection *c, unsigned status, const char *type, buf *body) {
    struct MHD_Response *r = MHD_create_response_from_buffer(body->len, body->data, MHD_RESPMEM_MUST_COPY);
    MHD_add_response_header(r, "Content-Type", type);
    enum MHD_Result rc = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    buf_free(body);
    return rc;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                                  const char *version, const char *upload_data, size_t *upload_size, void **state) {
    (void)version;
    (void)upload_data;
    metrics_listener *l = cls;
    if (!*state) { /* the head: answer once it is complete, leaving any body unread */
        *state = l;
        return MHD_YES;
    }
    *upload_size = 0;
    buf body = {0};
    if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0) {
        buf_puts(&body, "only GET\n");
        return answer(c, 405, "text/plain; charset=utf-8", &body);
    }
    if (strcmp(url, "/metrics") != 0) {
        buf_puts(&body, "the metrics are at /metrics\n");
        return answer(c, 404, "text/plain; charset=utf-8", &body);
    }
    l->render(l->user, &body);
    return answer(c, 200, "text/plain; version=0.0.4; charset=utf-8", &body);
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
    bool v6 = sa.ss_family == AF_INET6;
    char host[INET6_ADDRSTRLEN];
    inet_ntop(sa.ss_family, v6 ? (void *)&((struct sockaddr_in6 *)&sa)->sin6_addr
                               : (void *)&((struct sockaddr_in *)&sa)->sin_addr, host, sizeof host);
    metrics_listener *l = xcalloc(1, sizeof *l);
    l->render = render;
    l->user = user;
    l->daemon = MHD_start_daemon(MHD_USE_AUTO_INTERNAL_THREAD | (v6 ? MHD_USE_IPv6 : 0), 0, NULL, NULL, on_request,
                                 l, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa, MHD_OPTION_CONNECTION_LIMIT,
                                 (unsigned)METRICS_MAX_CONNECTIONS, MHD_OPTION_CONNECTION_TIMEOUT,
                                 (unsigned)METRICS_IDLE_SECS, MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)16384,
                                 MHD_OPTION_END);
    if (!l->daemon) {
        snprintf(error, error_len, "--metrics %s: cannot listen there (in use, or not an address of this machine)",
                 address);
        free(l);
        return NULL;
    }
    const union MHD_DaemonInfo *port = MHD_get_daemon_info(l->daemon, MHD_DAEMON_INFO_BIND_PORT);
    snprintf(l->url, sizeof l->url, v6 ? "http://[%s]:%u/metrics" : "http://%s:%u/metrics", host,
             (unsigned)port->port);
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
