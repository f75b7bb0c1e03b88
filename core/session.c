/* See session.h. The wake pipe is non-blocking on both ends: samplers never
 * block on a full pipe, and the main loop drains it before updating. */
#include "core/session.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "collectors/sampler.h"

int session_open(struct session *s, double interval, char *err, size_t errlen)
{
    memset(s, 0, sizeof(*s));
    s->interval = interval;
    if (pipe2(s->wake, O_NONBLOCK | O_CLOEXEC) < 0) {
        snprintf(err, errlen, "cannot create a pipe: %s", strerror(errno));
        return -1;
    }
    model_init(&s->model[0], "host");
    s->sampler[0] = sampler_start(local_backends, NULL, interval, s->wake[1]);
    if (!s->sampler[0]) {
        snprintf(err, errlen, "cannot start the sampler thread");
        close(s->wake[0]);
        close(s->wake[1]);
        return -1;
    }
    s->nsrc = 1;
    return 0;
}

int session_fd(const struct session *s)
{
    return s->wake[0];
}

bool session_update(struct session *s)
{
    char buf[64];
    while (read(s->wake[0], buf, sizeof(buf)) > 0)
        ;
    bool any = false;
    static struct sample smp; /* large; only the main thread updates */
    for (int i = 0; i < s->nsrc; i++) {
        if (sampler_take(s->sampler[i], &smp)) {
            model_update(&s->model[i], &smp);
            any = true;
        }
    }
    return any;
}

void session_set_interval(struct session *s, double interval)
{
    s->interval = interval;
    for (int i = 0; i < s->nsrc; i++)
        sampler_set_interval(s->sampler[i], interval);
}

void session_close(struct session *s)
{
    for (int i = 0; i < s->nsrc; i++)
        sampler_stop(s->sampler[i]);
    s->nsrc = 0;
    close(s->wake[0]);
    close(s->wake[1]);
}
