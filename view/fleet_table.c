/* See fleet_table.h. Columns have fixed widths so refreshes line up. */
#include "view/fleet_table.h"

#include <string.h>
#include <time.h>

#include "view/fit.h"

/* A cell padded to its column's cells (view/fit.h: a UTF-8 name takes
 * fewer cells than bytes): names and text left, numbers right. */
static void print_cell(FILE *f, enum fleet_col c, const char *text)
{
    char buf[512];
    fit_pad(buf, sizeof(buf), fleet_cols[c].width, text, fleet_col_numeric(c));
    fprintf(f, " %s", buf);
}

void fleet_table_print(FILE *f, const struct fleet_view *v,
                       const struct fleet_model *m, const struct fleet_run *r,
                       double now, bool utf8)
{
    static const char *const dist_names[] = {"median", "p95", "worst"};
    char buf[256], stamp[32], summary[720];
    time_t t = time(NULL);
    strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S", localtime(&t));
    fleet_view_summary(v, m, r, now, summary, sizeof(summary));
    fprintf(f, "parallax fleet %s %s\n%s\n", m->url, stamp, summary);
    for (int c = 0; c < FC_COUNT; c++) {
        print_cell(f, c,
                   utf8 ? fleet_cols[c].header : fleet_cols[c].header_ascii);
    }
    fputc('\n', f);
    for (int k = 0; k < 3; k++) {
        for (int c = 0; c < FC_COUNT; c++) {
            fleet_dist_text(v, c, k, buf, sizeof(buf));
            print_cell(f, c, c == FC_NAME ? dist_names[k] : buf);
        }
        fputc('\n', f);
    }
    for (int row = 0; row < v->nrows; row++) {
        for (int c = 0; c < FC_COUNT; c++) {
            fleet_cell_text(v, m, r, v->row[row], c, now, buf, sizeof(buf));
            print_cell(f, c, buf);
        }
        fputc('\n', f);
    }
    fputc('\n', f);
    fflush(f);
}
