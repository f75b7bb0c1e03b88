/* See archives.h. */
#include "cli/archives.h"

#include <stdio.h>
#include <string.h>

#include "archive/recorder.h"
#include "base/clock.h"
#include "report/report.h"

int archives_open(struct archives *a, struct session *s,
                  const struct options *o, char *err, size_t errlen)
{
    memset(a, 0, sizeof(*a));
    bool live_guests = o->nguests > 0 || o->ndemo > 0;
    if (replay_open(&a->replay, s, o->archives, o->narchives, live_guests, err,
                    errlen) < 0)
        return -1;
    char dir[2048];
    if (o->record)
        snprintf(a->dir, sizeof(a->dir), "%s", o->record);
    else if (o->report_dir)
        snprintf(a->dir, sizeof(a->dir), "%.2000s/recordings", o->report_dir);
    else if (report_default_dir(dir, sizeof(dir)) == 0)
        snprintf(a->dir, sizeof(a->dir), "%.2000s/recordings", dir);
    if (o->record && !(a->rec = recorder_start(o->record, err, errlen)))
        return -1;
    return 0;
}

bool archives_tick(struct archives *a, struct session *s, struct jobs *j,
                   char *msg, size_t n)
{
    char err[512];
    bool news = false;
    replay_tick(&a->replay, s, j);
    if (a->replay.message_seq != a->replay_seq) {
        a->replay_seq = a->replay.message_seq;
        snprintf(msg, n, "%s", a->replay.message);
        news = true;
    }
    if (a->rec && recorder_tick(a->rec, s, j, err, sizeof(err)) < 0) {
        unsigned long records = recorder_records(a->rec);
        if (records == 0)
            snprintf(a->failed, sizeof(a->failed),
                     "recording stopped: %s; nothing was recorded", err);
        else
            snprintf(a->failed, sizeof(a->failed),
                     "recording stopped: %s; the %lu whole record%s before "
                     "it %s kept in %s",
                     err, records, records == 1 ? "" : "s",
                     records == 1 ? "is" : "are", recorder_dir(a->rec));
        snprintf(msg, n, "%s", a->failed);
        recorder_stop(a->rec);
        a->rec = NULL;
        news = true;
    }
    return news;
}

void archives_toggle_record(struct archives *a, char *status, size_t n)
{
    char err[512];
    if (a->rec) {
        unsigned long records = recorder_records(a->rec);
        double secs = clock_mono() - recorder_since(a->rec);
        snprintf(status, n, "recording stopped: %lu records in %.0f s, in %s",
                 records, secs, recorder_dir(a->rec));
        recorder_stop(a->rec);
        a->rec = NULL;
        return;
    }
    if (!a->dir[0]) {
        snprintf(status, n,
                 "cannot record: no directory (set HOME, or give "
                 "--record DIR)");
        return;
    }
    a->rec = recorder_start(a->dir, err, sizeof(err));
    if (a->rec)
        snprintf(status, n, "recording into %s (r stops)", a->dir);
    else
        snprintf(status, n, "not recording: %s", err);
}

void archives_close(struct archives *a)
{
    recorder_stop(a->rec);
    a->rec = NULL;
}

const char *archives_failed(const struct archives *a)
{
    return a->failed[0] ? a->failed : NULL;
}
