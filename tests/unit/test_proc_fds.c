/* The files the host's view keeps open between readings
 * (collectors/proc_fds.h): a kept file is read afresh at each reading
 * (what was written since shows), a file that went is not read from its
 * old descriptor once closed, more files than PROC_FDS_MAX are still read
 * (uncached), a sweep closes exactly the files not read since the last one and
 * every other stays readable (linear probing's removal leaves no hole), a /proc
 * file whose process ended fails instead of reading stale data, and the
 * process's open descriptors (counted in /proc/self/fd, not by the cache)
 * match what it says it keeps. Real files in a temporary directory. */
#include <dirent.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "collectors/proc_fds.h"

#define NFILES 240 /* more than PROC_FDS_MAX */

static char dir[32];

static void path_of(int i, char *p, size_t n)
{
    snprintf(p, n, "%.31s/f%d", dir, i);
}

static void write_file(int i, const char *text)
{
    char p[PROC_FDS_PATH];
    path_of(i, p, sizeof(p));
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* descriptors open in this process, from the kernel's own list */
static int open_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += e->d_name[0] != '.';
    closedir(d);
    return n - 1; /* the listing's own */
}

static void expect(struct proc_fds *c, int i, const char *want)
{
    char p[PROC_FDS_PATH], buf[64];
    path_of(i, p, sizeof(p));
    assert_int_equal(proc_fds_read(c, p, buf, sizeof(buf)),
                     (ssize_t)strlen(want));
    assert_string_equal(buf, want);
}

static void test_kept_files(void **state)
{
    (void)state;
    strcpy(dir, "/tmp/test_proc_fds.XXXXXX");
    assert_non_null(mkdtemp(dir));
    static struct proc_fds c;
    proc_fds_init(&c);
    int base = open_fds();
    char text[32];
    for (int i = 0; i < NFILES; i++) {
        snprintf(text, sizeof(text), "file %d\n", i);
        write_file(i, text);
        expect(&c, i, text);
    }
    assert_int_equal(c.n, PROC_FDS_MAX);
    assert_int_equal(open_fds() - base, PROC_FDS_MAX);
    proc_fds_sweep(&c);
    assert_int_equal(c.n, PROC_FDS_MAX); /* all read in that round */

    /* a kept file read again shows what it holds now, shorter or longer */
    write_file(3, "3\n");
    expect(&c, 3, "3\n");
    write_file(3, "three, now longer than before\n");
    expect(&c, 3, "three, now longer than before\n");

    /* read every other file only: the sweep closes the rest, and each
     * one read stays readable and right after the removals */
    for (int i = 0; i < NFILES; i += 2) {
        snprintf(text, sizeof(text), "file %d\n", i);
        if (i != 3)
            expect(&c, i, text);
    }
    proc_fds_sweep(&c);
    int kept = c.n;
    assert_true(kept > 0 && kept <= NFILES / 2);
    assert_int_equal(open_fds() - base, kept);
    for (int i = 0; i < NFILES; i += 2) {
        snprintf(text, sizeof(text), "file %d\n", i);
        expect(&c, i, text);
    }
    /* the even files, now all kept, and 3, read in the round swept */
    assert_int_equal(c.n, NFILES / 2 + 1);
    assert_int_equal(open_fds() - base, NFILES / 2 + 1);

    /* an unlinked file still reads through its kept descriptor (a /proc
     * file fails once its process ends: test_process_ends); closed, the
     * path is read afresh, and is gone */
    char p[PROC_FDS_PATH], buf[64];
    path_of(0, p, sizeof(p));
    unlink(p);
    assert_int_equal(proc_fds_read(&c, p, buf, sizeof(buf)), 7); /* kept */
    proc_fds_close(&c);
    assert_int_equal(c.n, 0);
    assert_int_equal(open_fds(), base);
    assert_int_equal(proc_fds_read(&c, p, buf, sizeof(buf)), -1);

    for (int i = 1; i < NFILES; i++) {
        path_of(i, p, sizeof(p));
        unlink(p);
    }
    rmdir(dir);
}

/* a /proc file of a process that ended reads nothing through the kept
 * descriptor: the read fails and the path is tried afresh (gone too) */
static void test_process_ends(void **state)
{
    (void)state;
    static struct proc_fds c;
    proc_fds_init(&c);
    pid_t pid = fork();
    if (pid == 0) {
        pause();
        _exit(0);
    }
    char p[PROC_FDS_PATH], buf[1024];
    snprintf(p, sizeof(p), "/proc/%d/stat", pid);
    assert_true(proc_fds_read(&c, p, buf, sizeof(buf)) > 0);
    assert_true(proc_fds_read(&c, p, buf, sizeof(buf)) > 0);
    assert_int_equal(c.n, 1);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    assert_int_equal(proc_fds_read(&c, p, buf, sizeof(buf)), -1);
    assert_int_equal(c.n, 0);
    proc_fds_close(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kept_files),
        cmocka_unit_test(test_process_ends),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
