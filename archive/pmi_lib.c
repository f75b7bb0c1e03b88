/* See pmi_lib.h. The pattern of collectors/gtop_source.c: one dlopen,
 * one table, a message naming the package when it is missing. */
#include "archive/pmi_lib.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>

struct pmi_lib pmi;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static bool loaded;
static char why[160];

#define SYM(field, name)                                                       \
    do {                                                                       \
        *(void **)&pmi.field = dlsym(h, name);                                 \
        if (!pmi.field) {                                                      \
            snprintf(why, sizeof(why), "%s has no %s", PMI_SONAME, name);      \
            return;                                                            \
        }                                                                      \
    } while (0)

static void load(void)
{
    void *h = dlopen(PMI_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(why, sizeof(why), "%s is not installed", PMI_SONAME);
        return;
    }
    SYM(start, "pmiStart");
    SYM(use_context, "pmiUseContext");
    SYM(end, "pmiEnd");
    SYM(set_hostname, "pmiSetHostname");
    SYM(add_metric, "pmiAddMetric");
    SYM(add_instance, "pmiAddInstance");
    SYM(put_value, "pmiPutValue");
    SYM(write, "pmiWrite");
    SYM(put_result, "pmiPutResult");
    SYM(put_text, "pmiPutText");
    SYM(put_label, "pmiPutLabel");
    SYM(make_id, "pmiID");
    SYM(make_indom, "pmiInDom");
    SYM(make_units, "pmiUnits");
    SYM(err_str_r, "pmiErrStr_r");
    loaded = true;
}

int pmi_lib_load(char *err, size_t errlen)
{
    pthread_once(&once, load);
    if (loaded)
        return 0;
    snprintf(err, errlen,
             "recording (--record, the r key) needs libpcp_import (%s): "
             "apt-get install %s",
             why, PMI_PACKAGE);
    return -1;
}
