/* base/worker.h: the three buffers hand over the newest and never the
 * one being filled; a stop wakes a sleeping thread long before its
 * deadline; the stop joins a thread that ends and abandons one stuck in
 * a request, which then frees its owner itself and is counted until it
 * has. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include <cmocka.h>

#include "base/clock.h"
#include "base/worker.h"

static void test_triple(void **state)
{
    (void)state;
    int a, b, c;
    struct triple t = {.slot = &b, .held = &c};
    bool unread = true;
    assert_null(triple_take(&t)); /* nothing put yet */
    void *next = triple_put(&t, &a, &unread);
    assert_ptr_equal(next, &b);
    assert_false(unread);
    /* put again before a take: the one replaced was never read */
    next = triple_put(&t, next, &unread);
    assert_ptr_equal(next, &a);
    assert_true(unread);
    assert_ptr_equal(triple_take(&t), &b); /* the newest */
    assert_null(triple_take(&t));
    next = triple_put(&t, next, &unread);
    assert_false(unread);
    assert_ptr_equal(triple_take(&t), &a);
    /* the three stay distinct: filling, newest, held */
    assert_true(next != t.held && next != t.slot && t.slot != t.held);
}

/* An owner: a worker that sleeps an hour, or blocks on a pipe. */
struct owner {
    struct worker w;
    int fd;            /* >= 0: read it (a request that hangs) */
    atomic_int *freed; /* counts owners freed by their thread */
};

static void *owner_main(void *arg)
{
    struct owner *o = arg;
    if (o->fd >= 0) {
        char c;
        while (read(o->fd, &c, 1) < 0)
            ;
    } else {
        pthread_mutex_lock(&o->w.lock);
        worker_wait_until(&o->w, clock_mono() + 3600, NULL, NULL);
        pthread_mutex_unlock(&o->w.lock);
    }
    if (worker_finish(&o->w)) {
        atomic_int *freed = o->freed;
        worker_destroy(&o->w);
        free(o);
        atomic_fetch_add(freed, 1);
    }
    return NULL;
}

static struct worker *at(void *ctx, int i)
{
    return &((struct owner **)ctx)[i]->w;
}

static int joined_n;
static void on_joined(void *ctx, int i)
{
    struct owner *o = ((struct owner **)ctx)[i];
    worker_destroy(&o->w);
    free(o);
    joined_n++;
}

/* Two owners started: o[0] sleeps an hour, o[1] blocks reading fd. */
static void start_owners(struct owner **o, int fd, atomic_int *freed,
                         atomic_int *live)
{
    for (int i = 0; i < 2; i++) {
        o[i] = calloc(1, sizeof(*o[i]));
        assert_non_null(o[i]);
        assert_int_equal(worker_init(&o[i]->w), 0);
        o[i]->fd = i == 0 ? -1 : fd;
        o[i]->freed = freed;
        o[i]->w.abandoned_live = live;
        assert_int_equal(worker_start(&o[i]->w, owner_main, o[i]), 0);
    }
}

static void test_stop(void **state)
{
    (void)state;
    static atomic_int freed, live;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    struct owner *o[2];
    start_owners(o, fds[0], &freed, &live);
    /* the sleeper (an hour) is woken and joined, the reader abandoned */
    worker_stop_all(2, at, NULL, on_joined, o, 200);
    assert_int_equal(joined_n, 1);
    assert_int_equal(atomic_load(&live), 1);
    assert_int_equal(atomic_load(&freed), 0);
    /* its request returns: it frees itself */
    assert_int_equal(write(fds[1], "x", 1), 1);
    for (int k = 0; k < 1000 && atomic_load(&freed) == 0; k++)
        usleep(10000);
    assert_int_equal(atomic_load(&freed), 1);
    close(fds[0]);
    close(fds[1]);
}

static void free_one(void *owner)
{
    on_joined(&owner, 0);
}

/* worker_stop: one worker, joined and its owner freed once; one stuck is
 * abandoned and frees itself */
static void test_stop_one(void **state)
{
    (void)state;
    static atomic_int freed, live;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    struct owner *o[2];
    start_owners(o, fds[0], &freed, &live);
    joined_n = 0;
    worker_stop(&o[0]->w, free_one, o[0], 200);
    assert_int_equal(joined_n, 1); /* the sleeper (an hour), woken */
    worker_stop(&o[1]->w, free_one, o[1], 50);
    assert_int_equal(joined_n, 1); /* the reader: abandoned, not freed */
    assert_int_equal(atomic_load(&live), 1);
    assert_int_equal(write(fds[1], "x", 1), 1);
    for (int k = 0; k < 1000 && atomic_load(&freed) == 0; k++)
        usleep(10000);
    assert_int_equal(atomic_load(&freed), 1);
    close(fds[0]);
    close(fds[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_triple),
        cmocka_unit_test(test_stop),
        cmocka_unit_test(test_stop_one),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
