/* clock-sync: sets the demo guest's clock from the host's, or measures how
 * far apart they are. A connection to the clock channel (qemu guestfwd,
 * see guest/boot.sh) returns the host's time in microseconds. busybox can
 * only set whole seconds; this sets microseconds, so the guest lands within
 * about a millisecond of the host instead of tens of ms.
 * Usage: clock-sync [-n] ADDR PORT   (-n: measure only, set nothing) */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { EXCHANGES = 5 };

struct sample {
    int64_t sent_us; /* guest clock before connecting */
    int64_t got_us;  /* guest clock when the host's answer arrived */
    int64_t host_us; /* the host's answer */
};

static int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* exchange: one question to the clock channel; 0 on success. */
static int exchange(const struct sockaddr_in *addr, struct sample *s)
{
    char buf[64];
    size_t len = 0;
    ssize_t n;
    int fd = socket(AF_INET, SOCK_STREAM, 0);

    if (fd < 0)
        return -1;
    s->sent_us = now_us();
    if (connect(fd, (const struct sockaddr *)addr, sizeof(*addr)) < 0) {
        close(fd);
        return -1;
    }
    while (len < sizeof(buf) - 1 &&
           (n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0) {
        if (len == 0)
            s->got_us = now_us(); /* the answer is one short line */
        len += (size_t)n;
    }
    close(fd);
    buf[len] = '\0';
    char *end;
    s->host_us = strtoll(buf, &end, 10);
    return (len == 0 || end == buf || s->host_us <= 0) ? -1 : 0;
}

int main(int argc, char **argv)
{
    int set = 1;
    struct sockaddr_in addr = {.sin_family = AF_INET};
    struct sample best = {0}, s;
    int have = 0;

    if (argc > 1 && strcmp(argv[1], "-n") == 0) {
        set = 0;
        argc--, argv++;
    }
    if (argc != 3 || inet_pton(AF_INET, argv[1], &addr.sin_addr) != 1) {
        fprintf(stderr, "usage: clock-sync [-n] ADDR PORT\n");
        return 2;
    }
    addr.sin_port = htons((uint16_t)atoi(argv[2]));
    alarm(10); /* never hold up the boot for long */

    /* the host spawns a process per question, so its answer is taken late
     * in the exchange: trust the quickest exchange, and read the host's
     * time as what it was when the answer arrived */
    for (int i = 0; i < EXCHANGES; i++) {
        if (exchange(&addr, &s) != 0)
            continue;
        if (!have || s.got_us - s.sent_us < best.got_us - best.sent_us)
            best = s;
        have = 1;
    }
    if (!have) {
        fprintf(stderr, "clock-sync: no answer from %s:%s\n", argv[1], argv[2]);
        return 1;
    }
    /* the true offset lies between these two: the host read its clock
     * somewhere inside the exchange */
    int64_t lo = best.sent_us - best.host_us;
    int64_t hi = best.got_us - best.host_us;

    if (set) {
        struct timespec ts;
        int64_t t = now_us() - hi;

        ts.tv_sec = (time_t)(t / 1000000);
        ts.tv_nsec = (long)(t % 1000000) * 1000;
        if (clock_settime(CLOCK_REALTIME, &ts) != 0) {
            perror("clock-sync: clock_settime");
            return 1;
        }
        printf("stepped by %lld us (round trip %lld us)\n", (long long)-hi,
               (long long)(hi - lo));
    } else {
        printf("offset %+lld us (between %+lld and %+lld us)\n", (long long)hi,
               (long long)lo, (long long)hi);
    }
    return 0;
}
