/* libFuzzer target for the report reader (make fuzz): any bytes read as a
 * baseline give a column or one error line, never a crash, a leak or
 * undefined behaviour; what is read is safe for a terminal and within the
 * ranges report_read promises. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/safe_text.h"
#include "report/report_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_text(const char *s, size_t n)
{
    if (strnlen(s, n) == n || !safe_text_ok(s))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct baseline b;
    char err[512];
    if (report_parse((const char *)data, size, "fuzz", NULL, NULL, &b, err,
                     sizeof(err)) < 0) {
        if (strncmp(err, "fuzz: ", 6) != 0 || strchr(err, '\n'))
            abort(); /* one line, naming the file */
        check_text(err, sizeof(err));
        return 0;
    }
    check_text(b.model.name, sizeof(b.model.name));
    check_text(b.model.info.host, sizeof(b.model.info.host));
    check_text(b.model.info.release, sizeof(b.model.info.release));
    check_text(b.version, sizeof(b.version));
    check_text(b.date, sizeof(b.date));
    if (b.model.info.ncpu < 0 || !(b.model.info.mem_bytes >= 0) || b.nwl < 0 ||
        b.nwl > BASELINE_MAX_WL)
        abort();
    for (int i = 0; i < METRIC_COUNT; i++)
        if (b.model.value[i] < 0 || b.model.value[i] > 1e15)
            abort(); /* NaN (n/a) passes both */
    for (int i = 0; i < b.nwl; i++) {
        check_text(b.wl[i].name, sizeof(b.wl[i].name));
        check_text(b.wl[i].unit, sizeof(b.wl[i].unit));
        if (b.wl[i].median <= 0 || b.wl[i].median > 1e15 || b.wl[i].n < 0)
            abort();
    }
    return 0;
}
