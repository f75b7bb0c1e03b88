/* See vm_watch.h. */
#include "session/vm_watch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "collectors/vm_proc.h"

struct vm_watch *vm_watch_new(void)
{
    struct vm_watch *w = calloc(1, sizeof(*w));
    if (!w)
        return NULL;
    w->cache = calloc(1, sizeof(*w->cache));
    if (!w->cache) {
        free(w);
        return NULL;
    }
    vm_set_init(&w->set);
    vm_proc_cache_init(w->cache);
    return w;
}

void vm_watch_free(struct vm_watch *w)
{
    if (!w)
        return;
    if (w->cache)
        vm_proc_cache_close(w->cache);
    free(w->cache);
    free(w);
}

int vm_watch_join(struct vm_watch *w, int src, int pid, char *err,
                  size_t errlen)
{
    struct vm_id id;
    char why[160];
    if (src < 0 || src >= VM_WATCH_SOURCES)
        return 0;
    if (!vm_proc_identify(pid, &id, why, sizeof(why))) {
        snprintf(err, errlen,
                 "%s; give ,pid= the process id of the guest's VM on this "
                 "host (pgrep -a qemu)",
                 why);
        return -1;
    }
    w->pid[src] = pid;
    w->by[src] = VMJ_PID;
    return 0;
}

void vm_watch_join_name(struct vm_watch *w, int src, const char *name,
                        bool by_vm)
{
    if (src < 0 || src >= VM_WATCH_SOURCES)
        return;
    w->pid[src] = 0;
    w->by[src] = by_vm ? VMJ_VM : VMJ_NAME;
    snprintf(w->want[src], sizeof(w->want[src]), "%s", name);
    w->why[src][0] = '\0';
    if (by_vm) /* till the first scan finds it */
        snprintf(w->why[src], sizeof(w->why[src]),
                 "no VM named %.60s on this host yet", name);
}

void vm_watch_leave(struct vm_watch *w, int src)
{
    if (src < 0 || src >= VM_WATCH_SOURCES)
        return;
    w->pid[src] = 0;
    w->by[src] = VMJ_NONE;
    w->want[src][0] = w->why[src][0] = '\0';
}

const char *vm_watch_why(const struct vm_watch *w, int src)
{
    return src >= 0 && src < VM_WATCH_SOURCES && w->by[src] == VMJ_VM &&
                   !w->pid[src]
               ? w->why[src]
               : "";
}

void vm_watch_how(const struct vm_watch *w, int src, char *buf, size_t n)
{
    buf[0] = '\0';
    if (src < 0 || src >= VM_WATCH_SOURCES || !w->pid[src])
        return;
    if (w->by[src] == VMJ_PID)
        snprintf(buf, n, "pid");
    else if (w->by[src] == VMJ_VM)
        snprintf(buf, n, "vm=%s", w->want[src]);
    else if (w->by[src] == VMJ_NAME)
        snprintf(buf, n, "name");
}

int vm_watch_unjoined(const struct vm_watch *w)
{
    int n = 0;
    for (int i = 0; i < VM_WATCH_SOURCES; i++)
        n += w->by[i] == VMJ_VM && !w->pid[i];
    return n;
}

int vm_watch_unjoined_at(const struct vm_watch *w, int k)
{
    for (int i = 0; i < VM_WATCH_SOURCES; i++)
        if (w->by[i] == VMJ_VM && !w->pid[i] && k-- == 0)
            return i;
    return -1;
}

/* The VMs in w's set named name: how many, and the pid of the first one
 * no source other than src is joined to (0: none). A restarted VM is a
 * new process of the same name: the next scan finds it. */
static int named(const struct vm_watch *w, int src, const char *name,
                 int *free_pid)
{
    int n = 0;
    *free_pid = 0;
    for (int k = 0; k < w->set.n; k++) {
        const struct vm_id *id = &w->set.vm[k].cur.id;
        if (!id->name[0] || strcmp(id->name, name) != 0)
            continue;
        n++;
        int owner = vm_watch_source_of(w, id->pid);
        if (!*free_pid && (owner < 0 || owner == src))
            *free_pid = id->pid;
    }
    return n;
}

