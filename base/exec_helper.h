/* Where parallax's helper programs live: parallax-hello, static like
 * lmbench's hello-s, and parallax-hello-dyn, the same source linked
 * dynamically like lmbench's default hello and UnixBench's execl, which
 * the exec workloads run; parallax-archive, which reads archives
 * (collectors/archive_child.c). */
#ifndef PARALLAX_EXEC_HELPER_H
#define PARALLAX_EXEC_HELPER_H

#include <stddef.h>

/* The path of the executable helper `name` into buf (n bytes):
 * $PARALLAX_LIBEXEC/, then the directory of /proc/self/exe, then
 * ../libexec/parallax from it, then the install's libexec directory.
 * buf, or NULL when none is found. Any thread. */
const char *wl_helper_find(const char *name, char *buf, size_t n);

/* The path of an executable helper: $PARALLAX_LIBEXEC/, then the
 * directory of /proc/self/exe, then the install's libexec directory.
 * NULL when none is found. The string lives until the next call. */
const char *wl_hello_path(void);     /* parallax-hello (static) */
const char *wl_hello_dyn_path(void); /* parallax-hello-dyn (dynamic) */

#endif
