/* The host's view of a VM: which processes are VMs and what they are
 * named (qemu's -name in its forms, firecracker's --id, UML's umid=), and
 * the figures between two readings of its threads: vCPUs' run and wait as
 * shares of a CPU and of wall time, the VMM's other threads apart, a
 * thread that appeared in between left out, VMs coming and going; the
 * threads of a process read as a VM's (this one's, named as qemu's vCPUs)
 * as they come, go and are renamed. The readings of real VMs are checked by
 * tests/integration/test_host_view.sh. */
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "collectors/vm_pcp.h"
#include "collectors/vm_proc.h"
#include "core/vm_model.h"

/* argv as /proc/PID/cmdline holds it: NUL-separated */
static bool classify(struct vm_id *id, int argc, ...)
{
    char buf[1024];
    size_t n = 0;
    va_list ap;
    va_start(ap, argc);
    for (int i = 0; i < argc; i++) {
        const char *a = va_arg(ap, const char *);
        memcpy(buf + n, a, strlen(a) + 1);
        n += strlen(a) + 1;
    }
    va_end(ap);
    return vm_proc_classify(buf, n, id);
}

static void test_classify(void **state)
{
    (void)state;
    struct vm_id id;
    assert_true(classify(&id, 3, "/usr/bin/qemu-system-x86_64", "-name",
                         "guest=web1,debug-threads=on"));
    assert_int_equal(id.kind, VMK_QEMU);
    assert_string_equal(id.name, "web1");
    assert_true(classify(&id, 3, "qemu-system-aarch64", "-name",
                         "demo,debug-threads=on"));
    assert_string_equal(id.name, "demo");
    assert_true(classify(&id, 3, "qemu-system-x86_64", "-name",
                         "debug-threads=on,guest=db"));
    assert_string_equal(id.name, "db");
    assert_true(classify(&id, 3, "qemu-system-x86_64", "-name", "a,,b"));
    assert_string_equal(id.name, "a,b"); /* a doubled comma is the name's */
    assert_true(
        classify(&id, 3, "qemu-system-x86_64", "-name", "debug-threads=on"));
    assert_string_equal(id.name, "");
    assert_true(classify(&id, 2, "qemu-system-x86_64", "-nodefaults"));
    assert_string_equal(id.name, "");
    assert_true(classify(&id, 3, "firecracker", "--id", "fc7"));
    assert_int_equal(id.kind, VMK_FIRECRACKER);
    assert_string_equal(id.name, "fc7");
    assert_true(classify(&id, 2, "/opt/cloud-hypervisor", "--kernel"));
    assert_int_equal(id.kind, VMK_CLOUD_HV);
    assert_true(classify(&id, 3, "linux.uml", "umid=parallax-1-2", "mem=256M"));
    assert_int_equal(id.kind, VMK_UML);
    assert_string_equal(id.name, "parallax-1-2");
    assert_true(classify(&id, 3, "./linux", "ubd0=root.img", "mem=128M"));
    assert_int_equal(id.kind, VMK_UML);
    /* not VMs: a shell named qemu, a kernel build's linux without UML's
     * parameters, firecracker's init inside a microVM */
    assert_false(classify(&id, 2, "bash", "qemu-system-x86_64"));
    assert_false(classify(&id, 2, "./linux", "--help"));
    assert_false(classify(&id, 2, "/process_api", "--firecracker-init"));
    assert_false(classify(&id, 0));
    /* a name is anyone's argv: made safe before any view shows it (and a
     * vm= name, which is safe, matches only what is left) */
    assert_true(classify(&id, 3, "qemu-system-x86_64", "-name",
                         "guest=a\033]0;x\007\033[2J"));
    assert_string_equal(id.name, "a?]0;x??[2J");
    assert_true(classify(&id, 3, "firecracker", "--id",
                         "f\x9b"
                         "1"));
    assert_string_equal(id.name, "f?1");
}

