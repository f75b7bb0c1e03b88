/* See session.h. The wake pipe is non-blocking on both ends: samplers never
 * block on a full pipe, and the main loop drains it before updating. */
#include "session/session.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/diag.h"
#include "collectors/sampler.h"
#include "session/probe_vcpu.h"
#include "session/vm_remote.h"
#include "session/vm_watch.h"

static int start_source(struct session *s, const char *name, const char *target,
                        const struct backend *const *candidates, char *err,
                        size_t errlen)
{
    if (s->nsrc == SESSION_MAX_SOURCES) {
        snprintf(err, errlen, "already watching %d sources; that is the most",
                 SESSION_MAX_SOURCES);
        return -1;
    }
    for (int i = 1; target && i < s->nsrc; i++) {
        if (strcmp(s->model[i].target, target) == 0) {
            snprintf(err, errlen, "%s is already watched as '%s'", target,
                     s->model[i].name);
            return -1;
        }
    }
    int i = s->nsrc;
    model_init(&s->model[i], name, target);
    s->recorded[i] = candidates == archive_backends;
    s->sampler[i] = sampler_start(candidates, target, s->interval, s->gate);
    if (!s->sampler[i]) {
        snprintf(err, errlen, "cannot start a sampler thread for %s", name);
        return -1;
    }
    s->nsrc++;
    DIAG(DIAG_INFO, "%s: watching %s", name, target ? target : "this host");
    return 0;
}

/* The pipe and gate of a session with no source yet. 0 or -1 with err. */
static int session_begin(struct session *s, double interval, char *err,
                         size_t errlen)
{
    /* no memset of the whole struct: 64 source slots would all become
     * resident memory; slots are initialised as sources are added */
    s->nsrc = 0;
    s->interval = interval;
    s->vms = NULL;
    s->vms_off = false;
    memset(s->host_vms, 0, sizeof(s->host_vms));
    memset(s->vm_reader, 0, sizeof(s->vm_reader));
    selfcost_init(&s->self);
    if (pipe2(s->wake, O_NONBLOCK | O_CLOEXEC) < 0) {
        snprintf(err, errlen, "cannot create a pipe: %s", strerror(errno));
        return -1;
    }
    s->gate = wake_gate_new(s->wake[1]);
    if (!s->gate) {
        snprintf(err, errlen, "out of memory");
        close(s->wake[0]);
        close(s->wake[1]);
        return -1;
    }
    return 0;
}

int session_open(struct session *s, double interval,
                 const struct source_spec *guests, int nguests, bool vm_view,
                 char *err, size_t errlen)
{
    if (session_begin(s, interval, err, errlen) < 0)
        return -1;
    if (start_source(s, "host", NULL, local_backends(), err, errlen) < 0)
        goto fail;
    s->vms_off = !vm_view;
    if (vm_view) /* this host's VMs: none when out of memory */
        s->vms = vm_watch_new();
    for (int g = 0; g < nguests; g++)
        if (session_add(s, &guests[g], err, errlen) < 0)
            goto fail;
    return 0;
fail:
    session_close(s);
    return -1;
}

int session_open_pair(struct session *s, double interval,
                      const struct source_spec *host,
                      const struct source_spec *guest,
                      const struct backend *const *backends, char *err,
                      size_t errlen)
{
    if (session_begin(s, interval, err, errlen) < 0)
        return -1;
    if (start_source(s, host->name, host->target, backends, err, errlen) < 0 ||
        start_source(s, guest->name, guest->target, backends, err, errlen) <
            0) {
        session_close(s);
        return -1;
    }
    return 0;
}

int session_add_fixed(struct session *s, const struct source_model *m,
                      char *err, size_t errlen)
{
    if (s->nsrc == SESSION_MAX_SOURCES) {
        snprintf(err, errlen, "already showing %d sources; that is the most",
                 SESSION_MAX_SOURCES);
        return -1;
    }
    s->model[s->nsrc] = *m;
    s->sampler[s->nsrc] = NULL;
    s->recorded[s->nsrc] = false;
    s->nsrc++;
    return 0;
}

bool session_is_fixed(const struct session *s, int src)
{
    return src > 0 && src < s->nsrc && (!s->sampler[src] || s->recorded[src]);
}

int session_add_recorded(struct session *s, const struct source_spec *spec,
                         char *err, size_t errlen)
{
    if (start_source(s, spec->name, spec->target, archive_backends, err,
                     errlen) < 0)
        return -1;
    s->model[s->nsrc - 1].replay.on = true; /* before its first record */
    return 0;
}

/* Whether ,vm=NAME of guest may be taken: another source given the same
 * VM name is refused. 0, or -1 with err. */
static int vm_name_free(const struct session *s, const struct source_spec *g,
                        char *err, size_t errlen)
{
    for (int i = 1; i < s->nsrc && i < VM_WATCH_SOURCES; i++)
        if (s->vms->by[i] == VMJ_VM && strcmp(s->vms->want[i], g->vm) == 0) {
            snprintf(err, errlen,
                     "guest '%s': vm=%s is guest '%s''s already; one VM runs "
                     "one guest",
                     g->name, g->vm, s->model[i].name);
            return -1;
        }
    return 0;
}

/* Reads the VMs source i runs through its pmcd (,vms). 0, or -1. */
static int watch_host_vms(struct session *s, int i, char *err, size_t errlen)
{
    s->host_vms[i] = malloc(sizeof(*s->host_vms[i]));
    if (s->host_vms[i])
        vm_set_init(s->host_vms[i]);
    s->vm_reader[i] = s->host_vms[i]
                          ? vm_remote_start(s->model[i].target, s->interval,
                                            wake_gate_epoch(s->gate))
                          : NULL;
    if (!s->vm_reader[i]) {
        snprintf(err, errlen, "'%s': cannot start reading its VMs",
                 s->model[i].name);
        return -1;
    }
    return 0;
}

