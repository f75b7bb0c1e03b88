/* See record_naming.h. */
#include "archive/record_naming.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "report/report.h"

void record_safe_name(const char *name, char *out, size_t n)
{
    size_t k = 0;
    for (const char *p = name; *p && k + 1 < n; p++) {
        char c = *p;
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                  (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_';
        out[k++] = ok ? c : '_';
    }
    out[k] = '\0';
    if (k == 0 || strcmp(out, ".") == 0 || strcmp(out, "..") == 0)
        snprintf(out, n, "source");
}

static bool archive_exists(const char *base)
{
    static const char *const ext[] = {".0", ".meta", ".index"};
    char p[RECORD_PATH_MAX + 8];
    for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
        snprintf(p, sizeof(p), "%s%s", base, ext[i]);
        if (access(p, F_OK) == 0)
            return true;
    }
    return false;
}

int record_choose_base(const char *dir, const char *safe, const char *stamp,
                       char *base, size_t n, char *err, size_t errlen)
{
    for (int k = 0; k < 1000; k++) {
        char k_text[16] = "";
        if (k)
            snprintf(k_text, sizeof(k_text), "-%d", k);
        snprintf(base, n, "%s/%s/%s%s", dir, safe, stamp, k_text);
        if (!archive_exists(base))
            return 0;
    }
    snprintf(err, errlen, "%s/%s: a thousand recordings of %s already", dir,
             safe, stamp);
    return -1;
}

int record_make_source_dir(const char *dir, const char *safe, char *err,
                           size_t errlen)
{
    char sub[RECORD_PATH_MAX];
    snprintf(sub, sizeof(sub), "%s/%s", dir, safe);
    if (report_make_dirs(sub) < 0) {
        snprintf(err, errlen, "cannot create %s: %s", sub, strerror(errno));
        return -1;
    }
    return 0;
}
