/* listener.h: the agent's own small HTTP listeners (--webhook, --metrics) on libmicrohttpd: a daemon with
 * its own thread on an address listen_address.h parsed, bounded in connections, idle time and memory per
 * connection, its base URL, and plain answers. */
#ifndef LDGSM_HTTP_LISTENER_H
#define LDGSM_HTTP_LISTENER_H

#include <arpa/inet.h>
#include <microhttpd.h>
#include <stddef.h>
#include <sys/socket.h>

typedef struct listener_config {
    MHD_AccessHandlerCallback on_request;
    MHD_RequestCompletedCallback on_completed; /* NULL: none */
    void *user;                                /* both callbacks' first argument */
    unsigned max_connections;                  /* more are closed at once */
    unsigned idle_secs;                        /* a connection without traffic this long is closed */
} listener_config;

/* The numeric host of sa, without brackets. */
void listener_host(const struct sockaddr_storage *sa, char host[INET6_ADDRSTRLEN]);
/* Starts a daemon listening on sa, with config; writes its base URL, "http://HOST:PORT" ("[HOST]" for
 * IPv6, the port it got for port 0), to base. NULL when it cannot listen there. */
struct MHD_Daemon *listener_start(const struct sockaddr_storage *sa, const listener_config *config, char *base,
                                  size_t base_size);
/* Queues an answer of status with a copy of body as Content-Type type. */
enum MHD_Result listener_answer(struct MHD_Connection *c, unsigned status, const char *type, const char *body,
                                size_t len);
/* The same with text as text/plain. */
enum MHD_Result listener_answer_text(struct MHD_Connection *c, unsigned status, const char *text);

#endif
