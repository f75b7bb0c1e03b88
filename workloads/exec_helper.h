/* Where the programs the exec workloads run live: parallax-hello, static
 * like lmbench's hello-s, and parallax-hello-dyn, the same source linked
 * dynamically like lmbench's default hello and UnixBench's execl. */
#ifndef PARALLAX_EXEC_HELPER_H
#define PARALLAX_EXEC_HELPER_H

/* The path of an executable helper: $PARALLAX_LIBEXEC/, then the
 * directory of /proc/self/exe, then the install's libexec directory.
 * NULL when none is found. The string lives until the next call. */
const char *wl_hello_path(void);     /* parallax-hello (static) */
const char *wl_hello_dyn_path(void); /* parallax-hello-dyn (dynamic) */

#endif
