#!/bin/bash
# make bench: what watching costs, in eight parts, each figure next to a
# reference measured in the same invocation (DESIGN.md, Performance
# budget; issue 10):
#  1. this script: parallax -t 1 watching this host and two private pmcd
#     guests, against Debian's htop at a 1 s refresh (`htop -d 10`, one
#     host) and `pmstat -t 1 -h` with the same two guests, in an 80x24 and
#     a 200x50 tmux window, all running at the same time in detached tmux
#     sessions so that the machine's noise hits every one of them alike;
#  2. bench/observer.sh: workloads with the screen running against batch
#     mode with no screen;
#  3. bench/scale.sh: 16, 32 and 64 sources: CPU share and keys;
#  4. bench/stalled.sh: a guest that never answers next to live ones;
#  5. bench/record.sh: what --record adds, against the same run without;
#  6. bench/fleet.sh: 64 to 1000 sources through pmproxy and redis: CPU
#     per source, keys, against the direct mode at 64;
#  7. bench/latency_cost.sh: the latency histogram against the operations
#     of timer-lat and wakeup-lat (under 1%);
#  8. bench/vmview_cost.sh: the host's view of two VM processes against
#     the same screen with --no-vm-view (under 10% more CPU).
#
# Usage: bench/bench.sh BUILD_DIR        (make bench runs it with build/)
#   QUICK=1        shorter windows everywhere (the full run takes about
#                  18 minutes); for trying it out, noisier
#   BENCH_SECONDS  length of part 1's window (default 60, QUICK 20)
#   BENCH_SIZES    terminal sizes, each one a parallax, an htop and a
#                  pmstat session (default "80x24 200x50")
#   BENCH_PARTS    which parts to run (default "1 2 3 4 5 6 7 8")
#   BENCH_STRICT=1 exit 1 when a target is missed (default: report only)
#
# Per program part 1 prints CPU time per minute (the run time of all its
# threads over the window, from schedstat in ns, plus the CPU time of the
# children it reaped in it; utime+stime in whole ticks beside it as a
# cross-check), the same over its whole life with start-up, peak RSS
# (VmHWM just before it is stopped), USS and PSS (smaps_rollup, then),
# and after the window the time from exec to the first frame of parallax
# and of htop at an 80x24 pty (bench/first_frame.py, FRAME_RUNS runs,
# default 5). Then the ratios for each size against the targets: CPU
# under 1/5 of htop's and peak RSS at or below htop's (DESIGN.md), CPU at
# most 1.5x pmstat's, USS at most htop's and the first frame within
# 100 ms (issue 29); and each ratio against the one committed in
# docs/performance.md's part 1 table, WORSE where it is more than 10%
# above. Everything goes to bench/out/bench-<timestamp>.txt as well.
# Exit: 0 measured, 1 a target missed with BENCH_STRICT=1, 2 could not
# measure.
# shellcheck source-path=SCRIPTDIR
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build=${1:-}
quick=${QUICK:-0}
[ "$quick" = 1 ] && seconds=${BENCH_SECONDS:-20} || seconds=${BENCH_SECONDS:-60}
sizes=${BENCH_SIZES:-80x24 200x50}
parts=${BENCH_PARTS:-1 2 3 4 5 6 7 8}
sock=parallax-bench-$$
up_timeout=15          # seconds a program may take to draw its first screen
cpu_limit=0.20         # parallax CPU / htop CPU must stay below this
rss_limit=1.00         # parallax peak RSS (and USS) / htop's at most this
pmstat_limit=1.50      # parallax CPU / pmstat CPU at most this (issue 29)
frame_limit=100        # ms from exec to parallax's first frame (issue 29)
committed=$here/../docs/performance.md # its part 1 table, compared with

# shellcheck source=lib.sh
. "$here/lib.sh" # the terminal and locale, die, wait_for, the pmcd pool

tmx() { tmux -L "$sock" -f "$tmpdir/tmux.conf" "$@"; }

