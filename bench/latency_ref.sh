#!/bin/bash
# timer-lat against cyclictest (Debian's rt-tests), on this machine: the
# same threads, interval, priority, memory locking and duration, run
# interleaved (A B A B ..., the order swapped every round, so a drift of
# the machine's load touches both alike), idle and under `stress-ng --cpu
# 2`. Prints each round's p50 and p99 from both, the medians over the
# rounds, and whether they agree: within 10% or one of timer-lat's buckets
# (12.2%, and half of cyclictest's 1 us bin), whichever is wider.
#
#   bench/latency_ref.sh [-n ROUNDS] [-s SECS] [-t THREADS] [-i US] [-p PRIO]
#                        [-b BUILD] [-l idle|load|both]
#
# cyclictest reads its histogram in whole microseconds (-h: 1 us bins,
# latency truncated); its percentile is its nearest-rank bin's middle
# (k + 0.5 us). It runs with --laptop, so it does not hold
# /dev/cpu_dma_latency at 0 while it runs (parallax does not either), and
# -d 0 (its threads' intervals are all the same, as timer-lat's are).
set -u
# shellcheck source=ref_lib.sh
. "$(dirname "$0")/ref_lib.sh"
ROUNDS=3 SECS=10 THREADS=1 IVL=1000 PRIO=80 BUILD=build LOADS=both
while getopts "n:s:t:i:p:b:l:" o; do
    case $o in
    n) ROUNDS=$OPTARG ;; s) SECS=$OPTARG ;; t) THREADS=$OPTARG ;;
    i) IVL=$OPTARG ;; p) PRIO=$OPTARG ;; b) BUILD=$OPTARG ;; l) LOADS=$OPTARG ;;
    *) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2 ;;
    esac
done
command -v cyclictest >/dev/null ||
    { echo "latency_ref: no cyclictest; apt-get install rt-tests (make deps)" >&2; exit 2; }
ref_begin latency_ref "$BUILD"
HMAX=100000 # us of cyclictest's histogram; beyond: overflow
mlock=$([ "$PRIO" -gt 0 ] && echo 1 || echo 0)

# p50 p99 of cyclictest's histogram file (nearest rank, bin middle)
cyc_pcts() {
    awk -v n="$THREADS" '
        /^# Total:/ { total = $3 + 0 }
        /^[0-9]/ { for (t = 2; t <= n + 1; t++) c[$1 + 0] += $t }
        END {
            split("50 99", ps, " ")
            for (k = 1; k <= 2; k++) {
                r = int(ps[k] / 100 * total); if (r < ps[k] / 100 * total) r++
                s = 0; v = "overflow"
                for (us = 0; us < '"$HMAX"'; us++) { s += c[us]; if (s >= r) { v = us + 0.5; break } }
                printf "%s ", v
            }
            print ""
        }' "$1"
}
cyc() {
    local m= p="-p $PRIO"
    [ "$mlock" = 1 ] && m=-m
    # -p 0 (or none) as root is SCHED_FIFO 2 to cyclictest 2.4; SCHED_OTHER
    # is --policy=normal without -p (strace shows it)
    [ "$PRIO" = 0 ] && p=--policy=normal
    if ! cyclictest -q --laptop -t "$THREADS" -i "$IVL" -d 0 $p $m \
        -D "$SECS" -h "$HMAX" --histfile="$work/cyc.txt" >"$work/cyc.out" 2>&1; then
        sed 's/^/  cyclictest: /' "$work/cyc.out" >&2
        echo "fail fail"
        return
    fi
    cyc_pcts "$work/cyc.txt"
}
plx() {
    "$run" -r 1 -w 0 -d "$SECS" timer-lat threads="$THREADS" interval="$IVL" \
        prio="$PRIO" mlock="$mlock" >"$work/plx.txt" 2>&1
    awk '$1 == "lat" && $2 == "p50" { a = $4 } $1 == "lat" && $2 == "p99" { b = $4 }
         END { if (a == "" || b == "") print "fail fail"; else print a, b }' "$work/plx.txt"
    grep -q '^  lat p99 ' "$work/plx.txt" || sed 's/^/  parallax-run: /' "$work/plx.txt" >&2
}

one_load() {
    local load=$1
    [ "$load" = load ] && load_start
    : >"$work/c" && : >"$work/p"
    for r in $(seq "$ROUNDS"); do
        if [ $((r % 2)) = 1 ]; then c=$(cyc); p=$(plx); else p=$(plx); c=$(cyc); fi
        echo "$c" >>"$work/c"; echo "$p" >>"$work/p"
        printf '%-5s round %d  cyclictest p50 %8s p99 %8s   timer-lat p50 %8s p99 %8s\n' \
            "$load" "$r" $c $p
    done
    local cp50 cp99 pp50 pp99
    cp50=$(cut -d' ' -f1 "$work/c" | median); cp99=$(cut -d' ' -f2 "$work/c" | median)
    pp50=$(cut -d' ' -f1 "$work/p" | median); pp99=$(cut -d' ' -f2 "$work/p" | median)
    printf '%-5s median   cyclictest p50 %8s p99 %8s   timer-lat p50 %8s p99 %8s\n' \
        "$load" "$cp50" "$cp99" "$pp50" "$pp99"
    echo "$load medians  p50: $(agree "$cp50" "$pp50")   p99: $(agree "$cp99" "$pp99")"
    # paired: the median of the rounds' own ratios (each pair saw the same
    # minute of the machine), held to the same tolerance at the reference
    local r50 r99
    r50=$(paste -d' ' "$work/c" "$work/p" | awk '$1 + 0 > 0 && $3 + 0 > 0 { print $3 / $1 }' | median)
    r99=$(paste -d' ' "$work/c" "$work/p" | awk '$2 + 0 > 0 && $4 + 0 > 0 { print $4 / $2 }' | median)
    echo "$load paired   p50 x$r50: $(agree "$cp50" "$(awk -v a="$cp50" -v b="$r50" 'BEGIN { print a * b }')")   p99 x$r99: $(agree "$cp99" "$(awk -v a="$cp99" -v b="$r99" 'BEGIN { print a * b }')")"
    load_stop
}

echo "timer-lat vs cyclictest: threads $THREADS, interval $IVL us, prio $PRIO, mlock $mlock, $SECS s x $ROUNDS rounds (us)"
case $LOADS in
idle) one_load idle ;; load) one_load load ;; *) one_load idle; one_load load ;;
esac
