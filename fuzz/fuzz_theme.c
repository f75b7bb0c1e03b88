/* libFuzzer target for the theme parser (make fuzz): any bytes must give
 * a theme or one error line, never a crash, a leak or undefined
 * behaviour. The theme must stay within the palette either way. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "theme/theme.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct theme t;
    char err[512];
    err[0] = '\0';
    int rc =
        theme_parse((const char *)data, size, "fuzz", &t, err, sizeof(err));
    if (rc < 0 && strncmp(err, "fuzz:", 5) != 0)
        abort(); /* an error must say where */
    for (int r = 0; r < ROLE_COUNT; r++)
        if (t.style[r].fg < THEME_DEFAULT || t.style[r].fg > 255 ||
            t.style[r].bg < THEME_DEFAULT || t.style[r].bg > 255)
            abort();
    return 0;
}
