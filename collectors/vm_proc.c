/* See vm_proc.h. Everything here is a read of /proc files of processes
 * that may end at any moment: a file that vanishes mid-read means the VM
 * (or the thread) is gone, never an error. */
#include "collectors/vm_proc.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/safe_text.h"

#define CMDLINE_MAX 4096

void vm_proc_cache_init(struct vm_proc_cache *c)
{
    c->n = c->nvm = 0;
    c->last_pid = -1;
    c->last_full = c->young_until = 0;
    c->reads = 0;
    memset(c->tids, 0, sizeof(c->tids));
    proc_fds_init(&c->fds);
}

void vm_proc_cache_close(struct vm_proc_cache *c)
{
    proc_fds_close(&c->fds);
    vm_proc_cache_init(c);
}

void vm_proc_read_done(struct vm_proc_cache *c)
{
    if (c)
        proc_fds_sweep(&c->fds);
}

/* Reads the file at path into buf (up to n-1 bytes, 0-terminated);
 * returns the bytes read or -1 with errno. */
static ssize_t slurp(const char *path, char *buf, size_t n)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t got = 0, r = 0; /* n of 1 reads nothing */
    while ((size_t)got < n - 1 &&
           (r = read(fd, buf + got, n - 1 - (size_t)got)) > 0)
        got += r;
    int e = errno;
    close(fd);
    if (got == 0 && r < 0) {
        errno = e;
        return -1;
    }
    buf[got] = '\0';
    return got;
}

/* path into buf as slurp does, through fds' kept file when fds is given */
static ssize_t slurp_kept(struct proc_fds *fds, const char *path, char *buf,
                          size_t n)
{
    return fds ? proc_fds_read(fds, path, buf, n) : slurp(path, buf, n);
}

/* The newest pid the kernel gave: /proc/loadavg's last field; -1. */
static int newest_pid(void)
{
    char buf[128];
    const char *sp;
    int fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
    ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
    if (fd >= 0)
        close(fd);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    sp = strrchr(buf, ' ');
    return sp ? atoi(sp + 1) : -1;
}

