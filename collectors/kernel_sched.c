/* See kernel_sched.h. Mainline replaced CFS with EEVDF in 6.6; debugfs's
 * sched directory says which one runs (base_slice_ns is EEVDF's tunable,
 * min_granularity_ns CFS's) where it is mounted. */
#include "collectors/kernel_sched.h"

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#define SCHED_DEBUG "/sys/kernel/debug/sched/"

/* Compares the release with major.minor: 1 at least, 0 below, -1 when
 * it is no release. */
static int release_at_least(const char *rel, int major, int minor)
{
    int a, b;
    if (!rel || sscanf(rel, "%d.%d", &a, &b) != 2)
        return -1;
    return a > major || (a == major && b >= minor);
}

/* The word "word" in text, as a whole word. */
static bool has_word(const char *text, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = text ? strstr(text, word) : NULL; p;
         p = strstr(p + 1, word))
        if ((p == text || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return true;
    return false;
}

/* The model in parentheses of sched/preempt ("none (voluntary) full"). */
static bool current_model(const char *file, char *buf, size_t n)
{
    const char *open = file ? strchr(file, '(') : NULL;
    const char *close = open ? strchr(open, ')') : NULL;
    if (!close || close == open + 1)
        return false;
    snprintf(buf, n, "%.*s", (int)(close - open - 1), open + 1);
    return true;
}

void kernel_sched_tell(const struct kernel_facts *f, struct kernel_sched *out)
{
    char model[16] = "";
    bool chosen = current_model(f->preempt_file, model, sizeof(model));
    out->family[0] = out->preempt[0] = '\0';
    if (f->base_slice)
        snprintf(out->family, sizeof(out->family), "EEVDF");
    else if (f->min_granularity)
        snprintf(out->family, sizeof(out->family), "CFS");
    else if (release_at_least(f->release, 6, 6) >= 0)
        snprintf(out->family, sizeof(out->family), "%s",
                 release_at_least(f->release, 6, 6) ? "EEVDF" : "CFS");
    if (has_word(f->version, "PREEMPT_RT"))
        snprintf(out->preempt, sizeof(out->preempt), "RT%s%s",
                 chosen ? " " : "", model);
    else if (chosen)
        snprintf(out->preempt, sizeof(out->preempt), "%s", model);
    else if (has_word(f->version, "PREEMPT_DYNAMIC"))
        snprintf(out->preempt, sizeof(out->preempt), "dynamic");
    else if (has_word(f->version, "PREEMPT"))
        snprintf(out->preempt, sizeof(out->preempt), "full");
    else if (f->version && f->version[0])
        snprintf(out->preempt, sizeof(out->preempt), "none");
}

void kernel_sched_read(struct kernel_sched *out)
{
    struct utsname u;
    char preempt[64] = "";
    FILE *f = fopen(SCHED_DEBUG "preempt", "r");
    if (f) {
        if (!fgets(preempt, sizeof(preempt), f))
            preempt[0] = '\0';
        fclose(f);
    }
    bool ok = uname(&u) == 0;
    struct kernel_facts facts = {
        .release = ok ? u.release : NULL,
        .version = ok ? u.version : NULL,
        .preempt_file = preempt,
        .base_slice = access(SCHED_DEBUG "base_slice_ns", F_OK) == 0,
        .min_granularity = access(SCHED_DEBUG "min_granularity_ns", F_OK) == 0,
    };
    kernel_sched_tell(&facts, out);
}

void kernel_sched_text(const struct kernel_sched *k, char *buf, size_t n)
{
    snprintf(buf, n, "%s%s%s", k->family,
             k->family[0] && k->preempt[0] ? " " : "", k->preempt);
}
