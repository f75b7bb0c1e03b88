#!/bin/bash
# Latency distributions in recordings (issue 27): a batch of timer-lat on
# this host and on a guest whose clock runs at x0.5 (a private pmcd with
# pmdaparallax under faketime), recorded with --record. Each archive holds
# the distribution parallax showed (parallax.workload.hist, read here by
# pmdumplog): the host's as measured, the guest's in real time. Checked
# against the agent's own word, read by pminfo from its pmcd: the same
# samples, its maximum over the clock's rate. A batch next to each
# archive (-a) replays the recorded distribution: the same buckets, and
# the same maximum as the recording.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
. "$here/pmcd.sh"
use_build

rate=0.5
work=$(mktemp -d)
trap 'pmcd_stop "$work/g/pmcd"; rm -rf "$work"' EXIT
export XDG_STATE_HOME=$work/state
port=$(free_port) || fail "no free port"
pmcd_faketime "$rate" pmcd_start_agent "$work/g" "$port" ||
    fail "pmcd with the agent under faketime"

"$bin" --batch timer-lat -r 1 -h "slow=localhost:$port" --record "$work/rec" \
    -o "$work/live.txt" >"$work/out" 2>&1 ||
    fail "the recorded batch exited $?: $(tail -3 "$work/out")"
pminfo -h "localhost:$port" -f parallax.latency.count parallax.latency.samples \
    parallax.latency.max >"$work/agent" || fail "pminfo of parallax.latency"

for name in host slow; do
    arch=$(find "$work/rec/$name" -name '*.meta' | sed 's/\.meta$//')
    [ -n "$arch" ] || fail "$name: no archive in $work/rec"
    pmdumplog "$arch" parallax.workload.hist >"$work/$name.dump" 2>&1 ||
        fail "$name: pmdumplog: $(tail -2 "$work/$name.dump")"
    "$bin" --batch timer-lat -r 1 -a "rec=$arch" -o "$work/$name-replay.txt" \
        >"$work/$name-replay.out" 2>&1 ||
        fail "$name: the batch next to its archive exited $?: $(tail -3 "$work/$name-replay.out")"
done

python3 - "$work" "$rate" <<'PY' || fail "see above"
import json, re, sys
work, rate = sys.argv[1], float(sys.argv[2])

def recorded(name):
    """the last parallax.workload.hist of timer-lat in name's archive"""
    vals = re.findall(r'"timer-lat"\] value "([^"]*)"', open(f"{work}/{name}.dump").read())
    assert vals, f"{name}: no recorded distribution"
    head, _, body = vals[-1].partition(";")
    n, mx, mn, _ = head.split()
    buckets = {int(i): int(c) for i, c in (kv.split(":") for kv in body.split(","))}
    assert sum(buckets.values()) == int(n), (name, n, buckets)
    return int(n), float(mx), float(mn), buckets

def workload(path, src):
    d = json.load(open(path))
    return next(s for s in d["sources"] if s["name"] == src)["workloads"]["timer-lat"]

def shown(h):
    """a JSON histogram's buckets as lo_ns: count"""
    return {round(b["lo_ns"], 3): b["count"] for b in h["buckets"]}

agent = open(f"{work}/agent").read()
a_counts = sum(int(v) for v in re.findall(
    r'inst \[\d+ or "timer-lat/\d+"\] value (\d+)', agent))
a_samples = int(re.search(r'"timer-lat"\] value (\d+)',
                          agent.split("parallax.latency.samples")[1]).group(1))
a_max = float(re.search(r'"timer-lat"\] value ([0-9.e+-]+)',
                        agent.split("parallax.latency.max")[1]).group(1))

for name in ("host", "slow"):
    n, mx, mn, buckets = recorded(name)
    live = workload(f"{work}/live.json", name)
    lh = live["histogram"]
    # what was recorded is what the run showed
    assert n == lh["samples"] and mx == lh["max_ns"] and mn == lh["min_ns"], (name, n, mx, lh)
    assert sum(b["count"] for b in lh["buckets"]) == n
    # and what a replay shows
    rep = workload(f"{work}/{name}-replay.json", "rec")
    rh = rep["histogram"]
    assert rh and rh["samples"] == n and rh["max_ns"] == mx, (name, rh)
    assert shown(rh) == shown(lh), (name, shown(rh), shown(lh))
    rx = {e["name"]: e["value"] for e in rep["extras"]}
    assert abs(rx["lat max"] * 1e3 - mx) <= 1e-6 * mx, (name, rx["lat max"], mx)
    print(f"{name}: recorded {n} samples in {len(buckets)} buckets, max "
          f"{mx / 1e3:.1f} us; the replay shows the same")
    if name == "slow":
        # the agent's word: the same samples, its maximum on its clock
        r = live["clock_rate"]
        assert abs(r / rate - 1) < 0.05, r
        assert a_counts == a_samples == n, (a_counts, a_samples, n)
        assert abs(mx * 1e-9 * r - a_max) <= 1e-6 * a_max, (mx, r, a_max)
        print(f"slow: the agent said {a_samples} samples, max {a_max * 1e6:.1f} us "
              f"by its clock; recorded {mx / 1e3:.1f} us real (x{r:.4f})")
PY
echo "record latency: ok"
