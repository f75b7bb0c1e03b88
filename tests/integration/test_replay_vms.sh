#!/bin/bash
# A replay shows the host's view as it was recorded (issue 26): parallax
# --text with a demo guest (qemu TCG, joined by pid) and --record prints
# each refresh's VM column; replaying this host's archive (-a DIR/host)
# prints a recorded VM column per refresh, and every one of them is, row
# for row (figure and detail, faults marked), a column the live run
# printed (but for the records before --text's first refresh: the VM's
# first reading and those while the guest had not answered, which a
# recording holds and --text, waiting for the guest's first answer, does
# not print): the archive (parallax.vm.*), the reader's process, the wire and
# the model carry what was shown and nothing else. The replay shows at
# least 4 distinct live columns, some with the guest busy (vCPU run over
# 10 %: a busy loop runs in it for its first 6 s up), headed by the guest's name, the VM's pid and "joined by pid".
# Then --batch against the same replay: the JSON report's vms[] holds the
# recorded VM (recorded: the column's name) whose figures are one record's
# parallax.vm.* as pmdumplog prints them.
# Usage: tests/integration/test_replay_vms.sh BUILD_DIR
set -eu
cd "$(dirname "$0")/../.."
# shellcheck source=tests/lib.sh
. tests/lib.sh

PARALLAX_BUILD=${1:-build}
use_guest_image
ours_tmp

# the guest busy for its first 6 s up (its boot's busy records may all
# come before --text's first refresh: a fresh machine's run had none after)
COLUMNS=120 PARALLAX_GUEST_APPEND=parallax_test_spin=6 \
    "$bin" --text -t 1 -n 16 --demo-guest --record "$tmp/rec" \
    >"$tmp/live.txt" 2>"$tmp/live.err" || fail "the live run failed: $(tail -3 "$tmp/live.err")"
arch=$tmp/rec/host
[ -d "$arch" ] || fail "no archive of this host in $tmp/rec"
COLUMNS=120 "$bin" --text -t 1 -n 20 -a "rec=$arch" --no-vm-view \
    >"$tmp/rep.txt" 2>"$tmp/rep.err" || fail "the replay failed: $(tail -3 "$tmp/rep.err")"

python3 - "$tmp" <<'PY'
import re, sys
d = sys.argv[1]

def blocks(path):
    """Each refresh's host's view: (title, header rows, table rows)."""
    out, cur = [], None
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith("-- host's view"):
            cur = [line]
        elif cur is not None:
            if line.startswith("vCPUs told"):
                out.append((cur[0], [l.rstrip() for l in cur[1:4]],
                            tuple(l.rstrip() for l in cur[4:] + [line])))
                cur = None
            else:
                cur.append(line)
    return out

live = blocks(d + "/live.txt")
rep = [b for b in blocks(d + "/rep.txt") if "recorded" in b[0]]
assert live, "the live run printed no host's view"
assert rep, f"the replay showed no recorded VM: {open(d + '/rep.txt').read()[-1500:]}"
for title, head, rows in rep:
    assert title == "-- host's view: 1 VM recorded --", title
live_rows = {rows: head for _, head, rows in live}
shown, first = set(), 0
def before_text(rows):
    """A record --text had no refresh for: the VM's first reading, or one
    while the guest had not yet answered (its busy unsaid)."""
    return all("first reading" in r or "KVM" in r or "vCPUs told" in r for r in rows) or \
        any(r.startswith("busy said/ran") and "said n/a" in r for r in rows)
for _, head, rows in rep:
    # the recording's first records: --text prints no refresh before
    # every guest has answered, a recording holds them all; from the
    # first column it printed on, every one is one it printed
    if not shown and rows not in live_rows and before_text(rows):
        first += 1
        continue
    assert rows in live_rows, "a replayed column no live refresh printed:\n" + \
        "\n".join(rows) + "\nlive ones:\n" + "\n\n".join("\n".join(r) for r in live_rows)
    shown.add(rows)
    lhead = live_rows[rows]
    assert head[0].strip() == lhead[0].strip(), (head, lhead)   # the guest's name
    assert head[1].strip() == lhead[1].strip(), (head, lhead)   # qemu PID 1vcpu
    assert head[2].strip() == "rec: joined by pid", head
def run_pct(rows):
    r = next(l for l in rows if l.startswith("vCPU run %"))
    return float(r[16:].split()[0])
busy = [r for r in shown if run_pct(r) > 10]
print(f"replay: {len(rep)} recorded columns ({first} before --text's first refresh), {len(shown)} distinct, all printed live "
      f"({len(live)} live refreshes), {len(busy)} with vCPU run > 10%")
assert len(shown) >= 4, len(shown)
assert busy, "no replayed column with the guest busy"
PY

# the JSON report of a batch beside the replay: the recorded VM
"$bin" --batch=syscall-null -r 1 -a "rec=$arch" --no-vm-view -o "$tmp/b.txt" \
    >"$tmp/b.out" 2>"$tmp/b.err" || fail "the batch failed: $(tail -3 "$tmp/b.err")"
base=$(find "$arch" -name '*.meta' | sed 's/\.meta$//')
pmdumplog "$base" parallax.vm.vcpu_run parallax.vm.vm_rss >"$tmp/dump" 2>&1 ||
    fail "pmdumplog: $(tail -2 "$tmp/dump")"
python3 - "$tmp" <<'PY'
import json, re, sys
d = sys.argv[1]
rep = json.load(open(d + "/b.json"))
vms = [v for v in rep["vms"] or [] if v.get("recorded")]
assert len(vms) == 1, rep["vms"]
v = vms[0]
assert v["recorded"] == "rec" and v["kind"] == "qemu" and v["joined"] == "pid", v
assert v["vcpus_told"] == "vCPUs by thread name", v
pairs, cur = set(), {}
for line in open(d + "/dump"):
    if re.match(r"^\d\d:\d\d:\d\d\.\d+ ", line):
        cur = {}
    m = re.search(r'\((parallax\.vm\.\w+)\):(?: inst \[\d+ or "[^"]*"\])? value (\S+)', line)
    if m:
        cur[m.group(1)] = float(m.group(2))
        if len(cur) == 2:
            pairs.add((cur["parallax.vm.vcpu_run"], cur["parallax.vm.vm_rss"]))
f = v["figures"]
got = (f["vcpu_run"], f["vm_rss"])
assert any(abs(a - got[0]) <= 1e-9 * max(1, a) and abs(b - got[1]) <= 1e-6 * b
           for a, b in pairs), (got, sorted(pairs)[:5])
print(f"batch report: recorded VM {v['name']} pid {v['pid']}: vcpu_run {got[0]:.2f}, "
      f"vm_rss {got[1]:.0f} as one of {len(pairs)} records")
PY
echo "replay vms: ok"
