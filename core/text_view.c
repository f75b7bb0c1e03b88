/* See text_view.h. One refresh is a title line, three header lines per
 * source column, one line per metric, then a blank line. */
#include "core/text_view.h"

#include <time.h>

#include "core/version.h"
#include "core/view.h"

#define COL_W (VIEW_VALUE_W + 1 + VIEW_SPARK_W + 2)

static void print_header_row(FILE *f, const struct source_model *srcs, int nsrc,
                             void (*cell)(const struct source_model *, char *,
                                          size_t))
{
    fprintf(f, "%-*s", VIEW_LABEL_W, "");
    for (int s = 0; s < nsrc; s++) {
        char buf[128];
        cell(&srcs[s], buf, sizeof(buf));
        fprintf(f, "%-*s", COL_W, buf);
    }
    fputc('\n', f);
}

void text_view_print(FILE *f, const struct source_model *srcs, int nsrc,
                     double interval, bool utf8)
{
    char stamp[32];
    time_t now = time(NULL);
    struct tm tm;
    strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S", localtime_r(&now, &tm));
    fprintf(f, "parallax %s - interval %.1f s - %s\n", PARALLAX_VERSION,
            interval, stamp);
    print_header_row(f, srcs, nsrc, view_source_title);
    print_header_row(f, srcs, nsrc, view_source_info);
    print_header_row(f, srcs, nsrc, view_source_backend);
    for (int id = 0; id < METRIC_COUNT; id++) {
        fprintf(f, "%-*s", VIEW_LABEL_W, metric_descs[id].label);
        for (int s = 0; s < nsrc; s++) {
            char val[32], spark[VIEW_SPARK_W * 4 + 1];
            view_metric_cell(&srcs[s], id, val, sizeof(val), spark,
                             sizeof(spark), VIEW_SPARK_W, utf8);
            fprintf(f, "%s %s  ", val, spark);
        }
        fputc('\n', f);
    }
    fputc('\n', f);
    fflush(f);
}
