/* report_save writes the .txt and .json pair under names that sort by
 * time, creating the directory; a read-only directory or a full disk
 * fails with one line and leaves no file behind; a kill -9 in the middle
 * of a save leaves the previous pair whole. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/atomic_file.h"
#include "core/report_read.h"
#include "core/report_text.h"
#include "report_fixture.h"

#define STEM "parallax-20231114-221320" /* fix_meta's time in UTC */

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

static void test_kill_during_save(void **state)
{
    (void)state;
    char path[256], json[256], err[256];
    assert_int_equal(save(path, sizeof(path), err, sizeof(err)), 0);
    snprintf(json, sizeof(json), "%s/%s.json", dir, STEM);
    char *want = expected_text();
    struct session *s;
    struct jobs *j;
    fix_build(&s, &j);
    struct report_meta meta = fix_meta();
    for (int round = 0; round < 20; round++) {
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
        struct baseline *b = malloc(sizeof(*b));
        if (report_read(json, NULL, NULL, b, err, sizeof(err)) < 0)
            fail_msg("round %d: %s", round, err);
        free(b);
        char *got = slurp(path);
        assert_string_equal(got, want);
        free(got);
    }
    fix_free(s, j);
    free(want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_save_pair, setup, teardown),
        cmocka_unit_test_setup_teardown(test_read_only_dir, setup, teardown),
        cmocka_unit_test_setup_teardown(test_disk_full, setup, teardown),
        cmocka_unit_test_setup_teardown(test_kill_during_save, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
