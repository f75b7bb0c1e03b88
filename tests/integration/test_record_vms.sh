#!/bin/bash
# The host's view of its VMs in a recording (issue 26): parallax --batch
# with a demo guest (qemu TCG) and --record; this host's archive names the
# VM as an instance (NAME.PID) under parallax.vm.*, and:
#   - pmlogcheck passes it; pmdumplog gives the VM's kind, pid, guest and
#     how it was joined, and its last record's rows equal the JSON
#     report's vms[].figures (the report is written after it);
#   - its vCPUs' run and wait counters (parallax.vm.vcpu_run_time,
#     .vcpu_wait_time) grow between records as much as the vCPU thread's
#     schedstat that the test reads itself every 50 ms
#     (tests/integration/vcpu_run_read.py), interpolated at the time each
#     record says the VM was read (parallax.vm.read_mono): within 5 % over
#     the recording (run) and within 5 ms (wait, small on a quiet host);
#   - pmrep reads the counter's rate beside the vCPU run row: rate x 100
#     within 5 % of the row (the rows' intervals are the VM readings',
#     pmrep's the records').
# Usage: tests/integration/test_record_vms.sh BUILD_DIR
set -eu
cd "$(dirname "$0")/../.."
# shellcheck source=tests/lib.sh
. tests/lib.sh

PARALLAX_BUILD=${1:-build}
use_guest_image
# pmrep is a PCP python script: Debian's python3, whatever else is on PATH
pmrep() { PATH=/usr/bin:$PATH command pmrep "$@"; }
ours_tmp

"$bin" --batch=dhry --demo-guest -r 3 -o "$tmp/rep.txt" --record "$tmp/rec" \
    >"$tmp/out" 2>"$tmp/err" &
bp=$!
ours+=("$bp")
python3 tests/integration/vcpu_run_read.py "$bp" >"$tmp/vcpu" &
ours+=("$!")
wait "$bp" || fail "the batch failed: $(tail -3 "$tmp/err")"

arch=$(find "$tmp/rec/host" -name '*.meta' | sed 's/\.meta$//')
[ -n "$arch" ] || fail "no archive of this host in $tmp/rec"
pmlogcheck "$arch" >"$tmp/check" 2>&1 || fail "pmlogcheck: $(tail -3 "$tmp/check")"
pmdumplog "$arch" parallax.vm >"$tmp/dump" 2>&1 ||
    fail "pmdumplog: $(tail -2 "$tmp/dump")"
pmrep -a "$arch" -u -o csv -P 6 parallax.vm.vcpu_run_time parallax.vm.vcpu_run \
    >"$tmp/rep.csv" 2>"$tmp/rep.err" || fail "pmrep: $(tail -2 "$tmp/rep.err")"

python3 - "$tmp" <<'PY'
import json, re, sys
d = sys.argv[1]
rep = json.load(open(d + "/rep.json"))
vm = next(v for v in rep["vms"] if v.get("guest"))
inst = f'{vm["name"]}.{vm["pid"]}'
# records: timestamp lines, then "PMID (name): [inst [N or "NAME"]] value V"
recs, cur = [], None
for line in open(d + "/dump"):
    if re.match(r"^\d\d:\d\d:\d\d\.\d+ ", line):
        cur = {}
        recs.append(cur)
        continue
    m = re.search(r'\((parallax\.[\w.]+)\):(?: inst \[\d+ or "([^"]*)"\])? value (.*)', line)
    if m and cur is not None and (m.group(2) in (None, inst)):
        v = m.group(3).strip()
        cur[m.group(1)] = v.strip('"') if v.startswith('"') else float(v)
recs = [r for r in recs if "parallax.vm.vcpu_run_time" in r and "parallax.vm.read_mono" in r]
assert len(recs) >= 4, f"{len(recs)} records hold VM {inst}: {open(d + '/dump').read()[:400]}"
last = recs[-1]
assert last["parallax.vm.kind"] == "qemu", last
assert int(last["parallax.vm.pid"]) == vm["pid"]
assert last["parallax.vm.guest"] == vm["guest"] and last["parallax.vm.joined"] == "pid", last
for key, want in vm["figures"].items():
    got = last.get("parallax.vm." + key)
    if want is None:
        assert got is None, (key, got)
    else:
        assert got is not None and abs(got - want) <= 1e-9 * max(1, abs(want)), (key, got, want)

reads = [json.loads(l) for l in open(d + "/vcpu")]
def at(key, t):
    for a, b in zip(reads, reads[1:]):
        if a["t"] <= t <= b["t"]:
            return a[key] + (b[key] - a[key]) * (t - a["t"]) / (b["t"] - a["t"])
    return None
inside = [r for r in recs if at("run_ns", r["parallax.vm.read_mono"]) is not None]
assert len(inside) >= 4, f"{len(inside)} records inside the test's readings"
a, b = inside[0], inside[-1]
span = b["parallax.vm.read_mono"] - a["parallax.vm.read_mono"]
run = b["parallax.vm.vcpu_run_time"] - a["parallax.vm.vcpu_run_time"]
wait = b["parallax.vm.vcpu_wait_time"] - a["parallax.vm.vcpu_wait_time"]
own_run = (at("run_ns", b["parallax.vm.read_mono"]) - at("run_ns", a["parallax.vm.read_mono"])) / 1e9
own_wait = (at("wait_ns", b["parallax.vm.read_mono"]) - at("wait_ns", a["parallax.vm.read_mono"])) / 1e9
print(f"VM {inst}: {len(recs)} records; over {span:.1f}s recorded ran {run:.3f}s waited "
      f"{wait:.4f}s, the test read {own_run:.3f}s and {own_wait:.4f}s")
assert run > 0.5, f"the guest's vCPU ran {run:.3f}s: no test"
assert abs(run - own_run) <= 0.05 * own_run, (run, own_run)
assert abs(wait - own_wait) <= max(0.005, 0.05 * own_wait), (wait, own_wait)

rows = [l.strip().split(",") for l in open(d + "/rep.csv")][1:]
pairs = [(float(r[1]), float(r[2])) for r in rows if len(r) >= 3 and r[1] and r[2]]
busy = [(rate, row) for rate, row in pairs if row > 20]
assert busy, f"pmrep gave no busy interval: {rows[-5:]}"
near = sum(abs(rate * 100 - row) <= 0.05 * row for rate, row in busy)
print(f"pmrep: {len(busy)} busy intervals, {near} with rate x 100 within 5% of the row")
assert near >= len(busy) / 2, busy
PY
echo "record vms: ok"
