/* See report_out.h. */
#include "cli/report_out.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "report/atomic_file.h"
#include "report/report.h"

bool report_out_stdout(const char *output)
{
    return output && strcmp(output, "-") == 0;
}

int report_out_check(const char *output, char *err, size_t errlen)
{
    char why[512], json[4096];
    if (!output || report_out_stdout(output))
        return 0;
    report_json_next_to(output, json, sizeof(json));
    if (strcmp(json, output) == 0) { /* the JSON would overwrite the text */
        snprintf(err, errlen,
                 "-o %s: the text report goes there and the JSON next to it "
                 "(.json in place of the extension); give -o NAME.txt",
                 output);
        return -1;
    }
    if (atomic_file_check(output, why, sizeof(why)) < 0 ||
        atomic_file_target_ok(json, why, sizeof(why)) < 0) {
        snprintf(err, errlen,
                 "-o: %s; give a new or regular file in a directory you "
                 "can write (-o - for standard output alone)",
                 why);
        return -1;
    }
    return 0;
}

int report_out_write(const char *output, const char *report_dir,
                     const struct report_pair *p,
                     const struct report_meta *meta)
{
    char err[512], path[4096];
    int rc;
    if (report_out_stdout(output)) { /* -o -: no file */
        p->text(stdout, p->arg);
        rc = fflush(stdout) == 0 && !ferror(stdout) ? 0 : -1;
        if (rc < 0)
            snprintf(err, sizeof(err),
                     "cannot write the report on standard output");
    } else if (output) {
        report_json_next_to(output, path, sizeof(path));
        errno = 0;
        rc = atomic_file_write_pair(output, report_pair_fill_text, path,
                                    report_pair_fill_json, (void *)p, err,
                                    sizeof(err));
        if (rc == 0)
            fprintf(stderr, "parallax: %s written to %s and %s\n", p->noun,
                    output, path);
    } else {
        p->text(stdout, p->arg);
        fflush(stdout);
        rc = report_pair_save(report_dir, p, meta, path, sizeof(path), err,
                              sizeof(err));
        if (rc == 0)
            fprintf(stderr, "parallax: %s saved as %s and .json\n", p->noun,
                    path);
    }
    if (rc < 0)
        fprintf(stderr, "parallax: %s\n", err);
    return rc;
}
