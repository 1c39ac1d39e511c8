/* listener.c: listener.h on libmicrohttpd. */
#include "http/listener.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Bytes a connection may hold for a request's head and buffers. */
enum { CONNECTION_MEMORY = 16384 };

void listener_host(const struct sockaddr_storage *sa, char host[INET6_ADDRSTRLEN]) {
    const void *address = sa->ss_family == AF_INET6 ? (const void *)&((const struct sockaddr_in6 *)sa)->sin6_addr
                                                    : (const void *)&((const struct sockaddr_in *)sa)->sin_addr;
    inet_ntop(sa->ss_family, address, host, INET6_ADDRSTRLEN);
}

struct MHD_Daemon *listener_start(const struct sockaddr_storage *sa, const listener_config *config, char *base,
                                  size_t base_size) {
    bool v6 = sa->ss_family == AF_INET6;
    struct MHD_Daemon *daemon = MHD_start_daemon(
        MHD_USE_AUTO_INTERNAL_THREAD | (v6 ? MHD_USE_IPv6 : 0), 0, NULL, NULL, config->on_request, config->user,
        MHD_OPTION_SOCK_ADDR, (const struct sockaddr *)sa, MHD_OPTION_NOTIFY_COMPLETED, config->on_completed,
        config->user, MHD_OPTION_CONNECTION_LIMIT, config->max_connections, MHD_OPTION_CONNECTION_TIMEOUT,
        config->idle_secs, MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)CONNECTION_MEMORY, MHD_OPTION_END);
    if (!daemon)
        return NULL;
    char host[INET6_ADDRSTRLEN];
    listener_host(sa, host);
    const union MHD_DaemonInfo *port = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    snprintf(base, base_size, v6 ? "http://[%s]:%u" : "http://%s:%u", host, (unsigned)port->port);
    return daemon;
}

enum MHD_Result listener_answer(struct MHD_Connection *c, unsigned status, const char *type, const char *body,
                                size_t len) {
    struct MHD_Response *r = MHD_create_response_from_buffer(len, (void *)body, MHD_RESPMEM_MUST_COPY);
    MHD_add_response_header(r, "Content-Type", type);
    enum MHD_Result rc = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return rc;
}

enum MHD_Result listener_answer_text(struct MHD_Connection *c, unsigned status, const char *text) {
    return listener_answer(c, status, "text/plain; charset=utf-8", text, strlen(text));
}
