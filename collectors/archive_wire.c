/* See archive_wire.h. */
#include "collectors/archive_wire.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/safe_text.h"

static int send_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n > 0) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

int wire_send(int fd, int32_t code, const void *body, uint32_t len)
{
    struct wire_head h = {.code = code, .len = len};
    return send_all(fd, &h, sizeof(h)) < 0 || send_all(fd, body, len) < 0 ? -1
                                                                          : 0;
}

int wire_recv(int fd, void *buf, size_t n, double deadline)
{
    char *p = buf;
    while (n > 0) {
        double left = deadline - clock_mono();
        struct pollfd pfd = {.fd = fd, .events = POLLIN};
        int ms = isinf(left) ? -1 : left <= 0 ? 0 : (int)ceil(left * 1000);
        int ready = poll(&pfd, 1, ms);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready < 0)
            return -1;
        if (ready == 0) {
            errno = ETIMEDOUT;
            return -1;
        }
        ssize_t r = read(fd, p, n);
        if (r < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (r < 0)
            return -1;
        if (r == 0) {
            errno = EPIPE;
            return -1;
        }
        p += r;
        n -= (size_t)r;
    }
    return 0;
}

/* A bool as bytes came in: 0 or 1 (any other byte in a bool is undefined
 * behaviour once read). */
static void fix_bool(bool *b)
{
    unsigned char c;
    memcpy(&c, b, 1);
    c = c != 0;
    memcpy(b, &c, 1);
}

static void fix_bools(bool *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fix_bool(&b[i]);
}

/* An array of char: ended within itself, printable. */
#define FIX_TEXT(a)                                                            \
    do {                                                                       \
        (a)[sizeof(a) - 1] = '\0';                                             \
        safe_text(a);                                                          \
    } while (0)

static int clamp(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static void fix_job(struct pmda_job *j, int pool)
{
    FIX_TEXT(j->name);
    FIX_TEXT(j->error);
    fix_bool(&j->has_times);
    j->state = clamp(j->state, 0, 3);
    if (j->extras_at < 0 || j->extras_at >= pool)
        j->extras_at = -1;
    if (j->log_at < 0 || j->log_at >= pool)
        j->log_at = -1;
    if (j->hist_at < 0 || j->hist_at >= pool)
        j->hist_at = -1;
    j->lanes.n = clamp(j->lanes.n, 0, WL_MAX_LANES);
}

void wire_sample_sanitize(struct sample *s)
{
    fix_bool(&s->ok);
    FIX_TEXT(s->error);
    FIX_TEXT(s->info.host);
    FIX_TEXT(s->info.release);
    FIX_TEXT(s->info.sched);
    FIX_TEXT(s->info.preempt);
    FIX_TEXT(s->info.syscalls_why);
    FIX_TEXT(s->info.syscalls_status);
    fix_bool(&s->info.pmda);
    fix_bool(&s->info.lease);
    fix_bools(s->have, METRIC_COUNT);
    for (int id = 0; id < METRIC_COUNT; id++)
        if (s->width[id] != 32)
            s->width[id] = 64;
    s->extras_len = clamp(s->extras_len, 0, SAMPLE_EXTRAS_MAX);
    if (s->extras_len > 0)
        s->extras[s->extras_len - 1] = '\0';
    for (int at = 0; at < s->extras_len; at += (int)strlen(s->extras + at) + 1)
        safe_text_lines(s->extras + at);
    s->njobs = clamp(s->njobs, 0, SAMPLE_MAX_JOBS);
    for (int k = 0; k < s->njobs; k++)
        fix_job(&s->job[k], s->extras_len);
    s->nvms = clamp(s->nvms, 0, SAMPLE_MAX_VMS);
    int nvms = 0; /* those whose text is in the pool */
    for (int k = 0; k < s->nvms; k++)
        if (s->vm_at[k] >= 0 && s->vm_at[k] < s->extras_len)
            s->vm_at[nvms++] = s->vm_at[k];
    s->nvms = nvms;
    s->nvms_held = clamp(s->nvms_held, nvms, SAMPLE_MAX_VMS);
    s->nticks = clamp(s->nticks, 0, SAMPLE_MAX_TICKS);
    s->nstores = clamp(s->nstores, 0, SAMPLE_MAX_STORES);
    for (int k = 0; k < SAMPLE_MAX_STORES; k++)
        FIX_TEXT(s->store[k].msg);
    FIX_TEXT(s->renew_error);
    fix_bool(&s->replay.on);
    fix_bool(&s->replay.again);
    fix_bool(&s->replay.restart);
    fix_bool(&s->replay.ended);
    FIX_TEXT(s->replay.run);
    FIX_TEXT(s->replay.note);
    s->backend = NULL;
}
