/* parallax-hello: the tiny program the exec workloads run, built twice:
 * static (parallax-hello, lmbench's hello-s) and dynamically linked
 * (parallax-hello-dyn, lmbench's hello and UnixBench's execl).
 *   parallax-hello            writes "Hello world\n" and exits, as
 *                             lmbench's hello does for lat_proc exec/shell
 *   parallax-hello --execl N  execs itself N-1 more times, then exits 0, as
 *                             UnixBench's execl does
 * It must stay cheap to load: no stdio, nothing but a few system calls. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXECL_MAX 1000000000UL

static void say(int fd, const char *s)
{
    if (write(fd, s, strlen(s)) < 0)
        return; /* lat_proc closes stdout: nobody to tell */
}

static int usage(void)
{
    say(2, "usage: parallax-hello [--execl N]  (N: 1..1000000000)\n");
    return 2;
}

/* N as a count of runs, 0 when it is not one. */
static unsigned long parse_count(const char *s)
{
    char *end;
    errno = 0;
    unsigned long n = strtoul(s, &end, 10);
    if (errno || end == s || *end || *s == '-' || n < 1 || n > EXECL_MAX)
        return 0;
    return n;
}

/* Replaces this process with a fresh copy of this program for the
 * remaining n-1 runs; the path is always our own executable. */
static int execl_chain(unsigned long n)
{
    if (n <= 1)
        return 0;
    char left[24], *p = left + sizeof left;
    *--p = '\0';
    unsigned long v = n - 1;
    do
        *--p = (char)('0' + v % 10);
    while ((v /= 10) > 0);
    execl("/proc/self/exe", "parallax-hello", "--execl", p, (char *)NULL);
    say(2, "parallax-hello: cannot exec /proc/self/exe: ");
    say(2, strerror(errno));
    say(2, "\n");
    return 127;
}

int main(int argc, char **argv)
{
    if (argc == 1) {
        say(1, "Hello world\n");
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "--execl") == 0) {
        unsigned long n = parse_count(argv[2]);
        return n ? execl_chain(n) : usage();
    }
    return usage();
}
