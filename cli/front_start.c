/* See front_start.h. */
#include "cli/front_start.h"

#include "report/baselines.h"

void front_jobs_init(struct jobs *j, const struct options *o)
{
    jobs_init(j);
    j->opts.repeats = o->repeats;
    j->lease = o->lease;
}

int front_start(struct session *s, struct jobs *j, struct archives *a,
                const struct options *o, char *err, size_t errlen)
{
    if (session_open(s, o->interval, o->guests, o->nguests, !o->no_vm_view, err,
                     errlen) < 0)
        return 1;
    if (baselines_open(s, j, o->baselines, o->nbaselines, err, errlen) < 0 ||
        archives_open(a, s, o, err, errlen) < 0) {
        session_close(s);
        return 2;
    }
    return 0;
}
