/* Samplers sharing a wake gate (issue 10): their fetches fall on one grid
 * of instants, the samples of a round wake the main loop once, not once a
 * source, and a sample taken stays intact while the thread fetches on.
 * Stopping (issue 16): a store queued just before the stop is made (a
 * quit's stop of a guest's runs), and guests whose fetch hangs are not
 * waited for. A lease's renewal is made on its own period between
 * samples, without a fetch, and a failure comes with one sample only. A
 * fake backend stands in for PCP. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "collectors/sampler.h"
#include "tests/stall.h"

#define NSAMPLERS 6
#define INTERVAL  0.2

static int fake_state;

static void *fake_open(const char *target, char *err, size_t errlen)
{
    (void)target;
    (void)err;
    (void)errlen;
    return &fake_state;
}

static int fake_fetch(void *state, struct sample *out)
{
    (void)state;
    out->t_before = clock_mono();
    out->have[METRIC_FORKS] = true;
    out->count[METRIC_FORKS] = 42;
    out->t_after = clock_mono();
    return 0;
}

static void fake_close(void *state)
{
    (void)state;
}

static const struct backend fake = {
    .name = "fake",
    .open = fake_open,
    .fetch = fake_fetch,
    .close = fake_close,
};
static const struct backend *const fakes[] = {&fake, NULL};

/* A guest's backend that takes stores, and one whose fetch hangs until
 * the test lets it go (hang_fd). */
static atomic_int stores_made, hung_closed;
static int hang_fd[2];

static int fake_store(void *state, const char *name, const char *value,
                      char *msg, size_t msglen)
{
    (void)state, (void)name, (void)value, (void)msg, (void)msglen;
    atomic_fetch_add(&stores_made, 1);
    return 0;
}

static int hung_fetch(void *state, struct sample *out)
{
    (void)state, (void)out;
    char c;
    while (read(hang_fd[0], &c, 1) < 0 && errno == EINTR)
        ;
    return -1;
}

static void hung_close(void *state)
{
    (void)state;
    atomic_fetch_add(&hung_closed, 1);
}

static const struct backend storing = {
    .name = "storing",
    .open = fake_open,
    .fetch = fake_fetch,
    .store = fake_store,
    .close = fake_close,
};
static const struct backend *const storings[] = {&storing, NULL};
/* A guest's backend counting its fetches, whose stores fail while
 * refuse_stores is set. */
static atomic_int fetches, refuse_stores;

static int counted_fetch(void *state, struct sample *out)
{
    atomic_fetch_add(&fetches, 1);
    return fake_fetch(state, out);
}

static int maybe_store(void *state, const char *name, const char *value,
                       char *msg, size_t msglen)
{
    fake_store(state, name, value, msg, msglen);
    if (!atomic_load(&refuse_stores))
        return 0;
    snprintf(msg, msglen, "refused %s %s", name, value);
    return -1;
}

static const struct backend counting = {
    .name = "counting",
    .open = fake_open,
    .fetch = counted_fetch,
    .store = maybe_store,
    .close = fake_close,
};
static const struct backend *const countings[] = {&counting, NULL};

static const struct backend hung = {
    .name = "hung",
    .open = fake_open,
    .fetch = hung_fetch,
    .close = hung_close,
};
static const struct backend *const hungs[] = {&hung, NULL};

static void sleep_s(double s)
{
    struct timespec ts = {.tv_sec = (time_t)s,
                          .tv_nsec = (long)((s - (double)(time_t)s) * 1e9)};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
}

/* The seconds the machine stalled since stall0 (stall.h), 0 where it
 * keeps no pressure figures. */
static double late_since(double stall0)
{
    double late = stall_s() - stall0;
    return isfinite(late) ? late : 0;
}