# Everything this script started lives in its private tmux server: killing
# that server hangs up every pane (both programs quit on SIGHUP). Programs
# still around after that get SIGKILL, by their own PID only. tmux 3.3
# leaves its socket file behind, so that goes too.
cleanup() {
    trap - EXIT INT TERM HUP
    tmx kill-server 2>/dev/null || true
    local pid
    for pid in "${pids[@]}"; do
        wait_gone "$pid" 3 || kill -KILL "$pid" 2>/dev/null || true
    done
    [ -z "$sleeper" ] || kill "$sleeper" 2>/dev/null || true
    if [ -n "${part_pid:-}" ]; then
        kill "$part_pid" 2>/dev/null || true
        wait "$part_pid" 2>/dev/null || true
    fi
    [ -z "$sock_path" ] || rm -f "$sock_path"
    pool_stop "$tmpdir"
    rm -rf "$tmpdir"
}

# wait_gone PID SECONDS: true once PID has exited.
wait_gone() {
    local pid=$1 i
    for ((i = 0; i < $2 * 10; i++)); do
        [ -e "/proc/$pid" ] || return 0
        sleep 0.1
    done
    return 1
}

check_prereqs() {
    [[ $seconds =~ ^[1-9][0-9]*$ ]] ||
        die "BENCH_SECONDS must be a positive whole number (got '$seconds')"
    bench_parallax "$build" "bench/bench.sh BUILD_DIR"
    local c
    for c in htop tmux pmstat python3; do
        command -v "$c" >/dev/null || die "$c not found; run 'make deps'"
    done
    local s
    for s in $sizes; do
        [[ $s =~ ^[0-9]+x[0-9]+$ ]] || die "bad size '$s' in BENCH_SIZES"
    done
}

# start LABEL COMM WxH MARKER COMMAND...: runs COMMAND in a detached session
# of exactly WxH (status line off) and records its PID. `exec` makes the
# pane's PID the program's own (COMM), not a shell's.
start() {
    local label=$1 comm=$2 size=$3 marker=$4; shift 4
    local name="${comm}-$size" pid
    tmx new-session -d -s "$name" -x "${size%x*}" -y "${size#*x}" \
        "exec $(printf '%q ' "$@")"
    pid=$(tmx display -p -t "$name" '#{pane_pid}')
    [ -n "$sock_path" ] || sock_path=$(tmx display -p '#{socket_path}')
    pids+=("$pid"); sess+=("$name"); plabel+=("$label"); pcomm+=("$comm")
    psize+=("$size"); pmark+=("$marker")
}

# wait_up I: polls the pane until the program's first screen shows its
# marker, so that start-up is over before the window opens.
wait_up() {
    local i=$1 t
    for ((t = 0; t < up_timeout * 10; t++)); do
        if tmx capture-pane -p -t "${sess[i]}" 2>/dev/null |
            grep -qF -- "${pmark[i]}"; then
            local got
            got=$(tmx display -p -t "${sess[i]}" '#{pane_width}x#{pane_height}')
            [ "$got" = "${psize[i]}" ] ||
                die "${sess[i]}: pane is $got, wanted ${psize[i]}"
            [ "$(<"/proc/${pids[i]}/comm")" = "${pcomm[i]}" ] ||
                die "${sess[i]}: PID ${pids[i]} is not ${pcomm[i]}"
            return 0
        fi
        [ -e "/proc/${pids[i]}" ] || die "${sess[i]}: exited during start-up"
        sleep 0.1
    done
    echo "bench: ${sess[i]}: no '${pmark[i]}' on screen after ${up_timeout} s:" >&2
    tmx capture-pane -p -t "${sess[i]}" >&2 || true
    exit 2
}

# alive I: dies unless program I still runs (a crash spoils the figures).
alive() {
    [ -e "/proc/${pids[$1]}" ] || die "${sess[$1]}: exited during the window"
}

# cpu_ticks PID: "SELF CHILDREN": utime+stime of the whole process (all
# threads), and cutime+cstime of its reaped children (parallax's clock
# probe), in clock ticks. The command name may hold spaces, so fields
# count from its ')'.
cpu_ticks() {
    local stat
    stat=$(<"/proc/$1/stat")
    stat=${stat##*) }
    # after ')': state=1 ... utime=12 stime=13 cutime=14 cstime=15
    awk '{ print $12 + $13, $14 + $15 }' <<<"$stat"
}

# sched_ns PID: "TID:NS ..." run time of each live thread, in ns, from
# /proc/PID/task/*/schedstat: exact, where utime+stime come in whole
# ticks (10 ms, as much as a sixth of a monitor's minute). It forgets
# threads that exit, so a window whose threads changed falls back to ticks.
sched_ns() {
    local t out=""
    for t in /proc/"$1"/task/*; do
        out+="${t##*/}:$(cut -d' ' -f1 "$t/schedstat" 2>/dev/null) "
    done
    echo "$out"
}

