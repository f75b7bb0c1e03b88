#!/bin/bash
# Side-by-side check of parallax-run's workloads against the benchmarks they
# imitate (lmbench, UnixBench, bonnie++, openssl speed), on this machine.
#
#   bench/compare.sh setup              fetch nothing; build the references
#                                       from LMBENCH_SRC and UNIXBENCH_SRC
#   bench/compare.sh [options] [CASE..] run them, interleaved, print a table
#
# The references are not part of parallax (their licences differ, and the
# rules say their code is not committed): they are built under
# $PARALLAX_REFS (default /tmp/parallax-refs). Get the sources with
#   git clone https://github.com/intel/lmbench
#   git clone https://github.com/kdlucas/byte-unixbench
#   apt-get install bonnie++ openssl libtirpc-dev
# then `LMBENCH_SRC=lmbench UNIXBENCH_SRC=byte-unixbench bench/compare.sh
# setup`. A source may be a work tree or a bare git directory.
#
# Fairness on a shared, noisy machine: each round runs the reference and
# parallax back to back for every case, so both see the same load, the
# reference first in odd rounds and parallax first in even ones, so that
# neither always inherits what the other left (the disk runs do: writeback
# and freed blocks); the table gives the median of the rounds and their
# spread (max-min over median, in %). Both run under the same `taskset`
# (-c) so they get the same CPUs.
#
# Options: -n ROUNDS (default 5), -c CPULIST (taskset for both; default: any
# CPU), -b BUILD (parallax build dir, default build), -s SECS (seconds per
# UnixBench-style run, default 5), -o FILE (raw figures, default
# $PARALLAX_REFS/raw.txt). Cases: `bench/compare.sh -l`. DISK_MB (default
# 512) sizes the disk runs' file; bonnie++ prints no block read figure
# (+++++) until reading it takes 0.5 s, about 2 GB from this VM's cache.
set -u

REFS=${PARALLAX_REFS:-/tmp/parallax-refs}
LMB=$REFS/lmbench
UB=$REFS/unixbench
ROUNDS=5 CPUS= BUILD=build SECS=5 RAW=

usage() {
    sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'
    exit "${1:-2}"
}

# ---- setup: build the references from their sources ----

# Copies a source (work tree or bare git dir) to $2.
get_src() {
    local src=$1 dst=$2
    rm -rf "$dst" && mkdir -p "$dst" || return 1
    if [ -d "$src/objects" ] && [ -f "$src/HEAD" ]; then
        git --git-dir="$src" archive HEAD | tar -x -C "$dst"
    elif [ -d "$src/.git" ] || [ -d "$src" ]; then
        (cd "$src" && tar -c --exclude=.git .) | tar -x -C "$dst"
    else
        return 1
    fi
}

setup() {
    local lsrc=${LMBENCH_SRC:-} usrc=${UNIXBENCH_SRC:-}
    if [ -z "$lsrc" ] || [ -z "$usrc" ]; then
        echo "compare.sh setup: set LMBENCH_SRC and UNIXBENCH_SRC to the" \
            "lmbench and byte-unixbench sources (see bench/compare.sh -h)" >&2
        exit 2
    fi
    get_src "$lsrc" "$REFS/src/lmbench" || { echo "no lmbench at $lsrc" >&2; exit 1; }
    get_src "$usrc" "$REFS/src/ub" || { echo "no UnixBench at $usrc" >&2; exit 1; }
    # lmbench: only the programs compared, with its usual Linux defines
    mkdir -p "$LMB"
    local t progs=""
    for t in lat_syscall lat_proc hello lat_pipe lat_ctx lat_unix lat_tcp \
        lat_sig lat_pagefault lmdd; do progs="$progs $LMB/$t"; done
    make -C "$REFS/src/lmbench/src" O="$LMB" CC=gcc \
        CFLAGS="-O2 -DRUSAGE -DHAVE_uint=1 -DHAVE_int64_t=1 -DHAVE_socklen_t \
-DHAVE_DRAND48 -DHAVE_SCHED_SETAFFINITY=1 -I/usr/include/tirpc -w" \
        LDLIBS="-lm -ltirpc" $progs >"$REFS/lmbench-build.log" 2>&1 ||
        { echo "lmbench build failed: $REFS/lmbench-build.log" >&2; exit 1; }
    # UnixBench: its own Makefile and flags (-O3 -ffast-math -march=native)
    local ubdir
    ubdir=$(dirname "$(find "$REFS/src/ub" -name Run -path '*UnixBench*' | head -1)")
    make -C "$ubdir" >"$REFS/unixbench-build.log" 2>&1 ||
        { echo "UnixBench build failed: $REFS/unixbench-build.log" >&2; exit 1; }
    ln -sfn "$ubdir/pgms" "$UB"
    for t in bonnie++ openssl taskset; do
        command -v $t >/dev/null || echo "missing $t: apt-get install" \
            "$( [ $t = taskset ] && echo util-linux || echo $t)" >&2
    done
    echo "references built under $REFS"
}

