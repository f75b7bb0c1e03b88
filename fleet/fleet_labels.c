/* See fleet_labels.h. */
#include "fleet/fleet_labels.h"

#include <stdio.h>
#include <string.h>

void fleet_clean(char *dst, size_t n, const char *src)
{
    if (n == 0)
        return;
    size_t i = 0;
    for (; src && src[i] && i + 1 < n; i++) {
        unsigned char c = (unsigned char)src[i];
        dst[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
    }
    dst[i] = '\0';
}

void fleet_labels_set(struct fleet_labels *l, const char *name,
                      const char *value)
{
    if (strcmp(name, FLEET_LABEL_ROLE) == 0) {
        l->role = strcmp(value, "host") == 0    ? FLEET_HOST
                  : strcmp(value, "guest") == 0 ? FLEET_GUEST
                                                : FLEET_UNLABELLED;
    } else if (strcmp(name, FLEET_LABEL_NAME) == 0) {
        fleet_clean(l->name, sizeof(l->name), value);
    } else if (strcmp(name, FLEET_LABEL_HOST) == 0) {
        fleet_clean(l->host, sizeof(l->host), value);
    } else if (strcmp(name, FLEET_LABEL_VARIANT) == 0) {
        fleet_clean(l->variant, sizeof(l->variant), value);
    } else if (strcmp(name, FLEET_LABEL_PMCD) == 0) {
        fleet_clean(l->pmcd, sizeof(l->pmcd), value);
    } else if (strcmp(name, "hostname") == 0) {
        fleet_clean(l->hostname, sizeof(l->hostname), value);
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
