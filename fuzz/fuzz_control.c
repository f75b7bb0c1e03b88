/* libFuzzer target for what pmdaparallax reads from the wire (make fuzz):
 * a start or stop command gives a checked request or one line of refusal,
 * never a crash or undefined behaviour; every number in a request is
 * finite and within its bounds. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pmda/control.h"
#include "workloads/params.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char text[CONTROL_MAX_TEXT + 2], err[512];
    struct start_req req;
    size_t n = size < sizeof(text) - 1 ? size : sizeof(text) - 1;
    memcpy(text, data, n);
    text[n] = '\0';
    if (control_parse_start(text, &req, err, sizeof(err)) == 0) {
        if (params_check(req.w, req.param, err, sizeof(err)) < 0 ||
            req.opt.repeats < 1 || req.opt.repeats > CONTROL_MAX_REPEATS ||
            !(req.opt.duration > 0) || !isfinite(req.opt.warmup))
            abort();
        char args[1024];
        control_format_args(req.w, req.param, &req.opt, args, sizeof(args));
    } else if (strchr(err, '\n')) {
        abort();
    }
    if (!control_parse_name(text, err, sizeof(err)) && strchr(err, '\n'))
        abort();
    double v;
    if (params_decimal(text, &v) && !isfinite(v))
        abort();
    return 0;
}
