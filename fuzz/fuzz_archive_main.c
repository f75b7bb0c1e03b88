/* A driver for fuzz_archive.c without libFuzzer, built with the rest of
 * parallax (make build; ASan and UBSan under make asan) so that make
 * check runs it: every input of the corpus once (the mutation matrix
 * tests/archive_mutations.py writes), then random mutations of them for
 * a bounded time (bit flips, bytes and 32-bit words set to edge values,
 * cuts, splices), without coverage guidance; `make fuzz` has that.
 *   fuzz-archive [-v] [-t SECONDS] [-s SEED] CORPUS_DIR...
 * -v (with FUZZ_ARCHIVE_LOG=1 for fuzz_archive.c's side) names each
 * input before what came of it.
 * An input that takes longer than a minute is a hang (SIGALRM ends the
 * driver); a crash of parallax's side ends it too. */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"

#define HANG_SECS 60
#define INPUT_MAX (4 << 20)

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct input {
    uint8_t *p;
    size_t n;
    char name[256];
};

static struct input *corpus;
static int ncorpus, cap;

static void load(const char *path)
{
    FILE *f = fopen(path, "rb");
    struct stat st;
    if (!f || fstat(fileno(f), &st) < 0 || !S_ISREG(st.st_mode) ||
        st.st_size > INPUT_MAX) {
        if (f)
            fclose(f);
        return;
    }
    if (ncorpus == cap) {
        cap = cap ? 2 * cap : 256;
        corpus = realloc(corpus, (size_t)cap * sizeof(*corpus));
        if (!corpus)
            abort();
    }
    struct input *in = &corpus[ncorpus];
    const char *slash = strrchr(path, '/');
    snprintf(in->name, sizeof(in->name), "%s", slash ? slash + 1 : path);
    in->n = (size_t)st.st_size;
    in->p = malloc(in->n + 1);
    if (!in->p || fread(in->p, 1, in->n, f) != in->n) {
        free(in->p);
        fclose(f);
        return;
    }
    fclose(f);
    ncorpus++;
}

static void load_dir(const char *d)
{
    DIR *dp = opendir(d);
    if (!dp) {
        load(d);
        return;
    }
    for (struct dirent *e; (e = readdir(dp));) {
        char p[4400];
        if (e->d_name[0] == '.')
            continue;
        snprintf(p, sizeof(p), "%s/%s", d, e->d_name);
        load(p);
    }
    closedir(dp);
}

/* The input being run, written out if it ends the driver. */
static const char *now_name;
static bool verbose; /* -v: each input's name before its outcome */
static const uint8_t *now_p;
static size_t now_n;

static void on_fault(int sig)
{
    char path[64];
    snprintf(path, sizeof(path), "fuzz-archive-crash-%d", (int)getpid());
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
        if (write(fd, now_p, now_n) < 0)
            now_n = 0;
        close(fd);
    }
    dprintf(2, "fuzz-archive: signal %d on %s (%s): written as %s\n", sig,
            now_name, now_name[0] == '+' ? "mutated" : "from the corpus", path);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void run(const char *name, const uint8_t *p, size_t n)
{
    now_name = name, now_p = p, now_n = n;
    if (verbose)
        fprintf(stderr, "%s -> ", name);
    alarm(HANG_SECS);
    LLVMFuzzerTestOneInput(p, n);
    alarm(0);
}

/* One random change to buf (n bytes of room cap); its new length. */
static size_t mutate(uint8_t *buf, size_t n, size_t room)
{
    static const uint32_t words[] = {
        0, 1, 0xffffffff, 0x7fffffff, 0x80000000, 0x1000, 0x10000, 0xfffffff8};
    static const uint8_t bytes[] = {0, 1, 0x7f, 0x80, 0xff, 0x50};
    if (n == 0)
        return 0;
    size_t at = (size_t)rand() % n;
    switch (rand() % 6) {
    case 0:
        buf[at] ^= (uint8_t)(1u << (rand() % 8));
        break;
    case 1:
        buf[at] = bytes[rand() % (int)sizeof(bytes)];
        break;
    case 2: /* a 32-bit field, aligned as PCP's are */
        at &= ~(size_t)3;
        if (at + 4 <= n) {
            uint32_t w = words[rand() % (int)(sizeof(words) / 4)];
            if (rand() % 2) /* near what is there */
                w = ((uint32_t)buf[at] << 24 | (uint32_t)buf[at + 1] << 16 |
                     (uint32_t)buf[at + 2] << 8 | buf[at + 3]) +
                    (uint32_t)(rand() % 9) - 4;
            for (int k = 0; k < 4; k++)
                buf[at + (size_t)k] = (uint8_t)(w >> (24 - 8 * k));
        }
        break;
    case 3: /* cut */
        return at;
    case 4: { /* a copy of a piece elsewhere */
        size_t from = (size_t)rand() % n, len = (size_t)(rand() % 64);
        if (from + len > n)
            len = n - from;
        if (at + len > n)
            len = n - at;
        memmove(buf + at, buf + from, len);
        break;
    }
    case 5: /* bytes in or out */
        if (rand() % 2 && n + 8 <= room) {
            size_t k = (size_t)(rand() % 8) + 1;
            memmove(buf + at + k, buf + at, n - at);
            memset(buf + at, rand() % 256, k);
            return n + k;
        } else {
            size_t k = (size_t)(rand() % 8) + 1;
            if (at + k > n)
                k = n - at;
            memmove(buf + at, buf + at + k, n - at - k);
            return n - k;
        }
    }
    return n;
}

int main(int argc, char **argv)
{
    double secs = 30;
    unsigned seed = (unsigned)time(NULL) ^ (unsigned)getpid();
    int c;
    while ((c = getopt(argc, argv, "t:s:v")) != -1) {
        if (c == 'v')
            verbose = true;
        else if (c == 't')
            secs = atof(optarg);
        else if (c == 's')
            seed = (unsigned)strtoul(optarg, NULL, 10);
        else {
            fprintf(stderr, "usage: fuzz-archive [-v] [-t SECONDS] [-s SEED] "
                            "CORPUS_DIR...\n");
            return 2;
        }
    }
    for (int i = optind; i < argc; i++)
        load_dir(argv[i]);
    if (ncorpus == 0) {
        fprintf(stderr, "fuzz-archive: no inputs in the corpus given\n");
        return 2;
    }
    /* a hang (SIGALRM) or a crash ends the driver: a failure */
    signal(SIGALRM, on_fault);
    signal(SIGABRT, on_fault);
    signal(SIGSEGV, on_fault);
    signal(SIGBUS, on_fault);
    LLVMFuzzerInitialize(&argc, &argv);
    fprintf(stderr,
            "fuzz-archive: %d inputs, then %.0f s of mutations "
            "(seed %u)\n",
            ncorpus, secs, seed);
    for (int i = 0; i < ncorpus; i++)
        run(corpus[i].name, corpus[i].p, corpus[i].n);
    srand(seed);
    size_t room = INPUT_MAX + 64;
    uint8_t *buf = malloc(room);
    if (!buf)
        abort();
    double until = clock_mono() + secs;
    while (clock_mono() < until) {
        const struct input *in = &corpus[rand() % ncorpus];
        size_t n = in->n;
        memcpy(buf, in->p, n);
        for (int k = rand() % 4; k >= 0; k--)
            n = mutate(buf, n, room);
        char name[300];
        snprintf(name, sizeof(name), "+%s", in->name);
        run(name, buf, n);
    }
    free(buf);
    for (int i = 0; i < ncorpus; i++)
        free(corpus[i].p);
    free(corpus);
    return 0;
}
