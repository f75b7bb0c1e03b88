#!/bin/bash
# A guest's agent that dies mid-run neither hangs parallax nor leaves its
# workload behind. With a real guest (a private pmcd with pmdaparallax),
# --batch dhry runs there; once the guest has shown two repeats, kill -9
# of the agent (pmcd's child). pmcd starts a new agent, which knows
# nothing of the run and counts runs from 0 again: before the fix parallax
# waited for that run forever (the batch never ended; the report was
# written only when a signal stopped it). Now: the batch ends within a
# few intervals of the kill, exits 1, says on stderr that the agent there
# restarted, the JSON report marks the guest's run failed with that note
# and the host's run done; the killed agent's workload process is gone.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
. "$here/pmcd.sh"
use_build

work=$(mktemp -d)
pid=
cleanup() {
    [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
    pmcd_stop "$work/g/pmcd"
    rm -rf "$work"
}
trap cleanup EXIT
port=$(free_port) || fail "no free port"
pmcd_start_agent "$work/g" "$port" || fail "pmcd with the agent"

LANG=C "$bin" --batch dhry -r 8 -h "g=localhost:$port" -o "$work/r.txt" \
    2>"$work/err" &
pid=$!
shown() { grep -q " g [2-8]/8" "$work/err"; }
wait_for 60 shown || { cat "$work/err"; fail "the guest's run never showed two repeats"; }
pmcd=$(cat "$work/g/pmcd/pid")
agent=$(pgrep -P "$pmcd" -f pmdaparallax | head -1)
[ -n "$agent" ] || fail "no pmdaparallax under our pmcd $pmcd"
# the agent's children: its run's process (and its workload's)
kids=$(pgrep -P "$agent" | paste -sd' ')
[ -n "$kids" ] || fail "the agent $agent runs no workload process"
kill -9 "$agent"
t0=$(date +%s.%N)

ended() { ! kill -0 "$pid" 2>/dev/null; }
wait_for 30 ended || {
    cat "$work/err"
    fail "--batch still waits 30 s after the guest's agent was killed"
}
wait "$pid"
rc=$?
pid=
echo "batch ended $(since "$t0") s after the kill, exit $rc"
[ "$rc" = 1 ] || { cat "$work/err"; fail "exit $rc, not 1 (a run did not complete)"; }
grep -q "dhry on g: its agent there restarted during the run" "$work/err" ||
    { cat "$work/err"; fail "stderr does not say the agent restarted"; }
gone() { for k in $kids; do kill -0 "$k" 2>/dev/null && return 1; done; return 0; }
wait_for 10 gone || fail "the killed agent's workload process $kids outlived it"
# the new agent runs nothing of ours
[ -n "$(pgrep -P "$pmcd" -f pmdaparallax)" ] || fail "pmcd did not restart the agent"
python3 - "$work/r.json" <<'PY' || fail "the JSON report"
import json, sys
src = {s["name"]: s for s in json.load(open(sys.argv[1]))["sources"]}
g, h = src["g"]["workloads"]["dhry"], src["host"]["workloads"]["dhry"]
assert h["state"] == "done", h
assert g["state"] == "failed", g
assert "agent there restarted" in g["note"], g["note"]
print("report: host done, g failed:", g["note"])
PY
echo "ok: an agent killed mid-run ends its run in parallax, and nothing of it is left"
