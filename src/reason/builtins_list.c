/* builtins_list.c: the list: builtins.
 *
 * NOTES ON THE DESIGN
 *  1. Enumerations (list:member, list:in) emit each distinct item once and stop when emit says so. */
#include "reason/builtin_family.h"

#include "rdf/hashmap.h"
#include "reason/numeric.h"

/* The membership relation between a list and its items, from the list's side: with the item bound a
 * test, else each distinct item once. list_is_subject says which side of the builtin the list is on. */
static void list_membership(terms *t, term_id list, term_id item, bool list_is_subject, builtin_emit emit,
                            void *user) {
    const term_id *items;
    size_t n;
    if (!list || !list_of(t, list, &items, &n))
        return;
    if (item) {
        for (size_t i = 0; i < n; i++)
            if (items[i] == item) {
                if (list_is_subject)
                    emit(user, list, item);
                else
                    emit(user, item, list);
                return;
            }
        return;
    }
    u64map seen = {0};
    for (size_t i = 0; i < n; i++) {
        bool first_time;
        u64map_put(&seen, items[i], 0, &first_time);
        if (first_time && !(list_is_subject ? emit(user, list, items[i]) : emit(user, items[i], list)))
            break;
    }
    u64map_free(&seen);
}

static void list_member(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    list_membership(t, subject, object, true, emit, user);
}

static void list_in(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    list_membership(t, object, subject, false, emit, user);
}

/* list:first and list:last: the item at one end of a non-empty list. */
static void list_end(terms *t, term_id subject, term_id object, bool last, builtin_emit emit, void *user) {
    const term_id *items;
    size_t n;
    if (subject && list_of(t, subject, &items, &n) && n > 0)
        emit_result(subject, object, items[last ? n - 1 : 0], emit, user);
}

static void list_first(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    list_end(t, subject, object, false, emit, user);
}

static void list_last(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    list_end(t, subject, object, true, emit, user);
}

static void list_length(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    const term_id *items;
    size_t n;
    if (subject && list_of(t, subject, &items, &n)) {
        number length = number_integer((int64_t)n);
        emit_number(t, subject, object, &length, emit, user);
    }
}

const builtin builtins_list[] = {
    {NS_LIST "member", BUILTIN_SUBJECT_IN, list_member},
    {NS_LIST "in", BUILTIN_OBJECT_IN, list_in},
    {NS_LIST "first", BUILTIN_SUBJECT_IN, list_first},
    {NS_LIST "last", BUILTIN_SUBJECT_IN, list_last},
    {NS_LIST "length", BUILTIN_SUBJECT_IN, list_length},
};
const size_t builtins_list_count = sizeof builtins_list / sizeof builtins_list[0];
