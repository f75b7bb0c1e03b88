/* A session: the sources being watched (this host first, then guests), each
 * a sampler thread feeding a model. The screen and the text mode both
 * drive one. */
#ifndef PARALLAX_SESSION_H
#define PARALLAX_SESSION_H

#include <stdbool.h>
#include <stddef.h>

#include "core/model.h"
#include "core/selfcost.h"
#include "core/source_spec.h"

#define SESSION_MAX_SOURCES 64

struct backend;
struct vm_remote;
struct vm_set;
struct vm_watch;

struct session {
    double interval;
    int nsrc; /* model[0] is this host (a remote one in a fleet's pair) */
    struct source_model model[SESSION_MAX_SOURCES];
    struct sampler *sampler[SESSION_MAX_SOURCES];
    bool recorded[SESSION_MAX_SOURCES]; /* replayed from an archive */
    int wake[2]; /* samplers write a byte to wake[1] after each round */
    struct wake_gate *gate; /* their grid and their byte (sampler.h) */
    struct selfcost self;   /* parallax's own cost, once per interval */
    /* the host's view of this host's VMs (session/vm_watch.h), read with
     * the host's samples; NULL where model[0] is no local host */
    struct vm_watch *vms;
    bool vms_off; /* --no-vm-view: vms stays NULL on purpose */
    /* the VMs source i runs, read through its pmcd (-h NAME=HOST,vms:
     * session/vm_remote.h), and their reader; NULL for the others */
    struct vm_set *host_vms[SESSION_MAX_SOURCES];
    struct vm_remote *vm_reader[SESSION_MAX_SOURCES];
};

/* Starts watching this host and the `nguests` guests every `interval`
 * seconds, and this host's VM processes unless vm_view is false. 0, or -1
 * with a one-line reason in err. */
int session_open(struct session *s, double interval,
                 const struct source_spec *guests, int nguests, bool vm_view,
                 char *err, size_t errlen);

/* Starts watching two remote sources read through `backends`: `host` as
 * model[0], the reference of the ratios, and `guest`. 0, or -1 with a
 * one-line reason in err. */
int session_open_pair(struct session *s, double interval,
                      const struct source_spec *host,
                      const struct source_spec *guest,
                      const struct backend *const *backends, char *err,
                      size_t errlen);

/* Adds a fixed column: a model that no sampler updates (a baseline read
 * from a saved report). 0, or -1 with a one-line reason in err. */
int session_add_fixed(struct session *s, const struct source_model *m,
                      char *err, size_t errlen);

/* True when source src is a fixed column: a baseline (no sampler, no
 * stores) or a recording (its stores steer the replay); no workload runs
 * there. */
bool session_is_fixed(const struct session *s, int src);

/* Adds a recorded column: the archive spec->target replayed by its own
 * sampler (collectors/archive_source.h). 0, or -1 with a one-line reason
 * in err. */
int session_add_recorded(struct session *s, const struct source_spec *spec,
                         char *err, size_t errlen);

/* Adds a guest while running. 0, or -1 with a one-line reason in err. */
int session_add(struct session *s, const struct source_spec *guest, char *err,
                size_t errlen);

/* Asks source src's sampler to store `value` into the metric `name`; the
 * outcome arrives in the source's model (store results) under the
 * returned id. 0 when its queue is full. */
unsigned session_store(const struct session *s, int src, const char *name,
                       const char *value);

/* Has source src's sampler store `value` into the metric `name` every
 * `every` seconds until called with an empty value (sampler_renew): the
 * renewal of the leases of src's runs. A failure is logged, once for
 * each new reason. */
void session_renew(const struct session *s, int src, const char *name,
                   const char *value, double every);

/* Has source src's sampler tick its clock between samples (on) or not:
 * while a guest run is live or its stamps wait to be mapped. */
void session_watch(const struct session *s, int src, bool on);

/* The descriptor to poll for "a sample arrived". */
int session_fd(const struct session *s);

/* Folds every sample that arrived into the models, and measures
 * parallax's own cost once per interval; true when any sample arrived. */
bool session_update(struct session *s);

/* Changes the sampling interval of every source. */
void session_set_interval(struct session *s, double interval);

/* Stops all samplers, once they have made the stores still queued (a
 * quit's stops of guests' runs); waits a fraction of a second at most,
 * and not at all for a guest that hangs (sampler_stop). */
void session_close(struct session *s);

#endif
