/* See text_view.h. One refresh is a title line, the header rows of every
 * column, one line per metric, then a blank line. Columns have fixed widths
 * (from the width asked for) so refreshes line up under each other. */
#include "view/text_view.h"
#include "base/clock.h"

#include <string.h>
#include <time.h>

#include "base/version.h"
#include "view/fit.h"
#include "view/view.h"
#include "view/view_replay.h"
#include "view/view_time.h"

#define MAX_COLS  (2 * 64)
#define SPARK_MIN 4 /* as narrow as the screen's */
#define SPARK_MAX (2 * VIEW_SPARK_W)
/* a ratio column and a blank: the fault marker in the next figure's
 * first cell must not touch the ratio (-!+1.000d) */
#define RATIO_COL_W (VIEW_RATIO_W + 1)

/* The sparkline (and detail) width that fits nsrc sources in `columns`;
 * VIEW_SPARK_W when the width is not known (columns 0). */
static int spark_width(int nsrc, int columns)
{
    if (columns <= 0)
        return VIEW_SPARK_W;
    int room = columns - VIEW_LABEL_W - (nsrc - 1) * RATIO_COL_W;
    int w = room / (nsrc > 0 ? nsrc : 1) - (VIEW_VALUE_W + 1 + 3);
    return w < SPARK_MIN ? SPARK_MIN : w > SPARK_MAX ? SPARK_MAX : w;
}

/* text fitted to width cells (an ellipsis where cut), padded to them. */
static void put_padded(FILE *f, const char *text, int width, bool utf8)
{
    char buf[256];
    fit_text(buf, sizeof(buf), width, text, utf8);
    fputs(buf, f);
    for (int i = fit_cells(buf); i < width; i++)
        fputc(' ', f);
}

static void print_headers(FILE *f, const struct source_model *srcs,
                          const struct view_col *cols, int ncol, int col_w,
                          double interval, bool utf8)
{
    double now = clock_mono();
    for (int row = 0; row < VIEW_HEADER_ROWS; row++) {
        fprintf(f, "%-*s", VIEW_LABEL_W, "");
        for (int c = 0; c < ncol; c++) {
            if (cols[c].kind == VC_RATIO) {
                const char *x =
                    view_column_ratio_header(&srcs[cols[c].src], row, utf8);
                fprintf(f, "%*s%s%s", VIEW_RATIO_W - fit_cells(x), "", x,
                        c + 1 < ncol ? " " : "");
                continue;
            }
            char buf[160];
            view_source_header(&srcs[cols[c].src], row, now, interval,
                               col_w - 1, buf, sizeof(buf), utf8);
            fputc(' ', f);
            put_padded(f, buf, col_w - 1, utf8);
        }
        fputc('\n', f);
    }
}

static void print_metric(FILE *f, const struct source_model *srcs,
                         const struct view_col *cols, int ncol, int id,
                         int spark_w, bool utf8)
{
    fprintf(f, "%-*s", VIEW_LABEL_W, metric_descs[id].label);
    for (int c = 0; c < ncol; c++) {
        char val[32], spark[SPARK_MAX * 4 + 1];
        if (cols[c].kind == VC_RATIO) {
            view_column_ratio_text(
                &srcs[cols[c].src],
                view_metric_ratio(&srcs[cols[c].src], &srcs[0], id),
                view_metric_ratio_kind(&srcs[cols[c].src], &srcs[0], id), val,
                sizeof(val));
            fprintf(f, "%s%s", val, c + 1 < ncol ? " " : "");
            continue;
        }
        view_metric_cell(&srcs[cols[c].src], id, val, sizeof(val), spark,
                         sizeof(spark), spark_w, utf8);
        fprintf(f, "%s %s   ", val, spark);
    }
    fputc('\n', f);
}

static void print_time(FILE *f, const struct source_model *srcs,
                       const struct view_col *cols, int ncol, int row,
                       int spark_w, bool utf8)
{
    fprintf(f, "%-*s", VIEW_LABEL_W, time_row_labels[row]);
    for (int c = 0; c < ncol; c++) {
        char val[32], detail[64];
        int src = cols[c].src;
        if (cols[c].kind == VC_RATIO) {
            view_column_ratio_text(&srcs[src],
                                   view_time_ratio(&srcs[src], &srcs[0], row),
                                   view_time_ratio_kind(row), val, sizeof(val));
            fprintf(f, "%s%s", val, c + 1 < ncol ? " " : "");
            continue;
        }
        bool fault = view_time_cell(&srcs[src], src == 0, row, val, sizeof(val),
                                    detail, sizeof(detail), utf8);
        view_mark_fault(val, fault); /* no colour here: the marker */
        /* the detail takes the sparkline's cells and one more */
        fprintf(f, "%s ", val);
        put_padded(f, detail, spark_w + 1, utf8);
        fputs("  ", f);
    }
    fputc('\n', f);
}

#define LEGEND_INDENT 4 /* a legend line's rows after its first */

void text_view_legend(FILE *f, int columns, bool utf8)
{
    if (columns <= 0)
        columns = 80;
    char line[256];
    for (int i = 0; view_legend(i, utf8, line, sizeof(line)); i++) {
        const char *text = line, *rest;
        for (int row = 0; *text; row++, text = rest) {
            int indent = row ? LEGEND_INDENT : 0;
            int len = fit_wrap(text, columns - 2 - indent, &rest);
            fprintf(f, "# %*s%.*s\n", indent, "", len, text);
        }
    }
    fputc('\n', f);
}

void text_view_print(FILE *f, const struct source_model *srcs, int nsrc,
                     double interval, int columns, bool utf8)
{
    text_view_print_open(f, srcs, nsrc, interval, columns, utf8);
    fputc('\n', f);
    fflush(f);
}

void text_view_print_open(FILE *f, const struct source_model *srcs, int nsrc,
                          double interval, int columns, bool utf8)
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
    int spark_w = spark_width(nsrc, columns);
    int col_w = VIEW_VALUE_W + 1 + spark_w + 3;
    print_headers(f, srcs, cols, ncol, col_w, interval, utf8);
    for (int id = 0; id < METRIC_COUNT; id++)
        print_metric(f, srcs, cols, ncol, id, spark_w, utf8);
    fprintf(f, "-- time --\n");
    for (int row = 0; row < TIME_ROW_COUNT; row++)
        print_time(f, srcs, cols, ncol, row, spark_w, utf8);
}
