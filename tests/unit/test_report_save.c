/* report_save writes the .txt and .json pair under names that sort by
 * time, creating the directory; saves within one second (one millisecond
 * even) get names of their own and never replace a report; a read-only
 * directory or a full disk fails with one line and leaves no file behind;
 * a kill -9 in the middle of a save leaves the earlier pairs whole, never
 * half a pair, and no temp file (with O_TMPFILE none is ever named;
 * without it, the next save removes what a killed one left, but not a
 * live writer's). */
#include <dirent.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "report/atomic_file.h"
#include "report/report_read.h"
#include "report/report_text.h"
#include "report_fixture.h"

#define STEM "parallax-20231114-221320-000" /* fix_meta's time in UTC */

static char top[64], dir[128];

static int setup(void **state)
{
    (void)state;
    setenv("TZ", "UTC", 1);
    tzset();
    snprintf(top, sizeof(top), "/tmp/parallax-save-XXXXXX");
    if (!mkdtemp(top))
        return -1;
    chmod(top, 0755); /* the unprivileged child must reach into it */
    snprintf(dir, sizeof(dir), "%s/state/parallax", top);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    atomic_file_force_named(false);
    char cmd[160];
    snprintf(cmd, sizeof(cmd), "chmod -R u+w %s; rm -rf %s", top, top);
    return system(cmd) == 0 ? 0 : -1;
}

/* Files in d, hidden ones too; n_hidden gets how many start with '.'. */
static int count_files(const char *d, int *n_hidden)
{
    DIR *dp = opendir(d);
    int n = 0;
    *n_hidden = 0;
    if (!dp)
        return -1;
    for (struct dirent *e; (e = readdir(dp));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        n++;
        *n_hidden += e->d_name[0] == '.';
    }
    closedir(dp);
    return n;
}

static char *slurp(const char *path);

static int save(char *path, size_t pn, char *err, size_t en)
{
    struct session *s;
    struct jobs *j;
    fix_build(&s, &j);
    struct report_meta meta = fix_meta();
    int rc = report_save(dir, s, j, &meta, path, pn, err, en);
    fix_free(s, j);
    return rc;
}

/* Three saves of the same moment: three pairs, named in the order made,
 * the first one unchanged. */
static void test_same_second(void **state)
{
    (void)state;
    char path[3][256], err[256] = "";
    for (int i = 0; i < 3; i++)
        assert_int_equal(save(path[i], sizeof(path[i]), err, sizeof(err)), 0);
    assert_true(strcmp(path[0], path[1]) < 0);
    assert_true(strcmp(path[1], path[2]) < 0);
    char want[256];
    snprintf(want, sizeof(want), "%s/parallax-20231114-221320-002.txt", dir);
    assert_string_equal(path[2], want);
    int hidden;
    assert_int_equal(count_files(dir, &hidden), 6);
    assert_int_equal(hidden, 0);
    /* a .txt alone (its .json deleted) keeps its name too */
    snprintf(want, sizeof(want), "%s/parallax-20231114-221320-003.txt", dir);
    FILE *f = fopen(want, "w");
    fputs("mine\n", f);
    fclose(f);
    assert_int_equal(save(path[0], sizeof(path[0]), err, sizeof(err)), 0);
    snprintf(want, sizeof(want), "%s/parallax-20231114-221320-004.txt", dir);
    assert_string_equal(path[0], want);
    snprintf(want, sizeof(want), "%s/parallax-20231114-221320-003.txt", dir);
    char *kept = slurp(want);
    assert_string_equal(kept, "mine\n");
    free(kept);
}

static void test_save_pair(void **state)
{
    (void)state;
    char path[256], err[256] = "";
    assert_int_equal(save(path, sizeof(path), err, sizeof(err)), 0);
    char want[256];
    snprintf(want, sizeof(want), "%s/%s.txt", dir, STEM);
    assert_string_equal(path, want);
    snprintf(want, sizeof(want), "%s/%s.json", dir, STEM);
    struct baseline *b = malloc(sizeof(*b));
    assert_int_equal(report_read(want, NULL, NULL, b, err, sizeof(err)), 0);
    free(b);
    int hidden;
    assert_int_equal(count_files(dir, &hidden), 2);
    assert_int_equal(hidden, 0);
}

static int fill_word(FILE *f, void *arg, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    fputs(arg, f);
    return 0;
}

