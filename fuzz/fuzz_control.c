/* libFuzzer target for what pmdaparallax reads from the wire (make fuzz):
 * a start, stop or renew command gives a checked request or one line of
 * refusal, never a crash or undefined behaviour; every number in a request
 * (its lease too) is finite and within its bounds. */
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
            !(req.opt.duration > 0) || !isfinite(req.opt.warmup) ||
            (req.lease != 0 && !(req.lease >= CONTROL_LEASE_MIN &&
                                 req.lease <= CONTROL_LEASE_MAX)))
            abort();
        char args[1024];
        control_format_args(&req, args, sizeof(args));
    } else if (strchr(err, '\n')) {
        abort();
    }
    if (!control_parse_name(text, err, sizeof(err)) && strchr(err, '\n'))
        abort();
    const struct workload *w[CONTROL_MAX_NAMES];
    double lease = -1;
    int n_names = control_parse_renew(text, &lease, w, CONTROL_MAX_NAMES, err,
                                      sizeof(err));
    if (n_names > CONTROL_MAX_NAMES || (n_names < 0 && strchr(err, '\n')) ||
        (n_names > 0 && lease != 0 &&
         !(lease >= CONTROL_LEASE_MIN && lease <= CONTROL_LEASE_MAX)))
        abort();
    for (int i = 0; i < n_names; i++)
        if (!w[i])
            abort();
    double v;
    if (params_decimal(text, &v) && !isfinite(v))
        abort();
    return 0;
}
