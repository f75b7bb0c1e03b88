/* The host's view of the VMs in the reports: a section of the text report
 * (the --text table, view/vm_text.h) and a "vms" array of the JSON one,
 * each VM with its figures, the reason for each one that cannot be read,
 * and the guest column it is joined with. */
#ifndef PARALLAX_VM_REPORT_H
#define PARALLAX_VM_REPORT_H

#include <jansson.h>
#include <stdio.h>

#include "session/session.h"

/* The text report's section; nothing when the session watches no VMs. */
void vm_report_text(FILE *f, const struct session *s);

/* The JSON report's "vms": an array, empty when there is none (null when
 * the session watches no host of its own). */
json_t *vm_report_json(const struct session *s);

#endif
