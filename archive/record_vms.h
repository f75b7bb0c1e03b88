/* The host's view of its VMs in this host's archive (issue 26), and in a
 * host's read through its pmcd (-h NAME=HOST,vms) those it runs: one
 * instance per VM process seen while recording ("NAME.PID", its spaces
 * made '_'; "NAME.PID.2" for another VM that would take a name given
 * before: one started again under a reused pid), and under
 * parallax.vm.KEY each row of its column in the VM view (view/vm_view.h:
 * the same figures the JSON report gives as vms[].figures.KEY), with
 * what it is (kind, pid, the guest column it is joined to), its vCPUs'
 * run and wait time as counters for PCP's tools to take rates of, and
 * the cells as shown (notes, faults) for a replay. */
#ifndef PARALLAX_RECORD_VMS_H
#define PARALLAX_RECORD_VMS_H

#include <stdbool.h>

#include "archive/record_values.h"
#include "core/vm_model.h"

struct session;

#define RECORD_VMS_MAX 64 /* VM instances one archive names */

#define RECORD_VM_NAME_MAX 96 /* an instance's name, with its NUL */

/* The VMs one archive has named so far. */
struct record_vms {
    int n;
    struct {
        int pid;
        unsigned long long start;
        char name[RECORD_VM_NAME_MAX];
    } vm[RECORD_VMS_MAX];
};

/* Value sets and bytes a record of the VMs takes at most. */
int record_vms_vsets(void);
size_t record_vms_bytes(void);

/* Defines the VM metrics and their instance domain in the current
 * libpcp_import context. 0, or libpcp_import's error code. */
int record_vms_define(void);

/* Puts the VMs of s's source src (0: this host's; another: those it
 * runs, read through its pmcd) into the record being built (names new
 * ones). 0, or libpcp_import's error code. */
int record_vms_put(struct record_vms *rv, struct record_values *vals,
                   const struct session *s, int src);

#endif
