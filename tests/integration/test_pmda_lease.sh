#!/bin/bash
# pmdaparallax's leases, through a real pmcd on a private port and pmstore
# alone (no parallax):
#   a run started with --lease=2 and never renewed ends 2 s after its
#     start by the host's clock (its processes gone, watched with ps, no
#     fetch meanwhile: the agent's own timer), the agent's log says why,
#     and the agent takes the next start;
#   renewals through parallax.control.renew keep a leased run going for
#     well past its lease (5 repeats of 1 s under a 2 s lease), its
#     seconds left readable in parallax.workload.lease; a renewal with
#     --lease=4 gives it a new length the next renewals keep; once they
#     stop, it ends within that lease;
#   a renewal is passed over for a run without a lease (pmstore's: none,
#     it runs to its end), a late one never brings a run back, and one
#     naming a workload outside the catalogue is refused with the reason;
#   a lease out of 2..3600 is refused.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
. "$here/pmcd.sh"
use_agent "${1:-}"

work=$(mktemp -d)
renewer=
cleanup() {
    [ -n "$renewer" ] && kill "$renewer" 2>/dev/null
    pmcd_stop "$work/pmcd"
    rm -rf "$work"
}
trap cleanup EXIT

port=$(free_port) || fail "no free port"
h=localhost:$port
pmcd_start_agent "$work" "$port" || {
    cat "$work/pmcd/pmcd.log" "$work/agent.log"
    fail "pmcd with pmdaparallax did not answer on $port"
}
apid=$(sed -n 's/.*pmdaparallax(\([0-9]*\)) Info: ready.*/\1/p' "$work/agent.log")
[ -n "$apid" ] || fail "no agent pid in its log"

value() { agent_value "$port" "$1" "$2"; }
single() { agent_single "$port" "$1"; }
store() { pmstore -h "$h" "$1" "$2" >"$work/store" 2>&1; }
# the agent's children: its workloads' processes, and the system call
# counter's helper, which stays
children() { ps -o pid= --ppid "$apid" | xargs; }
helpers=$(children)
run_procs() { # the children that are not the helper
    local p
    for p in $(children); do
        [[ " $helpers " == *" $p "* ]] || printf '%s ' "$p"
    done
}
alive() { [ -e "/proc/$1" ] && ! grep -qE '^[0-9]+ \(.*\) Z' "/proc/$1/stat"; }
all_gone() {
    local p
    for p in "$@"; do alive "$p" && return 1; done
    return 0
}

# --- a lease nobody renews ------------------------------------------------
t0=$(date +%s.%N) s0=$(stall_s)
store parallax.control.start "syscall-null --duration=60 --repeats=5 --lease=2" ||
    fail "start with a lease: $(cat "$work/store")"
t1=$(date +%s.%N)
procs=$(run_procs)
[ -n "$procs" ] || fail "the run has no processes"
[ "$(value parallax.workload.args syscall-null)" = \
    "--repeats=5 --duration=60 --warmup=0.1 --lease=2" ] ||
    fail "args: $(value parallax.workload.args syscall-null)"
