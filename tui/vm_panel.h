/* The host's view on screen (the v key): a column per VM on this host,
 * the cells of view/vm_view.h, faults in the bad colour. It takes the
 * table's place while it is open. */
#ifndef PARALLAX_VM_PANEL_H
#define PARALLAX_VM_PANEL_H

#include <stdbool.h>

#include "session/session.h"

/* Draws s's VMs in rows y0 .. y0+height-1. */
void vm_panel_draw(const struct session *s, int y0, int height, bool utf8);

#endif
