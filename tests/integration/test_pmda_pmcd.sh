#!/bin/bash
# pmdaparallax under a real pmcd on a private port (own config, socket,
# log; a domain other than the default, as PARALLAX_DOMAIN would give):
# every metric has a descriptor and help; pminfo lists the catalogue;
# pmstore starts syscall-null; fetches a second apart show the operation
# counter rising and a plausible figure; stop returns it to idle; a bad
# name and an out-of-range parameter are refused with the reason readable;
# taking the agent out of pmcd's config ends it and its runs and leaves
# pmcd healthy.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
. "$here/pmcd.sh"
use_agent "${1:-}"

work=$(mktemp -d)
cleanup() {
    pmcd_stop "$work/pmcd"
    rm -rf "$work"
}
trap cleanup EXIT

# pmcd in $work/pmcd, the agent's namespace, help and log in $work
port=$(free_port) || fail "no free port"
h=localhost:$port
pmcd_start_agent "$work" "$port" || {
    cat "$work/pmcd/pmcd.log" "$work/agent.log"
    fail "pmcd with pmdaparallax did not answer on $port"
}
apid=$(sed -n 's/.*pmdaparallax(\([0-9]*\)) Info: ready.*/\1/p' "$work/agent.log")
[ -n "$apid" ] || fail "no agent pid in its log"
echo "ok: pmcd on $port with pmdaparallax (domain $PMCD_AGENT_DOMAIN, pid $apid)"

# every name of pmda/pmns has a descriptor, a value or a stated reason,
# and help text
want=$(grep -c 'PARALLAX:' "$here/../pmda/pmns")
got=$(pminfo -h "$h" parallax | wc -l)
[ "$got" -eq "$want" ] || fail "pminfo lists $got metrics, pmns has $want"
pminfo -h "$h" -d parallax >"$work/desc" 2>&1
grep -q 'Error' "$work/desc" && fail "descriptor errors: $(grep Error "$work/desc")"
[ "$(grep -c 'Data Type' "$work/desc")" -eq "$want" ] || fail "descriptors"
pminfo -h "$h" -t parallax >"$work/text" 2>&1
grep -qE 'Error|<no|not available' "$work/text" &&
    fail "missing help: $(grep -E 'Error|<no|not available' "$work/text")"
echo "ok: $want metrics, each with a descriptor and help text"

# value of METRIC for instance INST ("" when none)
value() {
    pminfo -h "$h" -f "$1" 2>&1 |
        sed -n "s/^ *inst \[[0-9]* or \"$2\"\] value \(.*\)$/\1/p" |
        sed 's/^"\(.*\)"$/\1/'
}
single() {
    pminfo -h "$h" -f "$1" 2>&1 | sed -n 's/^ *value \(.*\)$/\1/p' |
        sed 's/^"\(.*\)"$/\1/'
}

pminfo -h "$h" -f parallax.catalogue.desc >"$work/cat"
ninst=$(grep -c 'inst \[' "$work/cat")
want=$("$build/parallax-run" --list |
    awk 'NR > 1 && /^$/ { exit } NR > 1 && /^[^ ]/ { n++ } END { print n }')
[ "$ninst" -eq "$want" ] || fail "catalogue: $ninst instances, want $want"
[ "$(value parallax.catalogue.unit syscall-null)" = ns ] ||
    fail "syscall-null not in the catalogue with unit ns"
echo "ok: pminfo -f lists the catalogue ($ninst workloads)"

t0=$(date +%s.%N)
pmstore -h "$h" parallax.control.start "syscall-null --duration=60" \
    >"$work/store" 2>&1 || fail "pmstore start: $(cat "$work/store")"
[ "$(value parallax.workload.state syscall-null)" = running ] ||
    fail "not running after the store"
ops_pos() { [ "$(value parallax.workload.ops syscall-null)" -gt 0 ]; }
wait_for 10 ops_pos || fail "no operations counted"
# two fetches a second apart (pmval's own interval)
pmval -h "$h" -t 1 -s 2 -r -f 0 -i syscall-null parallax.workload.ops \
    >"$work/pmval" 2>&1 || fail "pmval: $(cat "$work/pmval")"
