#!/bin/bash
# pmdaparallax driven by dbpmda, without pmcd (PCP's qa/137 way): the
# catalogue as an instance domain with help text, a start stored, progress
# rising with a plausible figure, a stop back to idle, bad stores refused
# with the reason readable, the run cap, the clock probe, the system call
# counter (counting as root, paused during runs, a PCP error when not
# permitted, never 0), and no child of the agent outliving it.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
use_agent "${1:-}"
command -v dbpmda >/dev/null || fail "no dbpmda (package pcp)"
newhelp=$(. /etc/pcp.conf && echo "$PCP_BINADM_DIR/newhelp")

work=$(mktemp -d)
chmod 755 "$work"
cleanup() {
    [ -n "${dbpid:-}" ] && kill "$dbpid" 2>/dev/null
    [ -n "${apid:-}" ] && kill -9 "$apid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
trap '' PIPE # a write to a dbpmda that has quit fails, it does not kill us

# the help text as Install builds it, for the agent's -h
sed 's/^@ PARALLAX\./@ 498./' "$here/../pmda/help" |
    "$newhelp" -n "$here/../pmda/root" -o "$work/help" ||
    fail "newhelp failed on pmda/help"

# --- a dbpmda session as a coprocess, one command at a time -------------
n=0
out=$work/out
# db CMD: runs CMD in dbpmda; its output lands in $out (10 s at most)
db() {
    n=$((n + 1))
    printf '%s\n# done %d\n' "$1" "$n" >&"${DB[1]}" || return 1
    : >"$out"
    local line
    while IFS= read -r -t 10 line <&"${DB[0]}"; do
        [ "$line" = "# done $n" ] && return 0
        printf '%s\n' "$line" >>"$out"
    done
    return 1
}
# quit_db: ends dbpmda (no marker: nobody is left to echo it)
quit_db() {
    [ -n "${DB[1]:-}" ] && printf 'quit\n' >&"${DB[1]}" 2>/dev/null
    wait "$dbpid" 2>/dev/null
}
# start_db [USER]: a fresh dbpmda (as USER when given) on the namespace $ns
ns=$here/../pmda/root
start_db() {
    local run=()
    [ -n "${1:-}" ] && run=(setpriv --reuid="$1" --regid="$1" --init-groups)
    coproc DB { "${run[@]}" stdbuf -oL -eL dbpmda -n "$ns" -e 2>&1; }
    dbpid=$DB_PID
}
# open_agent LOG [ARGS...]: opens the agent in dbpmda; sets apid
open_agent() {
    local log=$1
    shift
    # stdbuf's LD_PRELOAD must not reach the agent (ASan wants to be first)
    db "open pipe /usr/bin/env -u LD_PRELOAD $agent -d 498 -h $work/help -l $log $*" ||
        fail "dbpmda did not open the agent"
    wait_for 10 grep -qs 'Info: ready as user' "$log" || {
        cat "$log" "$out"
        fail "agent not ready"
    }
    apid=$(sed -n 's/.*pmdaparallax(\([0-9]*\)) Info: ready.*/\1/p' "$log")
    [ -n "$apid" ] || fail "no agent pid in $log"
}
# val: the first value in the last output ("No values"/errors: empty)
val() {
    sed -n -e 's/^ *value \(.*\)$/\1/p' \
        -e 's/^ *inst \[[^]]*\] value \(.*\)$/\1/p' "$out" |
        head -1 | sed 's/^"\(.*\)"$/\1/'
}
# fetch METRIC: fetches it; prints its first value
fetch() {
    db "fetch $1" || fail "fetch $1: dbpmda gone"
    val
}
expect_out() {
    grep -qE "$1" "$out" || {
        cat "$out"
        fail "$2"
    }
}
alive() {
    [ -e "/proc/$1" ] && ! grep -qE '^[0-9]+ \(.*\) Z' "/proc/$1/stat"
}
children() {
    ps -o pid= --ppid "$1" | xargs
}
all_gone() {
    for p in "$@"; do alive "$p" && return 1; done
    return 0
}

# --- as root: the normal case -------------------------------------------
start_db
open_agent "$work/agent.log" -m 2 -P 0
echo "ok: agent open in dbpmda (pid $apid)"

db "instance 498.0" || fail "instance"
ninst=$(grep -c 'inst: ' "$out")
[ "$ninst" -ge 6 ] || fail "catalogue has $ninst instances"
if [ -x "$build/parallax-run" ]; then
    want=$("$build/parallax-run" --list |
        awk 'NR > 1 && /^$/ { exit } NR > 1 && /^[^ ]/ { n++ } END { print n }')
    [ "$ninst" -eq "$want" ] ||
        fail "catalogue: $ninst instances, parallax-run --list has $want"
fi
inst=$(grep 'name: "syscall-null"' "$out" | sed 's/.*inst: \([0-9]*\).*/\1/')
[ -n "$inst" ] || fail "no syscall-null in the catalogue"
echo "ok: catalogue of $ninst workloads, the same as parallax-run --list"

db "text parallax.control.start" || fail "text"
expect_out 'Start a workload' "no help text for parallax.control.start"
db "text indom 498.0" || fail "text indom"
expect_out 'workload catalogue' "no help text for the catalogue"
echo "ok: help text"

db "getiname on"
db "profile 498.0 none"
db "profile 498.0 add $inst"
[ "$(fetch parallax.catalogue.unit)" = ns ] || fail "unit of syscall-null"
[ "$(fetch parallax.workload.state)" = idle ] || fail "not idle at first"
db "fetch parallax.workload.figure"
expect_out 'No values' "a figure before any run"
echo "ok: syscall-null idle, unit ns, no figure yet"

# the counter counts while nothing runs, and says so
s1=$(fetch parallax.syscalls.total)
[[ "$s1" =~ ^[0-9]+$ ]] || { cat "$out"; fail "syscalls.total: '$s1'"; }
rising() { [ "$(fetch parallax.syscalls.total)" -gt "$s1" ]; }
wait_for 5 rising || fail "syscalls.total not rising from $s1"
[[ "$(fetch parallax.syscalls.status)" == counting* ]] || fail "status"
echo "ok: system call counter counting ($s1, then more)"

db 'store parallax.control.start "syscall-null --duration=60"'
grep -q 'Error' "$out" && { cat "$out"; fail "start refused"; }
[ "$(fetch parallax.workload.state)" = running ] || fail "not running"
[ "$(fetch parallax.agent.running)" = 1 ] || fail "agent.running"
ops_pos() { o1=$(fetch parallax.workload.ops) && [ "${o1:-0}" -gt 0 ]; }
wait_for 10 ops_pos || fail "ops never rose above 0"
ops_more() { o2=$(fetch parallax.workload.ops) && [ "$o2" -gt "$o1" ]; }
wait_for 5 ops_more || fail "ops stuck at $o1"
fig=$(fetch parallax.workload.figure)
awk -v f="$fig" 'BEGIN { exit !(f > 10 && f < 100000) }' ||
    fail "implausible syscall-null figure '$fig' ns"
[ "$(fetch parallax.workload.args)" = "--repeats=1 --duration=60 --warmup=0.1" ] ||
    fail "args: $(val)"
echo "ok: running, ops $o1 -> $o2, figure $fig ns"

db "fetch parallax.syscalls.total"
expect_out 'Try again' "syscalls.total while a run is live: not PM_ERR_AGAIN"
[[ "$(fetch parallax.syscalls.status)" == paused* ]] || fail "not paused"
echo "ok: counter paused (PM_ERR_AGAIN) while the run is live"

kids=$(children "$apid")
[ -n "$kids" ] || fail "the agent has no children during a run"

# refusals: each is PM_ERR_BADSTORE (or PERMISSION) with a reason
refused() { # STORE-ARGS PATTERN-OF-REASON [ERROR-TEXT]
    db "store $1"
    expect_out "${3:-Bad input to pmstore}" "store $1 not refused"
    db "fetch parallax.control.error"
    expect_out "$2" "reason for $1"
    echo "ok: refused $1: $(val)"
}
refused 'parallax.control.start "syscall-null"' 'already running'
refused 'parallax.control.start "nosuch"' 'unknown workload "nosuch"'
refused 'parallax.control.start "syscall-null;reboot"' 'unknown workload'
refused 'parallax.control.start "syscall-read --repeats=0"' 'repeats=0: expected'
refused 'parallax.control.start "syscall-read --duration=1e9"' 'duration'
refused 'parallax.control.start "syscall-read --duration=1 --count=5"' 'not both'
refused 'parallax.control.start "syscall-read --bogus=1"' 'unknown option'
refused 'parallax.control.start "syscall-read nokey=1"' 'unknown parameter'
refused 'parallax.control.start "   "' 'no workload named'
refused 'parallax.control.stop "nosuch"' 'unknown workload'
refused 'parallax.control.stop_all "2"' 'store the value 1'
refused 'parallax.agent.user "root"' 'read-only' 'No permission'

db 'store parallax.control.start "syscall-read --duration=60"'
grep -q Error "$out" && fail "second run refused"
refused 'parallax.control.start "syscall-write"' '2 runs are live'

db 'store parallax.control.stop "syscall-null"'
grep -q Error "$out" && fail "stop refused"
idle() { [ "$(fetch parallax.workload.state)" = idle ]; }
wait_for 5 idle || fail "not idle after stop"
o3=$(fetch parallax.workload.ops)
[ "$o3" -ge "$o2" ] || fail "ops went back after the stop: $o3 < $o2"
db 'store parallax.control.stop_all "1"'
none_live() { [ "$(fetch parallax.agent.running)" = 0 ]; }
wait_for 5 none_live || fail "runs left after stop_all"
echo "ok: stop -> idle with ops kept ($o3), stop_all -> nothing live"

# a lease nobody renews: the agent's own timer stops the run 2 s after its
# start (by this host's clock), with nothing from dbpmda meanwhile
before=" $(children "$apid") "
db 'store parallax.control.start "syscall-null --duration=60 --lease=2"'
t0=$(date +%s.%N) s0=$(stall_s)
grep -q Error "$out" && { cat "$out"; fail "start with a lease refused"; }
run=
for p in $(children "$apid"); do [[ "$before" == *" $p "* ]] || run+=" $p"; done
[ -n "$run" ] || fail "the leased run has no processes"
# shellcheck disable=SC2086
wait_for 10 all_gone $run || fail "the leased run ($run) went on unrenewed"
took=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
within_late "$took" 1.8 3.0 "$s0" ||
    fail "the run with a 2 s lease ended $took s after its start"
[ "$(fetch parallax.workload.state)" = idle ] || fail "not idle after the lease: $(val)"
grep -q 'lease of syscall-null ran out' "$work/agent.log" || fail "no log line for the lease"
db 'store parallax.control.renew "syscall-null syscall-read"'
grep -q Error "$out" && { cat "$out"; fail "renewal refused"; }
[ "$(fetch parallax.workload.state)" = idle ] || fail "a late renewal brought it back"
refused 'parallax.control.renew "nosuch"' 'unknown workload "nosuch"'
refused 'parallax.control.start "syscall-null --lease=0.5"' 'lease=0.5: expected'
echo "ok: an unrenewed 2 s lease ended its run ${took} s after the start"

t0=$(date +%s.%N)
db 'store parallax.control.probe "1"'
probed() { [ "$(fetch parallax.clock.probes)" -ge 1 ]; }
wait_for 10 probed || fail "no clock probe"
took=$(since "$t0")
over=$(fetch parallax.clock.sleep.overshoot)
ratio=$(fetch parallax.clock.cpu.ratio)
# the 10 ms sleep and its overshoot lie within this test's wait for the
# probe; the spin's CPU time within its wall (their clocks agree to NTP's
# 500 ppm)
awk -v o="$over" -v r="$ratio" -v t="$took" \
    'BEGIN { exit !(o >= 0 && 0.010 + o <= t && r > 0 && r <= 1 + 1e-3) }' ||
    fail "probe: overshoot '$over' s (within $took s?), ratio '$ratio'"
echo "ok: clock probe: sleep overshoot $over s, CPU billed/wall $ratio"

# 2,000 stores (a short run started and stopped 1,000 times; a start while
# the last run is still being stopped is refused) leave the
# agent's memory where it was: libpcp_pmda kept each store's decoded values
# pinned for good, ~100 bytes a store, +2.8 MB over 1,550 starts (issue 16)
rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$apid/status"; }
stores() {
    for _ in $(seq 250); do
        echo 'store parallax.control.start "syscall-null --count=1000 --warmup=0"'
        echo 'store parallax.control.stop "syscall-null"'
    done
}
db "$(stores)" || fail "stores: dbpmda gone" # malloc's arena settles
rss0=$(rss)
runs0=$(fetch parallax.workload.runs)
for _ in 1 2 3 4; do db "$(stores)" || fail "stores: dbpmda gone"; done
rss1=$(rss)
runs=$(($(fetch parallax.workload.runs) - runs0))
# enough starts that a leak would show (a sanitized agent forks slower,
# so more of its starts meet a run still stopping)
min_runs=50
[ -z "${PARALLAX_SANITIZED:-}" ] || min_runs=20
[ "$runs" -ge "$min_runs" ] || fail "only $runs runs of syscall-null started"
# (ASan keeps freed memory in quarantine: the plain build bounds it)
[ -n "${PARALLAX_SANITIZED:-}" ] || [ $((rss1 - rss0)) -le 48 ] ||
    fail "agent RSS grew $rss0 -> $rss1 KB over 2,000 stores"
echo "ok: RSS $rss0 -> $rss1 KB over 2,000 stores ($runs runs started)"

# quitting with a run live ends the agent and every child it had
db 'store parallax.control.start "syscall-null --duration=60"'
wait_for 5 ops_pos || fail "no progress before quit"
kids=$(children "$apid")
quit_db
wait_for 10 all_gone "$apid" $kids || fail "left behind: $apid $kids"
wait "$dbpid" 2>/dev/null
echo "ok: quit with a live run: agent and children ($kids) gone"

# killed outright, its workload dies with it (PR_SET_PDEATHSIG)
start_db
open_agent "$work/agent2.log" -P 0
db 'store parallax.control.start "syscall-null --duration=60"'
wait_for 10 bash -c "[ -n \"\$(ps -o pid= --ppid $apid)\" ]" || fail "no run"
kids=$(children "$apid")
kill -9 "$apid"
wait_for 10 all_gone $kids || fail "children outlived a killed agent: $kids"
quit_db
echo "ok: agent killed: its children ($kids) died with it"

# --- as an unprivileged user: no counter, and an error rather than 0 ---
chown pcp "$work" 2>/dev/null || chmod 777 "$work"
# the PCP user may not reach the build or the source (a clone under /root):
# the agent and its namespace files are copied where it can
mkdir "$work/pcp"
cp "$agent" "$here/../pmda/"{root,pmns,domain.h} "$work/pcp/"
chmod -R a+rX "$work/pcp"
agent=$work/pcp/pmdaparallax ns=$work/pcp/root
start_db pcp
open_agent "$work/agent3.log" -P 0
[ "$(fetch parallax.agent.user)" = pcp ] || fail "agent.user as pcp"
db "fetch parallax.syscalls.total"
expect_out 'No permission' "syscalls.total unprivileged: not PM_ERR_PERMISSION"
[[ "$(fetch parallax.syscalls.status)" == unavailable:* ]] ||
    fail "status unprivileged: $(val)"
echo "ok: unprivileged: PM_ERR_PERMISSION, status: $(val)"
quit_db
wait_for 10 all_gone "$apid" || fail "agent left running"
echo "all dbpmda checks passed"