# ---- running one figure ----

on_cpus() { # runs "$@" on the chosen CPUs
    if [ -n "$CPUS" ]; then taskset -c "$CPUS" "$@"; else "$@"; fi
}

# parallax-run's table on stdin: the median figure, or the secondary
# figure NAME of its run
px_median() { awk 'NR == 2 {print $6}'; }
px_named() { awk -v n="$1" 'index($0, "  " n " ") == 1 {print $NF}'; }

px() { # parallax-run ARGS...: the median figure
    on_cpus "$BUILD/parallax-run" "$@" 2>/dev/null | px_median
}

lm_us() { # an lmbench program: "...: N microseconds" on stderr
    on_cpus "$@" 2>&1 >/dev/null | awk '/microseconds/ {v = $(NF - 1)} END {print v}'
}

# A UnixBench program run as Run runs it: COUNT from its output, over the
# wall time Run measures around it (Time::HiRes), unless COUNT is a rate.
ub_rate() {
    local t0 t1 out
    t0=$(date +%s.%N)
    out=$(cd "$REFS" && UB_BINDIR="$UB" on_cpus "$@" 2>&1 >/dev/null)
    t1=$(date +%s.%N)
    awk -F'|' -v t0="$t0" -v t1="$t1" '$1 == "COUNT" {
        print ($3 > 0 ? $2 / ((t1 - t0) / $3) : $2) }' <<<"$out"
}

ssl_speed() { # sign|verify BITS
    on_cpus openssl speed -mr -seconds "$SECS" "rsa$2" 2>/dev/null |
        awk -F: -v k="$1" '/^\+F2:/ {print (k == "sign" ? $4 : $5)}'
}

# A run whose output several cases read (bonnie++ and parallax's disk for
# the disk-* cases, lat_sig prot and parallax's prot-fault for prot-fault
# and prot-fault-raw) is made once per round and kept in
# $REFS/NAME.ROUND.once, as each figure is read in a subshell:
# round_once NAME COMMAND...
round_once() {
    local f=$REFS/$1.$ROUND.once
    shift
    [ -s "$f" ] || "$@" >"$f"
    cat "$f"
}

# bonnie++'s CSV: field 11 block write, 13 rewrite, 17 block read, 19 seeks.
# Each disk run starts once the one before has reached the disk: the last
# run's deleted file may still be being freed (and, on a file system
# mounted with discard, discarded) at the next journal commits, which would
# fall inside the block write of whichever run comes next.
DISK_MB=${DISK_MB:-512}
disk_settle() { sync && sleep 1; }
bonnie_run() {
    mkdir -p "$REFS/bonnie"
    disk_settle
    on_cpus bonnie++ -d "$REFS/bonnie" -s "$DISK_MB" -r $((DISK_MB / 2)) \
        -n 0 -u root -q 2>/dev/null | tail -1
}
bonnie_field() { round_once bonnie bonnie_run | cut -d, -f$(($1 + 1)); }
# bonnie++ 2.00 does its per-char I/O with a system call per byte: char_io=1.
px_disk_run() {
    disk_settle
    on_cpus "$BUILD/parallax-run" -r 1 -w 0 disk size_mb=$DISK_MB char_io=1 \
        files=16 2>/dev/null
}
px_disk() { round_once disk px_disk_run | px_named "$1"; }
# bonnie++ prints +++++, not a rate, for a phase under 0.5 s: parallax's
# rate above LIMIT (what its phase would do in 0.5 s) reads the same.
censor() { awk -v l="$1" '{print ($1 <= l ? $1 : "+++++")}'; }
px_disk_kbs() { px_disk "$1" | censor $((DISK_MB * 2048)); } # KB/s phases