# sched_delta A B: B's total minus A's, in ns; n/a when the threads differ.
sched_delta() {
    awk -v a="$1" -v b="$2" 'BEGIN {
        na = split(a, x, " "); nb = split(b, y, " ")
        if (na != nb) { print "n/a"; exit }
        for (k = 1; k <= na; k++) {
            split(x[k], p, ":"); split(y[k], q, ":")
            if (p[1] != q[1] || p[2] == "" || q[2] == "") { print "n/a"; exit }
            d += q[2] - p[2] }
        printf "%.0f", d }'
}

# hwm_kib PID: peak resident set size (VmHWM) in KiB.
hwm_kib() {
    awk '/^VmHWM:/ { print $2 }' "/proc/$1/status"
}

# uss_pss_kib PID: "USS PSS" in KiB from smaps_rollup: the private pages
# (clean and dirty: what only this process holds) and the proportional
# share of everything it maps.
uss_pss_kib() {
    awk '$1 ~ /^Private_(Clean|Dirty):$/ { u += $2 } $1 == "Pss:" { p += $2 }
        END { print u + 0, p + 0 }' "/proc/$1/smaps_rollup"
}

# life_ms_min PID: CPU per minute of the process's whole life so far,
# start-up included: utime+stime+cutime+cstime (ticks) over the time since
# its start (field 22, ticks after boot).
life_ms_min() {
    local stat up
    stat=$(<"/proc/$1/stat")
    stat=${stat##*) }
    read -r up _ </proc/uptime
    awk -v hz="$(getconf CLK_TCK)" -v up="$up" '{
        cpu = ($12 + $13 + $14 + $15) / hz; life = up - $20 / hz
        if (life > 0) printf "%.1f", cpu * 1000 * 60 / life; else print "n/a" }' \
        <<<"$stat"
}

now() { date +%s.%N; }

# ratio A B: A/B with three decimals, or n/a when B is zero.
ratio() {
    awk -v a="$1" -v b="$2" 'BEGIN { num = "^[0-9]+([.][0-9]*)?$"
        if (a ~ num && b ~ num && b + 0 > 0) printf "%.3f", a / b
        else print "n/a" }'
}

# verdict RATIO OP LIMIT: PASS or MISS (n/a when there is no ratio).
verdict() {
    awk -v r="$1" -v op="$2" -v l="$3" 'BEGIN {
        if (r == "n/a") { print "n/a"; exit }
        ok = (op == "<") ? (r + 0 < l + 0) : (r + 0 <= l + 0)
        print ok ? "PASS" : "MISS" }'
}

main() {
    check_prereqs
    tmpdir=$(mktemp -d /tmp/parallax-bench.XXXXXX)
    export XDG_STATE_HOME=$tmpdir # parallax's log goes here, not to ~
    sock_path="" sleeper=""
    pids=(); sess=(); plabel=(); pcomm=(); psize=(); pmark=()
    trap cleanup EXIT
    trap 'echo "bench: interrupted" >&2; exit 130' INT TERM HUP

    missed1=0
    stamp=$(date +%Y%m%d-%H%M%S)
    mkdir -p "$here/out"
    out="$here/out/bench-$stamp.txt"
    printf 'parallax bench %s  %s CPUs%s\n%s (%s), %s, %s\n' "$(date '+%F %T')" \
        "$(nproc)" "$([ "$quick" = 1 ] && echo '  QUICK: short windows')" \
        "$("$parallax" -V)" \
        "$(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo no git)" \
        "$(htop --version | head -n1)" "$(pmstat --version 2>&1 | head -n1)" |
        tee "$out"
    if [[ " $parts " == *" 1 "* ]]; then
        part1
        report
    fi
    local rc=0 missed=$missed1 part script
    for part in 2 3 4 5 6 7 8; do
        [[ " $parts " == *" $part "* ]] || continue
        case $part in
        2) script=observer.sh ;;
        3) script=scale.sh ;;
        4) script=stalled.sh ;;
        5) script=record.sh ;;
        6) script=fleet.sh ;;
        7) script=latency_cost.sh ;;
        8) script=vmview_cost.sh ;;
        esac
        rc=0
        # in the background, so that cleanup can stop it (its own trap
        # then stops what it started)
        "$here/$script" "$build" "$out" &
        part_pid=$!
        wait "$part_pid" || rc=$?
        part_pid=""
        [ "$rc" = 0 ] || [ "$rc" = 1 ] || exit "$rc"
        [ "$rc" = 0 ] || missed=1
    done
    echo "bench: written to bench/out/${out##*/}" >&2
    if [ "$missed" = 1 ] && [ "${BENCH_STRICT:-0}" = 1 ]; then exit 1; fi
}

