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
    return 0;
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