/* Joins source src to pid (0: none), and says so when that changed. */
static void set_join(struct vm_watch *w, int src, int pid)
{
    if (w->pid[src] != pid)
        DIAG(DIAG_INFO, "host's view: source %d %s VM %s (pid %d) by %s", src,
             pid ? "joined to" : "no longer joined to", w->want[src],
             pid ? pid : w->pid[src],
             w->by[src] == VMJ_VM ? "vm=" : "its name");
    w->pid[src] = pid;
}

/* The sources asking by name joined to the VMs now in the set: those
 * given vm= first (a VM of that name, not another source's by pid), then
 * those by their column's name (the one VM of it, no other source's). */
static void rejoin(struct vm_watch *w)
{
    int was[VM_WATCH_SOURCES];
    for (int i = 0; i < VM_WATCH_SOURCES; i++) {
        was[i] = w->pid[i];
        if (w->by[i] == VMJ_VM || w->by[i] == VMJ_NAME)
            w->pid[i] = 0; /* claimed again below */
    }
    for (int pass = VMJ_VM; pass <= VMJ_NAME; pass++)
        for (int i = 0; i < VM_WATCH_SOURCES; i++) {
            if (w->by[i] != pass)
                continue;
            int pid, n = named(w, i, w->want[i], &pid);
            if (n != 1)
                pid = 0; /* by name only where the name is sure */
            w->pid[i] = was[i];
            set_join(w, i, pid);
            if (pass != VMJ_VM)
                continue;
            if (n == 0)
                snprintf(w->why[i], sizeof(w->why[i]),
                         "no VM named %.60s on this host yet", w->want[i]);
            else if (n > 1)
                snprintf(w->why[i], sizeof(w->why[i]),
                         "%d VMs named %.40s here: give ,pid=N instead", n,
                         w->want[i]);
            else if (!pid)
                snprintf(w->why[i], sizeof(w->why[i]),
                         "VM %.40s is another guest's (its pid=)", w->want[i]);
            else
                w->why[i][0] = '\0';
        }
}

void vm_watch_tick(struct vm_watch *w, double now)
{
    static struct vm_id ids[VM_MAX];
    static struct vm_raw raws[VM_MAX]; /* 80 kB: not on the stack */
    int n = 0;
    if (vm_proc_scan_due(w->cache, now))
        n = vm_proc_scan(w->cache, now, ids, VM_MAX);
    else /* nothing new can be there: the VMs known (read sees an end) */
        for (; n < w->set.n; n++)
            ids[n] = w->set.vm[n].cur.id;
    int k = 0;
    for (int i = 0; i < n; i++) {
        vm_proc_read(w->cache, &ids[i], &raws[k]);
        if (!raws[k].gone)
            k++;
    }
    vm_proc_read_done(w->cache);
    int before = w->set.n;
    int changed = vm_set_update(&w->set, raws, k);
    w->set.last_scan = now;
    rejoin(w);
    if (changed) {
        w->changes += (unsigned)changed;
        DIAG(DIAG_INFO, "host's view: %d VM%s (was %d)", w->set.n,
             w->set.n == 1 ? "" : "s", before);
    }
}

int vm_watch_source_of(const struct vm_watch *w, int pid)
{
    for (int i = 0; pid > 0 && i < VM_WATCH_SOURCES; i++)
        if (w->pid[i] == pid)
            return i;
    return -1;
}

bool vm_watch_mark(const struct vm_watch *w, int src, double at, bool before,
                   struct vm_mark *out)
{
    if (src < 0 || src >= VM_WATCH_SOURCES || !(at > 0))
        return false;
    const struct vm_model *vm = vm_set_find(&w->set, w->pid[src]);
    return vm && vm_model_mark(vm, at, before, out);
}

void vm_watch_set_run(struct vm_watch *w, int src, const struct vm_run_cpu *run)
{
    if (src >= 0 && src < VM_WATCH_SOURCES)
        w->run[src] = *run;
}

const struct vm_run_cpu *vm_watch_run(const struct vm_watch *w, int src)
{
    return src >= 0 && src < VM_WATCH_SOURCES && w->run[src].t1 > 0
               ? &w->run[src]
               : NULL;
}
