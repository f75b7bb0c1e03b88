#!/bin/bash
# wakeup-lat against the kernel's own account of the same wake-ups: perf
# (Debian's linux-perf) records the futex system calls' tracepoints on
# CLOCK_MONOTONIC while parallax-run runs wakeup-lat, and
# bench/futex_wakes.py pairs them: from the message thread's entry into
# FUTEX_WAKE to the woken worker's return from FUTEX_WAIT, the very edges
# wakeup-lat stamps itself just outside (its stamp before the wake's
# system call, its clock read after the wait's), on the kernel's clock.
# Their p50 and p99 against wakeup-lat's own, idle and under `stress-ng
# --cpu 2`; each round and the medians over the rounds, and whether they
# agree: within 10% or one of wakeup-lat's buckets (12.2%, and 0.5 us),
# whichever is wider; and the same with the edges' p50 and p99 plus one
# null system call timed with its two tracepoints recorded (what the
# edges leave out: the wake's entry before its tracepoint, the wait's exit
# after its own). `perf sched timehist`'s scheduling delay (sched_wakeup
# to sched_switch) is printed beside them: the part of the wake-up that is
# the scheduler's alone.
#
# schbench itself (Chris Mason's, the method wakeup-lat follows) is not in
# Debian; built here it would be the same method timed by the same clock,
# where perf reads the kernel's own events. The tracepoints cost each
# wake-up a little while wakeup-lat measures: both sides see that cost.
#
#   bench/wakeup_ref.sh [-n ROUNDS] [-s SECS] [-m MESSAGES] [-w WORKERS]
#                       [-u WORK_US] [-b BUILD] [-l idle|load|both]
set -u
# shellcheck source=ref_lib.sh
. "$(dirname "$0")/ref_lib.sh"
ROUNDS=3 SECS=5 MSG=1 WORKERS=2 WORK=100 BUILD=build LOADS=both
while getopts "n:s:m:w:u:b:l:" o; do
    case $o in
    n) ROUNDS=$OPTARG ;; s) SECS=$OPTARG ;; m) MSG=$OPTARG ;;
    w) WORKERS=$OPTARG ;; u) WORK=$OPTARG ;; b) BUILD=$OPTARG ;;
    l) LOADS=$OPTARG ;;
    *) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2 ;;
    esac
done
command -v perf >/dev/null ||
    { echo "wakeup_ref: no perf; apt-get install linux-perf (make deps)" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "wakeup_ref: perf record of tracepoints needs root" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
ref_begin wakeup_ref "$BUILD"

# One round: wakeup-lat under perf record; prints "ref_p50 ref_p99 n
# ours_p50 ours_p99 sched_p50 sched_p99 ours_n" (us)
round() {
    if ! perf record -q -k CLOCK_MONOTONIC -o "$work/perf.data" \
        -e syscalls:sys_enter_futex -e syscalls:sys_exit_futex \
        -e sched:sched_wakeup -e sched:sched_switch -- \
        "$run" -r 1 -w 0 -d "$SECS" wakeup-lat messages="$MSG" \
        workers="$WORKERS" work="$WORK" >"$work/plx.txt" 2>"$work/perf.err"; then
        sed 's/^/  perf: /' "$work/perf.err" | tail -3 >&2
        echo "fail fail 0 fail fail fail fail 0"
        return
    fi
    grep -i lost "$work/perf.err" | sed 's/^/  perf: /' >&2
    perf script -i "$work/perf.data" --ns -F comm,tid,time,event,trace 2>/dev/null |
        python3 "$here/futex_wakes.py" 2>"$work/pairs" | sort -g >"$work/ref"
    perf sched timehist -i "$work/perf.data" 2>/dev/null |
        awk '$3 ~ /^wakeup-worker\[/ && $4 + 0 > 0 { print $5 * 1000 }' |
        sort -g >"$work/sched"
    local ours
    ours=$(awk '$1 == "lat" && $2 == "p50" { a = $4 } $1 == "lat" && $2 == "p99" { b = $4 }
         END { if (a == "" || b == "") print "fail fail"; else print a, b }' "$work/plx.txt")
    echo "$(pcts "$work/ref") $(wc -l <"$work/ref") $ours $(pcts "$work/sched") $(awk '$1 == "samples" { print $2 }' "$work/plx.txt")"
}
# p50 p99 of a sorted file of numbers, nearest rank
pcts() {
    awk '{ v[NR] = $1 }
        function pct(p,   r) { r = int(p / 100 * NR); if (r < p / 100 * NR) r++; return v[r] }
        END { if (NR == 0) print "fail fail"; else print pct(50), pct(99) }' "$1"
}

one_load() {
    local load=$1
    [ "$load" = load ] && load_start
    # what the edges leave out: the entry of the wake's system call before
    # its tracepoint and the exit of the wait's after its own, about one
    # null system call with its two tracepoints recorded (measured here, as
    # the rounds run, with getppid's)
    local sysc
    sysc=$(perf record -q -o "$work/null.data" -e syscalls:sys_enter_getppid \
        -e syscalls:sys_exit_getppid -- "$run" -r 1 -w 0 -d 2 syscall-null 2>/dev/null |
        awk '$1 == "syscall-null" { print $6 / 1000 }')
    echo "$load: a null system call with its tracepoints recorded: ${sysc:-?} us"
    : >"$work/rounds"
    for r in $(seq "$ROUNDS"); do
        local got
        got=$(round)
        echo "$got" >>"$work/rounds"
        set -- $got
        printf '%-5s round %d  futex edges p50 %7s p99 %7s (%s)   wakeup-lat p50 %7s p99 %7s (%s)   sched delay p50 %5s p99 %5s\n' \
            "$load" "$r" "$1" "$2" "$3" "$4" "$5" "$8" "$6" "$7"
        sed 's/^/        pairs: /' "$work/pairs"
    done
    local rp50 rp99 op50 op99
    rp50=$(cut -d' ' -f1 "$work/rounds" | median); rp99=$(cut -d' ' -f2 "$work/rounds" | median)
    op50=$(cut -d' ' -f4 "$work/rounds" | median); op99=$(cut -d' ' -f5 "$work/rounds" | median)
    printf '%-5s median   futex edges p50 %7s p99 %7s   wakeup-lat p50 %7s p99 %7s\n' \
        "$load" "$rp50" "$rp99" "$op50" "$op99"
    echo "$load medians  p50: $(agree "$rp50" "$op50")   p99: $(agree "$rp99" "$op99")"
    local a50 a99
    a50=$(awk -v a="$rp50" -v b="${sysc:-0}" 'BEGIN { print a + b }')
    a99=$(awk -v a="$rp99" -v b="${sysc:-0}" 'BEGIN { print a + b }')
    echo "$load edges + a traced system call  p50 $a50: $(agree "$a50" "$op50")   p99 $a99: $(agree "$a99" "$op99")"
    load_stop
}

echo "wakeup-lat vs the futex calls' tracepoints: messages $MSG, workers $WORKERS, work $WORK us, $SECS s x $ROUNDS rounds (us)"
case $LOADS in
idle) one_load idle ;; load) one_load load ;; *) one_load idle; one_load load ;;
esac
