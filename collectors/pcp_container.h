/* Containers as sources, through pmcd's container support (PCP's
 * --container, pmGetOptions(3)): a pmcd whose pmdaroot knows the
 * container's runtime (docker, podman, lxc) answers a context opened with
 * the container attribute ("HOST?container=NAME") from inside it. */
#ifndef PARALLAX_PCP_CONTAINER_H
#define PARALLAX_PCP_CONTAINER_H

#include <stddef.h>

/* The target pmNewContext takes for container `name` on pmcd `host`
 * (HOST[:PORT]), into out. 0, or -1 with err when it does not fit. */
int pcp_container_target(const char *host, const char *name, char *out,
                         size_t n, char *err, size_t errlen);

/* 0 when the pmcd at host knows a container `name` (containers.name, from
 * pmdaroot), else -1 with one line in err naming the containers it knows
 * (none: no runtime it can see) or why it could not be asked. Without this
 * a context for an unknown container opens and answers nothing. */
int pcp_container_check(const char *host, const char *name, char *err,
                        size_t errlen);

#endif
