/* ldp_streaming.c: StreamingHTTPChannel2023 responses (ldp_streaming.h): the content reader that copies
 * a stream's notifications out, suspending its connection while there are none. */
#include "ldp/ldp_streaming.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

/* One stream's response. */
typedef struct stream {
    ldp_notify *notify;
    ldp_notify_channel *channel;
    buf message; /* the notification being sent */
    size_t sent; /* its bytes sent */
} stream;

static void suspend(void *connection) { MHD_suspend_connection(connection); }
static void resume(void *connection) { MHD_resume_connection(connection); }

/* Whether a suspended connection's client closed it: its socket reads the end of the stream or an error.
 * (It stays open while suspended: libmicrohttpd closes a connection only once it is resumed.) */
static bool gone(void *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    char byte;
    ssize_t n = info ? recv(info->connect_fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT) : -1;
    return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
}

void ldp_streaming_init(ldp_notify *notify) { ldp_notify_set_stream_control(notify, suspend, resume, gone); }

static ssize_t read_stream(void *user, uint64_t position, char *out, size_t max) {
    (void)position;
    stream *s = user;
    if (s->sent == s->message.len) {
        s->sent = s->message.len = 0;
        switch (ldp_notify_stream_next(s->notify, s->channel, &s->message)) {
        case LDP_NOTIFY_SEND: break;
        case LDP_NOTIFY_IDLE: return 0; /* suspended until a notification comes */
        default: return MHD_CONTENT_READER_END_OF_STREAM;
        }
    }
    size_t n = s->message.len - s->sent < max ? s->message.len - s->sent : max;
    memcpy(out, s->message.data + s->sent, n);
    s->sent += n;
    return (ssize_t)n;
}

static void close_stream(void *user) {
    stream *s = user;
    ldp_notify_stream_close(s->notify, s->channel);
    buf_free(&s->message);
    free(s);
}

struct MHD_Response *ldp_streaming_open(ldp_notify *notify, struct MHD_Connection *connection, const char *path,
                                        const char *client, ldp_notify_answer *refusal) {
    ldp_notify_channel *channel = ldp_notify_stream_open(notify, path, client, connection, refusal);
    if (!channel)
        return NULL;
    stream *s = xcalloc(1, sizeof *s);
    s->notify = notify;
    s->channel = channel;
    struct MHD_Response *response =
        MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096, read_stream, s, close_stream);
    if (!response) {
        close_stream(s);
        refusal->status = 500;
        buf_puts(&refusal->body, "Internal Server Error: no memory for the stream\n");
        refusal->content_type = "text/plain; charset=utf-8";
        return NULL;
    }
    MHD_add_response_header(response, "Content-Type", "text/turtle");
    MHD_add_response_header(response, "Cache-Control", "no-store");
    return response;
}
