/* How late a machine may make a test's processes: the seconds in which a
 * task waited for a CPU (PSI's cpu "some", which counts a stall on one CPU
 * by its share of the CPUs: times the CPUs online) plus the seconds the
 * hypervisor stole (/proc/stat). A promise such as "stopped within 100
 * ms" is then checked as "within 100 ms plus what stall_s() grew by
 * meanwhile": true on a quiet machine and on one others load, false when
 * the code itself is late. */
#ifndef PARALLAX_TESTS_STALL_H
#define PARALLAX_TESTS_STALL_H

#include <math.h>
#include <stdio.h>
#include <unistd.h>

/* Seconds of stall so far (see above), or NaN where the kernel keeps no
 * pressure figures (no CONFIG_PSI, or psi=0). */
static inline double stall_s(void)
{
    unsigned long long some = 0, v[8] = {0};
    FILE *f = fopen("/proc/pressure/cpu", "re");
    int ok = f && fscanf(f, "some avg10=%*f avg60=%*f avg300=%*f total=%llu",
                         &some) == 1;
    if (f)
        fclose(f);
    f = fopen("/proc/stat", "re");
    ok = ok && f &&
         fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
                &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) == 8;
    if (f)
        fclose(f);
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN), hz = sysconf(_SC_CLK_TCK);
    if (!ok || ncpu < 1 || hz < 1)
        return NAN;
    return (double)ncpu * (double)some * 1e-6 + (double)v[7] / (double)hz;
}

/* Fails unless `took` seconds are at most `promise` plus the stall since
 * `stall0` (a stall_s() taken when the clock started); without pressure
 * figures only says so. */
#define assert_prompt(took, promise, stall0)                                   \
    do {                                                                       \
        double took_ = (took), promise_ = (promise), s1_ = stall_s();          \
        double late_ = s1_ - (stall0);                                         \
        if (!isfinite(late_))                                                  \
            print_message("%s: %.3f s (promised %.3f); no pressure figures "   \
                          "here to bound it\n",                                \
                          #took, took_, promise_);                             \
        else if (!(took_ <= promise_ + late_))                                 \
            fail_msg("%s = %.3f s, promised %.3f s + %.3f s the machine "      \
                     "stalled",                                                \
                     #took, took_, promise_, late_);                           \
    } while (0)

#endif
