/* test_due_heap.c: the timers' min-heap (src/rdf/due_heap.h) takes its entries off in time order, against a
 * sorted copy, through random pushes and pops interleaved, equal times included. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "rdf/due_heap.h"

static int by_time(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static void entries_come_off_in_time_order(void **state) {
    (void)state;
    due_heap h = {0};
    assert_null(due_heap_top(&h));
    due_heap_pop(&h); /* popping an empty heap is harmless */
    int64_t *pending = calloc(20000, sizeof *pending);
    size_t count = 0;
    srand(35);
    for (int round = 0; round < 20000; round++) {
        if (count == 0 || rand() % 3) {
            int64_t at = rand() % 500; /* many equal times */
            due_heap_push(&h, at, (uint32_t)at * 7);
            pending[count++] = at;
        } else {
            size_t earliest = 0;
            for (size_t i = 1; i < count; i++)
                earliest = pending[i] < pending[earliest] ? i : earliest;
            const due_entry *top = due_heap_top(&h);
            assert_non_null(top);
            assert_int_equal(top->at, pending[earliest]);
            assert_int_equal(top->id, (uint32_t)pending[earliest] * 7);
            due_heap_pop(&h);
            pending[earliest] = pending[--count];
        }
        assert_int_equal(h.count, count);
    }
    qsort(pending, count, sizeof *pending, by_time);
    for (size_t i = 0; i < count; i++) {
        assert_int_equal(due_heap_top(&h)->at, pending[i]);
        due_heap_pop(&h);
    }
    assert_null(due_heap_top(&h));
    due_heap_push(&h, 5, 1);
    due_heap_clear(&h);
    assert_null(due_heap_top(&h));
    due_heap_free(&h);
    free(pending);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(entries_come_off_in_time_order)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
