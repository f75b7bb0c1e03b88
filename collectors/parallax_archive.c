/* parallax-archive: reads one PCP archive for parallax, in a process of
 * its own. libpcp trusts an archive's bytes and some crash it (a metric's
 * name 5 MB long overflowed __pmLogLoadMeta's stack, issue 24); here such
 * a crash, or a hang, ends this process only, and parallax says so.
 * collectors/archive_child.c starts it, collectors/archive_wire.h is what
 * they say; this loop only passes parallax's requests to the reader
 * (backend_archive_reader) and its answers back.
 *   parallax-archive --reader PPID
 * The socket to parallax (PID PPID) is fd 0 and fd 1; stderr is kept for
 * parallax to quote if this process dies. It ends when the socket closes,
 * or with parallax (PR_SET_PDEATHSIG). */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "collectors/archive_source.h"
#include "collectors/archive_wire.h"

#define STDERR_MAX (1 << 20) /* what libpcp may write before writes fail */

static const struct backend *const be = &backend_archive_reader;

/* Answers one request; -1 when parallax is gone. */
static int answer(int fd, const struct wire_head *h, char *text, void **state)
{
    static struct sample smp;
    char msg[WIRE_TEXT_MAX] = "";
    int rc = -1;
    switch (h->code) {
    case WIRE_OPEN:
        if (*state) {
            snprintf(msg, sizeof(msg), "an archive is open already");
        } else {
            be->global_init();
            *state = be->open(text, msg, sizeof(msg));
            rc = *state ? 0 : -1;
        }
        return wire_send(fd, rc, msg, (uint32_t)strlen(msg) + 1);
    case WIRE_FETCH:
        memset(&smp, 0, sizeof(smp));
        smp.t_source = NAN;
        if (*state)
            rc = be->fetch(*state, &smp);
        else
            snprintf(smp.error, sizeof(smp.error), "no archive open");
        return wire_send(fd, rc, &smp, sizeof(smp));
    case WIRE_STORE: {
        size_t n = strlen(text);
        if (*state && n + 1 < h->len)
            rc = be->store(*state, text, text + n + 1, msg, sizeof(msg));
        else
            snprintf(msg, sizeof(msg), "no archive open");
        return wire_send(fd, rc, msg, (uint32_t)strlen(msg) + 1);
    }
    }
    snprintf(msg, sizeof(msg), "no request %d", h->code);
    return wire_send(fd, -1, msg, (uint32_t)strlen(msg) + 1);
}

/* Under make asan the reader dies of the signal libpcp's crash raises,
 * as the ordinary build does, for parallax to name: ASan would catch it
 * and exit 1 with its own report. Unused without ASan. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "handle_segv=0:handle_sigbus=0:handle_abort=0:handle_sigfpe=0:"
           "handle_sigill=0";
}

int main(int argc, char **argv)
{
    char *end = NULL;
    long ppid = argc == 3 ? strtol(argv[2], &end, 10) : 0;
    if (argc != 3 || strcmp(argv[1], "--reader") != 0 || !end || *end ||
        ppid <= 1) {
        fprintf(stderr, "parallax-archive: parallax starts this itself, to "
                        "read an archive (-a, --baseline); run parallax\n");
        return 2;
    }
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != (pid_t)ppid)
        return 1; /* parallax died before the line above */
    signal(SIGPIPE, SIG_IGN);
    signal(SIGXFSZ, SIG_IGN); /* past STDERR_MAX a write fails, no more */
    struct rlimit fsize = {.rlim_cur = STDERR_MAX, .rlim_max = STDERR_MAX};
    setrlimit(RLIMIT_FSIZE, &fsize);
    close_range(3, ~0U, 0); /* whatever parallax held open stays there */
    struct wire_hello hi = {.magic = WIRE_MAGIC,
                            .version = WIRE_VERSION,
                            .sample_size = sizeof(struct sample)};
    if (wire_send(1, 0, &hi, sizeof(hi)) < 0)
        return 1;
    void *state = NULL;
    static char text[WIRE_TEXT_MAX + 1];
    for (;;) {
        struct wire_head h;
        if (wire_recv(0, &h, sizeof(h), INFINITY) < 0 ||
            h.len > WIRE_TEXT_MAX || wire_recv(0, text, h.len, INFINITY) < 0)
            break; /* parallax closed the socket: done */
        text[h.len] = '\0';
        if (answer(1, &h, text, &state) < 0)
            break;
    }
    if (state)
        be->close(state);
    return 0;
}
