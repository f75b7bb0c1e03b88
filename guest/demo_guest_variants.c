/* The --demo-guest variants: one table of what each may be, checked whole
 * before anything boots, turned into guest/boot.sh options, and the name
 * of the column each guest gets. See demo_guest.h. */
#include "guest/demo_guest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MEM_FLOOR_MIB 96 /* the guest does not boot with less */

/* One variant: KEY, or KEY=VALUE with VALUE one of `values` ("SIZE": a
 * memory size); a bare KEY means `bare` (NULL: it takes a value). */
struct variant_kind {
    const char *key;
    const char *values; /* "fast|slow"; NULL: takes no value */
    const char *bare;   /* the value of a bare key, or NULL */
    const char *flag;   /* guest/boot.sh's option */
    const char *help;   /* how errors and --help name it */
};

static const struct variant_kind kinds[] = {
    {"uml", NULL, "", "--uml", "uml"},
    {"kernel", "6.1|6.12|6.12-rt", NULL, "--kernel", "kernel=6.1|6.12|6.12-rt"},
    {"icount", "fast|slow", "fast", "--icount", "icount[=fast|slow]"},
    {"cpus", "1|2", NULL, "--cpus", "cpus=1|2"},
    {"mem", "SIZE", NULL, "--mem", "mem=SIZE (e.g. 256M)"},
    {"clock", "host|rtc", NULL, "--clock", "clock=host|rtc"},
};
#define NKINDS (int)(sizeof(kinds) / sizeof(kinds[0]))

/* The last value each kind was given ("" for uml; NULL: not given). */
struct chosen {
    char val[NKINDS][24];
    bool set[NKINDS];
};

/* SIZE as boot.sh and qemu take it: digits, then M or G (none: M). The
 * size in MiB, or -1. */
static long mem_mib(const char *val)
{
    size_t digits = strspn(val, "0123456789");
    if (digits == 0 || digits > 7 || strlen(val) > digits + 1)
        return -1;
    long n = strtol(val, NULL, 10);
    switch (val[digits]) {
    case '\0':
    case 'M':
        return n;
    case 'G':
        return n * 1024;
    default:
        return -1;
    }
}

/* True when val is one of the '|'-separated words of list. */
static bool one_of(const char *list, const char *val)
{
    for (const char *p = list; *p;) {
        size_t word = strcspn(p, "|");
        if (strlen(val) == word && strncmp(p, val, word) == 0)
            return true;
        p += word + (p[word] == '|');
    }
    return false;
}

void demo_guest_variants_help(char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int k = 0; k < NKINDS && used < n; k++) {
        int w = snprintf(buf + used, n - used, "%s%s", k ? ", " : "",
                         kinds[k].help);
        used += w > 0 ? (size_t)w : 0;
    }
}

/* The kind of tok=val (val NULL for a bare tok), its value in *out; -1
 * with the reason in err. */
static int variant_kind(const char *tok, const char *val, const char **out,
                        char *err, size_t errlen)
{
    for (int k = 0; k < NKINDS; k++) {
        const struct variant_kind *v = &kinds[k];
        if (strcmp(tok, v->key) != 0)
            continue;
        if (!val && v->bare) {
            *out = v->bare;
            return k;
        }
        if (val && v->values && strcmp(v->values, "SIZE") == 0) {
            long mib = mem_mib(val);
            if (mib >= MEM_FLOOR_MIB) {
                *out = val;
                return k;
            }
            if (mib >= 0) {
                snprintf(err, errlen,
                         "demo guest variant 'mem=%s' is below the guest's "
                         "floor; use mem=%dM or more",
                         val, MEM_FLOOR_MIB);
                return -1;
            }
        } else if (val && v->values && one_of(v->values, val)) {
            *out = val;
            return k;
        }
    }
    char list[256];
    demo_guest_variants_help(list, sizeof(list));
    snprintf(err, errlen, "demo guest variant '%s%s%s' is not one of %s", tok,
             val ? "=" : "", val ? val : "", list);
    return -1;
}

static int kind_index(const char *key)
{
    for (int k = 0; k < NKINDS; k++)
        if (strcmp(kinds[k].key, key) == 0)
            return k;
    return -1;
}

/* The value chosen for key, or NULL. */
static const char *chosen(const struct chosen *c, const char *key)
{
    int k = kind_index(key);
    return c->set[k] ? c->val[k] : NULL;
}

/* What cannot go together, by the last value of each: 0, or -1 with the
 * reason in err. */