# no fetch from here on until the processes are gone
# shellcheck disable=SC2086
wait_for 10 all_gone $procs || fail "the run ($procs) outlived its lease by 10 s"
t2=$(date +%s.%N)
took=$(awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN { printf "%.2f %.2f", c - b, c - a }')
read -r lo hi <<<"$took"
# ended no sooner than 2 s after the start, and within 2 s plus the stop
# (SIGTERM, SIGKILL 0.1 s apart), this loop's 0.1 s polls and what the
# machine stalled
within "$hi" 2 99 || fail "the run ended $hi s after the start, before its lease of 2 s"
within_late "$lo" 0 3.0 "$s0" || fail "the run ended $lo s after the start, its lease was 2 s"
grep -q 'lease of syscall-null ran out: no renewal in 2 s; stopping it' "$work/agent.log" ||
    fail "the agent's log does not say why: $(tail -3 "$work/agent.log")"
[ "$(value parallax.workload.state syscall-null)" = idle ] ||
    fail "state after the lease: $(value parallax.workload.state syscall-null)"
[ "$(single parallax.agent.running)" = 0 ] || fail "agent.running after the lease"
pminfo -h "$h" -f parallax.workload.lease | grep -q '"syscall-null"' &&
    fail "an ended run still has a lease"
echo "ok: an unrenewed lease of 2 s ended its run ${lo}-${hi} s after the start, by the agent's own timer"

# a late renewal does not bring it back
store parallax.control.renew syscall-null || fail "renew: $(cat "$work/store")"
[ "$(value parallax.workload.state syscall-null)" = idle ] || fail "a renewal restarted it"

# --- renewed, it runs well past its lease ---------------------------------
s0=$(stall_s)
store parallax.control.start "syscall-null --duration=1 --repeats=20 --lease=2" ||
    fail "start: $(cat "$work/store")"
(
    while :; do
        pmstore -h "$h" parallax.control.renew syscall-null >/dev/null 2>&1
        sleep 0.4
    done
) &
renewer=$!
done_at_least() { [ "$(value parallax.workload.repeats_done syscall-null)" -ge "$1" ] 2>/dev/null; }
wait_for 20 done_at_least 5 || fail "5 repeats did not finish: $(value parallax.workload.state syscall-null)"
[ "$(value parallax.workload.state syscall-null)" = running ] ||
    fail "the renewed run ended: $(value parallax.workload.state syscall-null)"
left=$(value parallax.workload.lease syscall-null)
within_early "$left" 0.01 2 "$s0" || fail "lease left: '$left'"
[ "$(single parallax.control.renew)" = syscall-null ] || fail "control.renew: $(single parallax.control.renew)"
echo "ok: renewed every 0.4 s, the run went on past 5 repeats of 1 s under a 2 s lease ($left s left)"
# a renewal may give the lease a new length, which the next ones keep
s0=$(stall_s)
store parallax.control.renew "--lease=4 syscall-null" || fail "renew --lease=4: $(cat "$work/store")"
left=$(value parallax.workload.lease syscall-null)
within_early "$left" 3 4 "$s0" || fail "lease left after --lease=4: '$left'"
plain() { [ "$(single parallax.control.renew)" = syscall-null ]; }
wait_for 5 plain || fail "the loop's renewals stopped"
left=$(value parallax.workload.lease syscall-null)
within_early "$left" 2.5 4 "$s0" || fail "lease left after a plain renewal: '$left' (not 4 s any more)"
kill "$renewer"
wait "$renewer" 2>/dev/null
renewer=
t0=$(date +%s.%N) s0=$(stall_s)
procs=$(run_procs)
# shellcheck disable=SC2086
wait_for 10 all_gone $procs || fail "the run outlived its last renewal"
gap=$(since "$t0")
within_late "$gap" 3.4 5.0 "$s0" || fail "it ended $gap s after the renewals stopped; the lease is 4 s"
[ "$(value parallax.workload.state syscall-null)" = idle ] ||
    fail "state: $(value parallax.workload.state syscall-null) (it had 20 repeats to go)"
grep -q 'lease of syscall-null ran out: no renewal in 4 s' "$work/agent.log" ||
    fail "the log does not give the new length"
echo "ok: renewed with --lease=4, it kept 4 s; with the renewals stopped it ended $gap s later"

# --- a run without a lease has none ---------------------------------------
store parallax.control.start "syscall-null --duration=1 --repeats=4" ||
    fail "start without a lease: $(cat "$work/store")"
pminfo -h "$h" -f parallax.workload.lease | grep -q '"syscall-null"' &&
    fail "a run started without --lease has one"
store parallax.control.renew syscall-null || fail "renewing a run without a lease was refused"
# it outlives the shortest lease there is (2 s) with nobody renewing it
wait_for 15 done_at_least 3 || fail "the run without a lease ended early"
[ "$(value parallax.workload.state syscall-null)" = running ] || fail "the run without a lease ended"
store parallax.control.stop syscall-null || fail "stop"
echo "ok: pmstore's run without --lease has none and runs on; a renewal passes it over"

# --- refusals -------------------------------------------------------------
refused() { # METRIC VALUE PATTERN-OF-REASON
    if store "$1" "$2"; then fail "$1 \"$2\" accepted"; fi
    grep -q 'Bad input' "$work/store" || fail "not BADSTORE: $(cat "$work/store")"
    single parallax.control.error | grep -qE -- "$3" ||
        fail "reason for \"$2\": $(single parallax.control.error)"
    echo "ok: refused $1 \"$2\": $(single parallax.control.error)"
}
refused parallax.control.start "syscall-null --lease=1" 'lease=1: expected a number 2\.\.3600'
refused parallax.control.start "syscall-null --lease=3601" '2\.\.3600'
refused parallax.control.renew "syscall-null nosuch" 'control.renew: unknown workload "nosuch"'
refused parallax.control.renew "syscall-null;reboot" 'unknown workload'
refused parallax.control.renew "--lease=1 syscall-null" 'lease=1: expected a number 2\.\.3600'
refused parallax.control.renew "--repeats=2 syscall-null" 'a renewal takes --lease=SECS'
echo "all lease checks passed"
