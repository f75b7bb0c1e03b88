/* parallax-hello and wl_hello_path: the helper is found where the tests
 * put it (PARALLAX_LIBEXEC, set by run_all.sh), says what lmbench's hello
 * says, re-execs itself exactly N-1 times for --execl N (counted with
 * ptrace's exec events), and refuses bad arguments. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/exec_helper.h"

static const char *hello(void)
{
    if (!getenv("PARALLAX_LIBEXEC"))
        skip(); /* run through tests/run_all.sh, which sets it */
    const char *path = wl_hello_path();
    assert_non_null(path);
    return path;
}

/* Runs the helper with args, stdout into out (if given); wait status. */
static int run(const char *const args[], char *out, size_t outlen)
{
    char path[4096];
    snprintf(path, sizeof path, "%s", hello());
    int fd[2];
    assert_int_equal(pipe(fd), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fd[1], 1);
        char *argv[8] = {path};
        for (int i = 0; args[i] && i < 6; i++)
            argv[i + 1] = (char *)args[i];
        execv(path, argv);
        _exit(99);
    }
    close(fd[1]);
    size_t len = 0;
    ssize_t n;
    char sink[256];
    while ((n = read(fd[0], out ? out + len : sink,
                     out ? outlen - 1 - len : sizeof sink)) > 0)
        len += out ? (size_t)n : 0;
    if (out)
        out[len] = '\0';
    close(fd[0]);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    return status;
}

static void test_found_where_told(void **state)
{
    (void)state;
    const char *path = hello();
    const char *dir = getenv("PARALLAX_LIBEXEC");
    assert_int_equal(strncmp(path, dir, strlen(dir)), 0);
    assert_string_equal(path + strlen(path) - strlen("/parallax-hello"),
                        "/parallax-hello");
}

static void test_says_hello(void **state)
{
    (void)state;
    char out[64];
    const char *none[] = {NULL};
    int status = run(none, out, sizeof out);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_string_equal(out, "Hello world\n");
}

static void test_bad_arguments(void **state)
{
    (void)state;
    const char *bad[][3] = {{"--execl", "0", NULL},
                            {"--execl", "x", NULL},
                            {"--execl", "-3", NULL},
                            {"--execl", NULL, NULL},
                            {"--nope", NULL, NULL}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int status = run(bad[i], NULL, 0);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 2);
    }
}

/* Execs of `parallax-hello --execl n`, the first one included. */
static int count_execs(const char *path, const char *n)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        ptrace(PTRACE_TRACEME, 0, NULL, NULL);
        raise(SIGSTOP);
        execl(path, path, "--execl", n, (char *)NULL);
        _exit(99);
    }
    int status, execs = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSTOPPED(status));
    assert_int_equal(
        ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)(long)PTRACE_O_TRACEEXEC),
        0);
    int sig = 0;
    for (;;) {
        ptrace(PTRACE_CONT, pid, NULL, (void *)(long)sig);
        assert_int_equal(waitpid(pid, &status, 0), pid);
        if (WIFEXITED(status) || WIFSIGNALED(status))
            break;
        sig = 0;
        if (status >> 8 == (SIGTRAP | (PTRACE_EVENT_EXEC << 8)))
            execs++;
        else if (WSTOPSIG(status) != SIGTRAP)
            sig = WSTOPSIG(status); /* pass real signals on */
    }
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    return execs;
}

static void test_execl_chain(void **state)
{
    (void)state;
    char path[4096];
    snprintf(path, sizeof path, "%s", hello());
    assert_int_equal(count_execs(path, "1"), 1);
    assert_int_equal(count_execs(path, "5"), 5);
}

/* PARALLAX_LIBEXEC wins over the other places when it holds the helper. */
static void test_env_first(void **state)
{
    (void)state;
    char saved[4096];
    snprintf(saved, sizeof saved, "%s", hello());
    char dir[] = "/tmp/parallax-test-hello.XXXXXX", file[4096];
    assert_non_null(mkdtemp(dir));
    snprintf(file, sizeof file, "%s/parallax-hello", dir);
    int fd = open(file, O_WRONLY | O_CREAT, 0755);
    assert_true(fd >= 0);
    close(fd);
    char *old = strdup(getenv("PARALLAX_LIBEXEC"));
    setenv("PARALLAX_LIBEXEC", dir, 1);
    const char *got = wl_hello_path();
    assert_non_null(got);
    assert_string_equal(got, file);
    unlink(file);
    got = wl_hello_path(); /* gone: found elsewhere, or not at all */
    assert_true(got == NULL || strcmp(got, file) != 0);
    setenv("PARALLAX_LIBEXEC", old, 1);
    free(old);
    rmdir(dir);
    assert_string_equal(wl_hello_path(), saved);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_found_where_told),
        cmocka_unit_test(test_says_hello),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_execl_chain),
        cmocka_unit_test(test_env_first),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
