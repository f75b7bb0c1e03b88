#!/bin/bash
# Small windows say everything they show whole (issue 16.16): at 30x10 the
# too-small message (it was cut: "terminal 30x10 is too small: n"); at 60
# columns the help, whose descriptions wrap (they were cut at the box's
# edge) and which ends with the legend of the table's marks; at 60x20
# with a two-row status, Tab to the Time rows shows them with their
# figures, not a heading alone.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
. "$here/pmcd.sh"
use_build

work=$(mktemp -d)
tmux_use parallax-small
cleanup() {
    tmux_stop
    pmcd_stop "$work/g1/pmcd"
    rm -rf "$work"
}
trap cleanup EXIT
size() { tm resize-window -t t -x "$1" -y "$2"; }

port=$(free_port) || fail "no free port"
pmcd_start_agent "$work/g1" "$port" || fail "pmcd with pmdaparallax on $port"
touch "$work/file" # in the way of the report directory: s fails, at length
export XDG_STATE_HOME=$work/state
tmux_new 80 24 "$bin -t 1 -r 1 --report-dir $work/file/reports/below \
-h g1=localhost:$port; echo EXIT=\$?; sleep 60"
tm set-option -g window-size manual
wait_for 15 has '\+pmda' || { screen; fail "g1 not live with pmdaparallax"; }

size 30 10
wait_for 5 has '^30x10 is too small: need 40x12$' ||
    { screen; fail "the too-small message is not whole at 30x10"; }
size 12 10
wait_for 5 has '^need 40x12$' && has '^window 12x10$' ||
    { screen; fail "the too-small message is not whole at 12x10"; }
echo "ok: too small, said whole at 30x10 and 12x10"

size 60 24
tm send-keys -t t F1
wait_for 5 has '─ keys ─' || { screen; fail "no help at 60x24"; }
# "count system calls (syscalls/s); each call costs more meanwhile"
wait_for 5 has '│ y +count system calls' || { screen; fail "no y in the help"; }
# its second line may be below the first page: Down until it shows
for _ in $(seq 6); do
    has '│ +[a-z ();/]*meanwhile +│' && break
    tm send-keys -t t Down
    sleep 0.3
done
has '│ +[a-z ();/]*meanwhile +│' || { screen; fail "y's description cut"; }
for _ in $(seq 12); do tm send-keys -t t PgDn; done # to its end
wait_for 5 has '│ ×  guest/host' || { screen; fail "no legend in the help"; }
echo "ok: the help wraps at 60 columns and has the legend"
tm send-keys -t t Escape
wait_for 5 hasnt '─ keys ─' || { screen; fail "the help did not close"; }

size 60 20
tm send-keys -t t s
wait_for 5 bash -c "tmux -L $sock capture-pane -p -t t | sed -n 3p | grep -q '^ [^ ]'" ||
    { screen; fail "no two-row status"; }
# Tab gives the height to the counters, the Time rows, the workloads in
# turn: within two rounds the Time rows show whole, figures and all
time_rows_whole() {
    screen >"$work/tab"
    grep -qE '^clock offset +- +[+-][0-9.]+(ns|µs|ms|s) ' "$work/tab" &&
        grep -qE '^clock drift +- ' "$work/tab" &&
        grep -qE '^CPU billed/wall ' "$work/tab"
}
whole=
for _ in 1 2 3 4 5 6; do
    tm send-keys -t t Tab
    wait_for 5 time_rows_whole && whole=1 && break
done
[ -n "$whole" ] || { cat "$work/tab"; fail "Tab at 60x20 never showed the Time rows whole"; }
echo "ok: Tab at 60x20 with two status rows: $(grep '^clock offset' "$work/tab" | tr -s ' ')"

tm send-keys -t t q
wait_for 10 has '^EXIT=0$' || { screen; fail "q did not exit 0"; }
echo "all small window checks passed"
