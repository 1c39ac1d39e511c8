/* ldp_streaming.h: StreamingHTTPChannel2023 responses of the LDP server (ldp_notify.h note 8) on
 * libmicrohttpd: a response of unknown length whose reader hands out the stream's notifications.
 *
 * A stream holds its HTTP connection for its lifetime without a request thread: when it has nothing to
 * send its reader suspends the connection (MHD_suspend_connection; the daemon needs
 * MHD_ALLOW_SUSPEND_RESUME), and a notification resumes it. A suspended connection is not timed out, so
 * the idle timeout does not cut a quiet stream; while the connection sends, the idle timeout applies as to
 * any response (a client that stops reading is cut off by it). Streams count against the connection
 * limits, so ldp_notify bounds them to a part of those (ldp_server). */
#ifndef LDGSM_LDP_STREAMING_H
#define LDGSM_LDP_STREAMING_H

#include <microhttpd.h>

#include "ldp/ldp_notify.h"

/* Makes notify suspend and resume streams' connections; call before serving. */
void ldp_streaming_init(ldp_notify *notify);

/* The response to a GET of path (under LDP_NOTIFY_STREAM_PATH) on connection from client: 200 text/turtle
 * streaming the topic's notifications; NULL with refusal (404, 429, 503) when there is no such stream. */
struct MHD_Response *ldp_streaming_open(ldp_notify *notify, struct MHD_Connection *connection, const char *path,
                                        const char *client, ldp_notify_answer *refusal);

#endif
