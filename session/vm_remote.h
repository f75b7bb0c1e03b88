/* The VMs of a host reached through its pmcd (-h NAME=HOST,vms): a
 * thread of its own reads them (collectors/vm_pcp.h) every interval, the
 * main loop folds the newest readings into the host's VM set
 * (core/vm_model.h), so a host that is slow or gone never holds up the
 * screen. */
#ifndef PARALLAX_VM_REMOTE_H
#define PARALLAX_VM_REMOTE_H

#include <stdbool.h>

#include "core/vm_model.h"

struct vm_remote;

/* Starts reading the VMs of the pmcd at target every interval s, at the
 * instants epoch + k * interval (host monotonic: the samplers' grid, so
 * a VM read here and there is read at once); NULL when out of memory or
 * no thread can start. */
struct vm_remote *vm_remote_start(const char *target, double interval,
                                  double epoch);

/* Folds the newest readings, if any came since the last call, into set
 * (and why none can be read into set->why); true when they came. */
bool vm_remote_take(struct vm_remote *r, struct vm_set *set);

void vm_remote_set_interval(struct vm_remote *r, double interval);

/* Stops the thread (one stuck in a request frees itself once out). */
void vm_remote_stop(struct vm_remote *r);

#endif
