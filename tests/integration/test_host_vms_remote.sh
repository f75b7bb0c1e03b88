#!/bin/bash
# Another host's VMs through its pmcd's proc agent (issue 26): a private
# pmcd on this host stands in for the remote one (pmdaproc -A -L: it
# answers a TCP client and lists threads), reached over TCP as
# -h far=localhost:PORT,vms, while parallax reads this host's VMs from
# /proc as well. A qemu TCG guest whose init only spins runs while
# stress-ng --cpu 2 loads the host:
#   A: the VM is a column "on far", its vCPU told by name, and over
#      refreshes 3..N its vCPU run and wait figures average within 5 % of
#      what this test reads itself from /proc/PID/task/TID/schedstat
#      between refreshes 2 and N, and within 5 % of the same VM's column
#      read from /proc; killed, its column goes.
#   B: a pmdaproc that refuses a TCP client (no -A) is named with its fix;
#      one that lists no threads (no -L, and this pmcd refuses our store
#      of proc.control.perclient.threads) says so in the vCPU rows.
#   C: ,vms twice, or an unknown option, is refused in one line.
#   D: --record puts that host's VMs in its own archive (pmlogcheck
#      passes it; pmdumplog, PCP's reader, gives the VM's instance with
#      the vCPU run figure the text printed last), and -a of it replays
#      them as a recorded column.
#   E: the JSON report's vms[] gives each VM's host (null: this one's).
# Usage: tests/integration/test_host_vms_remote.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.."
# shellcheck source=tests/lib.sh
. tests/lib.sh
# shellcheck source=tests/pmcd.sh
. tests/pmcd.sh

PARALLAX_BUILD=${1:-build}
use_guest_image
command -v stress-ng >/dev/null || fail "no stress-ng; run make deps"
ours_tmp
reader=tests/integration/host_view_read.py
# proc_agent LOG OPTION...: pmcd.conf's line of PCP's proc agent
proc_agent() {
    local log=$1
    shift
    echo "proc	3	pipe	binary	$PMDAS_DIR/proc/pmdaproc -d 3 -l $log $*"
}
stop_pmcds() {
    for d in "$tmp"/pmcd-*; do [ -d "$d" ] && pmcd_stop "$d"; done
    ours_stop
    rm -rf "$tmp"
}
trap stop_pmcds EXIT

# --- C: bad options ---
expect_fail 2 "vms is given twice" "$bin" -h far=localhost,vms,vms
expect_fail 2 "after the host come only ,pid=N or ,vm=VMNAME and ,vms" \
    "$bin" -h far=localhost,vms,cpu

# --- A: the VM through the stand-in pmcd, beside /proc ---
port=$(free_port)
pmcd_start "$tmp/pmcd-far" "$port" "$(proc_agent "$tmp/far.log" -A -L)" ||
    fail "the stand-in pmcd did not start"
name=t26far-$$
spin_qemu "$name"
qa=$QP
stress-ng --cpu 2 --timeout 300s >/dev/null 2>&1 &
ours+=("$!")
"$bin" --text --interval 1 --samples 16 -h "far=localhost:$port,vms" \
    2>"$tmp/a.err" > >(python3 "$reader" "$qa" "CPU 0/TCG" >"$tmp/a.json") &
wa=$!
ours+=("$wa")
has_refreshes() { [ "$(wc -l <"$1" 2>/dev/null || echo 0)" -ge "$2" ]; }
wait_for 90 has_refreshes "$tmp/a.json" 16 ||
    fail "A: parallax stopped early: $(cat "$tmp/a.err")"
python3 - "$tmp/a.json" "$name" "$qa" <<'PY' || fail "A: see above"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
name, pid = sys.argv[2], sys.argv[3]
here = [r["cols"].get(name) for r in rows]
# the second column of that name: the same VM as the stand-in tells it
far = [next((c for k, c in (r["cols"] or {}).items()
             if k.startswith(name + "#")), None) for r in rows]
last = far[-1]
assert last and last["_join"] == "on far", last
assert last["_kind"] == f"qemu {pid} 1vcpu", last
told = " ".join(last["vCPUs told"])
assert "thread name" in told, last
assert "through pmcd" in last["KVM exits/s"][1] or "TCG" in last["KVM exits/s"][1], last
print(f"A: {name} on far: {last['_kind']}, vCPU told by name")


def mean(cols, row):
    figs = [float(c[row][0]) for c in cols[2:]]
    return sum(figs) / len(figs)


a, b = rows[1], rows[-1]  # refresh 2 and the last
own_wait = (b["wait_ns"] - a["wait_ns"]) / 1e9 / (b["t"] - a["t"]) * 100
for row in ("vCPU wait %", "vCPU run %"):
    f, h = mean(far, row), mean(here, row)
    print(f"A: {row}: far {f:.2f}, /proc {h:.2f}"
          + (f", own schedstat {own_wait:.2f}" if "wait" in row else ""))
    assert abs(f - h) <= 0.05 * h, f"{row}: far {f:.2f} vs /proc {h:.2f}"