static void test_one_wake_a_round_on_one_grid(void **state)
{
    (void)state;
    int fd[2];
    assert_int_equal(pipe2(fd, O_NONBLOCK), 0);
    struct wake_gate *g = wake_gate_new(fd[1]);
    assert_non_null(g);
    struct sampler *s[NSAMPLERS];
    for (int i = 0; i < NSAMPLERS; i++) {
        s[i] = sampler_start(fakes, NULL, INTERVAL, g);
        assert_non_null(s[i]);
    }
    double stall0 = stall_s(), w0 = clock_mono();
    sleep_s(INTERVAL * 5.5); /* about six rounds */
    char buf[256];
    ssize_t bytes = read(fd[0], buf, sizeof(buf));
    double rounds = (clock_mono() - w0) / INTERVAL,
           late = late_since(stall0) / INTERVAL;
    /* one byte a round, far fewer than one a sample (36); a sampler the
     * machine held up past its round makes one more, each round it is */
    print_message("%zd wakes in %.1f rounds (%.1f stalled)\n", bytes, rounds,
                  late);
    assert_true(bytes >= 1 && bytes >= floor(rounds - late) - 1);
    assert_true(bytes <= ceil(rounds) + 1 + ceil(late) * (NSAMPLERS - 1));

    /* the newest samples were fetched at the same instant of the grid */
    double t0 = NAN;
    for (int i = 0; i < NSAMPLERS; i++) {
        const struct sample *smp = sampler_take(s[i]);
        assert_non_null(smp);
        assert_true(smp->ok);
        assert_int_equal(smp->count[METRIC_FORKS], 42);
        if (isnan(t0))
            t0 = smp->t_before;
        assert_true(fabs(smp->t_before - t0) <
                    INTERVAL / 4 + late_since(stall0));
    }
    /* nothing new until the next round (when it is not due yet); then
     * every sampler has one */
    const struct sample *early = sampler_take(s[0]);
    if (clock_mono() < t0 + INTERVAL)
        assert_null(early);
    for (int i = 0; i < NSAMPLERS; i++) {
        const struct sample *next = NULL;
        for (int k = 0; k < 1000 && !next; k++) {
            sleep_s(0.01);
            next = sampler_take(s[i]);
        }
        assert_non_null(next);
        assert_true(next->t_before > t0);
    }
    for (int i = 0; i < NSAMPLERS; i++)
        sampler_stop(s[i]);
    wake_gate_release(g);
    close(fd[0]);
    close(fd[1]);
}

static void test_taken_sample_stays_intact(void **state)
{
    (void)state;
    struct sampler *s = sampler_start(fakes, NULL, 0.1, NULL);
    assert_non_null(s);
    const struct sample *smp = NULL;
    for (int i = 0; i < 100 && !smp; i++) {
        sleep_s(0.01);
        smp = sampler_take(s);
    }
    assert_non_null(smp);
    double t = smp->t_before;
    sleep_s(0.35); /* the thread fetches three more times meanwhile */
    assert_true(smp->t_before == t);
    assert_int_equal(smp->count[METRIC_FORKS], 42);
    const struct sample *next = sampler_take(s);
    for (int i = 0; i < 1000 && !next; i++) {
        sleep_s(0.01);
        next = sampler_take(s);
    }
    assert_non_null(next);
    assert_true(next->t_before > t);
    sampler_stop(s);
}

/* A store queued right before the stop is made before the thread ends:
 * before sampler_stop returns, unless the machine kept the thread from a
 * CPU for most of the stop's wait (STOP_WAIT_MS, 200 ms); then the thread
 * it gave up on still makes it. */
static void test_stop_makes_queued_stores(void **state)
{
    (void)state;
    struct sampler *s = sampler_start(storings, "guest", 10, NULL);
    assert_non_null(s);
    for (int i = 0; i < 500 && !sampler_take(s); i++)
        sleep_s(0.01); /* the first fetch is made: the thread sleeps */
    atomic_store(&stores_made, 0);
    assert_true(sampler_store(s, "parallax.control.stop", "syscall-null") > 0);
    double stall0 = stall_s();
    sampler_stop(s);
    if (atomic_load(&stores_made) != 1) {
        double late = stall_s() - stall0;
        print_message("the store not made yet; %.3f s stalled\n", late);
        assert_false(late < 0.1); /* NaN: no pressure figures to say */
        sampler_drain(10);
    }
    assert_int_equal(atomic_load(&stores_made), 1);
}

/* A renewal every 0.1 s is made between samples an hour apart, with no
 * fetch; an empty value ends it. */
