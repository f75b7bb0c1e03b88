/* The host's view of a guest's clock probe (issue 26): where a guest is
 * joined to its VM on this host, what the host did to its vCPUs while the
 * probe spun, kept in the guest's model (struct probe_held). */
#ifndef PARALLAX_PROBE_VCPU_H
#define PARALLAX_PROBE_VCPU_H

struct session;

/* For every guest joined to a VM here: asks it once for a probe (its own
 * come every 30 s, the first before parallax could map its clock), and
 * gives its newest probe the host's view once the VM reading after the
 * spin is in. Called with every session update. */
void probe_vcpu_update(struct session *s);

#endif