bool vm_proc_scan_due(const struct vm_proc_cache *c, double now)
{
    if (c->last_full > 0 && now - c->last_full < VM_PROC_GAP_S)
        return false;
    int pid = newest_pid();
    return pid < 0 || pid != c->last_pid || now < c->young_until ||
           now - c->last_full >= VM_PROC_FULL_S || c->last_full == 0;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* The element of a qemu option at p up to its comma (a doubled comma is
 * a comma of the value) into out; returns where the next one starts. */
static const char *qemu_element(const char *p, char *out, size_t n)
{
    size_t k = 0;
    for (; *p; p++) {
        if (*p == ',') {
            if (p[1] != ',') {
                out[k] = '\0';
                return p + 1;
            }
            p++;
        }
        if (k + 1 < n)
            out[k++] = *p;
    }
    out[k] = '\0';
    return p;
}

/* qemu's -name value: "guest=NAME,debug-threads=on" anywhere among its
 * elements, else a first element that is no key=value, "NAME,...". */
static void qemu_name(const char *v, char *out, size_t n)
{
    char el[128];
    out[0] = '\0';
    for (const char *p = v; *p;) {
        const char *next = qemu_element(p, el, sizeof(el));
        if (strncmp(el, "guest=", 6) == 0) {
            snprintf(out, n, "%.63s", el + 6);
            return;
        }
        if (p == v && !strchr(el, '='))
            snprintf(out, n, "%.63s", el);
        if (next == p)
            break;
        p = next;
    }
}

static bool classify(const char *cmdline, size_t n, struct vm_id *id);

int vm_proc_exe_kind(const char *path)
{
    const char *exe = base_name(path);
    if (strncmp(exe, "qemu-system-", 12) == 0)
        return VMK_QEMU;
    if (strcmp(exe, "firecracker") == 0)
        return VMK_FIRECRACKER;
    if (strcmp(exe, "cloud-hypervisor") == 0)
        return VMK_CLOUD_HV;
    /* User-Mode Linux: a kernel binary (its parameters tell, classify) */
    if (strcmp(exe, "linux") == 0 || strcmp(exe, "vmlinux") == 0 ||
        strncmp(exe, "linux.uml", 9) == 0)
        return VMK_UML;
    return -1;
}

/* The VM's name is anyone's argv: made safe here, before any view or
 * report sees it (and a vm= name, which is safe, can match only a name
 * that was). */
bool vm_proc_classify(const char *cmdline, size_t n, struct vm_id *id)
{
    bool vm = classify(cmdline, n, id);
    safe_text(id->name);
    return vm;
}

static bool classify(const char *cmdline, size_t n, struct vm_id *id)
{
    const char *argv[256];
    int argc = 0;
    for (size_t i = 0; i < n && argc < 256; i += strlen(cmdline + i) + 1)
        argv[argc++] = cmdline + i;
    if (argc == 0)
        return false;
    int kind = vm_proc_exe_kind(argv[0]);
    id->name[0] = '\0';
    if (kind == VMK_QEMU) {
        id->kind = VMK_QEMU;
        for (int i = 1; i + 1 < argc; i++)
            if (strcmp(argv[i], "-name") == 0 || strcmp(argv[i], "--name") == 0)
                qemu_name(argv[i + 1], id->name, sizeof(id->name));
        return true;
    }
    if (kind == VMK_FIRECRACKER || kind == VMK_CLOUD_HV) {
        id->kind = (enum vm_kind)kind;
        for (int i = 1; i + 1 < argc; i++)
            if (strcmp(argv[i], "--id") == 0)
                snprintf(id->name, sizeof(id->name), "%s", argv[i + 1]);
        return true;
    }
    /* User-Mode Linux: the kernel binary with UML's own parameters */
    bool uml_exe = kind == VMK_UML, uml_args = false;
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "umid=", 5) == 0) {
            snprintf(id->name, sizeof(id->name), "%s", argv[i] + 5);
            uml_args = true;
        }
        if (strncmp(argv[i], "ubd", 3) == 0 ||
            strncmp(argv[i], "con=", 4) == 0 ||
            strncmp(argv[i], "con0=", 5) == 0 ||
            strncmp(argv[i], "eth0=", 5) == 0)
            uml_args = true;
    }
    if (uml_exe && uml_args) {
        id->kind = VMK_UML;
        return true;
    }
    id->name[0] = '\0';
    return false;
}

/* pid's parent, start time (ticks since boot) and thread count (each
 * out NULL when not wanted); false when gone. */
static bool read_stat(struct proc_fds *fds, const char *dir, int *ppid,
                      unsigned long long *start, int *threads)
{
    char path[96], buf[1024];
    snprintf(path, sizeof(path), "%s/stat", dir);
    if (slurp_kept(fds, path, buf, sizeof(buf)) <= 0)
        return false;
    const char *p = strrchr(buf, ')'); /* comm may hold anything */
    if (!p)
        return false;
    /* after ") ": state ppid pgrp session tty tpgid flags minflt cminflt
     * majflt cmajflt utime stime cutime cstime priority nice num_threads
     * (field 20) itrealvalue starttime (field 22) */
    char state;
    int pp, nt;
    unsigned long long st;
    if (sscanf(p + 2,
               "%c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d "
               "%*d %*d %d %*d %llu",
               &state, &pp, &nt, &st) != 4)
        return false;
    if (ppid)
        *ppid = pp;
    if (threads)
        *threads = nt;
    *start = st;
    return state != 'Z' && state != 'X'; /* a zombie runs nothing */
}

/* A number from a "Key:\tvalue" line of a status-like text, or -1. */
static long long status_field(const char *text, const char *key)
{
    size_t kl = strlen(key);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p)
        if (strncmp(p, key, kl) == 0 && p[kl] == ':')
            return strtoll(p + kl + 1, NULL, 10);
    return -1;
}

