/* See report_out.h. */
#include "cli/report_out.h"

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
