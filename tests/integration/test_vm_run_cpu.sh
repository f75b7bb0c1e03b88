#!/bin/bash
# A guest run against its vCPUs (issue 26): the CPU a demo guest (qemu
# TCG, 1 vCPU) billed a workload run beside what its vCPU ran on this host
# around the run. parallax --batch=dhry runs it; the JSON report's VM gives
# the span it read (t0, t1, host monotonic) and the vCPU time in it; this
# test reads the vCPU thread's schedstat itself every 50 ms
# (tests/integration/vcpu_run_read.py) and interpolates at t0 and t1:
#   A: on this host as it is, the vCPU time agrees with the test's reading
#      within 5 %, and the row is flagged exactly where the guest billed
#      more than 1.05 x what the test read (judged away from the edge);
#   B: while stress-ng --cpu 2 loads the host, the same; and the test's
#      reading must show the guest billing more than its vCPU ran (a TCG
#      guest counts the time the host held its vCPU as its own), so the
#      row flags it ("!x1.36", "dhry: billed 2.95s, ran 2.18/4.0s").
# Usage: tests/integration/test_vm_run_cpu.sh BUILD_DIR
set -eu
cd "$(dirname "$0")/../.."
# shellcheck source=tests/lib.sh
. tests/lib.sh

PARALLAX_BUILD=${1:-build}
use_guest_image
command -v stress-ng >/dev/null || fail "no stress-ng; run make deps"
ours_tmp

# batch CASE: one dhry run on the host and the demo guest, the guest's vCPU
# followed meanwhile
batch() {
    mkdir -p "$tmp/$1"
    "$bin" --batch=dhry --demo-guest -r 3 -o "$tmp/$1/rep.txt" \
        >"$tmp/$1/out" 2>"$tmp/$1/err" &
    local bp=$!
    ours+=("$bp")
    python3 tests/integration/vcpu_run_read.py "$bp" >"$tmp/$1/vcpu" &
    local rp=$!
    ours+=("$rp")
    wait "$bp" || fail "$1: the batch failed: $(tail -3 "$tmp/$1/err")"
    wait "$rp" || true
}

# judge CASE LOADED: the report's figures against the test's reading
judge() {
    python3 - "$tmp/$1" "$1" "$2" <<'PY'
import json, sys
d, case, loaded = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
rep = json.load(open(d + "/rep.json"))
vm = next(v for v in rep["vms"] if v.get("guest"))
run = vm.get("run")
assert run, f"{case}: no run against the vCPUs: {vm['notes']}"
reads = [json.loads(l) for l in open(d + "/vcpu")]
assert len(reads) > 10, f"{case}: the test read the vCPU {len(reads)} times"

def at(t):
    """vCPU run ns at host monotonic t, between the test's two readings"""
    for a, b in zip(reads, reads[1:]):
        if a["t"] <= t <= b["t"]:
            return a["run_ns"] + (b["run_ns"] - a["run_ns"]) * (t - a["t"]) / (b["t"] - a["t"])
    raise AssertionError(f"{case}: {t} outside the test's readings")

own = (at(run["t1"]) - at(run["t0"])) / 1e9
billed, ran = run["billed_s"], run["ran_s"]
fig = vm["figures"]["run_cpu"]
note = vm["notes"]["run_cpu"]
shown = open(d + "/rep.txt").read()
line = next(l for l in shown.splitlines() if l.startswith("run billed/ran"))
flag = "!" in line.split()[2]
print(f"{case}: billed {billed:.3f}s, parallax ran {ran:.3f}s, test read "
      f"{own:.3f}s over {run['t1'] - run['t0']:.2f}s; shown {line.split(None, 2)[2].strip()}")
assert abs(ran - own) <= 0.05 * own, f"{case}: ran {ran} vs own {own}"
assert abs(fig - billed / ran) < 1e-9, (fig, billed, ran)
assert note.startswith("dhry: billed "), note
if loaded:
    assert billed > 1.05 * own * 1.05, \
        f"{case}: the load did not hold the vCPU (billed {billed}, read {own}): no test"
if abs(billed / own - 1.05) > 0.05 * 1.05:  # away from the edge
    assert flag == (billed > 1.05 * own), f"{case}: flag {flag}: {line}"
elif not loaded:
    print(f"{case}: billed/read {billed / own:.3f}, too near 1.05 to judge the flag")
PY
}

batch A
judge A 0 || fail "A: see above"

stress-ng --cpu 2 --timeout 120s >/dev/null 2>&1 &
sp=$!
ours+=("$sp")
sleep 1
batch B
kill "$sp" 2>/dev/null || true
judge B 1 || fail "B: see above"
echo "vm run cpu: ok"