static void test_renewal_between_samples(void **state)
{
    (void)state;
    atomic_store(&refuse_stores, 0);
    struct sampler *s = sampler_start(countings, "guest", 3600, NULL);
    assert_non_null(s);
    for (int i = 0; i < 500 && !sampler_take(s); i++)
        sleep_s(0.01); /* the first fetch is made: the thread sleeps */
    int f0 = atomic_load(&fetches);
    atomic_store(&stores_made, 0);
    double stall0 = stall_s(), t0 = clock_mono();
    sampler_renew(s, "parallax.control.renew", "syscall-null", 0.1);
    sleep_s(0.55);
    int n = atomic_load(&stores_made);
    double periods = (clock_mono() - t0) / 0.1, late = late_since(stall0) / 0.1;
    /* one a period (5 here), fewer by the periods the machine stalled */
    print_message("%d renewals in %.1f periods (%.1f stalled)\n", n, periods,
                  late);
    assert_true(n >= floor(periods - late) - 1);
    assert_true(n <= ceil(periods) + 1);
    assert_int_equal(atomic_load(&fetches), f0);
    assert_null(sampler_take(s));
    /* the same value again keeps the schedule; another one too */
    sampler_renew(s, "parallax.control.renew", "syscall-null", 0.1);
    sampler_renew(s, "parallax.control.renew", "syscall-null sleep", 0.1);
    for (int i = 0; i < 500 && atomic_load(&stores_made) <= n; i++)
        sleep_s(0.01);
    assert_true(atomic_load(&stores_made) > n);
    sampler_renew(s, "parallax.control.renew", "", 0.1);
    /* one in flight may still land: then none for three periods */
    int same = 0;
    n = atomic_load(&stores_made);
    for (int i = 0; i < 500 && same < 30; i++) {
        sleep_s(0.01);
        int now_n = atomic_load(&stores_made);
        same = now_n == n ? same + 1 : 0;
        n = now_n;
    }
    sleep_s(0.3);
    assert_int_equal(atomic_load(&stores_made), n);
    assert_int_equal(atomic_load(&fetches), f0);
    sampler_stop(s);
}

/* Renewals that fail say so in the next sample, once for a reason. */
static void test_renewal_failure_said_once(void **state)
{
    (void)state;
    atomic_store(&refuse_stores, 1);
    struct sampler *s = sampler_start(countings, "guest", 0.1, NULL);
    assert_non_null(s);
    sampler_renew(s, "parallax.control.renew", "syscall-null", 0.03);
    int said = 0, samples = 0;
    for (int i = 0; i < 1000 && samples < 6; i++) {
        sleep_s(0.02);
        const struct sample *smp = sampler_take(s);
        if (!smp)
            continue;
        samples++;
        if (smp->renew_error[0]) {
            said++;
            assert_string_equal(smp->renew_error,
                                "refused parallax.control.renew syscall-null");
        }
    }
    assert_true(samples >= 4);
    assert_int_equal(said, 1);
    sampler_stop(s);
    atomic_store(&refuse_stores, 0);
}

/* Guests stuck inside a fetch, with nothing to store, are not waited for:
 * five of them stop in far less than one STOP_WAIT_MS (200 ms, or later
 * by what the machine stalled), each
 * thread ending by itself once its fetch returns. */
static void test_stop_does_not_wait_on_hung_guests(void **state)
{
    (void)state;
    enum { N = 5 };
    assert_int_equal(pipe(hang_fd), 0);
    atomic_store(&hung_closed, 0);
    struct sampler *s[N];
    for (int i = 0; i < N; i++)
        assert_non_null(s[i] = sampler_start(hungs, "stuck", 1, NULL));
    sleep_s(0.05); /* every thread is inside its fetch */
    double t0 = clock_mono(), stall0 = stall_s();
    sampler_stop_all(s, N);
    assert_prompt(clock_mono() - t0, 0.1, stall0);
    close(hang_fd[1]); /* the fetches return; the threads end and free */
    for (int i = 0; i < 500 && atomic_load(&hung_closed) < N; i++)
        sleep_s(0.01);
    assert_int_equal(atomic_load(&hung_closed), N);
    close(hang_fd[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_wake_a_round_on_one_grid),
        cmocka_unit_test(test_taken_sample_stays_intact),
        cmocka_unit_test(test_stop_makes_queued_stores),
        cmocka_unit_test(test_stop_does_not_wait_on_hung_guests),
        cmocka_unit_test(test_renewal_between_samples),
        cmocka_unit_test(test_renewal_failure_said_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
