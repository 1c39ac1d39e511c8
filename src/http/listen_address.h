/* listen_address.h: ADDR:PORT, as the agent's own listeners take it (--webhook, --metrics): a numeric
 * IPv4 address or [IPv6], a port from 0 (any free one) to 65535. */
#ifndef LDGSM_HTTP_LISTEN_ADDRESS_H
#define LDGSM_HTTP_LISTEN_ADDRESS_H

#include <stdbool.h>
#include <sys/socket.h>

/* The socket address ADDR:PORT names; false when it is not one. */
bool listen_address_parse(const char *address, struct sockaddr_storage *sa, socklen_t *len);

#endif
