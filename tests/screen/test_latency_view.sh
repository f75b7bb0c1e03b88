#!/bin/bash
# The distribution view (issue 27) at 80x24: before any latency run the l
# key says none has finished; after timer-lat ran on this host (selected
# with the keys, started with Space) l draws its histogram: a header with
# the host's p99 and max, rows of buckets whose counts add up to the run's
# samples (the JSON of a snapshot taken meanwhile, read independently of
# the screen), every line within 80 columns; c switches to shares (they
# add up to 100%); Right moves to wakeup-lat; any other key closes it.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
use_build

work=$(mktemp -d)
tmux_use parallax-latview
trap 'tmux_stop; rm -rf "$work"' EXIT
export XDG_STATE_HOME=$work/state
tmux_new 80 24 "$bin -t 0.5 -r 1 --report-dir $work/rep; echo EXIT=\$?; sleep 60"
wait_for 15 has 'workloads' || { screen; fail "no screen"; }

tm send-keys -t t l
wait_for 5 has 'no source has finished a repeat of it yet' ||
    { screen; fail "l with no latency run said nothing"; }
tm send-keys -t t q # closes the view, does not quit
wait_for 5 hasnt 'no source has finished' || { screen; fail "the view did not close"; }
has 'workloads' || { screen; fail "closing the view quit parallax"; }

# select timer-lat: the selection starts on the first workload; Down
# moves it one row (its place in the catalogue, from parallax-run --list)
pos=$("$PARALLAX_BUILD/parallax-run" --list | awk '/^[a-z]/ && NR > 1 { n++ } $1 == "timer-lat" { print n - 1; exit }')
[ -n "$pos" ] || fail "timer-lat not in the catalogue"
for _ in $(seq "$pos"); do tm send-keys -t t Down; done
tm send-keys -t t Space
wait_for 10 has '^> timer-lat' || { screen; fail "Space did not start timer-lat"; }
wait_for 60 has '^  timer-lat +[0-9]' || { screen; fail "timer-lat gave no figure"; }
tm send-keys -t t s # a snapshot: the JSON to check the screen against
wait_for 10 bash -c "ls $work/rep/*.json >/dev/null 2>&1" || { screen; fail "no snapshot"; }

tm send-keys -t t l
wait_for 5 has '^latency +host p99 ' || { screen; fail "no histogram header"; }
screen >"$work/counts"
tm send-keys -t t c
wait_for 5 has '%' || { screen; fail "c did not switch to shares"; }
screen >"$work/shares"
tm send-keys -t t Right
wait_for 5 has '^wakeup-lat' || { screen; fail "Right did not move to wakeup-lat"; }
tm send-keys -t t x # any other key closes (x is not passed on)
wait_for 5 hasnt '^wakeup-lat' || { screen; fail "the view did not close"; }
has '^  timer-lat +[0-9]' || { screen; fail "not back on the table"; }

cat "$work/counts"
python3 - "$work/counts" "$work/shares" "$(ls "$work"/rep/*.json | head -n 1)" <<'PY' ||
import json, re, sys
counts, shares = open(sys.argv[1]).read().splitlines(), open(sys.argv[2]).read().splitlines()
h = json.load(open(sys.argv[3]))["sources"][0]["workloads"]["timer-lat"]["histogram"]
assert all(len(l) <= 80 for l in counts + shares), "a line wider than 80"
row = re.compile(r"^(<|>=)?[0-9.]+[nµum]?s(-[0-9.]+[nµum]?s)? +([0-9]+)( |$)")
n = sum(int(m.group(3)) for l in counts if (m := row.match(l)))
print(f"screen rows add up to {n}; the snapshot's histogram has {h['samples']}")
assert n == h["samples"], (n, h["samples"])
srow = re.compile(r"^(<|>=)?[0-9.]+[nµum]?s(-[0-9.]+[nµum]?s)? +([0-9.]+)%")
pct = sum(float(m.group(3)) for l in shares if (m := srow.match(l)))
print(f"shares add up to {pct:.1f}%")
assert abs(pct - 100) < 0.05 * len([l for l in shares if srow.match(l)]) + 0.1, pct
PY
    { cat "$work/counts"; fail "the view's rows against the snapshot"; }
echo ok