/* A UML process whose parent is also one is the kernel's helper or one
 * of its guest's processes, not a VM of its own. */
static bool uml_child(int pid)
{
    char dir[64], path[80], buf[CMDLINE_MAX];
    int ppid;
    unsigned long long st;
    snprintf(dir, sizeof(dir), "/proc/%d", pid);
    if (!read_stat(NULL, dir, &ppid, &st, NULL) || ppid <= 1)
        return false;
    snprintf(path, sizeof(path), "/proc/%d/cmdline", ppid);
    ssize_t n = slurp(path, buf, sizeof(buf));
    struct vm_id parent;
    return n > 0 && vm_proc_classify(buf, (size_t)n, &parent) &&
           parent.kind == VMK_UML;
}

bool vm_proc_identify(int pid, struct vm_id *id, char *why, size_t n)
{
    char dir[64], path[80], buf[CMDLINE_MAX];
    snprintf(dir, sizeof(dir), "/proc/%d", pid);
    snprintf(path, sizeof(path), "%s/cmdline", dir);
    ssize_t len = pid > 0 ? slurp(path, buf, sizeof(buf)) : -1;
    if (len < 0) {
        snprintf(why, n, "pid %d: no such process on this host", pid);
        return false;
    }
    if (!vm_proc_classify(buf, (size_t)len, id) ||
        (id->kind == VMK_UML && uml_child(pid))) {
        snprintf(why, n,
                 "pid %d (%.40s) is no VM process (qemu-system-*, a User-Mode "
                 "Linux kernel, firecracker, cloud-hypervisor)",
                 pid, len > 0 ? base_name(buf) : "a kernel thread");
        return false;
    }
    id->pid = pid;
    if (!read_stat(NULL, dir, NULL, &id->start, NULL)) {
        snprintf(why, n, "pid %d ended", pid);
        return false;
    }
    return true;
}

