#!/bin/bash
# A guest whose clock follows its instructions (the demo guest under qemu
# -icount shift=5,sleep=off: some hundred times real time idle, a few times
# busy), on the live screen: the clock rate row says the rate varies and
# over what range, not one rate with a tight error; the sleep workload,
# started on the guest alone, ends with its figure in real time, marked
# as differing from the guest's own ("said×..."), coloured; and the
# snapshot's real length of the run agrees within 10% with this
# script's own timing of the run on the host's clock (polling the guest's
# pmcd for its state, running to done, independently of parallax).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
. "$here/pmcd.sh"
use_build
[ -s "$PARALLAX_BUILD/guest/initramfs.cpio.gz" ] ||
    fail "no guest image in $PARALLAX_BUILD/guest; run make guest"

tmux_use parallax-icount -J
work=$(mktemp -d)
boot=
poller=
cleanup() {
    tmux_stop
    [ -n "$poller" ] && kill "$poller" 2>/dev/null
    [ -n "$boot" ] && kill "$boot" 2>/dev/null && wait "$boot"
    rm -rf "$work"
}
trap cleanup EXIT

"$here/../guest/boot.sh" --build "$PARALLAX_BUILD/guest" --icount fast \
    >"$work/boot.out" 2>"$work/boot.err" &
boot=$!
wait_for 90 grep -q '^PORT=' "$work/boot.out" ||
    { cat "$work/boot.err"; fail "the icount guest did not come up"; }
port=$(sed -n 's/^PORT=\([0-9]*\) .*/\1/p' "$work/boot.out")
echo "ok: icount guest up, pmcd on $port"

mkdir "$work/reports"
tmux_new 200 60 "$bin -t 0.5 -r 40 -h ic=localhost:$port --report-dir $work/reports; echo EXIT=\$?; sleep 60"
wait_for 20 has 'pcp localhost:[0-9]+ \+pmda' || { screen; fail "guest not live"; }
wait_for 40 has '^clock rate 10s +- +×[0-9.]+ +varies ×[0-9.]+-[0-9.]+' ||
    { screen | grep -E '^clock'; fail "the rate row does not say it varies"; }
echo "ok: $(screen | grep -E '^clock rate 10s' | sed 's/  */ /g')"

# this script's own timing of the guest's sleep run, by the host's clock;
# the host sits the run out: '0', then sleep (the 24th workload), Space
state_poller "$port" sleep >"$work/states" &
poller=$!
tm send-keys -t t 0
wait_for 5 has 'host takes no part in workloads' || { screen; fail "0 key"; }
for _ in $(seq 23); do tm send-keys -t t Down; done
tm send-keys -t t Space
wait_for 10 has '^> sleep ' || { screen; fail "sleep did not start"; }
wait_for 60 has '^  sleep +-?[0-9.]+(ns|µs|ms|s) ' ||
    { screen | grep -E 'sleep'; fail "sleep did not end"; }
wait_for 10 grep -q ' done$' "$work/states" || true
kill "$poller"
poller=
tm send-keys -t t s
wait_for 10 bash -c "ls $work/reports/*.json >/dev/null 2>&1" ||
    { screen; fail "no snapshot"; }
has '^  sleep .* said[× ]-?[0-9.]+' || {
    screen | grep -E 'sleep'
    python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["sources"][1]["workloads"]["sleep"])' \
        "$work"/reports/*.json
    fail "sleep did not end with its divergence"
}
echo "ok: $(screen | grep -E '^  sleep ' | sed 's/  */ /g')"
# its marks are drawn in the colour of a bad ratio (theme default: red)
tm capture-pane -p -e -J -t t | grep -E '^.*sleep' | grep -q $'\e\[[0-9;]*31m\|\e\[[0-9;]*38;5;' ||
    fail "the divergence is not coloured"
cat "$work/states"
span=$(poller_span "$work/states")
[ -n "$span" ] || fail "the poller never saw sleep run and end"
python3 - "$work"/reports/*.json "$span" <<'PY' || fail "JSON: the run's real length"
import json, sys
d = json.load(open(sys.argv[1]))
span = float(sys.argv[2])
g = d["sources"][1]["workloads"]["sleep"]
print(f"parallax: the run {g['run_real_s']:.3f} s real, its repeats "
      f"{g['real_s']:.3f} s real and {g['said_s']:.1f} s by the guest's clock "
      f"(x{g['clock_rate']:.0f}); the host's poll: {span:.3f} s")
assert g["basis"] == "real" and g["divergent"], g
assert g["clock_rate"] > 20, g
assert g["real_s"] <= g["run_real_s"], g
assert abs(g["run_real_s"] / span - 1) < 0.1, (g["run_real_s"], span)
assert d["sources"][1]["time"]["rate"]["unsteady"], d["sources"][1]["time"]
PY
echo "ok: the run's real length agrees with the host's own timing"

tm send-keys -t t q
wait_for 5 has '^EXIT=0$' || { screen; fail "q did not exit 0"; }