int session_add(struct session *s, const struct source_spec *guest, char *err,
                size_t errlen)
{
    char why[256];
    if ((guest->pid > 0 || guest->vm[0]) && !s->vms) {
        snprintf(err, errlen,
                 "guest '%s': %s joins a guest with its VM on this host, "
                 "which this session does not watch%s",
                 guest->name, guest->pid > 0 ? "pid=" : "vm=",
                 s->vms_off ? " (--no-vm-view: drop one or the other)" : "");
        return -1;
    }
    if (guest->pid > 0 && s->nsrc < SESSION_MAX_SOURCES &&
        vm_watch_join(s->vms, s->nsrc, guest->pid, why, sizeof(why)) < 0) {
        snprintf(err, errlen, "guest '%s': %s", guest->name, why);
        return -1;
    }
    if (guest->vm[0] && vm_name_free(s, guest, err, errlen) < 0)
        return -1;
    /* by vm=, or a libvirt guest by its own name: when its VM is there */
    if (s->vms && guest->pid <= 0 && s->nsrc < SESSION_MAX_SOURCES)
        vm_watch_join_name(s->vms, s->nsrc,
                           guest->vm[0] ? guest->vm : guest->name,
                           guest->vm[0] != '\0');
    if (start_source(s, guest->name, guest->target, remote_backends, err,
                     errlen) < 0) {
        if (s->vms)
            vm_watch_leave(s->vms, s->nsrc);
        return -1;
    }
    return guest->vms ? watch_host_vms(s, s->nsrc - 1, err, errlen) : 0;
}

unsigned session_store(const struct session *s, int src, const char *name,
                       const char *value)
{
    if (src < 0 || src >= s->nsrc || !s->sampler[src])
        return 0;
    return sampler_store(s->sampler[src], name, value);
}

void session_renew(const struct session *s, int src, const char *name,
                   const char *value, double every)
{
    if (src >= 0 && src < s->nsrc && s->sampler[src] && s->model[src].target[0])
        sampler_renew(s->sampler[src], name, value, every);
}

void session_watch(const struct session *s, int src, bool on)
{
    if (src >= 0 && src < s->nsrc && s->sampler[src] && s->model[src].target[0])
        sampler_watch(s->sampler[src], on);
}

int session_fd(const struct session *s)
{
    return s->wake[0];
}

/* -v: a source going live, down or back; -vv: every fetch's timing;
 * always: a lease's renewal that failed (its runs there will stop). */
static void log_sample(const struct source_model *m, const struct sample *smp,
                       enum source_state was)
{
    static const char *const names[] = {"connecting", "live", "down"};
    if (m->state != was)
        DIAG(DIAG_INFO, "%s: %s -> %s%s%s", m->name, names[was],
             names[m->state], m->state == SRC_DOWN ? ": " : "",
             m->state == SRC_DOWN ? m->error : "");
    DIAG(DIAG_DEBUG, "%s: fetch %s in %.1f ms", m->name,
         smp->ok ? "ok" : "failed", (smp->t_after - smp->t_before) * 1e3);
    if (smp->renew_error[0])
        DIAG(DIAG_WARN,
             "%s: renewing the lease of its runs failed: %s; they stop when "
             "it runs out",
             m->name, smp->renew_error);
}

bool session_update(struct session *s)
{
    char buf[64];
    while (read(s->wake[0], buf, sizeof(buf)) > 0)
        ;
    bool any = false;
    for (int i = 0; i < s->nsrc; i++) {
        const struct sample *smp =
            s->sampler[i] ? sampler_take(s->sampler[i]) : NULL;
        if (smp && i == 0 && s->vms) /* the VMs with the host's tick */
            vm_watch_tick(s->vms, smp->t_after);
        if (s->vm_reader[i]) /* another host's, as they come */
            any |= vm_remote_take(s->vm_reader[i], s->host_vms[i]);
        if (smp) {
            enum source_state was = s->model[i].state;
            model_update(&s->model[i], smp);
            log_sample(&s->model[i], smp, was);
            any = true;
        }
    }
    if (any)
        probe_vcpu_update(s);
    /* a little less than the interval: samples arrive just around it */
    selfcost_tick(&s->self, 0.9 * s->interval);
    return any;
}

void session_set_interval(struct session *s, double interval)
{
    DIAG(DIAG_INFO, "interval %g s -> %g s", s->interval, interval);
    s->interval = interval;
    for (int i = 0; i < s->nsrc; i++)
        if (s->sampler[i])
            sampler_set_interval(s->sampler[i], interval);
    for (int i = 0; i < s->nsrc; i++)
        if (s->vm_reader[i])
            vm_remote_set_interval(s->vm_reader[i], interval);
}

void session_close(struct session *s)
{
    struct sampler *live[SESSION_MAX_SOURCES];
    int n = 0;
    for (int i = 0; i < s->nsrc; i++)
        if (s->sampler[i])
            live[n++] = s->sampler[i];
    sampler_stop_all(live, n); /* makes the stores queued for guests */
    for (int i = 0; i < s->nsrc; i++) {
        vm_remote_stop(s->vm_reader[i]);
        free(s->host_vms[i]);
        s->vm_reader[i] = NULL;
        s->host_vms[i] = NULL;
        model_release(&s->model[i]);
    }
    s->nsrc = 0;
    vm_watch_free(s->vms);
    s->vms = NULL;
    wake_gate_release(s->gate); /* before the pipe closes */
    s->gate = NULL;
    close(s->wake[0]);
    close(s->wake[1]);
}
