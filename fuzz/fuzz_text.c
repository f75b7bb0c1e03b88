/* libFuzzer target for text from outside (make fuzz): safe_text leaves
 * nothing a terminal acts on and keeps the length; a copy fits and is as
 * safe; a guest named on the command line gives a safe name and target or
 * one safe line of error. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/safe_text.h"
#include "core/source_spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1), copy[64], err[256];
    if (!s)
        return 0;
    memcpy(s, data, size);
    s[size] = '\0';
    size_t len = strlen(s);
    bool ok = safe_text_ok(s);
    for (size_t n = 1; n <= sizeof(copy); n += 21) {
        safe_text_copy(copy, n, s, size % 7);
        if (strlen(copy) >= n || !safe_text_ok(copy))
            abort();
    }
    struct source_spec sp;
    if (source_spec_parse(s, &sp, err, sizeof(err)) == 0) {
        if (!safe_text_ok(sp.name) || !safe_text_ok(sp.target))
            abort();
    } else if (!safe_text_ok(err) || strchr(err, '\n')) {
        abort();
    }
    safe_text(s);
    if (strlen(s) != len || !safe_text_ok(s) || (ok && memcmp(s, data, len)))
        abort();
    free(s);
    return 0;
}