/* The index in the sorted not-VM list where pid is or would go. */
static int known_at(const struct vm_proc_cache *c, int pid)
{
    int lo = 0, hi = c->n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (c->not_vm[mid].pid < pid)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int vm_proc_scan(struct vm_proc_cache *c, double now, struct vm_id *ids,
                 int max)
{
    bool first = c->last_full == 0; /* every process is read at once */
    c->last_pid = newest_pid();     /* before the listing: none is missed */
    c->last_full = now;
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    int found = 0;
    static struct vm_proc_cache next; /* the not-VMs still alive, sorted;
                                         static: 64 kB, main thread only */
    static int pids[VM_PROC_KNOWN_MAX];
    int np = 0;
    struct dirent *e;
    while ((e = readdir(d)) && np < VM_PROC_KNOWN_MAX)
        if (isdigit((unsigned char)e->d_name[0]))
            pids[np++] = atoi(e->d_name);
    closedir(d);
    /* /proc lists pids in order: the cache's merge stays sorted */
    next.n = 0;
    for (int k = 0; k < np; k++) {
        int pid = pids[k], at = known_at(c, pid);
        bool known = at < c->n && c->not_vm[at].pid == pid;
        double seen = known ? c->not_vm[at].seen : now;
        int reads = known ? c->not_vm[at].reads : 0;
        bool vm = false;
        for (int v = 0; v < c->nvm && !vm; v++)
            vm = c->vm_pid[v] == pid;
        /* new: read at the next scan; read once: again when old enough */
        bool due = first || vm ||
                   (known && (reads == 0 ||
                              (reads == 1 && now - seen >= VM_PROC_YOUNG_S)));
        struct vm_id id;
        char why[VM_WHY];
        if (due && found < max &&
            vm_proc_identify(pid, &id, why, sizeof(why))) {
            ids[found++] = id;
            continue;
        }
        next.not_vm[next.n].pid = pid;
        next.not_vm[next.n].reads = reads + due;
        next.not_vm[next.n++].seen = seen;
        if (reads + due < 2 && seen + VM_PROC_YOUNG_S > c->young_until)
            c->young_until = seen + VM_PROC_YOUNG_S; /* scans due till then */
    }
    c->n = next.n;
    memcpy(c->not_vm, next.not_vm, (size_t)next.n * sizeof(next.not_vm[0]));
    c->nvm = 0;
    for (int v = 0; v < found && c->nvm < VM_MAX; v++)
        c->vm_pid[c->nvm++] = ids[v].pid;
    return found;
}

int vm_proc_vcpu_of(enum vm_kind kind, const char *comm)
{
    int k;
    char tail[8];
    switch (kind) {
    case VMK_QEMU: /* "CPU 0/TCG", "CPU 12/KVM" */
        if (sscanf(comm, "CPU %d/%7s", &k, tail) == 2)
            return k;
        break;
    case VMK_FIRECRACKER: /* "fc_vcpu 0" */
        if (sscanf(comm, "fc_vcpu %d", &k) == 1)
            return k;
        break;
    case VMK_CLOUD_HV: /* "vcpu0" */
        if (sscanf(comm, "vcpu%d", &k) == 1)
            return k;
        break;
    case VMK_UML:
        break;
    }
    return -1;
}

/* Reads thread tid of process pid (or a process of its own: tid == pid)
 * into t; false when it is gone. */
static bool read_thread(struct proc_fds *fds, int pid, int tid,
                        struct vm_thread *t, int *eperm)
{
    char path[96], buf[2048];
    t->tid = tid;
    snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", pid, tid);
    if (slurp_kept(fds, path, buf, sizeof(buf)) <= 0)
        return false;
    buf[strcspn(buf, "\n")] = '\0';
    snprintf(t->comm, sizeof(t->comm), "%.19s", buf);
    snprintf(path, sizeof(path), "/proc/%d/task/%d/schedstat", pid, tid);
    unsigned long long run, wait, slices;
    t->have_sched = false;
    if (slurp_kept(fds, path, buf, sizeof(buf)) > 0 &&
        sscanf(buf, "%llu %llu %llu", &run, &wait, &slices) == 3) {
        t->have_sched = true;
        t->run_ns = run;
        t->wait_ns = wait;
        t->slices = slices;
    } else if (errno == EACCES || errno == EPERM) {
        (*eperm)++;
    }
    /* a context switch onto the thread is a slice it got: schedstat's
     * third field counts them, without the far dearer status file */
    t->have_ctx = t->have_sched;
    t->ctx_vol = t->have_sched ? t->slices : 0;
    t->ctx_invol = 0;
    return true;
}

/* Every thread of process pid into out, as vCPU `vcpu` when >= 0, else by
 * the VMM's names. Returns how many were added. */
static int read_threads(struct proc_fds *fds, int pid, struct vm_raw *out,
                        int vcpu, int *eperm)
{
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/task", pid);
    DIR *d = opendir(path);
    if (!d)
        return 0;
    int added = 0;
    struct dirent *e;
    while ((e = readdir(d)) && out->nthreads < VM_MAX_THREADS) {
        if (!isdigit((unsigned char)e->d_name[0]))
            continue;
        struct vm_thread *t = &out->th[out->nthreads];
        if (!read_thread(fds, pid, atoi(e->d_name), t, eperm))
            continue;
        t->vcpu = vcpu >= 0 ? vcpu : vm_proc_vcpu_of(out->id.kind, t->comm);
        out->nthreads++;
        added++;
    }
    closedir(d);
    return added;
}

/* c's listing of VM id's threads: the one it had, or a slot for it (one
 * not used in the longest). */
static struct vm_tids *tids_of(struct vm_proc_cache *c, const struct vm_id *id)
{
    struct vm_tids *old = &c->tids[0];
    for (int i = 0; i < VM_MAX; i++) {
        struct vm_tids *k = &c->tids[i];
        if (k->pid == id->pid && k->start == id->start)
            return k;
        if (k->used < old->used)
            old = k;
    }
    old->pid = id->pid;
    old->start = id->start;
    old->count = old->n = 0;
    return old;
}

/* The threads of out's VM, whose stat gave count of them, into out: those
 * listed last time while the count is the same and each is read, else
 * from a listing of its task directory (c NULL: always). */
static void read_vm_threads(struct vm_proc_cache *c, int count,
                            struct vm_raw *out, int *eperm)
{
    struct vm_tids *k = c ? tids_of(c, &out->id) : NULL;
    int from = out->nthreads, eperm0 = *eperm;
    if (k) {
        k->used = ++c->reads;
        if (k->count == count && k->n > 0) {
            int i = 0;
            for (; i < k->n; i++) {
                struct vm_thread *t = &out->th[out->nthreads];
                if (!read_thread(&c->fds, out->id.pid, k->tid[i], t, eperm))
                    break;
                t->vcpu = vm_proc_vcpu_of(out->id.kind, t->comm);
                out->nthreads++;
            }
            if (i == k->n)
                return;
            out->nthreads = from; /* one ended: listed afresh */
            *eperm = eperm0;
        }
    }
    read_threads(c ? &c->fds : NULL, out->id.pid, out, -1, eperm);
    if (k) {
        k->count = count;
        k->n = out->nthreads - from;
        for (int i = 0; i < k->n; i++)
            k->tid[i] = out->th[from + i].tid;
    }
}

/* UML runs its guest's processes as host processes of its own, children
 * of the kernel that traces them: their time is its one vCPU's, with the
 * kernel's main thread; its other children (slirp) are the VMM's work. */
static void read_uml_children(struct proc_fds *fds, const struct vm_raw *kernel,
                              struct vm_raw *out, int *eperm)
{
    DIR *d = opendir("/proc");
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) && out->nthreads < VM_MAX_THREADS) {
        if (!isdigit((unsigned char)e->d_name[0]))
            continue;
        char dir[64], path[80], buf[2048];
        int pid = atoi(e->d_name), ppid;
        unsigned long long st;
        snprintf(dir, sizeof(dir), "/proc/%d", pid);
        if (!read_stat(NULL, dir, &ppid, &st, NULL) || ppid != kernel->id.pid)
            continue;
        snprintf(path, sizeof(path), "%s/status", dir);
        long long tracer = slurp(path, buf, sizeof(buf)) > 0
                               ? status_field(buf, "TracerPid")
                               : -1;
        int from = out->nthreads;
        read_threads(fds, pid, out, tracer == kernel->id.pid ? 0 : -1, eperm);
        for (int i = from; i < out->nthreads; i++)
            if (tracer != kernel->id.pid)
                out->th[i].vcpu = -1;
    }
    closedir(d);
}

