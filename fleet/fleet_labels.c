/* See fleet_labels.h. */
#include "fleet/fleet_labels.h"

#include <stdio.h>
#include <string.h>

#include "base/safe_text.h"

void fleet_labels_set(struct fleet_labels *l, const char *name,
                      const char *value)
{
    if (strcmp(name, FLEET_LABEL_ROLE) == 0) {
        l->role = strcmp(value, "host") == 0    ? FLEET_HOST
                  : strcmp(value, "guest") == 0 ? FLEET_GUEST
                                                : FLEET_UNLABELLED;
    } else if (strcmp(name, FLEET_LABEL_NAME) == 0) {
        safe_text_copy(l->name, sizeof(l->name), value, 0);
    } else if (strcmp(name, FLEET_LABEL_HOST) == 0) {
        safe_text_copy(l->host, sizeof(l->host), value, 0);
    } else if (strcmp(name, FLEET_LABEL_VARIANT) == 0) {
        safe_text_copy(l->variant, sizeof(l->variant), value, 0);
    } else if (strcmp(name, FLEET_LABEL_PMCD) == 0) {
        safe_text_copy(l->pmcd, sizeof(l->pmcd), value, 0);
    } else if (strcmp(name, "hostname") == 0) {
        safe_text_copy(l->hostname, sizeof(l->hostname), value, 0);
    }
}

void fleet_labels_finish(struct fleet_labels *l)
{
    if (!l->name[0])
        snprintf(l->name, sizeof(l->name), "%.*s", (int)sizeof(l->name) - 1,
                 l->hostname[0] ? l->hostname : "?");
    if (!l->pmcd[0] && l->hostname[0])
        snprintf(l->pmcd, sizeof(l->pmcd), "%s", l->hostname);
}
