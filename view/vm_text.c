/* See vm_text.h. Each column is a figure and its detail, as wide as the
 * widest detail needs up to a bound, so refreshes line up. */
#include "view/vm_text.h"

#include <string.h>

#include "view/fit.h"
#include "view/view.h"
#include "view/view_time.h"
#include "view/vm_view.h"

#define DETAIL_W 34

static void put_padded(FILE *f, const char *text, int width, bool utf8)
{
    char buf[256];
    fit_text(buf, sizeof(buf), width, text, utf8);
    fputs(buf, f);
    for (int i = fit_cells(buf); i < width; i++)
        fputc(' ', f);
}

void vm_text_print(FILE *f, const struct session *s, int columns, bool utf8)
{
    if (!vm_view_shown(s)) {
        fputc('\n', f);
        fflush(f);
        return;
    }
    int n = vm_view_count(s);
    char count[256];
    (void)columns;
    vm_view_count_text(s, count, sizeof(count));
    /* recorded VMs are another host's, or this host's another time */
    fprintf(f, "-- host's view: %s%s --\n", count,
            s->vms && !strstr(count, "recorded") && !strstr(count, " here")
                ? " on this host"
                : "");
    if (n == 0) {
        fputc('\n', f);
        fflush(f);
        return;
    }
    int col_w = VIEW_VALUE_W + 1 + DETAIL_W + 2;
    for (int row = 0; row < VM_VIEW_HEADER_ROWS; row++) {
        fprintf(f, "%-*s", VIEW_LABEL_W, "");
        for (int k = 0; k < n; k++) {
            char buf[160];
            vm_view_header(s, k, row, buf, sizeof(buf));
            fputc(' ', f);
            put_padded(f, buf, col_w - 1, utf8);
        }
        fputc('\n', f);
    }
    for (int row = 0; row < VM_ROW_COUNT; row++) {
        fprintf(f, "%-*s", VIEW_LABEL_W, vm_row_labels[row]);
        for (int k = 0; k < n; k++) {
            char val[32], detail[160];
            bool fault = vm_view_cell(s, k, row, val, sizeof(val), detail,
                                      sizeof(detail), utf8);
            view_mark_fault(val, fault);
            fprintf(f, "%s ", val);
            put_padded(f, detail, DETAIL_W, utf8);
            fputs("  ", f);
        }
        fputc('\n', f);
    }
    fprintf(f, "%-*s", VIEW_LABEL_W, "vCPUs told");
    for (int k = 0; k < n; k++) {
        fputc(' ', f);
        put_padded(f, vm_view_vcpu_how(s, k), col_w - 1, utf8);
    }
    fputs("\n\n", f);
    fflush(f);
}
