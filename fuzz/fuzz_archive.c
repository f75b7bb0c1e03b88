/* Fuzz target for archives (issue 24): any bytes as an archive's three
 * files go the way -a (archive_find, archive_check) and --baseline
 * (archive_baseline_read) take them, and give a replay or one error line
 * naming the file, never a crash, a hang, a leak or undefined behaviour
 * in parallax. libpcp reads them in parallax-archive (found through
 * PARALLAX_LIBEXEC): its crashes there are findings parallax survives,
 * counted and printed at exit beside the executions, and kept in
 * $FUZZ_ARCHIVE_FINDINGS when that names a directory.
 *
 * An input is up to three sections, each a kind byte ('m' the .meta, 'i'
 * the .index, '0' the volume), a 4-byte big-endian length and the bytes;
 * a file without a section is not there. tests/archive_mutations.py
 * writes real archives and their mutations in this form; `make fuzz`
 * runs it under libFuzzer, tests/integration/test_archive_fuzz.sh under
 * fuzz/fuzz_archive_main.c for a bounded time in make check. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/safe_text.h"
#include "collectors/archive_frame.h"
#include "collectors/archive_source.h"
#include "report/archive_baseline.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What the inputs came to. */
static struct {
    unsigned long runs, framing, refused, accepted, crashed, slow, baseline;
} seen;
static char dir[64], base[128];
static bool verbose; /* FUZZ_ARCHIVE_LOG set: each outcome on stderr */

static void outcome(const char *what, const char *err)
{
    if (verbose)
        fprintf(stderr, "%s: %s\n", what, err);
}

static void report(void)
{
    fprintf(stderr,
            "fuzz_archive: %lu executions: %lu refused by their framing, "
            "%lu by the reader, %lu accepted (%lu read as baselines); "
            "libpcp crashed on %lu (survived), was stopped on %lu\n",
            seen.runs, seen.framing, seen.refused, seen.accepted, seen.baseline,
            seen.crashed, seen.slow);
}

static void cleanup(void)
{
    static const char *const ext[] = {".meta", ".index", ".0"};
    char p[160];
    for (size_t i = 0; i < 3; i++) {
        snprintf(p, sizeof(p), "%s%s", base, ext[i]);
        unlink(p);
    }
    rmdir(dir);
}

static void at_exit(void)
{
    report();
    cleanup();
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    snprintf(dir, sizeof(dir), "/tmp/parallax-fuzz-archive-XXXXXX");
    if (!mkdtemp(dir))
        abort();
    snprintf(base, sizeof(base), "%s/a", dir);
    verbose = getenv("FUZZ_ARCHIVE_LOG") != NULL;
    atexit(at_exit);
    return 0;
}

static void put(const char *ext, const uint8_t *p, size_t n)
{
    char path[160];
    snprintf(path, sizeof(path), "%s%s", base, ext);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0 || write(fd, p, n) != (ssize_t)n)
        abort();
    close(fd);
}

/* The input's sections as files; false when it holds no metadata. */
static bool unpack(const uint8_t *data, size_t size)
{
    static const char *const ext[] = {".meta", ".index", ".0"};
    char path[160];
    for (size_t i = 0; i < 3; i++) {
        snprintf(path, sizeof(path), "%s%s", base, ext[i]);
        unlink(path);
    }
    bool meta = false;
    while (size >= 5) {
        uint32_t n = (uint32_t)data[1] << 24 | (uint32_t)data[2] << 16 |
                     (uint32_t)data[3] << 8 | data[4];
        const char *e = data[0] == 'm'   ? ".meta"
                        : data[0] == 'i' ? ".index"
                        : data[0] == '0' ? ".0"
                                         : NULL;
        data += 5, size -= 5;
        if (n > size)
            n = (uint32_t)size;
        if (e)
            put(e, data, n);
        meta |= data[-5] == 'm';
        data += n, size -= n;
    }
    return meta;
}

/* An input that crashed or stopped libpcp, into $FUZZ_ARCHIVE_FINDINGS
 * when it names a directory: a finding, by the order it was met. */
static void keep(const uint8_t *data, size_t size)
{
    static unsigned found;
    const char *dir_out = getenv("FUZZ_ARCHIVE_FINDINGS");
    char path[4200];
    if (!dir_out)
        return;
    snprintf(path, sizeof(path), "%s/finding-%d-%u", dir_out, (int)getpid(),
             found++);
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(data, 1, size, f);
        fclose(f);
    }
}

/* A refusal is one printable line that names the archive. */
static bool check_err(const char *err, size_t n)
{
    if (strnlen(err, n) == n || !err[0] || strchr(err, '\n') ||
        !safe_text_ok(err) || !strstr(err, dir)) {
        fprintf(stderr, "fuzz_archive: a bad refusal: '%s'\n", err);
        abort();
    }
    bool crashed = strstr(err, "libpcp crashed"),
         slow = strstr(err, "took over");
    seen.crashed += crashed;
    seen.slow += slow;
    return crashed || slow;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct source_model m;
    struct source_spec spec[4];
    char err[512] = "";
    if (!unpack(data, size))
        return 0;
    seen.runs++;
    if (archive_frame_check(base, err, sizeof(err)) < 0) {
        check_err(err, sizeof(err));
        seen.framing++;
        outcome("framing", err);
        return 0;
    }
    /* -a: what it names, then read through as a replay opens it */
    int n = archive_find(base, spec, 4, err, sizeof(err));
    if (n != 1)
        abort(); /* the metadata is there: one archive */
    if (archive_check(spec[0].target, err, sizeof(err)) < 0) {
        if (check_err(err, sizeof(err)))
            keep(data, size);
        seen.refused++;
        outcome("reader", err);
        return 0;
    }
    seen.accepted++;
    /* --baseline: its end replayed into a model */
    if (archive_baseline_read(base, NULL, NULL, &m, err, sizeof(err)) < 0) {
        if (check_err(err, sizeof(err)))
            keep(data, size);
        outcome("accepted; baseline", err);
    } else {
        seen.baseline++;
        outcome("accepted", "and read as a baseline");
    }
    return 0;
}
