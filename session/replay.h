/* Recorded columns (-a): added to the session from what -a names, their
 * recorded workloads shown in the job cells (ratios then work as for any
 * guest), their runs lined up with live ones by run start, and the
 * controls: pause, step, faster, slower, the next run. Every recorded
 * column moves together. The front ends call replay_tick after
 * jobs_update. */
#ifndef PARALLAX_REPLAY_H
#define PARALLAX_REPLAY_H

#include <stdbool.h>
#include <stddef.h>

#include "session/jobs.h"
#include "session/session.h"

enum replay_action {
    REPLAY_PAUSE,  /* pause, or play again */
    REPLAY_STEP,   /* one record on, paused */
    REPLAY_FASTER, /* twice the speed (64x at most) */
    REPLAY_SLOWER, /* half (1/8 at least) */
    REPLAY_NEXT,   /* to the start of the next workload run */
};

struct replay {
    int n; /* recorded columns */
    double speed;
    bool paused;
    unsigned long seen[SESSION_MAX_SOURCES]; /* model updates shown */
    bool noted[SESSION_MAX_SOURCES];         /* what it lacks was said */
    bool live_running[JOBS_MAX_WL];          /* a live run of w is on */
    unsigned stores[SESSION_MAX_SOURCES];    /* control outcomes read */
    unsigned message_seq;                    /* rises with each new message */
    char message[320];                       /* the newest news for the user */
};

/* Adds the columns each of the n arguments (-a [NAME=]PATH) names to s.
 * Each is read through first: a bad one is one line in err (the path and
 * what is wrong) and -1; when `lenient` (other sources were asked for)
 * it becomes a column that says why instead. */
int replay_open(struct replay *r, struct session *s, const char *const *args,
                int n, bool lenient, char *err, size_t errlen);

/* Shows what the recorded columns' newest records say of the workloads,
 * and sends them to the start of their next run of a workload that has
 * just started live. */
void replay_tick(struct replay *r, const struct session *s, struct jobs *j);

/* One control for every recorded column; the outcome goes to status. */
void replay_control(struct replay *r, const struct session *s,
                    enum replay_action a, char *status, size_t n);

/* True while a recorded column plays the run of workload `name` it was
 * lined up with and has not yet shown its end (and the replay moves). */
bool replay_busy(const struct replay *r, const struct session *s,
                 const char *name);

#endif