assert own_wait > 5, f"the load did not hold the vCPU ({own_wait:.2f}%): no test"
f = mean(far, "vCPU wait %")
assert abs(f - own_wait) <= 0.05 * own_wait, f"far {f:.2f} vs own {own_wait:.2f}"
PY
# killed: its column goes, from both
kill "$wa" 2>/dev/null || true
"$bin" --text --interval 1 -h "far=localhost:$port,vms" >"$tmp/k.out" 2>&1 &
wk=$!
ours+=("$wk")
newest() { awk 'BEGIN { RS = ""; ORS = "\n" } { b = $0 } END { print b }' "$tmp/k.out"; }
# (the names row follows the view's title; other VMs may sit between)
both() { [ "$(newest | grep -A1 "^-- host's view" | tail -1 | grep -o " $name\b" | wc -l)" = 2 ]; }
wait_for 20 both || fail "A: the VM not shown on both: $(newest | tail -20)"
kill -KILL "$qa"
wait "$qa" 2>/dev/null || true
gone() { newest | grep -q "^-- host's view" && ! newest | grep -q " $name"; }
wait_for 20 gone || fail "A: its column stayed: $(newest | tail -20)"
echo "A: its column gone once its qemu was killed"
kill "$wk" 2>/dev/null || true

# --- B: what a proc agent will not tell, with the fix ---
spin_qemu "$name-b"
p2=$(free_port)
pmcd_start "$tmp/pmcd-noaccess" "$p2" "$(proc_agent "$tmp/noaccess.log")" ||
    fail "B: the pmcd did not start"
out=$("$bin" --text -t 1 --samples 3 -h "x=localhost:$p2,vms" 2>&1)
grep -q "0 VMs on x (its proc agent refuses us: run pmdaproc -A there" <<<"$out" ||
    fail "B: no refusal said: $(grep -A3 "host's view" <<<"$out")"
echo "B: $(grep -o "0 VMs on x ([^)]*)" <<<"$out" | head -1)"
p3=$(free_port)
pmcd_start "$tmp/pmcd-nothreads" "$p3" "$(proc_agent "$tmp/nothreads.log" -A)" ||
    fail "B: the pmcd did not start"
out=$("$bin" --text -t 1 --samples 3 -h "y=localhost:$p3,vms" 2>&1)
grep -q "^vCPU run % .* n/a no threads listed (pmdaproc -L)" <<<"$out" ||
    fail "B: no threads not said: $(awk 'BEGIN { RS = "" } { b = $0 } END { print b }' <<<"$out" | grep -A8 "host's view")"
echo "B: no threads listed: said, with the fix"

# --- D: recorded in that host's archive, and replayed ---
"$bin" --text -t 1 --samples 5 --record "$tmp/rec" -h "far=localhost:$port,vms" \
    >"$tmp/d.out" 2>"$tmp/d.err" || fail "D: parallax --record: $(tail -3 "$tmp/d.err")"
arch=$(find "$tmp/rec/far" -name '*.meta' | sed 's/\.meta$//')
[ -n "$arch" ] || fail "D: no archive of far in $tmp/rec"
pmlogcheck "$arch" >"$tmp/check" 2>&1 || fail "D: pmlogcheck: $(tail -3 "$tmp/check")"
inst="$name-b.$QP"
last=$(pmdumplog "$arch" parallax.vm.vcpu_run | grep "\"$inst\"" | tail -1)
[ -n "$last" ] || fail "D: no $inst in far's archive: $(pmdumplog "$arch" parallax.vm.kind | tail -3)"
shown=$(awk 'BEGIN { RS = ""; ORS = "\n" } { b = $0 } END { print b }' "$tmp/d.out" |
    python3 -c '
import sys
lines = sys.stdin.read().splitlines()
at = next(i for i, l in enumerate(lines) if l.startswith("-- host'"'"'s view"))
col = next(k for k in range(8) if lines[at + 3][16 + k * 45:16 + (k + 1) * 45].strip() == "on far")
print(next(l for l in lines[at:] if l.startswith("vCPU run %"))[16 + col * 45:16 + col * 45 + 8].strip())')
python3 - "${last##* value }" "$shown" <<'PY' || fail "D: recorded $last, shown $shown"
import sys
rec, shown = float(sys.argv[1]), float(sys.argv[2])
assert abs(rec - shown) <= 0.05 + 1e-9, (rec, shown)
print(f"D: recorded vCPU run {rec:.3f}%, shown {shown}")
PY
"$bin" -a "far=$tmp/rec/far" --text -n 3 --no-vm-view >"$tmp/r.out" 2>&1 ||
    fail "D: the replay failed: $(tail -3 "$tmp/r.out")"
grep -q "host's view: 1 VM recorded" "$tmp/r.out" && grep -q " $name-b" "$tmp/r.out" ||
    fail "D: no recorded column: $(grep -A3 "host's view" "$tmp/r.out" | head -4)"
echo "D: far's VMs replayed from its archive"

# --- E: the JSON report says whose VM each is (far has no pmdaparallax:
# its run fails, 1, and the report is written all the same) ---
"$bin" --batch syscall-null -r 1 -h "far=localhost:$port,vms" -o "$tmp/e.txt" \
    >"$tmp/e.out" 2>&1
rc=$?
[ "$rc" -le 1 ] && [ -s "$tmp/e.json" ] ||
    fail "E: the batch exited $rc: $(tail -3 "$tmp/e.out")"
python3 - "$tmp/e.json" "$name-b" "$QP" <<'PY' || fail "E: see above"
import json, sys
vms = json.load(open(sys.argv[1]))["vms"]
name, pid = sys.argv[2], int(sys.argv[3])
ours = sorted((v.get("host") or "", v.get("pid")) for v in vms if v.get("name") == name)
assert ours == [("", pid), ("far", pid)], (ours, vms)
print(f"E: the report's vms[]: {name} here and on far, pid {pid} both")
PY
echo PASS