/* Runs fn in a child (as nobody when we are root, so that permissions
 * hold) and asserts it exits 0. */
static void in_child(void (*fn)(void), bool unprivileged)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (unprivileged && geteuid() == 0 &&
            (setgid(65534) < 0 || setuid(65534) < 0))
            _exit(3);
        fn();
        _exit(0);
    }
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
}

/* The save fails with one line naming the directory; no file is left. */
static void expect_failed_save(const char *cause)
{
    char path[256] = "", err[256] = "";
    int hidden;
    if (save(path, sizeof(path), err, sizeof(err)) != -1 || !strstr(err, dir) ||
        !strstr(err, cause) || strchr(err, '\n') ||
        count_files(dir, &hidden) != 0) {
        fprintf(stderr, "unexpected: \"%s\"\n", err);
        _exit(1);
    }
}

static void save_read_only(void)
{
    expect_failed_save("Permission denied");
}

static void test_read_only_dir(void **state)
{
    (void)state;
    char path[256], err[256];
    assert_int_equal(save(path, sizeof(path), err, sizeof(err)), 0);
    unlink(path);
    path[strlen(path) - 3] = '\0';
    strcat(path, "json");
    unlink(path);
    assert_int_equal(chmod(dir, 0555), 0);
    in_child(save_read_only, true);
}

/* A file size limit makes writes fail as a full disk does. */
static void save_disk_full(void)
{
    struct rlimit rl = {4096, 4096};
    signal(SIGXFSZ, SIG_IGN);
    if (setrlimit(RLIMIT_FSIZE, &rl) < 0)
        _exit(2);
    expect_failed_save("File too large");
}

static void test_disk_full(void **state)
{
    (void)state;
    char cmd[200];
    snprintf(cmd, sizeof(cmd), "mkdir -p %s", dir);
    assert_int_equal(system(cmd), 0);
    in_child(save_disk_full, false);
}

/* The text report the fixture gives, for comparison. */
static char *expected_text(void)
{
    struct session *s;
    struct jobs *j;
    fix_build(&s, &j);
    struct report_meta meta = fix_meta();
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    report_text_write(f, s, j, &meta);
    fclose(f);
    fix_free(s, j);
    return buf;
}

static char *slurp(const char *path)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *in = fopen(path, "r"), *out = open_memstream(&buf, &n);
    for (int c; in && (c = fgetc(in)) != EOF;)
        fputc(c, out);
    if (in)
        fclose(in);
    fclose(out);
    return buf;
}

/* Every report in dir is whole: each .txt is the fixture's text, each
 * .json reads back; and no hidden file is there. */
static void assert_whole(const char *want, int round)
{
    DIR *dp = opendir(dir);
    assert_non_null(dp);
    for (struct dirent *e; (e = readdir(dp));) {
        char p[512], err[256];
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        if (e->d_name[0] == '.')
            fail_msg("round %d: %s left behind", round, e->d_name);
        snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
        if (strstr(e->d_name, ".json")) {
            struct baseline *b = malloc(sizeof(*b));
            if (report_read(p, NULL, NULL, b, err, sizeof(err)) < 0)
                fail_msg("round %d: %s", round, err);
            free(b);
        } else {
            char *got = slurp(p);
            assert_string_equal(got, want);
            free(got);
        }
    }
    closedir(dp);
}

/* The files in dir without their partner (a .json without its .txt, or
 * the other way round) into buf; how many. */
static int lone_files(char *buf, size_t n)
{
    DIR *dp = opendir(dir);
    int lone = 0;
    buf[0] = '\0';
    for (struct dirent *e; dp && (e = readdir(dp));) {
        char *dot = strrchr(e->d_name, '.');
        if (e->d_name[0] == '.' || !dot)
            continue;
        char other[512];
        snprintf(other, sizeof(other), "%s/%.*s.%s", dir,
                 (int)(dot - e->d_name), e->d_name,
                 strcmp(dot, ".json") == 0 ? "txt" : "json");
        if (access(other, F_OK) < 0) {
            size_t used = strlen(buf);
            snprintf(buf + used, n - used, " %s", e->d_name);
            lone++;
        }
    }
    if (dp)
        closedir(dp);
    return lone;
}

/* Every report is a whole pair, once a naming the killed save handed on
 * has ended (a few milliseconds at most; 2 s before failing). */