read -r o1 o2 < <(awk '$1 ~ /^[0-9]+$/ { v[n++] = $1 } END { print v[0], v[1] }' "$work/pmval")
[ -n "$o2" ] && [ "$o2" -gt "$o1" ] || { cat "$work/pmval"; fail "ops not rising"; }
ops=$(value parallax.workload.ops syscall-null)
fig=$(value parallax.workload.figure syscall-null)
took=$(since "$t0")
# the live figure is the run's wall time over its operations: those
# counted before it, at that figure, took no longer than the run has been
# going by this test's clock (it was 'between 10 ns and 100 us')
awk -v f="$fig" -v o="$ops" -v t="$took" 'BEGIN { exit !(f > 0 && f * o <= t * 1e9) }' ||
    fail "syscall-null figure '$fig' ns: $ops operations at it take more than the run's $took s"
echo "ok: pmstore started syscall-null: ops $o1 -> $o2 a second apart, $fig ns"

pmstore -h "$h" parallax.control.stop syscall-null >/dev/null 2>&1 ||
    fail "pmstore stop"
idle() { [ "$(value parallax.workload.state syscall-null)" = idle ]; }
wait_for 5 idle || fail "not idle after stop"
[ "$(single parallax.agent.running)" = 0 ] || fail "a run still live"
echo "ok: stop returned syscall-null to idle"

# refused: pmstore fails, the agent says why
refused() { # VALUE PATTERN-OF-REASON
    if pmstore -h "$h" parallax.control.start "$1" >"$work/store" 2>&1; then
        fail "start \"$1\" accepted"
    fi
    grep -q 'Bad input' "$work/store" || fail "not BADSTORE: $(cat "$work/store")"
    single parallax.control.error | grep -qE "$2" ||
        fail "reason for \"$1\": $(single parallax.control.error)"
    echo "ok: refused \"$1\": $(single parallax.control.error)"
}
refused nosuch 'unknown workload "nosuch"'
refused "syscall-null --repeats=101" 'repeats=101: expected'
# a workload parameter past its bound, from the catalogue itself
read -r wl key max < <(pminfo -h "$h" -f parallax.catalogue.params |
    sed -n 's/^ *inst \[[0-9]* or "\([^"]*\)"\] value "\([a-z_]*\)=[-0-9.e+]*\.\.\([0-9.e+]*\).*/\1 \2 \3/p' |
    head -1)
[ -n "$max" ] || fail "no workload with parameters in the catalogue"
over=$(awk -v m="$max" 'BEGIN { printf "%.0f", m * 10 + 1 }')
refused "$wl $key=$over" "$key=$over is out of range"

# taking the agent out of pmcd: it ends, its run ends, pmcd carries on
pmstore -h "$h" parallax.control.start "syscall-null --duration=60" \
    >/dev/null 2>&1 || fail "restart"
wait_for 10 ops_pos || fail "no progress before removal"
kids=$(ps -o pid= --ppid "$apid" | xargs)
[ -n "$kids" ] || fail "agent has no children during a run"
grep -v '^parallax' "$work/pmcd/pmcd.conf" >"$work/pmcd.conf.new"
mv "$work/pmcd.conf.new" "$work/pmcd/pmcd.conf"
kill -HUP "$(cat "$work/pmcd/pid")"
alive() {
    [ -e "/proc/$1" ] && ! grep -qE '^[0-9]+ \(.*\) Z' "/proc/$1/stat"
}
all_gone() {
    for p in "$@"; do alive "$p" && return 1; done
    return 0
}
wait_for 10 all_gone "$apid" $kids || fail "left running: $apid $kids"
pminfo -h "$h" -f parallax.agent.version 2>&1 |
    grep -qE 'No PMCD agent|Unknown or illegal metric' ||
    fail "parallax still answered after removal"
pminfo -h "$h" -f hinv.ncpu >/dev/null 2>&1 || fail "pmcd unhealthy after removal"
kill -0 "$(cat "$work/pmcd/pid")" || fail "pmcd died"
echo "ok: agent removed: it and its run ($kids) ended, pmcd still answers"
echo "all pmcd checks passed"
