/* The fleet screen's table: one row per guest with the fleet's
 * distribution (median, p95, worst) above it, the sort column marked, the
 * guest, its host and its state frozen on the left while the other
 * columns scroll sideways. It draws what view/fleet_view.h computed and
 * moves the selection; the screen's loop (tui/fleet_tui.c) does the
 * rest. */
#ifndef PARALLAX_FLEET_PANEL_H
#define PARALLAX_FLEET_PANEL_H

#include <stdbool.h>

#include "fleet/fleet_model.h"
#include "fleet/fleet_run.h"
#include "view/fleet_view.h"

struct fleet_panel {
    int sel;       /* the selected row (display order) */
    int top;       /* the first row shown */
    int first_col; /* the first scrolling column shown */
    int rows;      /* guest rows the last draw had room for */
    char status[512];
};

/* Draws the table in screen rows y0 .. y0+height-1. */
void fleet_panel_draw(struct fleet_panel *p, const struct fleet_view *v,
                      const struct fleet_model *m, const struct fleet_run *r,
                      int y0, int height, double now, bool utf8);

/* The selection, scrolling, sorting and marking keys. Returns key_result
 * flags (KR_IGNORED for keys that are not the table's); v's order or
 * marks change and must be rebuilt. */
int fleet_panel_key(struct fleet_panel *p, struct fleet_view *v, int ch);

/* The model index of the selected guest, or -1. */
int fleet_panel_selected(const struct fleet_panel *p,
                         const struct fleet_view *v);

#endif
