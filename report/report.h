/* Reports: what the screen shows, saved as a text and a JSON file that
 * stand on their own (the `s` key, batch mode) and can be read back as a
 * baseline. This header holds what both writers share and report_save,
 * which writes the pair atomically into the report directory. */
#ifndef PARALLAX_REPORT_H
#define PARALLAX_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>

#include "session/session.h"

struct jobs;

/* What a report says beyond the model. */
struct report_meta {
    time_t when; /* the moment reported: the date and the file names */
    int msec;    /* its milliseconds, for the file names only */
    /* each source's clocksource where known, NULL: "?" (the collectors do
     * not read it; report_host_clocksource gives this host's) */
    const char *clocksource[SESSION_MAX_SOURCES];
};

/* meta for now, this host's clocksource read into buf (n bytes) when
 * the system tells it, every other source's unknown. */
void report_meta_now(struct report_meta *meta, char *buf, size_t n);

/* This host's current clocksource ("tsc", "kvm-clock") into buf; false
 * when /sys does not say. */
bool report_host_clocksource(char *buf, size_t n);

/* The default report directory: $XDG_STATE_HOME/parallax, else
 * ~/.local/state/parallax. -1 when neither variable is set. */
int report_default_dir(char *buf, size_t n);

/* mkdir -p dir (0755); 0, or -1 with errno set. */
int report_make_dirs(const char *dir);

/* Writes parallax-YYYYmmdd-HHMMSS-mmm.txt and .json (local time of
 * meta->when and meta->msec, so names sort by time) into dir (NULL: the
 * default), creating it if missing. Never over an existing report: when
 * the name is taken, the next millisecond's is used. Each file is written
 * atomically. Puts the .txt path into path_out. 0, or -1 with a one-line
 * reason in err. */
int report_save(const char *dir, const struct session *s, const struct jobs *j,
                const struct report_meta *meta, char *path_out, size_t path_n,
                char *err, size_t errlen);

/* The JSON report's path next to the text report's: its extension
 * replaced by .json (or .json added when it has none). */
void report_json_next_to(const char *text_path, char *out, size_t n);

/* report_save for another pair of writers: STEM-YYYYmmdd-HHMMSS-mmm.txt
 * and .json, filled by text(f, arg, ...) and json(f, arg, ...) (the
 * fleet's report, stem "parallax-fleet"). Same directory, names and
 * atomicity; 0, or -1 with one line in err. */
int report_save_with(const char *dir, const char *stem,
                     int (*text)(FILE *f, void *arg, char *err, size_t errlen),
                     int (*json)(FILE *f, void *arg, char *err, size_t errlen),
                     void *arg, const struct report_meta *meta, char *path_out,
                     size_t path_n, char *err, size_t errlen);

#endif
