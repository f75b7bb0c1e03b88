#!/bin/bash
# The fleet screen in a real terminal (tmux) over a real pmproxy, redis
# and a small pmlogger farm (fleet/farm.sh: 1 host, 3 guests, one under
# faketime at 1.01): rows with the fleet's distribution, sorting and a
# label filter by key, Enter opens the guest against its host side by
# side through /pmapi, Space there runs a workload on both (stores through
# pmproxy) and q stops it and comes back, a fleet run by key shows its
# progress and saves a report, and while pmproxy hangs the screen says
# so and keys still answer at once.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
. "$here/pmcd.sh"
use_build
command -v redis-server >/dev/null || fail "no redis-server; run make deps"

work=$(mktemp -d /tmp/parallax-fleet-tui.XXXXXX)
tmux_use parallax-fleet -J
cleanup() {
    tmux_stop
    [ -z "${pmproxy_pid:-}" ] || kill -CONT "$pmproxy_pid" 2>/dev/null
    "$here/../fleet/farm.sh" stop "$work"
    rm -rf "$work"
}
trap cleanup EXIT

FARM_HOSTS=1 FARM_FAKETIME=3 FARM_RATES=1.01 \
    "$here/../fleet/farm.sh" start "$work" 4 || fail "the farm did not start"
url=$("$here/../fleet/farm.sh" url "$work")
export XDG_STATE_HOME=$work/state

tmux_shell 150 30
tmux_parallax_fleet() {
    tm send-keys -t t "clear; $*; echo EXIT=\$?" Enter
}
tmux_parallax_fleet "$bin --fleet $url -t 1 -r 1 --report-dir $work/reports"
wait_for 45 has '^  g00[123] +h01 +live +[-+][0-9]+ ' ||
    { screen; fail "no guest rows with their drift"; }
wait_for 30 has '^  g003 +h01 +live +\+(9[5-9][0-9][0-9]|10[0-4][0-9][0-9]) ' ||
    { screen; fail "g003's clock (1.01) not shown as +10000 ppm"; }
has '^  median ' && has '^  p95 ' && has '^  worst +g003 ' ||
    { screen; fail "no distribution with the worst guest"; }
echo "ok: rows, drift worst first: $(screen | grep -E '^  g003')"

# sort by another column, then filter by label
tm send-keys -t t '>'
wait_for 3 has 'sorted by offset s, worst first' || { screen; fail "> did not sort"; }
tm send-keys -t t '/' 'variant:plain' Enter
wait_for 3 bash -c "! tmux -L $sock capture-pane -p -t t | grep -q '^  g003 '" ||
    { screen; fail "the filter kept g003"; }
has '^  g001 ' || { screen; fail "the filter dropped g001"; }
tm send-keys -t t '/' Enter
wait_for 3 has '^  g003 ' || { screen; fail "an empty filter did not clear it"; }
echo "ok: sorted by key, filtered by variant, filter cleared"

# Enter: the selected guest against its host, through pmproxy's /pmapi
tm send-keys -t t Home Enter
wait_for 15 has 'pmproxy /pmapi localhost:[0-9]+ \+pmda' ||
    { screen; fail "the pair did not open"; }
has '^ +h01 +g00[123] ' || { screen; fail "the pair's header is not host, guest"; }
wait_for 10 has '^CPU user % +[0-9.]+ .* [0-9.]+ .* [0-9.]+ *$' ||
    { screen; fail "no figures and ratio in the pair"; }
# a run in the pair: Space starts the selected workload on the host and
# the guest by stores through pmproxy; going back stops both
g=$(screen | grep -oE '^ +h01 +g00[123] ' | awk '{ print $2 }')
tm send-keys -t t Space
for s in h01 "$g"; do
    wait_for 15 agent_running "$(cat "$work/src/$s/port")" syscall-null ||
        { screen; fail "Space in the pair started no run on $s"; }
done
tm send-keys -t t q
wait_for 3 has 'stop them and quit' && tm send-keys -t t y
wait_for 5 has 'back from g00[123] against h01' || { screen; fail "q did not come back"; }
for s in h01 "$g"; do
    wait_for 5 agent_not_running "$(cat "$work/src/$s/port")" syscall-null ||
        fail "going back left $s's run going"
done
echo "ok: Enter opened $g against its host, Space ran on both, q stopped them and came back"

# a report with no run: its JSON's offsets hold against a direct fetch,
# once two guests show one (an offset needs a dozen logged ticks of the
# guest and its host, and an arrival bracket from two polls)
offsets() {
    [ "$(screen | grep -cE '^  g00[123] +h01 +live +[-+][0-9]+ +[-+±][0-9]')" -ge 2 ]
}
wait_for 30 offsets || { screen; fail "fewer than 2 guests with an offset"; }
tm send-keys -t t s
wait_for 5 has 'saved .*parallax-fleet-' || { screen; fail "no report saved"; }
/usr/bin/python3 "$here/fleet_offsets.py" \
    "$(ls "$work"/reports/parallax-fleet-*.json | head -1)" "$work" 2 ||
    fail "an offset outside the bounds the fleet claimed"
rm "$work"/reports/parallax-fleet-*

# a fleet run by key: progress per guest, then a report
tm send-keys -t t w
wait_for 3 has 'run on 3 guests' || { screen; fail "no run prompt"; }
tm send-keys -t t 'syscall-null' Enter
wait_for 5 has 'run syscall-null: [0-9]+ running' ||
    has 'running syscall-null on 3 guests' || { screen; fail "the run did not start"; }
wait_for 60 bash -c "tmux -L $sock capture-pane -p -J -t t | grep -cE '^  g00[123] .* done ' | grep -q 3" ||
    { screen; fail "the run did not finish on the 3 guests"; }
tm send-keys -t t s
wait_for 5 has 'saved .*parallax-fleet-' || { screen; fail "no report saved"; }
report=$(ls "$work"/reports/parallax-fleet-*.txt)
grep -q "syscall-null (ns, lower is better): 3 guests with a ratio" "$report" ||
    fail "report: $(head "$report")"
echo "ok: a fleet run by key, progress per guest, report $(basename "$report")"

# pmproxy hangs: the screen says so, keys answer at once
pmproxy_pid=$(cat "$work/proxy/pmproxy.pid")
kill -STOP "$pmproxy_pid"
wait_for 5 has 'no fleet data for .*(no answer|has not answered)' ||
    { screen; fail "a hanging pmproxy not shown"; }
# the filter prompt opens and closes at once
worst=0
for _ in 1 2 3 4; do
    t0=$EPOCHREALTIME
    tm send-keys -t t /
    wait_for 2 has '^ filter \(host:' || { screen; fail "no answer to / while pmproxy hangs"; }
    ms=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%d", (b - a) * 1000 }')
    [ "$ms" -gt "$worst" ] && worst=$ms
    tm send-keys -t t Escape
    wait_for 2 bash -c "! tmux -L $sock capture-pane -p -t t | grep -q '^ filter (host:'" ||
        { screen; fail "no answer to Escape while pmproxy hangs"; }
done
[ "$worst" -lt 500 ] || fail "a key took $worst ms while pmproxy hung"
echo "ok: pmproxy hung: said so; keys answered (worst $worst ms, tmux included)"
kill -CONT "$pmproxy_pid"
pmproxy_pid=
wait_for 10 has '^  g00[123] +h01 +live ' || { screen; fail "no recovery"; }

tm send-keys -t t q
wait_for 5 has '^EXIT=0' || { screen; fail "q did not quit with 0"; }
echo "ok: q quit"