static void test_vcpu_names(void **state)
{
    (void)state;
    assert_int_equal(vm_proc_vcpu_of(VMK_QEMU, "CPU 0/TCG"), 0);
    assert_int_equal(vm_proc_vcpu_of(VMK_QEMU, "CPU 11/KVM"), 11);
    assert_int_equal(vm_proc_vcpu_of(VMK_QEMU, "qemu-system-x86"), -1);
    assert_int_equal(vm_proc_vcpu_of(VMK_QEMU, "call_rcu"), -1);
    assert_int_equal(vm_proc_vcpu_of(VMK_FIRECRACKER, "fc_vcpu 2"), 2);
    assert_int_equal(vm_proc_vcpu_of(VMK_CLOUD_HV, "vcpu3"), 3);
}

static struct vm_thread thread(int tid, int vcpu, double run_s, double wait_s,
                               uint64_t ctx)
{
    return (struct vm_thread){.tid = tid,
                              .vcpu = vcpu,
                              .have_sched = true,
                              .run_ns = (uint64_t)(run_s * 1e9),
                              .wait_ns = (uint64_t)(wait_s * 1e9),
                              .have_ctx = true,
                              .ctx_vol = ctx,
                              .ctx_invol = ctx};
}

/* Two vCPUs over 2 s: one ran 1.5 s and waited 0.5 s (75 %, 25 %), the
 * other ran 0.2 s and waited 0.1 s; the emulator thread ran 0.1 s. */
static void test_figures(void **state)
{
    (void)state;
    static struct vm_raw a, b;
    memset(&a, 0, sizeof(a));
    a.id = (struct vm_id){.pid = 100, .start = 5, .kind = VMK_QEMU};
    a.t = 10;
    a.nthreads = 3;
    a.th[0] = thread(100, -1, 1.0, 0.2, 10);
    a.th[1] = thread(101, 0, 4.0, 1.0, 100);
    a.th[2] = thread(102, 1, 0.5, 0.0, 50);
    a.have_io = a.have_rss = true;
    a.rchar = 1000;
    a.wchar = 0;
    a.rss_bytes = 64e6;
    b = a;
    b.t = 12;
    b.th[0] = thread(100, -1, 1.1, 0.2, 20);
    b.th[1] = thread(101, 0, 5.5, 1.5, 200);
    b.th[2] = thread(102, 1, 0.7, 0.1, 60);
    b.th[3] = thread(103, -1, 9.0, 9.0, 999); /* new: no base, left out */
    b.nthreads = 4;
    b.rchar = 5000;
    b.wchar = 2048;
    struct vm_figures f;
    vm_figures_between(&a, &b, &f);
    assert_int_equal(f.nvcpu, 2);
    assert_true(fabs(f.vcpu_run[0] - 75) < 1e-6);
    assert_true(fabs(f.vcpu_wait[0] - 25) < 1e-6);
    assert_true(fabs(f.vcpu_run[1] - 10) < 1e-6);
    assert_true(fabs(f.vcpu_wait[1] - 5) < 1e-6);
    assert_true(fabs(f.run_pct - 85) < 1e-6);
    assert_true(fabs(f.wait_pct - 15) < 1e-6); /* the vCPUs' mean */
    assert_true(fabs(f.other_run - 5) < 1e-6);
    assert_int_equal(f.nother, 1);
    assert_true(fabs(f.read_bps - 2000) < 1e-6);
    assert_true(fabs(f.write_bps - 1024) < 1e-6);
    /* (10+10 + 100+100 + 10+10) context switches over 2 s */
    assert_true(fabs(f.ctxsw_ps - 120) < 1e-6);
    assert_true(f.rss_bytes == 64e6);
    /* no schedstat: no run or wait, never 0 */
    for (int i = 0; i < b.nthreads; i++)
        b.th[i].have_sched = false;
    vm_figures_between(&a, &b, &f);
    assert_true(isnan(f.run_pct) && isnan(f.wait_pct) && isnan(f.other_run));
}

