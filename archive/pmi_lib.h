/* PCP's archive writer (libpcp_import), loaded when a recording starts
 * (--record, the r key), not linked: a plain run never maps it. The
 * calls parallax makes go through the table pmi, filled once. */
#ifndef PARALLAX_ARCHIVE_PMI_LIB_H
#define PARALLAX_ARCHIVE_PMI_LIB_H

#include <stddef.h>
#include <pcp/pmapi.h>
#include <pcp/import.h>

/* the library dlopen'ed and the Debian package that holds it (debian/
 * control names the package: dpkg-shlibdeps does not see a dlopen) */
#define PMI_SONAME  "libpcp_import.so.1"
#define PMI_PACKAGE "libpcp-import1"

struct pmi_lib {
    __typeof__(pmiStart) *start;
    __typeof__(pmiUseContext) *use_context;
    __typeof__(pmiEnd) *end;
    __typeof__(pmiSetHostname) *set_hostname;
    __typeof__(pmiAddMetric) *add_metric;
    __typeof__(pmiAddInstance) *add_instance;
    __typeof__(pmiPutValue) *put_value;
    __typeof__(pmiWrite) *write;
    __typeof__(pmiPutResult) *put_result;
    __typeof__(pmiPutText) *put_text;
    __typeof__(pmiPutLabel) *put_label;
    __typeof__(pmiID) *make_id;
    __typeof__(pmiInDom) *make_indom;
    __typeof__(pmiUnits) *make_units;
    __typeof__(pmiErrStr_r) *err_str_r;
};

/* Filled by pmi_lib_load; read only after it returned 0. */
extern struct pmi_lib pmi;

/* Loads the library the first time (later calls give the first answer);
 * 0, or -1 with a one-line message in err naming the package to
 * install. Thread-safe. */
int pmi_lib_load(char *err, size_t errlen);

#endif
