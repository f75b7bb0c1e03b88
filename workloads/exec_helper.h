/* Where parallax-hello lives: the one program the exec workloads run
 * (lmbench's hello, and UnixBench's execl through `--execl N`). */
#ifndef PARALLAX_EXEC_HELPER_H
#define PARALLAX_EXEC_HELPER_H

/* The path of an executable parallax-hello: $PARALLAX_LIBEXEC/, then the
 * directory of /proc/self/exe, then the install's libexec directory.
 * NULL when none is found. The string lives until the next call. */
const char *wl_hello_path(void);

#endif
