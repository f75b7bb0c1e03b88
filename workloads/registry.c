/* The catalogue: one line per workload. Each group keeps its own block. */
#include "workloads/registry.h"

#include <string.h>

/* system calls (syscall.c) */
extern const struct workload wl_syscall_null, wl_syscall_read, wl_syscall_write,
    wl_syscall_stat, wl_syscall_fstat, wl_syscall_open;
/* lmbench-style latencies */
extern const struct workload wl_pipe_lat, wl_ctx_switch, wl_unix_lat,
    wl_tcp_lat, wl_fork_exit, wl_fork_exec, wl_fork_sh, wl_prot_fault,
    wl_page_fault;
/* UnixBench-style throughputs, CPU, crypto, disk, time, scheduler */
extern const struct workload wl_pipe_tput, wl_execl, wl_fcopy, wl_dhry, wl_whet,
    wl_rsa_sign, wl_rsa_verify, wl_disk, wl_sleep, wl_sched;
/* latency distributions (lat_hist.h) */
extern const struct workload wl_timer_lat, wl_wakeup_lat;

const struct workload *const workload_registry[] = {
    /* system calls */
    &wl_syscall_null,
    &wl_syscall_read,
    &wl_syscall_write,
    &wl_syscall_stat,
    &wl_syscall_fstat,
    &wl_syscall_open,
    /* lmbench-style latencies */
    &wl_pipe_lat,
    &wl_ctx_switch,
    &wl_unix_lat,
    &wl_tcp_lat,
    &wl_fork_exit,
    &wl_fork_exec,
    &wl_fork_sh,
    &wl_prot_fault,
    &wl_page_fault,
    /* UnixBench-style throughputs, CPU, crypto, disk, time, scheduler */
    &wl_pipe_tput,
    &wl_execl,
    &wl_fcopy,
    &wl_dhry,
    &wl_whet,
    &wl_rsa_sign,
    &wl_rsa_verify,
    &wl_disk,
    &wl_sleep,
    &wl_sched,
    /* latency distributions */
    &wl_timer_lat,
    &wl_wakeup_lat,
    NULL,
};

const struct workload *workload_find(const char *name)
{
    for (int i = 0; workload_registry[i]; i++)
        if (strcmp(workload_registry[i]->name, name) == 0)
            return workload_registry[i];
    return NULL;
}

int workload_count(void)
{
    int n = 0;
    while (workload_registry[n])
        n++;
    return n;
}