# ---- the cases: NAME, then how the reference and parallax get a figure --

LM="-r 11 -d 0.05" # eleven short repeats, as lmbench takes 11 tries
px_prot() { round_once prot on_cpus "$BUILD/parallax-run" $LM prot-fault 2>/dev/null; }
# lmbench's programs time intervals of $ENOUGH us. Unset, each program
# first searches for an interval its clock times to 0.25%, which on a VM
# fails through to 1 s after about 40 s of trying (its `enough` says
# 1000000 here). lmbench's own script exports it once; here it is the
# 50 ms that parallax's side uses (-d 0.05), lmbench's REAL_SHORT.
export ENOUGH=${ENOUGH:-50000}
LMFILE=$REFS/lmbench.file

ref() {
    case $1 in
    syscall-null) lm_us "$LMB/lat_syscall" null | awk '{print $1 * 1000}' ;;
    syscall-read) lm_us "$LMB/lat_syscall" read | awk '{print $1 * 1000}' ;;
    syscall-write) lm_us "$LMB/lat_syscall" write | awk '{print $1 * 1000}' ;;
    syscall-stat) lm_us "$LMB/lat_syscall" stat "$LMFILE" | awk '{print $1 * 1000}' ;;
    syscall-fstat) lm_us "$LMB/lat_syscall" fstat "$LMFILE" | awk '{print $1 * 1000}' ;;
    syscall-open) lm_us "$LMB/lat_syscall" open "$LMFILE" | awk '{print $1 * 1000}' ;;
    pipe-lat) lm_us "$LMB/lat_pipe" ;;
    ctx) on_cpus "$LMB/lat_ctx" -s 0 2 2>&1 | awk '$1 == "2" {print $2}' ;;
    unix-lat) lm_us "$LMB/lat_unix" ;;
    tcp-lat)
        on_cpus "$LMB/lat_tcp" -s && sleep 0.2
        lm_us "$LMB/lat_tcp" 127.0.0.1
        "$LMB/lat_tcp" -S 127.0.0.1 ;;
    fork-exit) lm_us "$LMB/lat_proc" fork ;;
    fork-exec) lm_us "$LMB/lat_proc" exec ;;
    fork-sh) lm_us "$LMB/lat_proc" shell ;;
    prot-fault) round_once lat_sig lm_us "$LMB/lat_sig" prot "$LMB/lat_sig" ;;
    prot-fault-raw) # before lat_sig subtracts its catch from it
        echo "$(round_once lat_sig lm_us "$LMB/lat_sig" prot "$LMB/lat_sig")" \
            "$(lm_us "$LMB/lat_sig" catch)" | awk 'NF == 2 {print $1 + $2}' ;;
    page-fault) # a fresh file, as parallax writes its own each run. Here
        # reclaim takes pages of an idle one within minutes (fincore: 7.3
        # of 8 MB), and once read back it faults slower: 0.47 against
        # 0.35 us, both files fully cached.
        "$LMB/lmdd" of="$REFS/pagefault.file" move=8m fsync=1 >/dev/null 2>&1
        lm_us "$LMB/lat_pagefault" "$REFS/pagefault.file" ;;
    pipe-tput) ub_rate "$UB/pipe" "$SECS" ;;
    execl) ub_rate "$UB/execl" "$SECS" ;;
    fcopy-*) ub_rate "$UB/fstime" -c -t "$SECS" -d "$REFS" -b "${1#fcopy-}" \
        -m $((${1#fcopy-} * 2000 / 1024)) ;;
    dhry) ub_rate "$UB/dhry2reg" "$SECS" ;;
    whet) ub_rate "$UB/whetstone-double" ;;
    rsa-sign-*) ssl_speed sign "${1#rsa-sign-}" ;;
    rsa-verify-*) ssl_speed verify "${1#rsa-verify-}" ;;
    disk-block-write) bonnie_field 11 ;;
    disk-rewrite) bonnie_field 13 ;;
    disk-block-read) bonnie_field 17 ;;
    disk-seeks) bonnie_field 19 ;;
    esac
}

