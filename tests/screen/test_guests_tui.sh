#!/bin/bash
# The side-by-side screen with two real pmcd instances as guests, both
# running pmdaparallax: both columns fill and show ratios; Space on a
# workload runs it on the host and on the guest that allows stores, with
# live figures, then statistics and a ratio and the index; the guest that
# refuses stores says why and which pmcd.conf line fixes it; Space again
# stops a run everywhere; a guest whose pmcd dies goes down within three
# intervals while keys still answer, and comes back by itself.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
. "$here/pmcd.sh"
use_build

work=$(mktemp -d)
tmux_use parallax-guests -J
cleanup() {
    tmux_stop
    pmcd_stop "$work/g1/pmcd"
    pmcd_stop "$work/r/pmcd"
    rm -rf "$work"
}
trap cleanup EXIT
row() { screen | grep -E "^[> ] $1 " | head -1; }
# a finished workload cell: the figure, any marks (shared: host and g1 ran
# at once), the median's interval and the unit
cell='[0-9.]+[^ ]*( [^ ]+)* [0-9.]+[^ ]*\.\.[0-9.]+[^ ]*'

pmcd_two_agents "$work/g1" "$work/r" 'disallow * : store;'
echo "ok: guests g1 ($p1) and r ($p2, refuses stores)"

tmux_new 150 40 \
    "$bin -t 1 -h g1=localhost:$p1 -h r=localhost:$p2; echo EXIT=\$?; sleep 60"
wait_for 15 bash -c "tmux -L $sock capture-pane -p -t t | grep -o '+pmda' | wc -l | grep -q 2" ||
    { screen; fail "both guests not live with pmdaparallax"; }
wait_for 10 bash -c "tmux -L $sock capture-pane -p -t t | grep -qE '^ctx switch/s +[0-9.]+[kMG]? +.* [0-9.]+ +[0-9.]+[kMG]? +.* [0-9.]+\$'" ||
    { screen; fail "counter ratios missing"; }
echo "ok: both columns live, ratios shown"

# syscall-null is the first workload: select it and start it everywhere
tm send-keys -t t Down Up Space
wait_for 10 bash -c "tmux -L $sock capture-pane -p -J -t t | grep -qE '^> syscall-null +[0-9.]+(ns|µs) > [0-9]/3 +[0-9.]+(ns|µs) > [0-9]/3'" ||
    { screen; fail "no live figures on host and g1"; }
echo "ok: running on host and g1: $(row syscall-null)"
wait_for 10 has "r: pmcd refused the store; on the guest add 'allow \"(127\.0\.0\.1|::1)\" : store;' to \[access\] in pmcd.conf" ||
    { screen; fail "no refusal with its fix for r"; }
echo "ok: r's refusal shown with the pmcd.conf line"
wait_for 20 bash -c "tmux -L $sock capture-pane -p -J -t t | grep -qE '^  syscall-null +$cell +$cell +[0-9.]+ +failed'" ||
    { screen; fail "no statistics and ratio after the repeats"; }
has '^  index .* [0-9]+\.[0-9]+ ' || { screen; fail "no index"; }
echo "ok: done: $(row syscall-null)"

# start syscall-read, then stop it by key while it runs
tm send-keys -t t Down Space
wait_for 10 bash -c "tmux -L $sock capture-pane -p -J -t t | grep -qE '^> syscall-read +[0-9.]+(ns|µs) > .* [0-9.]+(ns|µs) > '" ||
    { screen; fail "syscall-read not running on host and g1"; }
tm send-keys -t t Space
wait_for 10 bash -c "tmux -L $sock capture-pane -p -J -t t | grep -qE '^  syscall-read '" ||
    { screen; fail "syscall-read did not stop"; }
echo "ok: started and stopped by key: $(row syscall-read)"

# g1's pmcd dies: down within three intervals, keys still answer
pmcd_stop "$work/g1/pmcd"
t0=$SECONDS
wait_prompt 4 has 'down [0-9]+s, retry' || { screen; fail "g1 not down"; }
echo "ok: g1 down after $((SECONDS - t0)) s"
tm send-keys -t t x
wait_prompt 2 has '^ stopping every workload' || { screen; fail "keys dead"; }
echo "ok: keys answer while g1 is down"
pmcd_start_agent "$work/g1" "$p1" || fail "pmcd did not restart"
wait_for 40 bash -c "tmux -L $sock capture-pane -p -t t | grep -o '+pmda' | wc -l | grep -q 2" ||
    { screen; fail "g1 did not come back"; }
echo "ok: g1 live again"

tm send-keys -t t q
wait_for 5 has '^EXIT=0$' || { screen; fail "q did not exit 0"; }
echo "all side-by-side checks passed"