# part1: the three programs side by side in each size, measured together.
part1() {
    # No user tmux config; the status line off so each program gets all of
    # WxH; panes get the same TERM as everything else.
    printf '%s\n' 'set -g status off' \
        "set -g default-terminal $TERM" >"$tmpdir/tmux.conf"
    # htop reads and rewrites its htoprc: give it a private default one so
    # that a user's settings do not change what it costs.
    local htoprc="$tmpdir/htoprc"
    pool_start "$tmpdir" 2 || die "could not start two pmcd guests"
    local g1="localhost:${pool_ports[0]}" g2="localhost:${pool_ports[1]}"

    local size
    for size in $sizes; do
        start "parallax -t 1" parallax "$size" "CPU user %" "$parallax" -t 1 \
            -h "g1=$g1" -h "g2=$g2"
        start "htop -d 10" htop "$size" "Load average" \
            env HTOPRC="$htoprc" htop -d 10
        start "pmstat -t 1" pmstat "$size" "loadavg" pmstat -t 1 -h "$g1" \
            -h "$g2"
    done
    local i
    n=${#pids[@]}
    for ((i = 0; i < n; i++)); do wait_up "$i"; done
    # every guest live before the window opens
    wait_for 15 bash -c "! tmux -L $sock -f $tmpdir/tmux.conf capture-pane \
        -p -t '${sess[0]}' | grep -qE 'connecting|down'" || true

    # The window: CPU time is the difference between its two ends.
    load0=$(cut -d' ' -f1-3 /proc/loadavg)
    t0=$(now)
    for ((i = 0; i < n; i++)); do
        c0[i]=$(cpu_ticks "${pids[i]}"); s0[i]=$(sched_ns "${pids[i]}")
    done
    echo "bench: part 1: measuring ${n} programs side by side for ${seconds} s..." >&2
    # in the background so that a signal ends the wait at once
    sleep "$seconds" &
    sleeper=$!
    wait "$sleeper"
    sleeper=""
    for ((i = 0; i < n; i++)); do alive "$i"; done
    for ((i = 0; i < n; i++)); do
        c1[i]=$(cpu_ticks "${pids[i]}"); s1[i]=$(sched_ns "${pids[i]}")
    done
    t1=$(now)
    load1=$(cut -d' ' -f1-3 /proc/loadavg)
    # Peak RSS just before stopping (it only grows, so any later read is
    # the same or higher); also note which back-end parallax drew from.
    for ((i = 0; i < n; i++)); do
        hwm[i]=$(hwm_kib "${pids[i]}")
        read -r uss[i] pss[i] <<<"$(uss_pss_kib "${pids[i]}")"
        life[i]=$(life_ms_min "${pids[i]}")
    done
    # (the names of collectors/*_source.c; the screen layout may move them)
    via=$(tmx capture-pane -p -t "${sess[0]}" |
        grep -o -m1 -E '/proc|pcp local|libgtop\+/proc' | head -n1) || true
    via="via ${via:-an unseen back-end}"
    tmx kill-server 2>/dev/null || true
    first_frames "$g1" "$g2"
    pool_stop "$tmpdir"
}

# first_frames G1 G2: start-up, exec to first frame at an 80x24 pty
# (bench/first_frame.py, FRAME_RUNS runs each), of parallax with the two
# guests and of htop, one program at a time, after the window.
first_frames() {
    local runs=${FRAME_RUNS:-5}
    ff_parallax=$("$here/first_frame.py" 80x24 "$runs" "CPU user %" -- \
        "$parallax" -t 1 -h "g1=$1" -h "g2=$2" | tail -n1)
    ff_htop=$(env HTOPRC="$tmpdir/htoprc" "$here/first_frame.py" 80x24 \
        "$runs" "Load average" -- htop -d 10 | tail -n1)
}

# against_committed: each ratio of this run (fig: "NAME VALUE") next to
# the figure committed in docs/performance.md's part 1 table (its lines
# "| NAME | VALUE |" between the two "bench part 1" comments), saying which
# got worse: more than 10% above the committed one, beyond which this
# machine's run-to-run spread rarely goes (docs/performance.md).
against_committed() {
    local line name val old word worse=0
    printf '\n%-20s %9s %10s  %s\n' "against committed" "this run" committed \
        "(docs/performance.md; lower is better)"
    for line in "${fig[@]}"; do
        read -r name val <<<"$line"
        old=$(awk -v n="$name" '/<!-- bench part 1: begin -->/ { on = 1 }
            /<!-- bench part 1: end -->/ { on = 0 }
            on && $2 == n { print $4; exit }' "$committed")
        word=$(awk -v a="$val" -v b="${old:-n/a}" 'BEGIN {
            num = "^[0-9]+([.][0-9]*)?$"
            if (a !~ num || b !~ num) print "n/a"
            else if (a > b * 1.10) print "WORSE"
            else if (a < b / 1.10) print "better"
            else print "same, within 10%" }')
        [ "$word" != WORSE ] || worse=1
        printf '%-20s %9s %10s  %s\n' "$name" "$val" "${old:-n/a}" "$word"
    done
    [ "$worse" = 0 ] || echo "bench: part 1: some figures got worse than committed (WORSE above)"
}

# report: the table, on stdout and in bench/out/. Reads the figures that
# main measured (bash locals are visible to the functions main calls).
report() {
    local hz window
    hz=$(getconf CLK_TCK)
    window=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
    local -a ms tms cms fig=()
    local self0 kids0 self1 kids1 d
    for ((i = 0; i < n; i++)); do
        read -r self0 kids0 <<<"${c0[i]}"
        read -r self1 kids1 <<<"${c1[i]}"
        # ms per minute of the window: ticks of the process, of its reaped
        # children, and the exact run time of its threads (n/a: changed)
        tms[i]=$(awk -v d=$((self1 - self0)) -v hz="$hz" -v w="$window" \
            'BEGIN { printf "%.0f", d * 1000 / hz * 60 / w }')
        cms[i]=$(awk -v d=$((kids1 - kids0)) -v hz="$hz" -v w="$window" \
            'BEGIN { printf "%.0f", d * 1000 / hz * 60 / w }')
        d=$(sched_delta "${s0[i]}" "${s1[i]}")
        ms[i]=$(awk -v d="$d" -v t="${tms[i]}" -v c="${cms[i]}" -v w="$window" \
            'BEGIN { if (d == "n/a") print t + c
                     else printf "%.1f", d / 1e6 * 60 / w + c }')
    done
    missed1=0
    {
        printf '\n1. CPU and memory of the monitor  window %s s  load %s -> %s\n' \
            "$window" "$load0" "$load1"
        printf '%s\n' "parallax -t 1: this host (${via}) and two pmcd guests;" \
            "htop -d 10: this host; pmstat -t 1: the same two guests"
        printf '%s\n%s\n%s %s %s\n\n' \
            "CPU ms/min (judged): the threads' run time from schedstat, in ns," \
            "plus the CPU of reaped children (parallax's clock probe);" \
            "ticks ms/min: utime+stime in whole" $((1000 / hz)) "ms ticks (a cross-check)"
        printf '%s\n%s\n\n' \
            "with start-up: CPU per minute of its whole life, exec included;" \
            "USS: the pages only it holds (smaps_rollup), read with peak RSS"
        printf '%-14s %-7s %7s %10s %7s %8s %8s %9s %8s %8s\n' program size \
            PID "CPU ms/min" ticks children "start-up" "peak RSS" USS PSS
        for ((i = 0; i < n; i++)); do
            printf '%-14s %-7s %7s %10s %7s %8s %8s %9s %8s %8s\n' \
                "${plabel[i]}" "${psize[i]}" "${pids[i]}" "${ms[i]}" \
                "${tms[i]}" "${cms[i]}" "${life[i]}" "${hwm[i]}" "${uss[i]}" \
                "${pss[i]}"
        done
        printf '%s\n' "(ms/min; KiB)" "first frame, exec to screen at an 80x24 pty:" \
            "  parallax with the two guests: ${ff_parallax#first frame ms: }" \
            "  htop -d 10: ${ff_htop#first frame ms: }"
        printf '\n%-16s %-7s %10s %10s %9s  %s\n' \
            target size parallax reference ratio "limit, result"
        local p h q r v
        for ((p = 0; p < n; p += 3)); do
            h=$((p + 1)) q=$((p + 2))
            r=$(ratio "${ms[p]}" "${ms[h]}")
            v=$(verdict "$r" "<" "$cpu_limit")
            [ "$v" = PASS ] || missed1=1
            printf '%-16s %-7s %10s %10s %9s  %s\n' "CPU vs htop" "${psize[p]}" \
                "${ms[p]}" "${ms[h]}" "$r" "< $cpu_limit $v"
            r=$(ratio "${tms[p]}" "${tms[h]}")
            printf '%-16s %-7s %10s %10s %9s  %s\n' "  (ticks)" "${psize[p]}" \
                "${tms[p]}" "${tms[h]}" "$r" "(info)"
            r=$(ratio "${hwm[p]}" "${hwm[h]}")
            v=$(verdict "$r" "<=" "$rss_limit")
            [ "$v" = PASS ] || missed1=1
            printf '%-16s %-7s %10s %10s %9s  %s\n' "peak RSS vs htop" "${psize[p]}" \
                "${hwm[p]}" "${hwm[h]}" "$r" "<= $rss_limit $v"
            r=$(ratio "${ms[p]}" "${ms[q]}")
            v=$(verdict "$r" "<=" "$pmstat_limit")
            [ "$v" = PASS ] || missed1=1
            printf '%-16s %-7s %10s %10s %9s  %s\n' "CPU vs pmstat" "${psize[p]}" \
                "${ms[p]}" "${ms[q]}" "$r" "<= $pmstat_limit $v"
            printf '%-16s %-7s %10s %10s %9s  %s\n' "  (start-up in)" \
                "${psize[p]}" "${life[p]}" "${life[q]}" \
                "$(ratio "${life[p]}" "${life[q]}")" "(info)"
            r=$(ratio "${uss[p]}" "${uss[h]}")
            v=$(verdict "$r" "<=" "$rss_limit")
            [ "$v" = PASS ] || missed1=1
            printf '%-16s %-7s %10s %10s %9s  %s\n' "USS vs htop" "${psize[p]}" \
                "${uss[p]}" "${uss[h]}" "$r" "<= $rss_limit $v"
            printf '%-16s %-7s %10s %10s %9s  %s\n' "RSS vs pmstat" "${psize[p]}" \
                "${hwm[p]}" "${hwm[q]}" "$(ratio "${hwm[p]}" "${hwm[q]}")" "(info)"
            fig+=("cpu_htop_${psize[p]} $(ratio "${ms[p]}" "${ms[h]}")"
                "cpu_pmstat_${psize[p]} $(ratio "${ms[p]}" "${ms[q]}")"
                "uss_htop_${psize[p]} $(ratio "${uss[p]}" "${uss[h]}")"
                "rss_htop_${psize[p]} $(ratio "${hwm[p]}" "${hwm[h]}")")
        done
        local ff
        ff=$(awk '{ print $2 }' <<<"${ff_parallax#first frame ms: }")
        v=$(verdict "$ff" "<=" "$frame_limit")
        [ "$v" = PASS ] || missed1=1
        printf '%-16s %-7s %10s %10s %9s  %s\n' "first frame ms" 80x24 "$ff" \
            "$(awk '{ print $2 }' <<<"${ff_htop#first frame ms: }")" "" \
            "<= $frame_limit $v"
        fig+=("first_frame_ms $ff")
        against_committed
    } | tee -a "$out"
}

main "$@"
