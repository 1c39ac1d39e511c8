/* listen_address.c: ADDR:PORT into a socket address (listen_address.h). */
#include "http/listen_address.h"

#include <netdb.h>
#include <stdlib.h>
#include <string.h>

bool listen_address_parse(const char *address, struct sockaddr_storage *sa, socklen_t *len) {
    const char *colon = strrchr(address, ':');
    if (!colon || colon == address || !colon[1] || strspn(colon + 1, "0123456789") != strlen(colon + 1) ||
        strlen(colon + 1) > 5 || atoi(colon + 1) > 65535)
        return false;
    char host[64];
    size_t host_len = (size_t)(colon - address);
    if (address[0] == '[' && colon[-1] == ']') {
        address++;
        host_len -= 2;
    }
    if (host_len == 0 || host_len >= sizeof host)
        return false;
    memcpy(host, address, host_len);
    host[host_len] = '\0';
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
                             .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE};
    struct addrinfo *found = NULL;
    if (getaddrinfo(host, colon + 1, &hints, &found) != 0)
        return false;
    memcpy(sa, found->ai_addr, found->ai_addrlen);
    *len = found->ai_addrlen;
    freeaddrinfo(found);
    return true;
}
