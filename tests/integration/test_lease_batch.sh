#!/bin/bash
# No guest run outlives a --batch parallax killed outright: with a real
# guest (a private pmcd with pmdaparallax), timed by this host's clock:
#   --batch --lease 3 starts syscall-null there with a lease (the agent's
#     args say --lease=..., the agent's longest while the guest's clock
#     rate is not known yet), renewed as 3 s in the guest's seconds (its
#     clock keeps real time); kill -9 of parallax, and the guest's run ends
#     within the lease (3 s, plus the agent's stop and this test's polls),
#     not before the lease less one renewal period: the agent's timer
#     ended it, its log says so;
#   a --batch that stays alive keeps its run going well past the lease:
#     8 repeats of 1 s under a 2 s lease complete, the agent's lease for
#     it was seen renewed (seconds left near 2 after more than 2 s, less
#     what the machine stalled), the
#     report has the guest's 8 repeats, and no lease ran out;
#   cut off (the guest's pmcd starts refusing its stores mid-run, as
#     after a change of its access list): the renewals fail, parallax says
#     so once on stderr (its log) with the fix, the guest's run ends within
#     the lease, and parallax tells why the run did not complete.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
. "$here/pmcd.sh"
use_build

work=$(mktemp -d)
pid=
cleanup() {
    [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
    pmcd_stop "$work/g/pmcd"
    rm -rf "$work"
}
trap cleanup EXIT
port=$(free_port) || fail "no free port"
pmcd_start_agent "$work/g" "$port" || fail "pmcd with the agent"
h=localhost:$port

value() { agent_value "$port" "$1" syscall-null; }

# --- killed: the lease ends the guest's run -------------------------------
"$bin" --batch syscall-null -r 50 --overlap --lease 3 -h "g=$h" \
    -o "$work/r1.txt" 2>"$work/err1" &
pid=$!
wait_for 20 agent_running "$port" syscall-null || { cat "$work/err1"; fail "not running on g"; }
args=$(value parallax.workload.args)
[[ "$args" == *" --lease="* ]] || fail "started without a lease: '$args'"
lease_ends_run "$pid" "$port" 3 "$work/g/agent.log"
{ wait "$pid"; } 2>/dev/null
pid=
echo "ok: --batch killed: the guest's run ended $took s later (lease 3 s), by its lease"

# --- alive: renewals keep the run going past the lease --------------------
s0=$(stall_s)
"$bin" --batch syscall-null -r 8 --overlap --lease 2 -h "g=$h" \
    -o "$work/r2.txt" 2>"$work/err2" &
pid=$!
wait_for 20 agent_running "$port" syscall-null || { cat "$work/err2"; fail "not running on g (2)"; }
[[ "$(value parallax.workload.args)" == *" --lease="* ]] || fail "started without a lease (2)"
# past the lease (more than 3 repeats of 1 s), still running, its lease
# renewed: more left than the 2 s less the time since the start
past_lease() { [ "$(value parallax.workload.repeats_done)" -ge 3 ] 2>/dev/null; }
wait_for 20 past_lease || fail "3 repeats not done"
[ "$(value parallax.workload.state)" = running ] || fail "the run ended while parallax was alive"
left=$(value parallax.workload.lease)
within_early "$left" 0.5 2 "$s0" || fail "lease left after 3 s: '$left' (renewals every 1/3 s)"
wait "$pid"
rc=$?
pid=
[ "$rc" -eq 0 ] || { cat "$work/err2"; fail "batch exited $rc"; }
grep -qE '^ +g +done +8 ' "$work/r2.txt" || {
    sed -n '/^WORKLOADS/,/^INDEX/p' "$work/r2.txt"
    fail "the guest's 8 repeats are not in the report"
}
[ "$(grep -c 'lease of syscall-null ran out' "$work/g/agent.log")" -eq 1 ] ||
    fail "a lease ran out while parallax was alive"
grep -q 'takes no lease' "$work/err2" && fail "parallax says the agent takes no lease"
echo "ok: --batch alive: 8 repeats of 1 s completed under a 2 s lease ($left s left after 3)"

# --- cut off: renewals refused, the lease runs out ------------------------
"$bin" --batch syscall-null -r 50 --overlap --lease 3 -h "g=$h" \
    -o "$work/r3.txt" 2>"$work/err3" &
pid=$!
wait_for 20 agent_running "$port" syscall-null || { cat "$work/err3"; fail "not running on g (3)"; }
sed -i 's/^allow "local:\*" : all;$/allow "local:*" : fetch;\ndisallow "local:*" : store;/' \
    "$work/g/pmcd/pmcd.conf"
kill -HUP "$(cat "$work/g/pmcd/pid")"
t0=$(date +%s.%N) s0=$(stall_s)
wait_for 10 agent_not_running "$port" syscall-null ||
    fail "the guest's run went on 10 s after its stores were refused (lease 3 s)"
took=$(since "$t0")
within_late "$took" 2.2 4.7 "$s0" || fail "the guest's run ended $took s after the cut; the lease is 3 s"
said() { grep -q 'g: renewing the lease of its runs failed: pmcd refused the store' "$work/err3"; }
wait_for 5 said || { cat "$work/err3"; fail "parallax did not say the renewals failed"; }
wait_for 5 grep -q 'syscall-null: host [0-9]*/50 g stopped' "$work/err3" ||
    { cat "$work/err3"; fail "parallax does not show the guest's run stopped"; }
kill -INT "$pid"
wait "$pid"
rc=$?
pid=
[ "$rc" -eq 130 ] || { cat "$work/err3"; fail "batch exited $rc after SIGINT, not 130"; }
[ "$(grep -c 'renewing the lease' "$work/err3")" -eq 1 ] ||
    { cat "$work/err3"; fail "the failed renewals were not said once"; }
grep -q '^parallax: syscall-null on g: stopped there, not by this parallax (its lease ran out' \
    "$work/err3" || { cat "$work/err3"; fail "no reason for the guest's stopped run"; }
echo "ok: cut off: the renewals failed (said once), the guest's run ended $took s later (lease 3 s)"
