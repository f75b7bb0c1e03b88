/* See record_table.h: the names of its rows. */
#include "core/record_table.h"

#define RECORD_ROW_NAME(id, pname, ...) [RECORD_##id] = pname,
const char *const record_source_names[RECORD_SOURCE_COUNT] = {
    RECORD_SOURCE_TABLE(RECORD_ROW_NAME)};
const char *const record_workload_names[RECORD_WORKLOAD_COUNT] = {
    RECORD_WORKLOAD_TABLE(RECORD_ROW_NAME)};
#undef RECORD_ROW_NAME