static void assert_paired(int round)
{
    char lone[1024];
    for (int ms = 0; lone_files(lone, sizeof(lone)) > 0; ms++) {
        if (ms == 2000)
            fail_msg("round %d: half a pair:%s", round, lone);
        struct timespec ts = {0, 1000000L};
        nanosleep(&ts, NULL);
    }
}

/* Kills a process saving in a loop at 100 moments, checking what is left
 * after each; `clean` first makes a save of its own (named temp files:
 * it must remove what the killed one left). */
static void kill_rounds(bool clean)
{
    char path[256], err[256];
    assert_int_equal(save(path, sizeof(path), err, sizeof(err)), 0);
    char *want = expected_text();
    struct session *s;
    struct jobs *j;
    fix_build(&s, &j);
    struct report_meta meta = fix_meta();
    for (int round = 0; round < 100; round++) {
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            char p[256], e[256];
            for (;;)
                report_save(dir, s, j, &meta, p, sizeof(p), e, sizeof(e));
        }
        /* somewhere inside a save: each takes about a millisecond */
        struct timespec ts = {0, (round * 737 % 5000) * 1000L};
        nanosleep(&ts, NULL);
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        assert_paired(round);
        if (clean)
            assert_int_equal(save(path, sizeof(path), err, sizeof(err)), 0);
        assert_whole(want, round);
    }
    fix_free(s, j);
    free(want);
}

static void test_kill_during_save(void **state)
{
    (void)state;
    kill_rounds(false);
}

/* The same on a file system without O_TMPFILE. */
static void test_kill_named_temps(void **state)
{
    (void)state;
    atomic_file_force_named(true);
    kill_rounds(true);
}

/* Writes name in dir with some text; returns its path in buf. */
static void put_file(const char *name, char *buf, size_t n)
{
    snprintf(buf, n, "%s/%s", dir, name);
    FILE *f = fopen(buf, "w");
    assert_non_null(f);
    fputs("partial {", f);
    fclose(f);
}

/* Temp files of killed saves (this version's and the names earlier ones
 * gave) go at the next save; one a live writer holds, and other hidden
 * files, stay. */
static void test_stale_temps(void **state)
{
    (void)state;
    char path[256], err[256], p[4][256];
    assert_int_equal(save(path, sizeof(path), err, sizeof(err)), 0);
    put_file(".parallax-tmp-a1b2c3", p[0], sizeof(p[0]));
    put_file(".parallax-20231114-221320.json.AbC123", p[1], sizeof(p[1]));
    put_file(".parallax-tmp-held01", p[2], sizeof(p[2]));
    put_file(".profile", p[3], sizeof(p[3]));
    int held = open(p[2], O_RDONLY);
    assert_int_equal(flock(held, LOCK_EX), 0);
    assert_int_equal(save(path, sizeof(path), err, sizeof(err)), 0);
    assert_int_equal(access(p[0], F_OK), -1);
    assert_int_equal(access(p[1], F_OK), -1);
    assert_int_equal(access(p[2], F_OK), 0);
    assert_int_equal(access(p[3], F_OK), 0);
    close(held);
}

/* atomic_file_write replaces its file, named temps or not. */
static void test_replace(void **state)
{
    (void)state;
    char path[256], err[256] = "";
    assert_int_equal(save(path, sizeof(path), err, sizeof(err)), 0);
    char out[300];
    snprintf(out, sizeof(out), "%s/out.txt", dir);
    for (int named = 0; named < 2; named++) {
        atomic_file_force_named(named);
        assert_int_equal(
            atomic_file_write(out, fill_word, "one", err, sizeof(err)), 0);
        assert_int_equal(
            atomic_file_write(out, fill_word, "two", err, sizeof(err)), 0);
        char *got = slurp(out);
        assert_string_equal(got, "two");
        free(got);
        int hidden;
        assert_int_equal(count_files(dir, &hidden), 3);
        assert_int_equal(hidden, 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_save_pair, setup, teardown),
        cmocka_unit_test_setup_teardown(test_same_second, setup, teardown),
        cmocka_unit_test_setup_teardown(test_read_only_dir, setup, teardown),
        cmocka_unit_test_setup_teardown(test_disk_full, setup, teardown),
        cmocka_unit_test_setup_teardown(test_kill_during_save, setup, teardown),
        cmocka_unit_test_setup_teardown(test_kill_named_temps, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stale_temps, setup, teardown),
        cmocka_unit_test_setup_teardown(test_replace, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
