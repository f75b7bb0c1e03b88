/* See vm_rows.h. */
#include "core/vm_rows.h"

#include <string.h>

const char *const vm_row_labels[VM_ROW_COUNT] = {
#define VM_ROW_LABEL(id, key, label) label,
    VM_ROWS(VM_ROW_LABEL)
#undef VM_ROW_LABEL
};

const char *const vm_row_keys[VM_ROW_COUNT] = {
#define VM_ROW_KEY(id, key, label) key,
    VM_ROWS(VM_ROW_KEY)
#undef VM_ROW_KEY
};

int vm_row_of(const char *key)
{
    for (int row = 0; row < VM_ROW_COUNT; row++)
        if (strcmp(vm_row_keys[row], key) == 0)
            return row;
    return -1;
}
