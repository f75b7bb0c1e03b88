/* The version parallax reports in --version, headers and reports. */
#ifndef PARALLAX_VERSION_H
#define PARALLAX_VERSION_H
#define PARALLAX_VERSION "0.1.0"
#endif
