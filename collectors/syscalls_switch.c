/* See syscalls_switch.h. */
#include "collectors/syscalls_switch.h"

#include <pthread.h>
#include <stdio.h>

#include "collectors/perf_syscalls.h"

static struct {
    pthread_mutex_t lock;
    bool wanted, busy;
    bool failed; /* the counter would not open: not again until wanted */
    struct perf_syscalls ps;
    char failure[160];
    unsigned failures;
} sw = {.lock = PTHREAD_MUTEX_INITIALIZER};

void syscalls_want(bool on)
{
    pthread_mutex_lock(&sw.lock);
    sw.wanted = on;
    sw.failed = false;
    if (!on)
        perf_syscalls_close(&sw.ps);
    pthread_mutex_unlock(&sw.lock);
}

bool syscalls_wanted(void)
{
    pthread_mutex_lock(&sw.lock);
    bool on = sw.wanted;
    pthread_mutex_unlock(&sw.lock);
    return on;
}

void syscalls_host_busy(bool busy)
{
    pthread_mutex_lock(&sw.lock);
    sw.busy = busy;
    if (busy)
        perf_syscalls_close(&sw.ps);
    pthread_mutex_unlock(&sw.lock);
}

int syscalls_host_read(uint64_t *total)
{
    int rc = -1;
    pthread_mutex_lock(&sw.lock);
    if (sw.wanted && !sw.busy) {
        char err[sizeof(sw.failure)];
        if (sw.ps.nfd == 0 && !sw.failed &&
            perf_syscalls_open(&sw.ps, err, sizeof(err)) < 0) {
            sw.failed = true;
            snprintf(sw.failure, sizeof(sw.failure), "%s", err);
            sw.failures++;
        }
        if (sw.ps.nfd > 0 && perf_syscalls_read(&sw.ps, total) == 0)
            rc = 0;
    }
    pthread_mutex_unlock(&sw.lock);
    return rc;
}

unsigned syscalls_host_failure(char *buf, size_t n)
{
    pthread_mutex_lock(&sw.lock);
    unsigned seq = sw.failures;
    if (n)
        snprintf(buf, n, "%s", sw.failure);
    pthread_mutex_unlock(&sw.lock);
    return seq;
}
