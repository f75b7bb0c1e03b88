/* Reports: what the screen shows, saved as a text and a JSON file that
 * stand on their own (the `s` key, batch mode) and can be read back as a
 * baseline. This header holds what both writers share, and the one path
 * that saves a pair of them (this session's or the fleet's) atomically
 * into the report directory. */
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

/* A report's two forms, text and JSON, as a pair of writers over one
 * argument: the session's report (report_pair_session) and the fleet's
 * (report/fleet_report.h) are saved, and written to -o
 * (cli/report_out.h), through the same code. */
struct report_pair {
    const char *stem; /* the saved files' names: STEM-YYYYmmdd-... */
    const char *noun; /* what messages call the pair: "reports" */
    int (*text)(FILE *f, const void *arg); /* 0, or -1 when f fails */
    int (*json)(FILE *f, const void *arg);
    const void *arg;
};

/* The session's report: what the screen shows of s and j, at meta. */
struct report_of_session {
    const struct session *s;
    const struct jobs *j;
    const struct report_meta *meta;
};
struct report_pair report_pair_session(const struct report_of_session *r);

/* Fills f with the pair's text (or JSON) form; the signature of
 * atomic_file.h's fills, arg a const struct report_pair. 0, or -1 with the
 * cause in err. */
int report_pair_fill_text(FILE *f, void *pair, char *err, size_t errlen);
int report_pair_fill_json(FILE *f, void *pair, char *err, size_t errlen);

/* Writes STEM-YYYYmmdd-HHMMSS-mmm.txt and .json (local time of meta->when
 * and meta->msec, so names sort by time) into dir (NULL: the default),
 * creating it if missing. Never over an existing report: when the name is
 * taken, the next millisecond's is used. Each file is written atomically,
 * and both names appear or neither. Puts the .txt path into path_out. 0,
 * or -1 with a one-line reason in err. */
int report_pair_save(const char *dir, const struct report_pair *p,
                     const struct report_meta *meta, char *path_out,
                     size_t path_n, char *err, size_t errlen);

/* report_pair_save of the session's report (stem "parallax"). */
int report_save(const char *dir, const struct session *s, const struct jobs *j,
                const struct report_meta *meta, char *path_out, size_t path_n,
                char *err, size_t errlen);

/* The JSON report's path next to the text report's: its extension
 * replaced by .json (or .json added when it has none). */
void report_json_next_to(const char *text_path, char *out, size_t n);

#endif