static void test_set_comes_and_goes(void **state)
{
    (void)state;
    static struct vm_set set;
    static struct vm_raw r[2];
    vm_set_init(&set);
    memset(r, 0, sizeof(r));
    r[0].id = (struct vm_id){.pid = 7, .start = 1};
    r[1].id = (struct vm_id){.pid = 8, .start = 1};
    r[0].t = r[1].t = 1;
    assert_int_equal(vm_set_update(&set, r, 2), 2);
    assert_int_equal(set.n, 2);
    assert_false(set.vm[0].have_prev); /* no figures from one reading */
    assert_true(isnan(set.vm[0].fig.run_pct));
    r[1].t = 2;
    assert_int_equal(vm_set_update(&set, &r[1], 1), 1); /* pid 7 went */
    assert_int_equal(set.n, 1);
    assert_int_equal(set.vm[0].cur.id.pid, 8);
    assert_true(set.vm[0].have_prev);
    assert_null(vm_set_find(&set, 7));
    assert_non_null(vm_set_find(&set, 8));
    /* the same pid started again is another VM */
    r[1].id.start = 99;
    r[1].t = 3;
    assert_int_equal(vm_set_update(&set, &r[1], 1), 2);
    assert_false(set.vm[0].have_prev);
}

/* The totals as of each reading, kept for the newest VM_MARKS: a span's
 * ends are found at or before and at or after any time among them, the
 * wait summed like the run; none before the oldest kept or after the
 * newest. */
static void test_marks(void **state)
{
    (void)state;
    static struct vm_set set;
    static struct vm_raw r;
    vm_set_init(&set);
    memset(&r, 0, sizeof(r));
    r.id = (struct vm_id){.pid = 9, .start = 1, .kind = VMK_QEMU};
    r.nthreads = 1;
    int n = VM_MARKS + 3;
    for (int k = 0; k < n; k++) { /* each second: ran 0.5 s, waited 0.25 */
        r.t = 100 + k;
        r.th[0] = thread(90, 0, 0.5 * k, 0.25 * k, 0);
        vm_set_update(&set, &r, 1);
    }
    const struct vm_model *vm = vm_set_find(&set, 9);
    assert_int_equal(vm->nmark, VM_MARKS);
    struct vm_mark a, b;
    assert_true(vm_model_mark(vm, 105.5, true, &a));
    assert_true(vm_model_mark(vm, 105.5, false, &b));
    assert_true(a.t == 105 && b.t == 106 && a.pid == 9);
    assert_int_equal(a.run_ns, 2500000000ULL); /* summed from first seen */
    assert_int_equal(a.wait_ns, 1250000000ULL);
    assert_int_equal(b.wait_ns - a.wait_ns, 250000000ULL);
    assert_true(vm_model_mark(vm, 106, true, &a) && a.t == 106);
    assert_true(vm_model_mark(vm, 106, false, &b) && b.t == 106);
    double oldest = 100 + n - VM_MARKS;
    assert_false(vm_model_mark(vm, oldest - 0.5, true, &a));
    assert_true(vm_model_mark(vm, oldest - 0.5, false, &b) && b.t == oldest);
    assert_false(vm_model_mark(vm, 100 + n, false, &b));
}

/* pmdaproc's psargs (argv joined by spaces) back into an argv, and
 * classified as /proc's cmdline is: another host's VMs are found alike */
static void test_psargs(void **state)
{
    (void)state;
    char buf[64];
    size_t n =
        vm_pcp_argv("qemu-system-x86_64  -name guest=a,x ", buf, sizeof(buf));
    assert_int_equal(n, strlen("qemu-system-x86_64") + 1 + 6 + 10);
    assert_string_equal(buf, "qemu-system-x86_64");
    assert_string_equal(buf + 19, "-name");
    assert_string_equal(buf + 25, "guest=a,x");
    struct vm_id id;
    assert_true(vm_proc_classify(buf, n, &id));
    assert_int_equal(id.kind, VMK_QEMU);
    assert_string_equal(id.name, "a");
    assert_int_equal(vm_pcp_argv("", buf, sizeof(buf)), 0);
    /* what a listing keeps by the instance's program name alone */
    assert_int_equal(vm_proc_exe_kind("/usr/bin/qemu-system-aarch64"),
                     VMK_QEMU);
    assert_int_equal(vm_proc_exe_kind("firecracker"), VMK_FIRECRACKER);
    assert_int_equal(vm_proc_exe_kind("cloud-hypervisor"), VMK_CLOUD_HV);
    assert_int_equal(vm_proc_exe_kind("linux.uml"), VMK_UML);
    assert_int_equal(vm_proc_exe_kind("qemu-img"), -1);
    assert_int_equal(vm_proc_exe_kind("bash"), -1);
    /* cut at the buffer, still NUL-ended */
    n = vm_pcp_argv("firecracker --id abcdefghijklmnop", buf, 20);
    assert_true(n <= 20);
    assert_int_equal(buf[n - 1], '\0');
    assert_true(vm_proc_classify(buf, n, &id));
    assert_int_equal(id.kind, VMK_FIRECRACKER);
}

