#!/bin/bash
# No guest run outlives the live screen killed outright: the real TUI in
# tmux with a real guest (a private pmcd with pmdaparallax), timed by this
# host's clock:
#   parallax --lease 3, Space starts syscall-null there with a lease,
#     renewed as 3 s in the guest's seconds (its clock keeps real time);
#     kill -9 of parallax, and the guest's run ends within the lease (3 s,
#     plus the agent's stop and this test's polls), not before the lease
#     less one renewal period: the agent's own timer ended it;
#   a parallax that stays alive (--lease 2) keeps its run going well past
#     the lease (6 repeats of 1 s), the agent's lease for it renewed all
#     along, until q and y stop it.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
. "$here/pmcd.sh"
use_build

work=$(mktemp -d)
tmux_use parallax-lease
cleanup() {
    tmux_stop
    pmcd_stop "$work/g/pmcd"
    rm -rf "$work"
}
trap cleanup EXIT
port=$(free_port) || fail "no free port"
pmcd_start_agent "$work/g" "$port" || fail "pmcd with the agent"
h=localhost:$port

value() { agent_value "$port" "$1" syscall-null; }

# start LEASE: parallax at the shell's prompt with that lease, syscall-null
# started on the host and the guest; sets pid
start() {
    tmux_parallax "$bin -r 50 --lease $1 -h g=$h"
    wait_for 15 has '\+pmda' || { screen; fail "g not live with pmdaparallax"; }
    tm send-keys -t t Down Up Space
    wait_for 10 agent_running "$port" syscall-null || { screen; fail "not running on g"; }
    [[ "$(value parallax.workload.args)" == *" --lease="* ]] ||
        fail "started without a lease: $(value parallax.workload.args)"
    pid=$(pgrep -o -f "^$bin -r 50 --lease $1 -h g=$h\$") || fail "no parallax"
}

tmux_shell 150 40

# --- killed: the lease ends the guest's run -------------------------------
start 3
lease_ends_run "$pid" "$port" 3 "$work/g/agent.log"
wait_for 10 has '^EXIT=137$' || { screen; fail "the shell did not see parallax killed"; }
echo "ok: parallax killed: the guest's run ended $took s later (lease 3 s), by its lease"

# --- alive: renewals keep the run going past the lease --------------------
tm send-keys -t t clear Enter
s0=$(stall_s)
start 2
done_at_least() { [ "$(value parallax.workload.repeats_done)" -ge "$1" ] 2>/dev/null; }
wait_for 30 done_at_least 6 || fail "6 repeats not done: $(value parallax.workload.state)"
[ "$(value parallax.workload.state)" = running ] || fail "the run ended while parallax was alive"
left=$(value parallax.workload.lease)
within_early "$left" 0.5 2 "$s0" || fail "lease left after 6 s: '$left' (renewals every 1/3 s)"
[ "$(grep -c 'lease of syscall-null ran out' "$work/g/agent.log")" -eq 1 ] ||
    fail "a lease ran out while parallax was alive"
tm send-keys -t t q
wait_for 5 has 'stop them and quit\? \(y/n\)' || { screen; fail "q did not ask"; }
tm send-keys -t t y
wait_for 10 has '^EXIT=0$' || { screen; fail "q, y did not exit 0"; }
wait_for 5 agent_not_running "$port" syscall-null || fail "q, y left the guest's run going"
echo "ok: parallax alive: its run went 6 repeats of 1 s under a 2 s lease ($left s left), q stopped it"