static int check_together(const struct chosen *c, char *err, size_t errlen)
{
    const char *cpus = chosen(c, "cpus"), *clock = chosen(c, "clock");
    bool two = cpus && strcmp(cpus, "2") == 0;
    const char *why = NULL;
    if (chosen(c, "icount") && two) /* boot.sh refuses it too, once booting */
        why = "icount runs 1 vCPU only; drop cpus=2";
    else if (chosen(c, "uml") && chosen(c, "icount"))
        why = "uml has no icount (that is qemu's); drop one of them";
    else if (chosen(c, "uml") && two)
        why = "uml runs 1 CPU only (its kernel has NR_CPUS=1); drop cpus=2";
    else if (chosen(c, "uml") && chosen(c, "kernel"))
        why = "uml boots Debian's linux.uml; drop kernel=";
    else if (chosen(c, "uml") && clock && strcmp(clock, "rtc") == 0)
        why = "uml reads the host's clock; drop clock=rtc";
    if (why)
        snprintf(err, errlen, "demo guest variant %s", why);
    return why ? -1 : 0;
}

/* Appends str to argv (n entries so far), copied into buf. */
static int push_arg(char **argv, int *n, int max, char *buf, size_t *used,
                    size_t buflen, const char *str)
{
    size_t len = strlen(str) + 1;
    if (*n + 1 >= max || *used + len > buflen)
        return -1;
    memcpy(buf + *used, str, len);
    argv[(*n)++] = buf + *used;
    *used += len;
    return 0;
}

/* Walks the list: each variant's kind and value into c (the last of each
 * counts), and, when argv is not NULL, its boot.sh option. */
static int walk(const char *variants, struct chosen *c, char **argv, int max,
                char *buf, size_t buflen, char *err, size_t errlen)
{
    int n = 0;
    size_t used = 0;
    char list[256];
    memset(c, 0, sizeof(*c));
    if (strlen(variants ? variants : "") >= sizeof(list)) {
        snprintf(err, errlen,
                 "demo guest variants: longer than %zu "
                 "characters",
                 sizeof(list) - 1);
        return -1;
    }
    snprintf(list, sizeof(list), "%s", variants ? variants : "");
    for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        const char *val = eq ? eq + 1 : NULL, *v;
        if (eq)
            *eq = '\0';
        int k = variant_kind(tok, val, &v, err, errlen);
        if (k < 0)
            return -1;
        c->set[k] = true;
        snprintf(c->val[k], sizeof(c->val[k]), "%s", v);
        if (argv &&
            (push_arg(argv, &n, max, buf, &used, buflen, kinds[k].flag) < 0 ||
             (v[0] && push_arg(argv, &n, max, buf, &used, buflen, v) < 0))) {
            snprintf(err, errlen, "too many demo guest variants");
            return -1;
        }
    }
    if (argv)
        argv[n] = NULL;
    return check_together(c, err, errlen);
}

int demo_guest_args(const char *variants, char **argv, int max, char *buf,
                    size_t buflen, char *err, size_t errlen)
{
    struct chosen c;
    if (max < 1) {
        snprintf(err, errlen, "too many demo guest variants");
        return -1;
    }
    argv[0] = NULL;
    return walk(variants, &c, argv, max, buf, buflen, err, errlen);
}

const char *demo_guest_kernel(const char *variants)
{
    static char kernel[24];
    struct chosen c;
    char err[8];
    if (walk(variants, &c, NULL, 0, NULL, 0, err, sizeof(err)) < 0 ||
        !chosen(&c, "kernel") || strcmp(chosen(&c, "kernel"), "6.1") == 0)
        return NULL;
    snprintf(kernel, sizeof(kernel), "%s", chosen(&c, "kernel"));
    return kernel;
}

void demo_guest_name(const char *variants, const char *accel, char *buf,
                     size_t n)
{
    struct chosen c;
    char err[8];
    int used = snprintf(buf, n, "demo");
    bool any = false;
    if (walk(variants, &c, NULL, 0, NULL, 0, err, sizeof(err)) < 0)
        memset(&c, 0, sizeof(c));
    for (int k = 0; k < NKINDS && used >= 0 && (size_t)used < n; k++) {
        const char *v = c.set[k] ? c.val[k] : NULL, *key = kinds[k].key;
        char piece[40] = "";
        if (!v || (!strcmp(key, "cpus") && !strcmp(v, "1")) ||
            (!strcmp(key, "clock") && !strcmp(v, "host")))
            continue;
        if (!strcmp(key, "uml") || !strcmp(key, "kernel") ||
            !strcmp(key, "mem") || !strcmp(key, "clock"))
            snprintf(piece, sizeof(piece), "%s", v[0] ? v : key);
        else if (!strcmp(key, "cpus"))
            snprintf(piece, sizeof(piece), "%scpu", v);
        else
            snprintf(piece, sizeof(piece), "%s-%s", key, v);
        used += snprintf(buf + used, n - (size_t)used, "-%s", piece);
        any = true;
    }
    if (!any && accel && accel[0] && (size_t)used < n)
        snprintf(buf + used, n - (size_t)used, "-%s", accel);
    else if (!any)
        buf[0] = '\0'; /* not known yet */
}