/* A thread of this process named as a vCPU, parked till told to end. */
struct parked {
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool named, end;
    int tid;
    char name[16];
};

static void *park(void *arg)
{
    struct parked *p = arg;
    pthread_setname_np(pthread_self(), p->name);
    pthread_mutex_lock(&p->mu);
    p->tid = (int)gettid();
    p->named = true;
    pthread_cond_broadcast(&p->cv);
    while (!p->end)
        pthread_cond_wait(&p->cv, &p->mu);
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

static void park_start(struct parked *p, const char *name)
{
    memset(p, 0, sizeof(*p));
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    snprintf(p->name, sizeof(p->name), "%s", name);
    assert_int_equal(pthread_create(&p->th, NULL, park, p), 0);
    pthread_mutex_lock(&p->mu);
    while (!p->named)
        pthread_cond_wait(&p->cv, &p->mu);
    pthread_mutex_unlock(&p->mu);
}

static void park_end(struct parked *p)
{
    pthread_mutex_lock(&p->mu);
    p->end = true;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    pthread_join(p->th, NULL);
}

/* The vCPU thread tid in r: its number, -1 when r has no such thread. */
static int vcpu_tid(const struct vm_raw *r, int tid)
{
    for (int i = 0; i < r->nthreads; i++)
        if (r->th[i].tid == tid)
            return r->th[i].vcpu;
    return -1;
}

static void test_threads_read(void **state)
{
    (void)state;
    struct vm_id id = {.pid = getpid(), .kind = VMK_QEMU};
    FILE *f = fopen("/proc/self/stat", "r");
    assert_non_null(f);
    assert_int_equal(fscanf(f,
                            "%*d (%*[^)]) %*c %*d %*d %*d %*d %*d %*u %*u "
                            "%*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu",
                            &id.start),
                     1);
    fclose(f);
    static struct vm_proc_cache c; /* as the session keeps it */
    static struct vm_raw r;
    vm_proc_cache_init(&c);
    struct parked a, b, d;
    park_start(&a, "CPU 0/TCG");
    vm_proc_read(&c, &id, &r);
    assert_false(r.gone);
    assert_int_equal(r.nthreads, 2);
    assert_int_equal(vcpu_tid(&r, a.tid), 0);
    /* one more: the count moved, listed again */
    park_start(&b, "CPU 1/TCG");
    vm_proc_read(&c, &id, &r);
    assert_int_equal(r.nthreads, 3);
    assert_int_equal(vcpu_tid(&r, b.tid), 1);
    /* renamed: names are read every time */
    pthread_setname_np(b.th, "CPU 5/TCG");
    vm_proc_read(&c, &id, &r);
    assert_int_equal(vcpu_tid(&r, b.tid), 5);
    /* one ends and another starts between two readings: the same count,
     * the new one read, the ended one gone */
    park_end(&a);
    park_start(&d, "CPU 2/TCG");
    vm_proc_read(&c, &id, &r);
    assert_int_equal(r.nthreads, 3);
    assert_int_equal(vcpu_tid(&r, d.tid), 2);
    assert_int_equal(vcpu_tid(&r, a.tid), -1);
    /* and uncached, the same */
    vm_proc_read(NULL, &id, &r);
    assert_int_equal(r.nthreads, 3);
    assert_int_equal(vcpu_tid(&r, d.tid), 2);
    assert_true(r.have_rss && r.rss_bytes > 0);
    park_end(&b);
    park_end(&d);
    vm_proc_read(&c, &id, &r);
    assert_int_equal(r.nthreads, 1);
    vm_proc_read_done(&c);
    vm_proc_cache_close(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_classify),
        cmocka_unit_test(test_psargs),
        cmocka_unit_test(test_vcpu_names),
        cmocka_unit_test(test_figures),
        cmocka_unit_test(test_set_comes_and_goes),
        cmocka_unit_test(test_marks),
        cmocka_unit_test(test_threads_read),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
