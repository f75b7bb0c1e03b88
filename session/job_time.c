/* See job_time.h. A stamp is mapped once, when first seen (the time map
 * keeps minutes of fetches, a run may last longer), and kept in the
 * cell's job_stamps: a later fetch can only say the same. */
#include "session/job_time.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/real_figure.h"

static const struct time_at unmapped = {.host = NAN, .lo = NAN, .hi = NAN};

/* Empties st for a new run. */
static void forget(struct job_stamps *st)
{
    st->n = 0;
    st->run[0] = st->run[1] = NAN;
    st->run_at[0] = st->run_at[1] = unmapped;
}

void job_time_reset(struct job_cell *c)
{
    c->real = false;
    c->mapping = false;
    c->rate = c->rate_err = NAN;
    c->real_s = c->said_s = c->run_real_s = NAN;
    c->store_t[0] = c->store_t[1] = c->ran_t = c->done_t = NAN;
    c->bracket_ok = true;
    if (c->stamps)
        forget(c->stamps);
}

/* Maps source stamp t into *at unless it is mapped; 1 mapped, 0 waiting
 * for a later fetch, -1 lost. */
static int map(const struct source_model *m, double t, struct time_at *at)
{
    if (isfinite(at->host))
        return 1;
    switch (time_map_host(&m->tmap, t, !m->rates.unsteady, at)) {
    case TM_OK:
        return 1;
    case TM_PENDING:
        return 0;
    case TM_LOST:
        break;
    }
    return -1;
}

/* Takes the log's lines into st, forgetting the mapping of any line whose
 * start changed (a new run, or the repeat in progress that finished).
 * Returns how many lines there are. */
static int take_log(struct job_stamps *st, const char *log)
{
    static struct repeat_entry rep[JOBS_MAX_REPEATS + 1];
    int n = repeat_log_parse(log, rep, JOBS_MAX_REPEATS + 1);
    for (int i = 0; i < n; i++) {
        bool same = i < st->n && st->rep[i].t_start == rep[i].t_start;
        if (!same)
            st->start[i] = unmapped;
        if (!same || st->rep[i].t_end != rep[i].t_end)
            st->end[i] = unmapped;
        st->rep[i] = rep[i];
    }
    st->n = n;
    return n;
}

/* The run's start and end on the host's clock: c->run_real_s. Returns
 * how many stamps wait for a later fetch. */
static int fold_run(struct job_cell *c, const struct source_model *m,
                    const double run[2])
{
    struct job_stamps *st = c->stamps;
    int waiting = 0;
    for (int k = 0; k < 2; k++) {
        if (run[k] != st->run[k]) { /* a new run, or its end */
            st->run[k] = run[k];
            st->run_at[k] = unmapped;
        }
        if (isfinite(run[k]))
            waiting += map(m, run[k], &st->run_at[k]) == 0;
    }
    c->run_real_s = st->run_at[1].host - st->run_at[0].host;
    return waiting;
}

void job_time_fold(struct job_cell *c, const struct workload *w,
                   const struct source_model *m, const char *log,
                   const double run[2])
{
    if (!c->stamps) {
        if (!(c->stamps = malloc(sizeof(*c->stamps))))
            return;
        forget(c->stamps);
    }
    struct job_stamps *st = c->stamps;
    int n = take_log(st, log);
    double said[JOBS_MAX_REPEATS + 1], real[JOBS_MAX_REPEATS + 1];
    double sum_real = 0, sum_said = 0;
    double first_err = NAN, last_err = NAN; /* the run's two ends */
    int k = 0, waiting = 0, lost = 0;
    for (int i = 0; i < n; i++) {
        const struct repeat_entry *e = &st->rep[i];
        int a = map(m, e->t_start, &st->start[i]);
        if (!isfinite(e->t_end)) { /* being measured: only its start */
            waiting += a == 0;
            continue;
        }
        int b = map(m, e->t_end, &st->end[i]);
        said[k] = e->figure;
        c->placement = e->placement;
        waiting += a == 0 || b == 0;
        lost += a < 0 || b < 0;
        double d = st->end[i].host - st->start[i].host;
        double g = e->t_end - e->t_start;
        real[k] =
            a > 0 && b > 0 && d > 0 ? wl_real_figure(w, e->figure, g / d) : NAN;
        if (a > 0 && b > 0) {
            sum_real += d;
            sum_said += g;
            if (isnan(first_err))
                first_err = st->start[i].err;
            last_err = st->end[i].err;
        }
        k++;
    }
    stats_compute(said, k, &c->said);
    waiting += fold_run(c, m, run);
    c->mapping = waiting > 0;
    bool all = k > 0 && waiting == 0 && lost == 0;
    for (int i = 0; all && i < k; i++)
        all = isfinite(real[i]);
    c->real = all;
    c->stats = c->said;
    if (all)
        stats_compute(real, k, &c->stats);
    c->real_s = all ? sum_real : NAN;
    c->said_s = all ? sum_said : NAN;
    c->rate = all && sum_real > 0 ? sum_said / sum_real : NAN;
    /* back to back, one repeat's end and the next one's start fall between
     * the same two fetches and their errors cancel in the sum: what is
     * left is the run's two ends */
    c->rate_err =
        all && sum_real > 0 ? c->rate * (first_err + last_err) / sum_real : NAN;
}

void job_time_check(struct job_cell *c)
{
    const struct job_stamps *st = c->stamps;
    c->bracket_ok = true;
    if (!c->real || !st || st->n == 0)
        return;
    int last = st->n - 1;
    while (last > 0 && !isfinite(st->rep[last].t_end))
        last--;
    const struct time_at *first = &st->start[0], *end = &st->end[last];
    /* the run began after the store was made, its last repeat ended
     * before the fetch that showed it done returned */
    if (isfinite(c->store_t[0]) && first->host + first->err < c->store_t[0])
        c->bracket_ok = false;
    if (isfinite(c->done_t) && end->host - end->err > c->done_t)
        c->bracket_ok = false;
}
