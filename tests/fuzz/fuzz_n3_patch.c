/* fuzz_n3_patch.c: libFuzzer target for N3 Patch (ldp_patch.h): any bytes, as a patch applied to a small
 * resource, must be applied or refused with a status and a message, never crash, overflow the stack or
 * leak; and what an applied patch gives must be Turtle the server stores (ldp_rdf_check_body), or the
 * server would answer 400 for its own output, and which the next patch reads as its own writing (the N3
 * reader) into the same result as raptor2's reading; an insert appended to it (ldp_patch.h, "Appended")
 * must be Turtle the server stores and read as the same graph as the insert applied to the whole. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ldp/ldp_patch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char resource[] = "@prefix ex: <http://ex/> .\n"
                               "<#a> ex:name \"A\" ; ex:age 30 ; ex:knows <#b>, [ ex:name \"C\"@en ] .\n"
                               "<#b> ex:name \"B\" ; ex:age 40 ; ex:list ( 1 2 ) .\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *base = "http://fuzz.example/dir/doc";
    buf out = {0};
    char message[600];
    int status = ldp_patch_apply((const char *)data, size, resource, strlen(resource), false, base, NULL, &out, message,
                                 sizeof message);
    if (status != 0 && status != 409 && status != 422)
        abort();
    if (status == 0) {
        buf stored = {0};
        if (ldp_rdf_check_body(LDP_MEDIA_TURTLE, out.data ? out.data : "", out.len, base, "patched", false, NULL,
                               &stored, message, sizeof message) != LDP_RDF_OK)
            abort();
        buf_free(&stored);
        /* The next patch inserts about a new subject: appended to the own writing, read whole otherwise.
         * The one after deletes what it inserted: both texts read whole, by the N3 reader as the server's
         * own writing and by raptor2, must give the same bytes. */
        static const char next[] = "@prefix solid: <http://www.w3.org/ns/solid/terms#> .\n"
                                   "_:p a solid:InsertDeletePatch ; solid:inserts { <#next> <#p> 1 . } .";
        static const char after[] = "@prefix solid: <http://www.w3.org/ns/solid/terms#> .\n"
                                    "_:p a solid:InsertDeletePatch ; solid:deletes { <#next> <#p> 1 . } ;\n"
                                    "  solid:inserts { <#next> <#p> 2 . } .";
        buf appended = {0}, read_whole = {0};
        if (ldp_patch_apply(next, strlen(next), out.data ? out.data : "", out.len, true, base, NULL, &appended,
                            message, sizeof message) != 0 ||
            ldp_patch_apply(next, strlen(next), out.data ? out.data : "", out.len, false, base, NULL, &read_whole,
                            message, sizeof message) != 0 ||
            ldp_rdf_check_body(LDP_MEDIA_TURTLE, appended.data, appended.len, base, "appended", false, NULL, &stored,
                               message, sizeof message) != LDP_RDF_OK)
            abort();
        buf_free(&stored);
        buf by_n3 = {0}, by_raptor2 = {0}, appended_by_raptor2 = {0};
        int own = ldp_patch_apply(after, strlen(after), read_whole.data, read_whole.len, true, base, NULL, &by_n3,
                                  message, sizeof message);
        int sent = ldp_patch_apply(after, strlen(after), read_whole.data, read_whole.len, false, base, NULL,
                                   &by_raptor2, message, sizeof message);
        int grown = ldp_patch_apply(after, strlen(after), appended.data, appended.len, false, base, NULL,
                                    &appended_by_raptor2, message, sizeof message);
        if (own != 0 || sent != 0 || grown != 0 || by_n3.len != by_raptor2.len ||
            memcmp(by_n3.data, by_raptor2.data, by_n3.len) != 0 || appended_by_raptor2.len != by_raptor2.len ||
            memcmp(appended_by_raptor2.data, by_raptor2.data, by_raptor2.len) != 0)
            abort();
        buf_free(&appended);
        buf_free(&read_whole);
        buf_free(&by_n3);
        buf_free(&by_raptor2);
        buf_free(&appended_by_raptor2);
    }
    buf_free(&out);
    return 0;
}
