/* fuzz_web_link.c: libFuzzer target for Link header values (rdf/web_link.h), which both the server (a
 * client's interaction model) and the agent (a server's storage description) read from strangers: every
 * link read lies inside the value, the reading ends, and a rel is looked up without reading past a link. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rdf/web_link.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *value = malloc(size + 1); /* a header field value: the client hands it over NUL-terminated */
    if (!value)
        return 0;
    memcpy(value, data, size);
    value[size] = '\0';
    const char *end = value + strlen(value);
    web_link link;
    size_t links = 0;
    for (const char *cursor = value; web_link_next(&cursor, &link); links++) {
        if (link.target < value || link.target + link.target_len > end || link.params > link.params_end ||
            link.params_end > end || cursor > end || links > size)
            abort();
        (void)web_link_has_rel(&link, "type");
        (void)web_link_has_rel(&link, "http://www.w3.org/ns/solid/terms#storageDescription");
    }
    free(value);
    return 0;
}
