/* The host's view of the VMs as plain text, for --text: a table below
 * the main one, a column per VM (view/vm_view.h). */
#ifndef PARALLAX_VM_TEXT_H
#define PARALLAX_VM_TEXT_H

#include <stdbool.h>
#include <stdio.h>

#include "session/session.h"

/* Prints the host's view of s's VMs to f, "-- host's view: 0 VMs on this
 * host --" when there is none (nothing when the session watches no VMs),
 * then the blank line that ends a refresh. Faults carry VIEW_FAULT_MARK. */
void vm_text_print(FILE *f, const struct session *s, int columns, bool utf8);

#endif
