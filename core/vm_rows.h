/* The rows of a VM's column in the host's view (view/vm_view.h draws
 * them; archive/record_vms.c records each as parallax.vm.KEY; a replay
 * reads them back by KEY): one table for the three. */
#ifndef PARALLAX_VM_ROWS_H
#define PARALLAX_VM_ROWS_H

/* X(id, key, label) */
#define VM_ROWS(X)                                                             \
    X(VMR_RUN, "vcpu_run", "vCPU run %")                                       \
    X(VMR_WAIT, "vcpu_wait", "vCPU wait %")                                    \
    X(VMR_OTHER, "vmm_other", "VMM other %")                                   \
    X(VMR_RSS, "vm_rss", "VM resident")                                        \
    X(VMR_READ, "vm_read", "VMM read B/s")                                     \
    X(VMR_WRITE, "vm_write", "VMM write B/s")                                  \
    X(VMR_CTXSW, "vm_ctxsw", "VM ctx sw/s")                                    \
    X(VMR_KVM, "kvm_exits", "KVM exits/s")                                     \
    X(VMR_COST, "busy_cost", "busy said/ran")                                  \
    X(VMR_HELD, "steal_held", "steal said/held")                               \
    X(VMR_RUN_CPU, "run_cpu", "run billed/ran")

enum vm_row {
#define VM_ROW_ENUM(id, key, label) id,
    VM_ROWS(VM_ROW_ENUM)
#undef VM_ROW_ENUM
        VM_ROW_COUNT
};

extern const char *const vm_row_labels[VM_ROW_COUNT];
extern const char *const vm_row_keys[VM_ROW_COUNT];

/* The row whose key is key, or -1. */
int vm_row_of(const char *key);

#endif
