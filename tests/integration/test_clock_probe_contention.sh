#!/bin/bash
# CPU billed/wall tells why it is off: with three stress-ng hogs pinned on
# the CPU parallax is pinned to (the first it may use: the same contention
# on a machine of any number of CPUs), the host's clock probe spins for
# only part of its wall time, and the row says that time went to waiting
# for a CPU (the run queue: local contention), not just "off". The split
# the JSON gives adds up: ran + waited + lost = 1, where ran + waited may
# not pass 1 (the probe cannot run and wait at once, both within its wall;
# their clocks, the scheduler's and CLOCK_MONOTONIC, agree to NTP's 500
# ppm at most).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
use_build
command -v stress-ng >/dev/null || fail "no stress-ng; run make deps"

work=$(mktemp -d)
hog=
trap '[ -n "$hog" ] && kill "$hog" 2>/dev/null && wait "$hog"; rm -rf "$work"' EXIT
cpu=$(first_cpu)
hogs=3
stress-ng --cpu "$hogs" --taskset "$cpu" --timeout 60s --quiet &
hog=$!
busy() { [ "$(pgrep -c -P "$hog")" -ge "$hogs" ]; }
wait_for 10 busy || fail "stress-ng did not start its $hogs hogs"

taskset -c "$cpu" "$bin" --text -n 4 -t 0.5 >"$work/out" || fail "--text exited $?"
row=$(grep -E '^CPU billed/wall' "$work/out" | tail -1)
echo "beside $hogs stress-ng hogs on CPU $cpu: $row"
echo "$row" | grep -qE '^CPU billed/wall +!?0\.[0-9]+ off: waited [0-9]+%' ||
    fail "the host's row does not say it waited: $row"

taskset -c "$cpu" "$bin" --batch syscall-null -r 1 -o "$work/r.txt" 2>/dev/null ||
    fail "batch exited $?"
kill "$hog" && wait "$hog"
hog=
python3 - "$work/r.json" <<'PY' || fail "JSON billed_split"
import json, sys
b = json.load(open(sys.argv[1]))["sources"][0]["time"]["billed_split"]
print("split:", b)
assert b["waited"] > 0.2 and b["ran"] < 0.8, b
assert b["ran"] + b["waited"] <= 1 + 1e-3, b
assert abs(b["ran"] + b["waited"] + b["lost"] - 1) < 1e-9, b
PY
echo "ok: the host's billed/wall says it waited for a CPU"
