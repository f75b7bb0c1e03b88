#!/bin/bash
# Watching dozens of guests from one terminal (DESIGN.md, Performance
# budget; issue 10): parallax -t 1 with 16, 32 and 64 sources (this host
# and 15, 31, 63 guests that are contexts to a pool of private pmcds,
# bench/lib.sh), each at its own 200x50 pty (bench/keyprobe.py): its CPU
# share of one core over the window, and the worst key-to-redraw latency
# of presses spread over it. Targets: 64 sources within 5% of a core,
# keys under 50 ms. Next to them: the probe's floor (a shell loop that
# answers at once, measured at the same time) and the fetches the pool's
# pmcds received per guest and second (1.0: every guest kept its interval).
#
# Usage: bench/scale.sh BUILD_DIR [OUT_FILE]  (bench.sh runs it and appends
#   to its bench/out/ file; alone it writes bench/out/scale-*.txt)
#   QUICK=1         10 s windows, 10 presses (default 30 s, 30 presses)
#   SCALE_SOURCES   the source counts (default "16 32 64", at most 64)
#   SCALE_SECONDS, SCALE_PRESSES  override the window and the presses
#   BENCH_STRICT=1  exit 1 when a target is missed
# Exit: 0 measured, 1 missed with BENCH_STRICT=1, 2 could not measure.
# shellcheck source-path=SCRIPTDIR
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build=${1:-}
out=${2:-}
if [ "${QUICK:-0}" = 1 ]; then seconds=${SCALE_SECONDS:-10} presses=${SCALE_PRESSES:-10}
else seconds=${SCALE_SECONDS:-30} presses=${SCALE_PRESSES:-30}; fi
counts=${SCALE_SOURCES:-16 32 64}
npmcd=8
size=200x50
settle=4         # s after the first screen for every guest to connect
cpu_limit=5      # % of one core, at the largest count
key_limit=50     # ms

# shellcheck source=lib.sh
. "$here/lib.sh"

cleanup() {
    trap - EXIT INT TERM HUP
    local pid
    for pid in "$probe_pid" "$floor_pid"; do
        [ -z "$pid" ] || kill "$pid" 2>/dev/null || true
    done
    pool_stop "$tmp"
    rm -rf "$tmp"
}

# run N: parallax with N sources; "N CPU% WORST_MS MEDIAN_MS P90_MS
# FLOOR_WORST_MS FETCHES_PER_GUEST_S" on stdout.
run() {
    local n=$1 f0 f1 t0 t1
    pool_split $((n - 1))
    f0=$(pmcd_fetches "${pool_ports[@]}")
    t0=$EPOCHREALTIME
    KEYPROBE_ADD="${pool_add[*]}" KEYPROBE_SETTLE=$settle \
        KEYPROBE_CPU="$tmp/cpu-$n" python3 "$here/keyprobe.py" "$size" \
        "$presses" "$seconds" -- "$parallax" -t 1 "${pool_h[@]}" \
        >"$tmp/probe-$n" 2>"$tmp/probe-$n.err" &
    probe_pid=$!
    KEYPROBE_SETTLE=$settle python3 "$here/keyprobe.py" "$size" "$presses" \
        "$seconds" -- bash -c "$stand_in_sh" >"$tmp/floor-$n" &
    floor_pid=$!
    wait "$probe_pid" || die "keyprobe.py failed with $n sources: $(tail -n1 "$tmp/probe-$n.err")"
    wait "$floor_pid" || die "keyprobe.py failed on the stand-in"
    probe_pid="" floor_pid=""
    t1=$EPOCHREALTIME
    f1=$(pmcd_fetches "${pool_ports[@]}")
    local lat fl
    lat=$(lat_stats "$tmp/probe-$n")
    fl=$(lat_stats "$tmp/floor-$n")
    awk -v n="$n" -v hz="$(getconf CLK_TCK)" -v f="$((f1 - f0 - npmcd))" \
        -v t="$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" \
        -v lat="$lat" -v fl="${fl%% *}" '
        { ns = $1; ticks = $2; wall = $3 }
        END { printf "%d %.2f %s %s %.2f %.2f\n", n, ns / 1e9 / wall * 100,
                  lat, fl, f / (n - 1) / t, ticks / hz / wall * 100 }' \
        "$tmp/cpu-$n"
}

# lat_stats FILE: "WORST MEDIAN P90" in ms of keyprobe.py's latencies.
lat_stats() {
    awk '{ print $2 / 1000 }' "$1" | sort -n | awk '{ v[++m] = $1 }
        END { if (!m) { print "- - -"; exit }
              k = int(0.9 * m); if (k < 0.9 * m) k++
              printf "%.1f %.1f %.1f\n", v[m], v[int((m + 1) / 2)], v[k] }'
}

main() {
    bench_parallax "$build" "bench/scale.sh BUILD_DIR [OUT_FILE]"
    local n
    for n in $counts; do
        if ! [[ $n =~ ^[0-9]+$ ]] || ((n < 2 || n > 64)); then
            die "SCALE_SOURCES: 2..64"
        fi
    done
    probe_pid="" floor_pid=""
    bench_section
    pool_start "$tmp" "$npmcd" || die "could not start $npmcd pmcds"
    local load0
    load0=$(cut -d' ' -f1-3 /proc/loadavg)
    : >"$tmp/rows"
    for n in $counts; do
        echo "scale: $n sources for $seconds s, $presses keys..." >&2
        run "$n" >>"$tmp/rows"
    done
    local rc=0
    {
        printf '\n3. Scale  window %s s, %s keys each, %s  %s CPUs  load %s -> %s\n' \
            "$seconds" "$presses" "$size" "$(nproc)" "$load0" \
            "$(cut -d' ' -f1-3 /proc/loadavg)"
        printf '%s\n' "parallax -t 1: this host and N-1 guests on $npmcd local pmcds;" \
            "CPU: its threads' schedstat run time over the window (ticks: utime+stime);" \
            "keys: g until the prompt is written, at its pty; floor: a shell loop's worst" ""
        printf '%-7s %8s %8s %9s %9s %9s %9s %9s  %s\n' sources "CPU %" \
            "(ticks)" "key worst" median p90 floor "fetch/s" "limits, result"
        while read -r n cpu worst med p90 fl fps ticks; do
            local v1=PASS v2=PASS
            if ((n == 64)) || [ "$n" = "${counts##* }" ]; then
                awk -v c="$cpu" -v l="$cpu_limit" 'BEGIN { exit !(c <= l) }' || { v1=MISS; rc=1; }
            else v1=info; fi
            awk -v w="$worst" -v l="$key_limit" 'BEGIN { exit !(w < l) }' || { v2=MISS; rc=1; }
            printf '%-7s %8s %8s %9s %9s %9s %9s %9s  %s\n' "$n" "$cpu" "$ticks" "$worst" \
                "$med" "$p90" "$fl" "$fps" "cpu <= $cpu_limit% $v1, keys < $key_limit ms $v2"
        done <"$tmp/rows"
        printf '%s\n' "(fetch/s: fetches per guest and second at the pmcds, 1.00 = every interval)"
    } >"$tmp/section"
    bench_section_end "$rc"
    return 0
}

main "$@"