ours() {
    case $1 in
    syscall-*) px $LM "$1" ;;
    pipe-lat | ctx | unix-lat | fork-*) px $LM "$1" ;;
    tcp-lat) px -r 5 -d 0.5 tcp-lat ;;
    prot-fault) px_prot | px_median ;;
    prot-fault-raw) px_prot | px_named "fault and handler" ;;
    page-fault) px $LM page-fault ;;
    pipe-tput | execl | dhry | whet) px -r 1 -d "$SECS" "$1" ;;
    fcopy-*) px -r 1 -d "$SECS" fcopy bufsize="${1#fcopy-}" ;;
    rsa-sign-*) px -r 1 -d "$SECS" rsa-sign bits="${1#rsa-sign-}" ;;
    rsa-verify-*) px -r 1 -d "$SECS" rsa-verify bits="${1#rsa-verify-}" ;;
    disk-block-write) px_disk_kbs "seq out block" ;;
    disk-rewrite) px_disk_kbs "seq rewrite" ;;
    disk-block-read) px_disk_kbs "seq in block" ;;
    disk-seeks) px_disk "random seeks" | censor $((8192 * 2)) ;;
    esac
}

ALL="syscall-null syscall-read syscall-write syscall-stat syscall-fstat
syscall-open pipe-lat ctx unix-lat tcp-lat fork-exit fork-exec fork-sh
prot-fault prot-fault-raw page-fault pipe-tput execl fcopy-256 fcopy-1024
fcopy-4096 dhry whet rsa-sign-2048 rsa-verify-2048 disk-block-write
disk-rewrite disk-block-read disk-seeks"

