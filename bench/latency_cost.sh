#!/bin/bash
# make bench, latency histograms (issue 27): what keeping the histogram
# costs timer-lat and wakeup-lat, against their operations. A small
# program linked with the same libparallax.a times lat_hist_add on a
# spread of latencies (the only work the histogram adds per sample: a
# log10, an edge check and three adds; the percentiles come once per
# repeat); each workload runs through parallax-run with its defaults, and
# its operation (one wake-up measured) costs wall/samples and, in CPU,
# (user+sys)/samples of the whole run (GNU time). Target: the add under
# 1% of either (LAT_COST_LIMIT).
#
# Usage: bench/latency_cost.sh BUILD_DIR [OUT]   (make bench: part 7)
#   QUICK=1  2 s runs instead of 10
# Exit: 0 measured, 1 the target missed with BENCH_STRICT=1, 2 could not
# measure.
set -euo pipefail
build=${1:?usage: bench/latency_cost.sh BUILD_DIR [OUT]}
out=${2:-/dev/null}
here=$(cd "$(dirname "$0")/.." && pwd)
[ "${QUICK:-0}" = 1 ] && secs=2 || secs=10
limit=${LAT_COST_LIMIT:-0.01}
lib=$build/libparallax.a run=$build/parallax-run
[ -f "$lib" ] && [ -x "$run" ] || { echo "latency_cost: build $build first" >&2; exit 2; }
command -v /usr/bin/time >/dev/null 2>&1 || [ -x /usr/bin/time ] ||
    { echo "latency_cost: no /usr/bin/time (apt-get install time)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/add.c" <<'C'
#include <stdio.h>
#include <time.h>
#include "workloads/lat_hist.h"
int main(void)
{
    static struct lat_hist h;
    enum { N = 20000000 };
    struct timespec a, b;
    double x = 1500;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (int i = 0; i < N; i++) {
        lat_hist_add(&h, x);
        x = x * 1.000613 + 7; /* 1.5 us up to tens of ms, then again */
        if (x > 5e7)
            x = 1500;
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("%.2f\n", ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / N);
    return h.n == N ? 0 : 1;
}
C
cc -O2 -I"$here" -o "$tmp/add" "$tmp/add.c" "$lib" -lm || exit 2
add_ns=$("$tmp/add") || exit 2
{
    echo "== latency histograms: lat_hist_add against the workloads' operations"
    echo "lat_hist_add: $add_ns ns a sample"
    for wl in timer-lat wakeup-lat; do
        /usr/bin/time -f "%U %S" -o "$tmp/t" "$run" -r 1 -w 0 -d "$secs" "$wl" >"$tmp/o" 2>&1 || exit 2
        n=$(awk '$1 == "samples" { print $2 }' "$tmp/o")
        read -r u s <"$tmp/t"
        line=$(awk -v a="$add_ns" -v n="$n" -v d="$secs" -v u="$u" -v s="$s" -v lim="$limit" 'BEGIN {
            wall = d * 1e9 / n; cpu = (u + s) * 1e9 / n
            ok = (a / wall < lim && a / cpu < lim) ? "ok" : "MISSED"
            printf "%d samples; an operation %.0f ns wall, %.0f ns CPU: the add %.4f%% and %.4f%% of it (target < %g%%) %s",
                n, wall, cpu, 100 * a / wall, 100 * a / cpu, 100 * lim, ok }')
        echo "$wl: $line"
        case $line in *MISSED) : >"$tmp/missed" ;; esac
    done
} | tee -a "$out"
[ -e "$tmp/missed" ] && [ "${BENCH_STRICT:-0}" = 1 ] && exit 1
exit 0
