#!/bin/bash
# make bench, recording (issue 19): what --record adds to parallax's own
# cost, against the same run without it in the same invocation. Two
# parallax --text -t 1 watch this host and two private pmcd guests with
# pmdaparallax at the same time, one recording every source (PCP
# archives through libpcp_import), so that the machine's noise hits both
# alike. Two measures, each of the pair:
#  1. CPU time of all its threads over the window (schedstat, ns);
#  2. instructions per tick under callgrind (repeatable where CPU time on
#     a shared machine is not), counted over a window after they settle,
#     and in the recording one the instructions of the recorder itself
#     (recorder_tick, inclusive), which need no second process to compare.
# The target: recording adds at most 10% (RECORD_LIMIT), judged on the
# CPU time and on the recorder's own share of the instructions.
#
# Usage: bench/record.sh BUILD_DIR [OUT]   (make bench runs it as part 5)
#   QUICK=1           shorter windows (20 s and 15 s instead of 60 and 30)
#   BENCH_SECONDS     the CPU window, s
#   BENCH_STRICT=1    exit 1 when the target is missed
# Exit: 0 measured, 1 target missed with BENCH_STRICT=1, 2 could not
# measure. Everything it starts is stopped by PID.
# shellcheck source-path=SCRIPTDIR
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
bench_parallax "${1:-}" "bench/record.sh BUILD_DIR"
quick=${QUICK:-0}
[ "$quick" = 1 ] && seconds=${BENCH_SECONDS:-20} || seconds=${BENCH_SECONDS:-60}
[ "$quick" = 1 ] && ir_seconds=15 || ir_seconds=30
limit=${RECORD_LIMIT:-1.10}
out=${2:-} # bench.sh's output file; empty: one of its own
pids=()

cleanup() {
    trap - EXIT INT TERM HUP
    local p
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
    pmcd_stop "$tmp/g1/pmcd"
    pmcd_stop "$tmp/g2/pmcd"
    rm -rf "$tmp"
}
bench_section "record: parallax --text -t 1, this host and 2 pmcd guests, with and without --record"
export PARALLAX_BUILD=${parallax%/parallax}
read -r p1 p2 <<<"$(free_port) $(free_port)"
pmcd_start_agent "$tmp/g1" "$p1" >/dev/null 2>&1 || die "pmcd with the agent on $p1"
pmcd_start_agent "$tmp/g2" "$p2" >/dev/null 2>&1 || die "pmcd with the agent on $p2"
guests=(-h "g1=localhost:$p1" -h "g2=localhost:$p2")

# cpu_ns PID: run time of all its threads so far, ns
cpu_ns() {
    cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { printf "%.0f", s }'
}
# records DIR: records written into DIR (every source)
records() {
    local m n=0 k
    while IFS= read -r m; do
        k=$(pmdumplog "${m%.meta}" 2>/dev/null | grep -c '(kernel.all.pswitch): value')
        n=$((n + k))
    done < <(find "$1" -name '*.meta')
    echo "$n"
}

# --- 1. CPU time, side by side ---
"$parallax" --text -t 1 "${guests[@]}" >/dev/null 2>"$tmp/plain.err" &
plain=$!
pids+=("$plain")
"$parallax" --text -t 1 "${guests[@]}" --record "$tmp/rec" >/dev/null \
    2>"$tmp/rec.err" &
recd=$!
pids+=("$recd")
settled() { [ -n "$(find "$tmp/rec" -name '*.meta' 2>/dev/null | sed -n 3p)" ]; }
wait_for 20 settled || die "no recording of 3 sources: $(cat "$tmp/rec.err")"
sleep 3 # let both settle (first samples, lookups) before the window
a0=$(cpu_ns "$plain") b0=$(cpu_ns "$recd") r0=$(records "$tmp/rec")
sleep "$seconds"
a1=$(cpu_ns "$plain") b1=$(cpu_ns "$recd") r1=$(records "$tmp/rec")
kill "$plain" "$recd"
wait "$plain" "$recd" 2>/dev/null || true
pids=()
awk -v a=$((a1 - a0)) -v b=$((b1 - b0)) -v s="$seconds" -v r=$((r1 - r0)) \
    -v lim="$limit" 'BEGIN {
    printf "CPU over %d s     without --record %8.1f ms/min   with %8.1f ms/min   ratio %.3f  (%d records)\n",
        s, a / 1e6 * 60 / s, b / 1e6 * 60 / s, b / a, r
    exit !(b / a <= lim) }' >"$tmp/section" && cpu_ok=0 || cpu_ok=1

# --- 2. instructions per tick under callgrind, side by side ---
if command -v valgrind >/dev/null; then
    vg() { # vg NAME ARGS...: parallax --text under callgrind
        local name=$1
        shift
        valgrind --tool=callgrind --callgrind-out-file="$tmp/$name.out" \
            --dump-instr=no --collect-atstart=yes "$parallax" --text -t 1 \
            "${guests[@]}" "$@" >/dev/null 2>"$tmp/$name.vg" &
        pids+=($!)
    }
    vg plain
    vg rec --record "$tmp/vgrec"
    sleep 10 # settle under valgrind: first samples and lookups
    for p in "${pids[@]}"; do callgrind_control -z "$p" >/dev/null; done
    sleep "$ir_seconds"
    for p in "${pids[@]}"; do callgrind_control -d "$p" >/dev/null; done
    sleep 1
    ir() { # the dump's total instructions
        local f
        for f in "$tmp/$1".out.*; do
            callgrind_annotate "$f" 2>/dev/null |
                awk '/PROGRAM TOTALS/ && !n++ { gsub(",", "", $1); print $1 }'
        done
    }
    # and, in the recording one, what recording itself took: the
    # recorder's calls, inclusive (the rest is what both do)
    rec_ir() {
        local f
        for f in "$tmp/rec".out.*; do
            callgrind_annotate --inclusive=yes "$f" 2>/dev/null |
                awk '/archive\/recorder.c:recorder_tick / && !n++ {
                    gsub(",", "", $1); print $1 }'
        done
    }
    ia=$(ir plain) ib=$(ir rec) ir_rec=$(rec_ir)
    awk -v a="$ia" -v b="$ib" -v r="${ir_rec:-0}" -v s="$ir_seconds" \
        -v lim="$limit" 'BEGIN {
        printf "Ir per tick (%d s) without --record %10.0f       with %10.0f       ratio %.3f\n",
            s, a / s, b / s, b / a
        printf "  of which recording (recorder_tick) %.0f per tick: with / without it %.3f\n",
            r / s, b / (b - r)
        exit !(b / (b - r) <= lim) }' >>"$tmp/section" && ir_ok=0 || ir_ok=1
else
    echo "Ir per tick: valgrind not installed, not measured" >>"$tmp/section"
    ir_ok=0
fi
echo "target: recording adds at most $(awk -v l="$limit" 'BEGIN { printf "%.0f", (l - 1) * 100 }')% (ratio <= $limit)" >>"$tmp/section"
rc=$((cpu_ok | ir_ok))
bench_section_end "$rc"