# prot-fault-raw: lat_sig prot's figure is a difference, the time of a
# fault and its handler less that of catching a signal, each timed by a
# run of its own; it spreads by 100% and more from run to run here, so
# this case compares the fault-and-handler time itself (lat_sig prot plus
# lat_sig catch against parallax's "fault and handler").
#
# lmbench prints latencies: lower is better. Two ratios, parallax over the
# reference either way: of the medians of the rounds, and the median of
# each round's own ratio ("paired": the two ran back to back, so a slow
# minute of the machine weighs on both; on this shared VM the rounds of
# one case spread by 20-40%, which the paired ratio cancels better). The
# verdict, "ok" within 5%, is the paired one's.
#
# A bonnie++ "+++++" (a phase too short for it to time, so faster than
# any rate it prints; parallax's disk figures read the same past the same
# limit) ranks above every rate: in a median, and as a round's ratio when
# only one side has it (above every ratio when it is parallax's, below
# when the reference's). Dropping those rounds instead dropped the rounds
# where one side was fastest, which for disk-seeks (a third of rounds at
# 512 MB) moved the paired ratio from 0.98 to 0.95.
summarise() {
    awk -v cases="$(echo $CASES)" '
    function median(list,   a, n, i, j, t) {
        n = split(list, a, " ")
        for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
            if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
        lo[0] = a[1]; hi[0] = a[1]
        for (i = 1; i <= n; i++) if (a[i] + 0 < FAST) hi[0] = a[i]
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    function spread(list, m) { median(list); return timed(m) ? sprintf("%.1f", 100 * (hi[0] - lo[0]) / m) : "-" }
    function timed(x) { return x > 0 && x < FAST }
    function show(x, fmt) { return x >= FAST ? "+++++" : timed(x) ? sprintf(fmt, x) : "-" }
    BEGIN { FAST = 1e300 }
    $3 == "+++++" { $3 = FAST }
    $3 ~ /^[0-9.eE+-]+$/ && $3 + 0 > 0 { v[$1, $2] = v[$1, $2] " " $3; f[$1, $2, $4] = $3 + 0 }
    END {
        printf "%-18s %12s %6s %12s %6s %7s %7s %s\n", "case", "reference",
            "+-%", "parallax", "+-%", "ratio", "paired", "within 5%"
        n = split(cases, c, " ")
        for (i = 1; i <= n; i++) {
            r = v[c[i], "ref"]; p = v[c[i], "px"]
            if (r == "" || p == "") { printf "%-18s %s\n", c[i], "no figure"; continue }
            pr = ""
            for (k in f) {
                split(k, key, SUBSEP)
                if (key[1] != c[i] || key[2] != "px" || !((c[i], "ref", key[3]) in f))
                    continue
                x = f[k]; y = f[c[i], "ref", key[3]]
                if (x >= FAST && y >= FAST)
                    continue # neither side timed it: no ratio
                pr = pr " " (x >= FAST ? FAST : y >= FAST ? 1 / FAST : x / y)
            }
            mr = median(r); mp = median(p); mq = pr == "" ? 0 : median(pr)
            printf "%-18s %12s %6s %12s %6s %7s %7s %s\n", c[i],
                show(mr, "%.4g"), spread(r, mr), show(mp, "%.4g"), spread(p, mp),
                timed(mr) && timed(mp) ? sprintf("%.3f", mp / mr) : "-",
                show(mq, "%.3f"), !timed(mq) ? "no ratio" :
                (mq >= 0.95 && mq <= 1.05) ? "ok" : "NO"
        }
    }' "$RAW"
}

main() {
    if [ "${1:-}" = setup ]; then setup; exit; fi
    while getopts "n:c:b:s:o:lh" o; do
        case $o in
        n) ROUNDS=$OPTARG ;;
        c) CPUS=$OPTARG ;;
        b) BUILD=$OPTARG ;;
        s) SECS=$OPTARG ;;
        o) RAW=$OPTARG ;;
        l) echo $ALL; exit 0 ;;
        h) usage 0 ;;
        *) usage ;;
        esac
    done
    shift $((OPTIND - 1))
    CASES=${*:-$ALL}
    RAW=${RAW:-$REFS/raw.txt}
    if [ ! -x "$LMB/lat_syscall" ] || [ ! -x "$UB/pipe" ]; then
        echo "compare.sh: no references under $REFS; build them first:" \
            "LMBENCH_SRC=... UNIXBENCH_SRC=... $0 setup (see $0 -h)" >&2
        exit 2
    fi
    if [ ! -x "$BUILD/parallax-run" ]; then
        echo "compare.sh: no $BUILD/parallax-run; make BUILD=$BUILD build" >&2
        exit 2
    fi
    export PARALLAX_LIBEXEC=$BUILD
    : >"$RAW"
    rm -f "$REFS"/*.once
    # lat_syscall stats/opens a file; lat_proc runs /tmp/hello, as the
    # lmbench script installs it.
    [ -f "$LMFILE" ] || echo x >"$LMFILE"
    cp "$LMB/hello" /tmp/hello
    local c v side order
    for ROUND in $(seq "$ROUNDS"); do
        order="ref px"
        [ $((ROUND % 2)) = 0 ] && order="px ref"
        for c in $CASES; do
            for side in $order; do
                if [ "$side" = ref ]; then v=$(ref "$c" | tail -1); else v=$(ours "$c" | tail -1); fi
                echo "$c $side ${v:-?} $ROUND" >>"$RAW"
            done
        done
        echo "round $ROUND/$ROUNDS done (load $(cut -d' ' -f1 /proc/loadavg))" >&2
    done
    summarise
}

main "$@"
