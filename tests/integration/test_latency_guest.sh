#!/bin/bash
# A guest's latencies in real time (issue 27): a private pmcd with
# pmdaparallax under faketime at x0.5 (its clock gives half a second per
# real one). Batch runs timer-lat on it; while it runs, this script stops
# the run's processes (SIGSTOP to its group) for a span it times on the
# host's clock, then lets them go on. The largest latency the guest's
# clock measured is half that span; parallax must show the span itself:
# the JSON's "lat max" and its histogram's max in real time, within an
# interval below and half a second above (a busy machine), the clock's
# rate 0.5, and the histogram's buckets adding up to its samples. The
# agent publishes the same distribution as PCP metrics: the bucket
# instances' counts add up to parallax.latency.samples, and its max is
# the guest's own word (half the real one).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
. "$here/pmcd.sh"
use_build

rate=0.5
work=$(mktemp -d)
batch=
trap '[ -n "$batch" ] && kill "$batch" 2>/dev/null; pmcd_stop "$work/g/pmcd"
      rm -rf "$work"' EXIT
port=$(free_port) || fail "no free port"
pmcd_faketime "$rate" pmcd_start_agent "$work/g" "$port" ||
    fail "pmcd with the agent under faketime"
agent=$(pgrep -o -f "pmdaparallax -d $PMCD_AGENT_DOMAIN -h $work/g/help")
[ -n "$agent" ] || fail "no agent process"

"$bin" --batch timer-lat -r 1 -h "slow=localhost:$port" -o "$work/r.txt" \
    >"$work/out" 2>&1 &
batch=$!

# the run's process: the agent's child that leads its own group and has
# threads (timer-lat's measuring thread); read from /proc alone, as the
# run lasts a second and a loaded machine makes every command slow
run_pid() {
    local c st
    for c in $(cat /proc/"$agent"/task/*/children 2>/dev/null); do
        read -r -a st <"/proc/$c/stat" 2>/dev/null || continue
        [ "${st[4]}" = "$c" ] && [ "${st[19]}" -ge 2 ] && echo "$c" && return
    done
}
# watched through /proc, not the agent's state: a fetch of that takes a
# good part of the run's second on a loaded machine
has_run() { [ -n "$(run_pid)" ]; }
for _ in $(seq 3000); do has_run && break; sleep 0.02; done
has_run || { cat "$work/out"; fail "the guest's run never started"; }
sleep 0.1 # some wakes first
stopped=
for _ in $(seq 20); do # a process found may be gone a moment later
    pid=$(run_pid)
    t0=$(date +%s.%N)
    [ -n "$pid" ] && kill -STOP -- "-$pid" 2>/dev/null && stopped=1 && break
    sleep 0.05
done
[ -n "$stopped" ] || { ps -o pid,ppid,pgid,nlwp,args --ppid "$agent"; fail "cannot stop the run"; }
sleep 0.4
t1=$(date +%s.%N)
kill -CONT -- "-$pid"
stood=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }') # no bc on a fresh machine
echo "stopped the guest's run for $stood s by the host's clock"
wait "$batch" || { cat "$work/out" "$work/r.txt"; fail "batch exited $?"; }
batch=
sed -n '/^LATENCY/,/^INDEX/p' "$work/r.txt" | head -20

python3 - "$work/r.json" "$rate" "$stood" <<'PY' || fail "JSON: the guest's latencies in real time"
import json, sys
d = json.load(open(sys.argv[1]))
rate, stood = float(sys.argv[2]), float(sys.argv[3])
g = d["sources"][1]["workloads"]["timer-lat"]
x = {e["name"]: e["value"] for e in g["extras"]}
h = g["histogram"]
mx = x["lat max"] * 1e-6
print(f"guest: max {mx:.4f} s real (its clock said {mx * g['clock_rate']:.4f}), "
      f"p50 {x['lat p50']:.1f} us, clock x{g['clock_rate']:.4f}; stopped {stood:.4f} s")
assert g["basis"] == "real", g["basis"]
assert abs(g["clock_rate"] / rate - 1) < 0.05, g["clock_rate"]
# the interval is 1 ms by the guest's clock: 2 ms real
assert stood - 2e-3 - 0.01 <= mx <= stood + 2e-3 + 0.5, (mx, stood)
assert abs(h["max_ns"] * 1e-9 - mx) < 1e-6 * mx, (h["max_ns"], mx)
assert sum(b["count"] for b in h["buckets"]) == h["samples"] == x["samples"], h
assert h["clock_rate"] == g["clock_rate"]
# the 0.4 s stop and the rest: the buckets hold it in real time
top = max(h["buckets"], key=lambda b: b["lo_ns"])
assert top["lo_ns"] <= h["max_ns"] < (top["hi_ns"] or 1e30), top
PY

# the agent's own metrics: its clock's word
pminfo -h "localhost:$port" -f parallax.latency.count parallax.latency.samples \
    parallax.latency.max >"$work/m" || fail "pminfo of parallax.latency"
python3 - "$work/m" "$stood" "$rate" <<'PY' || fail "the agent's latency metrics"
import re, sys
text = open(sys.argv[1]).read()
stood, rate = float(sys.argv[2]), float(sys.argv[3])
counts = sum(int(v) for v in re.findall(r'inst \[\d+ or "timer-lat/\d+"\] value (\d+)', text))
samples = int(re.search(r'"timer-lat"\] value (\d+)', text.split("parallax.latency.samples")[1]).group(1))
mx = float(re.search(r'"timer-lat"\] value ([0-9.e+-]+)', text.split("parallax.latency.max")[1]).group(1))
print(f"agent: {samples} samples, buckets add to {counts}, max {mx:.4f} s by its clock")
assert counts == samples > 0, (counts, samples)
assert (stood - 0.01) * rate <= mx <= (stood + 0.5) * rate, (mx, stood)
PY
echo "ok"
