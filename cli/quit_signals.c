/* See quit_signals.h. */
#include "cli/quit_signals.h"

#include <signal.h>
#include <stddef.h>

static const int quit_signals[] = {
    SIGINT,    SIGTERM, SIGHUP,  SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM,
    SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGIO,   SIGPWR,  SIGSTKFLT,
};

void quit_signals_install(void (*handler)(int))
{
    struct sigaction sa = {.sa_handler = handler};
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof(quit_signals) / sizeof(quit_signals[0]); i++)
        sigaddset(&sa.sa_mask, quit_signals[i]);
    for (size_t i = 0; i < sizeof(quit_signals) / sizeof(quit_signals[0]); i++)
        sigaction(quit_signals[i], &sa, NULL);
    /* a mask inherited from the parent (nohup-like wrappers block HUP)
     * would keep them pending for ever */
    sigprocmask(SIG_UNBLOCK, &sa.sa_mask, NULL);
}
