#!/bin/bash
# Workload rows that do not fit (issue 16.13, 16.16) at 120x40, this host
# and a guest with pmdaparallax: 8 to 12 of the 27 workloads show, and the
# workloads' rule says which and that PgDn has more (it said nothing, and
# PgDn did nothing there); PgDn and PgUp scroll them. `a` runs the quick
# suite: the selection follows it into rows that were hidden (dhry ran
# unseen), the status line says where the suite is and, once it ended,
# that it ended (it said "running the quick suite" 40 s after). 5 with two
# sources says there is no source 5 (it said nothing).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
. "$here/pmcd.sh"
use_build

work=$(mktemp -d)
tmux_use parallax-wlrows
cleanup() {
    tmux_stop
    pmcd_stop "$work/g1/pmcd"
    rm -rf "$work"
}
trap cleanup EXIT
status() { screen | sed -n 2p; }
rule() { screen | grep -m1 -E '^─ workloads'; }

port=$(free_port) || fail "no free port"
pmcd_start_agent "$work/g1" "$port" || fail "pmcd with pmdaparallax on $port"
export XDG_STATE_HOME=$work/state
tmux_new 120 40 "$bin -t 1 -r 1 -h g1=localhost:$port; echo EXIT=\$?; sleep 60"
wait_for 15 has '\+pmda' || { screen; fail "g1 not live with pmdaparallax"; }

# how many rows the workloads get here (the Time rows above take some)
wait_for 5 has '^─ workloads 1-[0-9]+ of 27 ─+ PgDn more ─$' ||
    { screen; fail "the rule does not say which workloads show"; }
n=$(screen | sed -nE 's/^─ workloads 1-([0-9]+) of 27 .*/\1/p')
# 8 to 12 (the counters take 16 rows, the Time rows some): dhry (the
# 19th) hidden at first
[ "$n" -ge 8 ] && [ "$n" -le 12 ] || { screen; fail "$n workload rows at 120x40"; }
hasnt '^  dhry( |$)' || { screen; fail "dhry shown at first"; }
echo "ok: $(rule | tr -s '─')"
# a page moves by all rows but one
tm send-keys -t t PgDn
wait_for 5 has "^─ workloads $n-$((2 * n - 1)) of 27 ─+ PgUp/PgDn more ─\$" ||
    { screen; fail "PgDn did not scroll the workloads"; }
tm send-keys -t t PgDn PgDn
wait_for 5 has "^─ workloads $((28 - n))-27 of 27 ─+ PgUp more ─\$" ||
    { screen; fail "PgDn did not reach the last workload"; }
has '^  wakeup-lat( |$)' || { screen; fail "the last workload not shown"; }
has '^  sched( |$)' || { screen; fail "sched not shown on the last page"; }
tm send-keys -t t PgUp PgUp PgUp
wait_for 5 has "^─ workloads 1-$n of 27 ─+ PgDn more ─\$" ||
    { screen; fail "PgUp did not scroll back"; }
echo "ok: PgDn and PgUp scroll the workloads"

# the quick suite: syscall-null, pipe-tput, then dhry, in a hidden row
tm send-keys -t t a
wait_for 10 has '^ running the quick suite: [12]/3 ' ||
    { screen; fail "no suite progress on the status line"; }
wait_for 60 has '^> dhry ' || { screen; fail "the suite ran dhry out of sight"; }
has '^ running the quick suite: 3/3 dhry' || { screen; fail "progress not at dhry"; }
echo "ok: followed: $(status | tr -s ' ')"
wait_for 60 has '^ the quick suite ended: 3 workloads' ||
    { screen; fail "the status line did not say the suite ended"; }
hasnt '^> ' || { screen; fail "a workload still runs"; }
has '^  dhry +[0-9.]+[kMG]? +loops/s' || { screen; fail "no dhry figure"; }
echo "ok: $(status | tr -s ' ')"

tm send-keys -t t 5
wait_for 5 has '^ no source 5: the sources are 0-1 \(0 is this host\)' ||
    { screen; fail "5 with two sources said nothing"; }
echo "ok: $(status | tr -s ' ')"

tm send-keys -t t q
wait_for 10 has '^EXIT=0$' || { screen; fail "q did not exit 0"; }
echo "all workload row checks passed"
