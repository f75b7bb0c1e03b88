/* A source named on the command line or at the add-guest prompt:
 * "HOST[:PORT]" or "LABEL=HOST[:PORT]", either followed by ",pid=N" (the
 * process on this host that runs the guest: its VM, for the host's view)
 * or ",vm=NAME" (the VM process here of that name, whenever it runs), and
 * ",vms" (the VMs that host runs, read through its pmcd's proc agent). */
#ifndef PARALLAX_SOURCE_SPEC_H
#define PARALLAX_SOURCE_SPEC_H

#include <stdbool.h>
#include <stddef.h>

struct source_spec {
    char name[64];    /* the column's label: LABEL, or HOST[:PORT] */
    char target[128]; /* what pmNewContext gets: HOST[:PORT] */
    int pid;          /* its VM process on this host, 0 when not given */
    char vm[64];      /* the name of its VM on this host, "" when not given */
    bool vms;         /* its own VMs are watched too */
};

/* Whether name can be a vm= name: 1 to 63 of letters, digits and
 * ". - _ + : @" (what qemu's -name, a libvirt domain, a UML umid or a
 * firecracker id is named with; never ',' which ends the option). */
bool source_spec_vm_name_ok(const char *name);

/* Parses arg into out. 0, or -1 with a one-line message in err. */
int source_spec_parse(const char *arg, struct source_spec *out, char *err,
                      size_t errlen);

#endif
