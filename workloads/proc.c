/* Process hygiene shared by the runner's child and by workloads that start
 * helpers of their own (ping-pong peers, fork benchmarks). */
#include "workloads/proc.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

void proc_die_with_parent(pid_t parent)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    /* The parent may have died between fork and prctl: then we were
     * already reparented and no signal will come. */
    if (getppid() != parent)
        _exit(127);
}

void proc_reset_signals(void)
{
    struct sigaction sa = {.sa_handler = SIG_DFL};
    sigemptyset(&sa.sa_mask);
    for (int sig = 1; sig < NSIG; sig++)
        sigaction(sig, &sa, NULL); /* fails harmlessly for KILL, STOP */
    sigset_t all;
    sigemptyset(&all);
    sigprocmask(SIG_SETMASK, &all, NULL);
}

pid_t wl_fork(void)
{
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0)
        proc_die_with_parent(parent);
    return pid;
}

void proc_stdio_null(void)
{
    int null = open("/dev/null", O_RDWR);
    if (null < 0)
        return;
    dup2(null, 0);
    dup2(null, 1);
    dup2(null, 2);
    if (null > 2)
        close(null);
}
