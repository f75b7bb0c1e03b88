/* parallax: host and guests side by side. Parses the options, then runs
 * the full-screen view, or the plain text view with --text. */
#include <locale.h>
#include <malloc.h>
#include <stdio.h>

#include "archive/recorder.h"
#include "base/diag.h"
#include "base/version.h"
#include "cli/batch.h"
#include "cli/fleet_batch.h"
#include "cli/fleet_text.h"
#include "cli/options.h"
#include "cli/pcp_env.h"
#include "cli/text_mode.h"
#include "tui/fleet_tui.h"
#include "tui/tui.h"

int main(int argc, char **argv)
{
    struct options o;
    char err[256];
    setlocale(LC_ALL, "");
    /* one malloc arena: each sampler thread would otherwise get its own,
     * half a megabyte resident for a few small allocations */
    mallopt(M_ARENA_MAX, 1);
    switch (options_parse(argc, argv, &o, err, sizeof(err))) {
    case OPT_HELP:
        options_usage(stdout);
        return 0;
    case OPT_VERSION:
        printf("parallax %s\n", PARALLAX_VERSION);
        return 0;
    case OPT_ERROR:
        fprintf(stderr, "parallax: %s\n", err);
        return 2;
    case OPT_RUN:
        break;
    }
    diag_set_level(o.verbose);
    if (pcp_env_apply(&o, err, sizeof(err)) < 0) { /* -z, -Z, --container */
        fprintf(stderr, "parallax: %s\n", err);
        return 2;
    }
    recorder_global_init(); /* before any thread: --record, the r key */
    if (o.fleet && o.text)
        return fleet_text_run(&o);
    if (o.fleet && o.batch)
        return fleet_batch_run(&o);
    if (o.batch)
        return batch_run(&o);
    if (o.fleet)
        return fleet_tui_run(&o);
    return o.text ? text_mode_run(&o) : tui_run(&o);
}
