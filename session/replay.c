/* See replay.h. The controls are stores into each recorded column's
 * sampler (collectors/archive_source.h): the backend steers its replay
 * clock in the sampler's thread, and each sample says where it stands. */
#include "session/replay.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/diag.h"
#include "collectors/archive_source.h"

#define SPEED_MIN 0.125
#define SPEED_MAX 64.0

/* The column for an argument that names nothing readable: it says why. */
static int add_unreadable(struct session *s, const char *arg, char *err,
                          size_t errlen)
{
    struct source_spec spec;
    const char *eq = strchr(arg, '=');
    bool labelled = eq && !memchr(arg, '/', (size_t)(eq - arg));
    snprintf(spec.name, sizeof(spec.name), "%.*s",
             labelled ? (int)(eq - arg) : (int)strlen(arg), arg);
    snprintf(spec.target, sizeof(spec.target), "%s", labelled ? eq + 1 : arg);
    return session_add_recorded(s, &spec, err, errlen);
}

int replay_open(struct replay *r, struct session *s, const char *const *args,
                int n, bool lenient, char *err, size_t errlen)
{
    memset(r, 0, sizeof(*r));
    r->speed = 1;
    for (int i = 0; i < n; i++) {
        struct source_spec spec[SESSION_MAX_SOURCES];
        char why[512];
        int k =
            archive_find(args[i], spec, SESSION_MAX_SOURCES, why, sizeof(why));
        if (k < 0 && !lenient) {
            snprintf(err, errlen, "%s", why);
            return -1;
        }
        if (k < 0 && add_unreadable(s, args[i], err, errlen) < 0)
            return -1;
        for (int c = 0; c < k; c++) {
            if (!lenient && archive_check(spec[c].target, err, errlen) < 0)
                return -1;
            if (session_add_recorded(s, &spec[c], err, errlen) < 0)
                return -1;
            r->n++;
        }
        r->n += k < 0;
    }
    return 0;
}

static void send(const struct session *s, const char *value)
{
    for (int i = 0; i < s->nsrc; i++)
        if (s->recorded[i])
            session_store(s, i, ARCHIVE_CONTROL, value);
}

/* The recorded column's newest record, into its workload cells. */
static void show_workloads(const struct session *s, struct jobs *j, int src)
{
    const struct source_model *m = &s->model[src];
    for (int w = 0; w < j->nwl; w++) {
        const struct pmda_job *pj = NULL;
        for (int k = 0; k < m->njobs && !pj; k++)
            if (strcmp(m->job[k].name, j->wl[w]->name) == 0)
                pj = &m->job[k];
        jobs_set_recorded(j, src, w, pj, pj ? model_job_extras(m, pj) : "",
                          pj ? model_pool_text(m, pj->hist_at) : "");
    }
}

/* Live runs that just started: every recorded column goes to the start
 * of its next run of the same workload. */
static void line_up(struct replay *r, const struct session *s,
                    const struct jobs *j)
{
    for (int w = 0; w < j->nwl; w++) {
        bool on = false;
        for (int src = 0; src < s->nsrc && !on; src++) {
            enum job_state st = jobs_cell(j, src, w)->state;
            on = !session_is_fixed(s, src) &&
                 (st == JOB_RUNNING || st == JOB_STOPPING);
        }
        if (on && !r->live_running[w]) {
            char cmd[64];
            snprintf(cmd, sizeof(cmd), "run %s", j->wl[w]->name);
            send(s, cmd);
            r->paused = false;
            DIAG(DIAG_INFO, "replay: to the next recorded run of %s",
                 j->wl[w]->name);
        }
        r->live_running[w] = on;
    }
}

/* "NAME: what" as the news, after what this tick (since seq) said. */
static void say(struct replay *r, unsigned seq, const char *name,
                const char *what)
{
    size_t len = r->message_seq != seq ? strlen(r->message) : 0;
    snprintf(r->message + len, sizeof(r->message) - len, "%s%s: %s",
             len ? "; " : "", name, what);
    if (r->message_seq == seq)
        r->message_seq++;
    DIAG(DIAG_INFO, "%s: %s", name, what);
}

void replay_tick(struct replay *r, const struct session *s, struct jobs *j)
{
    unsigned seq = r->message_seq;
    if (!r->n)
        return;
    for (int i = 0; i < s->nsrc; i++) {
        const struct source_model *m = &s->model[i];
        if (!s->recorded[i])
            continue;
        if (m->replay.on && !r->noted[i] && m->replay.note[0]) {
            r->noted[i] = true;
            say(r, seq, m->name, m->replay.note);
        }
        for (; r->stores[i] < m->stores_seen; r->stores[i]++) {
            const struct store_result *o =
                &m->store[r->stores[i] % SAMPLE_MAX_STORES];
            if (o->status < 0) /* a run it does not hold, say */
                say(r, seq, m->name, o->msg);
        }
        if (m->updates == r->seen[i])
            continue;
        r->seen[i] = m->updates;
        show_workloads(s, j, i);
    }
    line_up(r, s, j);
}

void replay_control(struct replay *r, const struct session *s,
                    enum replay_action a, char *status, size_t n)
{
    char cmd[32];
    if (!r->n) {
        snprintf(status, n,
                 "nothing is replayed; -a DIR replays a "
                 "recording (--record DIR makes one)");
        return;
    }
    switch (a) {
    case REPLAY_PAUSE:
        r->paused = !r->paused;
        send(s, r->paused ? "pause" : "play");
        snprintf(status, n, "replay %s",
                 r->paused ? "paused (, plays, . steps)" : "playing");
        return;
    case REPLAY_STEP:
        r->paused = true;
        send(s, "step");
        snprintf(status, n, "replay: one record on (, plays)");
        return;
    case REPLAY_FASTER:
    case REPLAY_SLOWER:
        r->speed =
            fmin(SPEED_MAX,
                 fmax(SPEED_MIN, r->speed * (a == REPLAY_FASTER ? 2 : 0.5)));
        snprintf(cmd, sizeof(cmd), "speed %g", r->speed);
        send(s, cmd);
        snprintf(status, n, "replay at %g times the recorded pace%s", r->speed,
                 r->speed == SPEED_MAX || r->speed == SPEED_MIN ? ", the limit"
                                                                : "");
        return;
    case REPLAY_NEXT:
        send(s, "next");
        snprintf(status, n, "replay: to the start of the next workload run");
        return;
    }
}

bool replay_busy(const struct replay *r, const struct session *s,
                 const char *name)
{
    for (int i = 0; r->n && i < s->nsrc; i++) {
        const struct replay_pos *p = &s->model[i].replay;
        if (s->recorded[i] && p->on && !p->ended && p->speed > 0 &&
            strcmp(p->run, name) == 0)
            return true;
    }
    return false;
}
