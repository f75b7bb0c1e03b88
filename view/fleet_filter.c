/* See fleet_filter.h. */
#include "view/fleet_filter.h"

#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

static const struct {
    const char *key;
    enum fleet_filter_field field;
} filter_keys[] = {
    {"host", FF_HOST}, {"kernel", FF_KERNEL}, {"variant", FF_VARIANT},
    {"name", FF_NAME}, {"state", FF_STATE},   {"role", FF_ROLE},
};

int fleet_filter_parse(const char *text, struct fleet_filter *f, char *err,
                       size_t errlen)
{
    char buf[256];
    memset(f, 0, sizeof(*f));
    snprintf(buf, sizeof(buf), "%s", text);
    for (char *save = NULL, *tok = strtok_r(buf, " \t", &save); tok;
         tok = strtok_r(NULL, " \t", &save)) {
        if (f->n == FLEET_FILTER_MAX) {
            snprintf(err, errlen, "more than %d filter terms; use fewer",
                     FLEET_FILTER_MAX);
            return -1;
        }
        char *colon = strchr(tok, ':');
        const char *glob = colon ? colon + 1 : tok;
        int k = 3; /* a bare word: the name */
        if (colon) {
            *colon = '\0';
            for (k = 0; k < (int)(sizeof(filter_keys) / sizeof(filter_keys[0]));
                 k++)
                if (strcmp(tok, filter_keys[k].key) == 0)
                    break;
            if (k == (int)(sizeof(filter_keys) / sizeof(filter_keys[0]))) {
                snprintf(err, errlen,
                         "no filter '%.40s:'; use host:, kernel:, variant:, "
                         "name:, state: or role: with a glob",
                         tok);
                return -1;
            }
        }
        if (!*glob || strlen(glob) >= sizeof(f->term[0].glob)) {
            snprintf(err, errlen,
                     "filter '%.40s' needs a glob of 1 to %zu "
                     "characters after the colon",
                     tok, sizeof(f->term[0].glob) - 1);
            return -1;
        }
        f->term[f->n].field = filter_keys[k].field;
        snprintf(f->term[f->n].glob, sizeof(f->term[0].glob), "%s", glob);
        f->n++;
    }
    return 0;
}

const char *fleet_role_name(enum fleet_role r)
{
    return r == FLEET_HOST ? "host" : r == FLEET_GUEST ? "guest" : "none";
}

const char *fleet_state_name(enum fleet_state s)
{
    return s == FLEET_LIVE    ? "live"
           : s == FLEET_LATE  ? "late"
           : s == FLEET_STALE ? "stale"
                              : "no data";
}

bool fleet_filter_has_role(const struct fleet_filter *f)
{
    for (int t = 0; t < f->n; t++)
        if (f->term[t].field == FF_ROLE)
            return true;
    return false;
}

bool fleet_filter_match(const struct fleet_filter *f,
                        const struct fleet_source *s)
{
    for (int t = 0; t < f->n; t++) {
        const char *text = "";
        switch (f->term[t].field) {
        case FF_HOST:
            text = s->lab.host;
            break;
        case FF_KERNEL:
            text = s->release;
            break;
        case FF_VARIANT:
            text = s->lab.variant;
            break;
        case FF_STATE:
            text = fleet_state_name(s->state);
            break;
        case FF_ROLE:
            text = fleet_role_name(s->lab.role);
            break;
        default:
            text = s->lab.name;
            break;
        }
        if (fnmatch(f->term[t].glob, text, 0) != 0)
            return false;
    }
    return true;
}