/* When no thread has a vCPU's name (qemu without -name ...,debug-threads=on
 * names them all after itself): the threads that run guest code are the
 * busy ones, which only their history tells, so all but the main thread
 * (qemu's main loop, the I/O) count as vCPUs, and the note says so. */
static void guess_vcpus(struct vm_raw *out)
{
    int named = 0;
    for (int i = 0; i < out->nthreads; i++)
        named += out->th[i].vcpu >= 0;
    if (named) {
        snprintf(out->vcpu_how, sizeof(out->vcpu_how),
                 out->id.kind == VMK_UML ? "vCPU: the kernel and its guest's "
                                           "processes"
                                         : "vCPUs by thread name");
        return;
    }
    if (out->id.kind == VMK_UML) {
        for (int i = 0; i < out->nthreads; i++)
            if (out->th[i].tid == out->id.pid)
                out->th[i].vcpu = 0;
        snprintf(out->vcpu_how, sizeof(out->vcpu_how),
                 "vCPU: the kernel's main thread");
        return;
    }
    int k = 0;
    for (int i = 0; i < out->nthreads; i++)
        if (out->th[i].tid != out->id.pid)
            out->th[i].vcpu = k++ < VM_MAX_VCPUS ? 0 : -1;
    snprintf(out->vcpu_how, sizeof(out->vcpu_how),
             "vCPUs unnamed: all threads but main (-name X,debug-threads=on)");
}

