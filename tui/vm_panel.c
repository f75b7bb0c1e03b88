/* See vm_panel.h. Columns as wide as a figure and its detail; those that
 * do not fit the width are left out and the rule says how many. */
#include "tui/vm_panel.h"

#include <curses.h>
#include <stdio.h>

#include "tui/colors.h"
#include "view/fit.h"
#include "view/view.h"
#include "view/view_time.h"
#include "view/vm_view.h"

#define DETAIL_W 26

static void put(int y, int x, int w, int attr, const char *text, bool utf8)
{
    char buf[256];
    if (x >= COLS || w <= 0)
        return;
    if (x + w > COLS)
        w = COLS - x;
    fit_text(buf, sizeof(buf), w, text, utf8);
    attron(attr);
    mvaddstr(y, x, buf);
    attroff(attr);
}

void vm_panel_draw(const struct session *s, int y0, int height, bool utf8)
{
    int n = vm_view_count(s), col_w = VIEW_VALUE_W + 1 + DETAIL_W + 1;
    int fit = (COLS - VIEW_LABEL_W) / col_w;
    if (fit > n)
        fit = n;
    char title[320], count[256];
    vm_view_count_text(s, count, sizeof(count));
    snprintf(title, sizeof(title), " host's view: %s%s (v: the table) ", count,
             fit < n ? ", some beyond the width" : "");
    attron(colors_attr(ROLE_RULE));
    mvhline(y0, 0, utf8 ? ACS_HLINE : '-', COLS);
    attroff(colors_attr(ROLE_RULE));
    put(y0, 1, COLS - 2, colors_attr(ROLE_RULE) | A_BOLD, title, utf8);
    if (!vm_view_shown(s)) {
        put(y0 + 1, 0, COLS, colors_attr(ROLE_LABEL),
            s->vms_off ? "off: --no-vm-view (this host's VM processes are "
                         "not read)"
                       : "this session watches no host of its own: no VMs",
            utf8);
        return;
    }
    if (n == 0)
        put(y0 + 1, 0, COLS, colors_attr(ROLE_LABEL),
            "no VM process on this host (qemu-system-*, User-Mode Linux, "
            "firecracker, cloud-hypervisor)",
            utf8);
    for (int k = 0; k < fit; k++) {
        int x = VIEW_LABEL_W + k * col_w;
        for (int row = 0; row < VM_VIEW_HEADER_ROWS; row++) {
            char buf[160];
            vm_view_header(s, k, row, buf, sizeof(buf));
            put(y0 + 1 + row, x + 1, col_w - 1,
                colors_attr(row ? ROLE_LABEL : ROLE_SOURCE), buf, utf8);
        }
    }
    int y = y0 + 1 + VM_VIEW_HEADER_ROWS;
    for (int row = 0; row < VM_ROW_COUNT + 1 && y < y0 + height; row++, y++) {
        put(y, 0, VIEW_LABEL_W - 1, colors_attr(ROLE_LABEL),
            row < VM_ROW_COUNT ? vm_row_labels[row] : "vCPUs told", utf8);
        for (int k = 0; k < fit; k++) {
            int x = VIEW_LABEL_W + k * col_w;
            if (row == VM_ROW_COUNT) {
                put(y, x + 1, col_w - 1, colors_attr(ROLE_LABEL),
                    vm_view_vcpu_how(s, k), utf8);
                continue;
            }
            char val[32], detail[160];
            bool fault = vm_view_cell(s, k, row, val, sizeof(val), detail,
                                      sizeof(detail), utf8);
            view_mark_fault(val, fault); /* colour or not: the marker */
            put(y, x, VIEW_VALUE_W,
                fault ? colors_attr(ROLE_RATIO_BAD) | (int)A_BOLD
                      : colors_attr(ROLE_NORMAL),
                val, utf8);
            put(y, x + VIEW_VALUE_W + 1, DETAIL_W,
                fault ? colors_attr(ROLE_RATIO_BAD) : colors_attr(ROLE_LABEL),
                detail, utf8);
        }
    }
}
