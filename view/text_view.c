/* See text_view.h. One refresh is a title line, the header rows of every
 * column, one line per metric, then a blank line. Columns have fixed widths
 * so refreshes line up under each other. */
#include "view/text_view.h"
#include "core/clock.h"

#include <string.h>
#include <time.h>

#include "core/version.h"
#include "view/view.h"
#include "view/view_replay.h"

#define COL_W    (VIEW_VALUE_W + 1 + VIEW_SPARK_W + 3)
#define MAX_COLS (2 * 64)

static void print_headers(FILE *f, const struct source_model *srcs,
                          const struct view_col *cols, int ncol,
                          double interval, bool utf8)
{
    double now = clock_mono();
    for (int row = 0; row < VIEW_HEADER_ROWS; row++) {
        fprintf(f, "%-*s", VIEW_LABEL_W, "");
        for (int c = 0; c < ncol; c++) {
            if (cols[c].kind == VC_RATIO) {
                const char *x =
                    row == 0
                        ? view_column_ratio_header(&srcs[cols[c].src], utf8)
                        : "";
                /* one cell ("×") or two ("Δ%") */
                int cells = *x == '\0' ? 0 : strchr(x, '%') ? 2 : 1;
                fprintf(f, "%*s%s", VIEW_RATIO_W - cells, "", x);
                continue;
            }
            char buf[160];
            view_source_header(&srcs[cols[c].src], row, now, interval,
                               COL_W - 1, buf, sizeof(buf));
            fprintf(f, " %-*.*s", COL_W - 1, COL_W - 1, buf);
        }
        fputc('\n', f);
    }
}

static void print_metric(FILE *f, const struct source_model *srcs,
                         const struct view_col *cols, int ncol, int id,
                         bool utf8)
{
    fprintf(f, "%-*s", VIEW_LABEL_W, metric_descs[id].label);
    for (int c = 0; c < ncol; c++) {
        char val[32], spark[VIEW_SPARK_W * 4 + 1];
        if (cols[c].kind == VC_RATIO) {
            view_column_ratio_text(
                &srcs[cols[c].src],
                view_metric_ratio(&srcs[cols[c].src], &srcs[0], id), val,
                sizeof(val));
            fputs(val, f);
            continue;
        }
        view_metric_cell(&srcs[cols[c].src], id, val, sizeof(val), spark,
                         sizeof(spark), VIEW_SPARK_W, utf8);
        fprintf(f, "%s %s   ", val, spark);
    }
    fputc('\n', f);
}

static void print_time(FILE *f, const struct source_model *srcs,
                       const struct view_col *cols, int ncol, int row,
                       bool utf8)
{
    fprintf(f, "%-*s", VIEW_LABEL_W, time_row_labels[row]);
    for (int c = 0; c < ncol; c++) {
        char val[32], detail[64];
        int src = cols[c].src;
        if (cols[c].kind == VC_RATIO) {
            view_column_ratio_text(&srcs[src],
                                   view_time_ratio(&srcs[src], &srcs[0], row),
                                   val, sizeof(val));
            fputs(val, f);
            continue;
        }
        view_time_cell(&srcs[src], src == 0, row, val, sizeof(val), detail,
                       sizeof(detail), utf8);
        /* the detail takes the sparkline's cells (+-/± is one or two) */
        fprintf(f, "%s %-*.*s   ", val, VIEW_SPARK_W, VIEW_SPARK_W, detail);
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
    char replay[256];
    view_replay_title(srcs, nsrc, replay, sizeof(replay));
    fprintf(f, "parallax %s - interval %.1f s - %s%s%s\n", PARALLAX_VERSION,
            interval, stamp, replay[0] ? " - " : "", replay);
    struct view_col cols[MAX_COLS];
    int ncol = view_columns(nsrc, cols, MAX_COLS);
    print_headers(f, srcs, cols, ncol, interval, utf8);
    for (int id = 0; id < METRIC_COUNT; id++)
        print_metric(f, srcs, cols, ncol, id, utf8);
    fprintf(f, "-- time --\n");
    for (int row = 0; row < TIME_ROW_COUNT; row++)
        print_time(f, srcs, cols, ncol, row, utf8);
    fputc('\n', f);
    fflush(f);
}