void vm_proc_read(struct vm_proc_cache *c, const struct vm_id *id,
                  struct vm_raw *out)
{
    struct proc_fds *fds = c ? &c->fds : NULL;
    char dir[64], path[80], buf[4096];
    memset(out, 0, offsetof(struct vm_raw, th));
    out->id = *id;
    out->nthreads = 0;
    out->vcpu_how[0] = out->sched_why[0] = out->io_why[0] = '\0';
    out->kvm_why[0] = '\0';
    out->t = clock_mono();
    snprintf(dir, sizeof(dir), "/proc/%d", id->pid);
    unsigned long long start;
    int count;
    if (!read_stat(fds, dir, NULL, &start, &count) || start != id->start) {
        out->gone = true;
        return;
    }
    int eperm = 0;
    read_vm_threads(c, count, out, &eperm);
    if (id->kind == VMK_UML)
        read_uml_children(fds, out, out, &eperm);
    vm_proc_tell(out, eperm, true);
    /* statm's second field is status's VmRSS in pages, at half the cost
     * (1.6 µs against 3.5: status formats some 50 lines) */
    snprintf(path, sizeof(path), "%s/statm", dir);
    unsigned long long pages;
    if (slurp_kept(fds, path, buf, sizeof(buf)) > 0 &&
        sscanf(buf, "%*u %llu", &pages) == 1) {
        out->have_rss = true;
        out->rss_bytes = (double)pages * (double)sysconf(_SC_PAGESIZE);
    }
    snprintf(path, sizeof(path), "%s/io", dir);
    if (slurp_kept(fds, path, buf, sizeof(buf)) > 0) {
        long long r = status_field(buf, "rchar"),
                  w = status_field(buf, "wchar");
        out->have_io = r >= 0 && w >= 0;
        out->rchar = (uint64_t)r;
        out->wchar = (uint64_t)w;
    } else {
        snprintf(out->io_why, sizeof(out->io_why), "%s",
                 errno == EACCES || errno == EPERM
                     ? "no permission (not our process: run as root)"
                     : "no /proc/PID/io (kernel without task I/O accounting)");
    }
}

void vm_proc_tell(struct vm_raw *out, int eperm, bool here)
{
    guess_vcpus(out);
    int sched = 0;
    for (int i = 0; i < out->nthreads; i++)
        sched += out->th[i].have_sched;
    if (!sched)
        snprintf(out->sched_why, sizeof(out->sched_why), "%s",
                 eperm ? "schedstat: no permission (run as its user or root)"
                       : "no schedstat (kernel without CONFIG_SCHED_INFO)");
    /* KVM's per-VM exit counters live in debugfs, one directory per VM
     * (PID-FD): none for a VM not on KVM */
    bool kvm = false;
    for (int i = 0; i < out->nthreads; i++)
        kvm |= strstr(out->th[i].comm, "/KVM") != NULL;
    if (out->id.kind == VMK_UML)
        snprintf(out->kvm_why, sizeof(out->kvm_why),
                 "no KVM: UML is a process");
    else if (!kvm && strstr(out->vcpu_how, "unnamed"))
        snprintf(out->kvm_why, sizeof(out->kvm_why),
                 "KVM or not: its vCPU threads are unnamed");
    else if (!kvm)
        snprintf(out->kvm_why, sizeof(out->kvm_why), "no KVM: emulated (TCG)");
    else if (!here) /* its debugfs is the other host's */
        snprintf(out->kvm_why, sizeof(out->kvm_why),
                 "KVM exits: not read through pmcd");
    else if (access("/sys/kernel/debug/kvm", R_OK) != 0)
        snprintf(out->kvm_why, sizeof(out->kvm_why),
                 "no /sys/kernel/debug/kvm (mount debugfs as root)");
    else /* no KVM guest runs on this machine to test a reader against */
        snprintf(out->kvm_why, sizeof(out->kvm_why),
                 "KVM exits: not read by parallax yet");
}
