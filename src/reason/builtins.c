/* builtins.c: finding a builtin by its IRI among the families' tables (builtins_<namespace>.c). */
#include "reason/builtins.h"

#include <string.h>

#include "reason/builtin_family.h"

const builtin *builtin_lookup(const char *iri) {
    if (!builtin_namespace(iri)) /* every builtin is in one: any other predicate is answered at once */
        return NULL;
    const struct {
        const builtin *table;
        const size_t *count;
    } families[] = {{builtins_log, &builtins_log_count},       {builtins_log_reading, &builtins_log_reading_count},
                    {builtins_math, &builtins_math_count},
                    {builtins_time, &builtins_time_count},     {builtins_string, &builtins_string_count},
                    {builtins_list, &builtins_list_count},     {builtins_crypto, &builtins_crypto_count}};
    for (size_t f = 0; f < sizeof families / sizeof families[0]; f++)
        for (size_t i = 0; i < *families[f].count; i++)
            if (strcmp(families[f].table[i].iri, iri) == 0)
                return &families[f].table[i];
    return NULL;
}

bool builtin_namespace(const char *iri) {
    static const char *const namespaces[] = {NS_LOG, NS_MATH, NS_STRING, NS_LIST, NS_CRYPTO, NS_TIME};
    for (size_t i = 0; i < sizeof namespaces / sizeof namespaces[0]; i++)
        if (strncmp(iri, namespaces[i], strlen(namespaces[i])) == 0)
            return true;
    return false;
}
