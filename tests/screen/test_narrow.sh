#!/bin/bash
# The side-by-side screen at 80x24 with this host and two real pmcd guests
# (g1 takes stores, r refuses them): the column headers keep the short
# kernel release, CPUs, memory and +pmda; Tab brings the Time rows into
# view (the clock offset of each guest) and PgUp/PgDn scroll them; a failed
# snapshot and a refused store put their cause and their fix on screen,
# wrapped onto a second status row where needed, and whole into the log.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
. "$here/pmcd.sh"
use_build

work=$(mktemp -d)
tmux_use parallax-narrow
cleanup() {
    tmux_stop
    pmcd_stop "$work/g1/pmcd"
    pmcd_stop "$work/r/pmcd"
    rm -rf "$work"
}
trap cleanup EXIT
# the status rows (the second only when a message needs it)
status() { screen | sed -n 2,3p; }
log=$work/state/parallax/parallax.log

pmcd_two_agents "$work/g1" "$work/r" 'disallow * : store;'
echo "ok: guests g1 ($p1) and r ($p2, refuses stores)"

# a report directory that cannot be made (a file is in its way), with a
# path long enough that a cut line would lose the cause after it
touch "$work/file"
reports=$work/file/a-report-directory-with-a-long-name/and-another-below-it
export XDG_STATE_HOME=$work/state
tmux_new 80 24 \
    "$bin -t 1 -r 1 -v --report-dir $reports -h g1=localhost:$p1 -h r=localhost:$p2; echo EXIT=\$?; sleep 60"

# headers: each column says kernel, CPUs and memory, and +pmda for both
info='[0-9]+\.[0-9]+ [0-9]+cpu [0-9.]+[KMGT]'
wait_for 15 bash -c "tmux -L $sock capture-pane -p -t t | grep -o '+pmda' | wc -l | grep -q 2" ||
    { screen; fail "+pmda not shown for both guests at 80 columns"; }
[ "$(screen | grep -oE "$info" | wc -l)" -eq 3 ] ||
    { screen; fail "kernel, CPUs and memory not in all three headers"; }
echo "ok: headers at 80 columns: $(screen | grep -E "$info" | head -1 | tr -s ' ')"

# the counters fill the height: the Time rows are below, and the rule says so
wait_for 10 has '^ctx switch/s +[0-9.]+[kMG]? .* [0-9.]+ +[0-9.]+[kMG]? .* [0-9.]+$' ||
    { screen; fail "counter ratios missing"; }
hasnt '^clock offset' || { screen; fail "Time rows shown without Tab"; }
has '─ workloads [0-9]+-[0-9]+ of [0-9]+ ─.* PgDn more ─' || { screen; fail "no hint of more rows"; }

# Tab: the Time rows, with each guest's fitted clock offset
tm send-keys -t t Tab
off='[+-][0-9.]+(µs|ms) ±[0-9.]+(ns|µs|ms)'
wait_for 20 has "^clock offset +- +$off +- +$off +-\$" ||
    { screen; fail "Tab did not show the clock offsets"; }
has '^─ time ─' && has '^CPU billed/wall ' && has '^probe 10ms took ' ||
    { screen; fail "Time rows incomplete"; }
echo "ok: Tab shows the Time rows: $(screen | grep '^clock offset' | tr -s ' ')"
# PgUp back to the top of the counters, PgDn down to the Time rows
tm send-keys -t t PgUp PgUp
wait_for 5 has '^CPU user % ' || { screen; fail "PgUp did not scroll up"; }
hasnt '^clock offset' || { screen; fail "PgUp left the Time rows in view"; }
tm send-keys -t t PgDn PgDn
wait_for 5 has '^clock drift ' || { screen; fail "PgDn did not scroll down"; }
has '─ workloads [0-9]+-[0-9]+ of [0-9]+ ─.* PgUp more ─' || { screen; fail "no hint of rows above"; }
# Tab again: the workloads; and again: the counters from their top
tm send-keys -t t Tab Tab
wait_for 5 has '^CPU user % ' || { screen; fail "Tab did not come back"; }
echo "ok: PgUp/PgDn scroll, Tab cycles"

# a failed snapshot: the cause first, the whole message in the log
tm send-keys -t t s
wait_for 5 bash -c "tmux -L $sock capture-pane -p -t t | sed -n 2p | grep -q '^ not saved: Not a directory (cannot create '" ||
    { screen; fail "no cause first for a failed save"; }
grep -qF "status: not saved: Not a directory (cannot create $reports)" "$log" ||
    { tail "$log"; fail "the whole save error is not in the log"; }
wait_for 5 has '^CPU user % +[0-9]' || { screen; fail "stopped after a failed save"; }
echo "ok: failed save: $(status | tr -s ' ' | tr '\n' ' ')"

# a refused store: who refused, and the whole fix, on the status rows
tm send-keys -t t Space
wait_for 15 bash -c "tmux -L $sock capture-pane -p -t t | sed -n 2p | grep -q '^ r: pmcd refused the store'" ||
    { screen; fail "no refusal for r"; }
status | tr '\n' ' ' | grep -qE 'pmcd\.conf.*restart pmcd' ||
    { screen; fail "the fix for r is cut"; }
for row in 2 3; do
    [ "$(screen | sed -n ${row}p | wc -L)" -le 80 ] || fail "status row $row too wide"
done
grep -qE "status: r: pmcd refused the store.*pmcd\.conf.*restart pmcd" "$log" ||
    { tail "$log"; fail "the whole refusal is not in the log"; }
echo "ok: refusal: $(status | tr -s ' ' | tr '\n' ' ')"
tm send-keys -t t x
wait_for 5 has '^ stopping every workload' || { screen; fail "x did not answer"; }
wait_for 15 has '^  syscall-null ' || { screen; fail "syscall-null did not stop"; }

tm send-keys -t t q
wait_for 15 has '^EXIT=0$' || { screen; fail "q did not exit 0"; }
echo "all 80x24 checks passed"
