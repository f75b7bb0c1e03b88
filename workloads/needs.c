/* See needs.h. The reserve kept for the rest of the machine: 1/20 of a
 * file system (at least 16 MiB), and of memory 1/8 (at least 32 MiB); a
 * file in memory costs its inode and dentry too, counted as 1 KiB. */
#include "workloads/needs.h"

#include <linux/magic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>

#include "workloads/params.h"
#include "workloads/workload.h"

#define MIB           (1024.0 * 1024.0)
#define FS_RESERVE    (16 * MIB)
#define MEM_RESERVE   (32 * MIB)
#define FILE_IN_MEM   1024.0 /* bytes of kernel memory per file on tmpfs */
#define FILES_RESERVE 64

/* MemAvailable and MemTotal from /proc/meminfo, in bytes; false when it
 * cannot be read. */
static bool meminfo(double *avail, double *total)
{
    FILE *f = fopen("/proc/meminfo", "re");
    char line[128];
    double kb;
    int found = 0;
    if (!f)
        return false;
    while (fgets(line, sizeof(line), f)) {
        if (sscanf(line, "MemAvailable: %lf kB", &kb) == 1)
            *avail = kb * 1024, found |= 1;
        else if (sscanf(line, "MemTotal: %lf kB", &kb) == 1)
            *total = kb * 1024, found |= 2;
    }
    fclose(f);
    return found == 3;
}

/* bytes as "12 MiB", "3.5 GiB", "1024.0 GiB" */
static const char *size_text(double bytes, char *buf, size_t n)
{
    if (bytes < 10 * 1024 * MIB)
        snprintf(buf, n, "%.0f MiB", bytes / MIB);
    else
        snprintf(buf, n, "%.1f GiB", bytes / 1024 / MIB);
    return buf;
}

/* "size_mb=64" for messages (they go with the workload's name). */
static const char *what_text(const struct workload *w, const double *param,
                             const char *name, char *buf, size_t n)
{
    int i = params_index(w, name);
    snprintf(buf, n, "%s=%.10g", name, i >= 0 ? param[i] : 0.0);
    return buf;
}

int wl_needs_check(const struct workload *w, const double *param,
                   const char *dir, char *err, size_t errlen)
{
    struct wl_needs nd = {0};
    struct statvfs vfs;
    struct statfs fs;
    char where[4096], what[96], a[32], b[32], c[32];
    if (!w->needs)
        return 0;
    w->needs(param, &nd);
    if (statvfs(dir, &vfs) < 0 || statfs(dir, &fs) < 0)
        return 0; /* the run will say what is wrong with dir */
    snprintf(where, sizeof(where), "%s", dir);
    char *slash = strrchr(where, '/');
    if (slash && slash != where)
        *slash = '\0'; /* the run's own directory is new: name its parent */
    what_text(w, param, nd.param, what, sizeof(what));
    bool in_memory = fs.f_type == TMPFS_MAGIC || fs.f_type == RAMFS_MAGIC;
    double size = (double)vfs.f_blocks * vfs.f_frsize;
    double avail = (double)vfs.f_bavail * vfs.f_frsize;
    double keep = size / 20 > FS_RESERVE ? size / 20 : FS_RESERVE;
    /* ramfs has no size: memory alone bounds it */
    if (vfs.f_blocks > 0 && nd.disk_bytes + keep > avail) {
        snprintf(err, errlen,
                 "%s needs %s in %.200s, which has %s free, %s of it kept "
                 "for the rest; give a smaller %s",
                 what, size_text(nd.disk_bytes, a, sizeof(a)), where,
                 size_text(avail, b, sizeof(b)), size_text(keep, c, sizeof(c)),
                 nd.param);
        return -1;
    }
    const char *fp = nd.files_param ? nd.files_param : nd.param;
    if (vfs.f_files > 0 && nd.files + FILES_RESERVE > (double)vfs.f_favail) {
        snprintf(err, errlen,
                 "%s makes %.0f files in %.200s, which has room for %.0f "
                 "more; give a smaller %s",
                 what_text(w, param, fp, what, sizeof(what)), nd.files, where,
                 (double)vfs.f_favail, fp);
        return -1;
    }
    double mem_avail, mem_total;
    if (!in_memory || !meminfo(&mem_avail, &mem_total))
        return 0;
    double need = nd.disk_bytes + nd.files * FILE_IN_MEM;
    double mem_keep = mem_total / 8 > MEM_RESERVE ? mem_total / 8 : MEM_RESERVE;
    if (need + mem_keep > mem_avail) {
        /* the parameter to lower: the one that weighs most */
        const char *p = nd.files * FILE_IN_MEM > nd.disk_bytes ? fp : nd.param;
        snprintf(err, errlen,
                 "%s needs %s of memory (%.200s is a tmpfs), and %s is "
                 "available, %s of it kept for the rest; give a smaller %s",
                 what_text(w, param, p, what, sizeof(what)),
                 size_text(need, a, sizeof(a)), where,
                 size_text(mem_avail, b, sizeof(b)),
                 size_text(mem_keep, c, sizeof(c)), p);
        return -1;
    }
    return 0;
}
