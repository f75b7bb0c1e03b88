#!/bin/bash
# A guest joined to its VM by the VM's name (issue 26): a private pmcd with
# pmdaparallax stands in for the guest, and a real qemu TCG process, stopped
# before its first instruction (-S: no CPU), is its VM, named as libvirt
# names them (-name guest=NAME,debug-threads=on):
#   A: -h g=ADDR,vm=NAME given before any VM of that name runs: the host's
#      view has a column for g that says "no VM named NAME on this host
#      yet"; once the qemu starts, g is joined to it ("joined by vm=NAME",
#      its pid); when it is killed and started again, g follows the new
#      process; when it is killed for good, g is unjoined again and no
#      column shows the dead pid.
#   B: -h NAME=ADDR with neither pid= nor vm=: joined to the one VM named
#      NAME ("joined by name"); with two VMs of that name, by name joins
#      neither, and vm=NAME says there are two.
#   C: --batch's JSON report ("vms") and text report show the join (how,
#      the pid) and, for a name no VM has, the guest and why.
#   D: pid= with vm=, an empty or unsafe name, a name given to two guests,
#      vm= with --no-vm-view: refused in one line, exit non-zero.
# Usage: tests/integration/test_vm_join.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.."
# shellcheck source=tests/lib.sh
. tests/lib.sh
# shellcheck source=tests/pmcd.sh
. tests/pmcd.sh

PARALLAX_BUILD=${1:-build}
use_build
command -v qemu-system-x86_64 >/dev/null || fail "no qemu-system-x86_64; run make guest (guest/deps.sh)"
work=$(mktemp -d)
ours=()
cleanup() {
    ours_stop
    pmcd_stop "$work/g/pmcd"
    rm -rf "$work"
}
trap cleanup EXIT
port=$(free_port) || fail "no free port"
pmcd_start_agent "$work/g" "$port" || fail "pmcd with the agent"
reader=tests/integration/host_view_read.py

# vm NAME: a qemu TCG VM named NAME, stopped (-S); its pid in QP once its
# vCPU thread is there.
vm() {
    paused_qemu "$1" "$work/qemu.err"
    ours+=("$QP")
    wait_for 30 has_vcpu "$QP" ||
        fail "qemu $1 did not start: $(cat "$work/qemu.err")"
}
has_vcpu() { grep -qs "CPU 0/TCG" /proc/"$1"/task/*/comm; }
stop_vm() { kill -KILL "$1" 2>/dev/null; wait "$1" 2>/dev/null || true; }

# watch OUT ARGS...: parallax --text -t 1 ARGS, each refresh's host's view
# as a JSON line into OUT (host_view_read.py); its pid in WP.
watch() {
    local out=$1
    shift
    "$bin" --text --interval 1 "$@" 2>"$out.err" \
        > >(python3 "$reader" 0 "CPU 0/TCG" >"$out") &
    WP=$!
    ours+=("$WP")
}

# col OUT FROM NAME CHECK: true when a refresh after the FROM-th has a
# column NAME for which the python expression CHECK (on c, the column:
# {"_kind":..., "_join":..., label: [figure, detail]}) is true.
col() {
    python3 - "$@" <<'PY'
import json, sys
out, start, name, check = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
try:
    rows = [json.loads(l) for l in open(out)][start:]
except (OSError, ValueError):
    sys.exit(1)
sys.exit(0 if any(eval(check, {"c": (r["cols"] or {})[name]})
                  for r in rows if name in (r["cols"] or {})) else 1)
PY
}
refreshes() { wc -l <"$1" 2>/dev/null || echo 0; }
# pid_shown OUT FROM PID: whether a refresh after FROM has a column of PID
pid_shown() {
    python3 - "$@" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])][int(sys.argv[2]):]
pid = sys.argv[3]
sys.exit(0 if any(c["_kind"].split()[1:2] == [pid] for r in rows
                  for c in (r["cols"] or {}).values()) else 1)
PY
}
joined_to() { col "$1" "$2" g "c['_join'] == 'joined by vm=$name' and c['_kind'].startswith('qemu $3 ')"; }
waiting() { col "$1" "$2" g "c['_join'] == 'not joined' and c['_kind'] == 'vm=$name' and c['vCPU run %'][0] == 'n/a' and c['vCPU run %'][1].startswith('no VM named $name ')"; }

# --- A: vm=NAME before the VM runs, then joined, followed, unjoined ---
name=t26vm-$$
watch "$work/a.json" -h "g=localhost:$port,vm=$name"
wa=$WP
wait_for 30 waiting "$work/a.json" 0 ||
    fail "A: no 'no VM named $name' column: $(tail -c 600 "$work/a.json"; cat "$work/a.json.err")"
echo "A: before its VM runs: $(python3 -c 'import json,sys; c=json.loads(open(sys.argv[1]).readlines()[-1])["cols"]["g"]; print(c["_kind"], "|", c["_join"], "|", c["vCPU run %"])' "$work/a.json")"
vm "$name"
q1=$QP
wait_for 30 joined_to "$work/a.json" 0 "$q1" ||
    fail "A: g not joined to qemu $q1 named $name: $(tail -c 800 "$work/a.json")"
echo "A: joined to qemu $q1 once it started"
col "$work/a.json" 0 g "c['vCPU run %'][0] not in ('', 'n/a')" ||
    wait_for 10 col "$work/a.json" 0 g "c['vCPU run %'][0] not in ('', 'n/a', '...')" ||
    fail "A: the joined column has no vCPU figure: $(tail -c 800 "$work/a.json")"
at=$(refreshes "$work/a.json")
stop_vm "$q1"
wait_for 30 waiting "$work/a.json" "$at" || fail "A: g still joined after qemu $q1 ended"
vm "$name"
q2=$QP
at=$(refreshes "$work/a.json")
wait_for 30 joined_to "$work/a.json" "$at" "$q2" ||
    fail "A: g did not follow the restarted VM (qemu $q2): $(tail -c 800 "$work/a.json")"
echo "A: followed the VM's restart: qemu $q1 -> $q2"
stop_vm "$q2"
at=$(refreshes "$work/a.json")
wait_for 30 waiting "$work/a.json" "$at" || fail "A: g still joined after qemu $q2 ended"
sleep 1.5 # a refresh more: the dead one shows nowhere
now=$(refreshes "$work/a.json")
pid_shown "$work/a.json" "$((now - 1))" "$q2" && fail "A: qemu $q2 still shown after it was killed"
echo "A: unjoined, and no column of qemu $q2, once it was killed"
kill "$wa" 2>/dev/null || true

# --- B: libvirt guests by name: the one VM of the guest's name ---
vm "$name"
qb=$QP
watch "$work/b.json" -h "$name=localhost:$port" -n 8
wb=$WP
wait_for 30 col "$work/b.json" 0 "$name" "c['_join'] == 'joined by name' and c['_kind'].startswith('qemu $qb ')" ||
    fail "B: $name not joined by name to qemu $qb: $(tail -c 800 "$work/b.json"; cat "$work/b.json.err")"
echo "B: -h $name=... joined by name to qemu $qb"
kill "$wb" 2>/dev/null || true
vm "$name" # a second VM of the same name: the name is no longer sure
qb2=$QP
watch "$work/b2.json" -h "$name=localhost:$port" -n 6
wb=$WP
wait "$wb"
python3 - "$work/b2.json" "$name" "$qb" "$qb2" <<'PY' || fail "B: see above"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
name, pids = sys.argv[2], sys.argv[3:]
last = rows[-1]["cols"]
ours = [c for c in last.values() if c["_kind"].split()[1:2][0] in pids]
assert len(ours) == 2, last
assert all(c["_join"] == "host side only" for c in ours), ours
print(f"B: two VMs named {name}: by name joined neither ({[c['_join'] for c in ours]})")
PY
watch "$work/b3.json" -h "g=localhost:$port,vm=$name" -n 5
wb=$WP
wait "$wb"
col "$work/b3.json" 3 g "c['_join'] == 'not joined' and c['vCPU run %'][1].startswith('2 VMs named $name')" ||
    fail "B: vm=$name with two such VMs: $(tail -c 800 "$work/b3.json")"
echo "B: vm=$name with two such VMs: not joined, says 2 VMs"
stop_vm "$qb2"

# --- C: --batch's reports show the join ---
"$bin" --batch syscall-null -r 1 -h "g=localhost:$port,vm=$name" \
    -h "h=127.0.0.1:$port,vm=nosuch-$$" -o "$work/r.txt" 2>"$work/r.err" ||
    fail "C: --batch exited $?: $(cat "$work/r.err")"
python3 - "$work/r.json" "$name" "$qb" "nosuch-$$" <<'PY' || fail "C: see above"
import json, sys
d = json.load(open(sys.argv[1]))
name, pid, nosuch = sys.argv[2], int(sys.argv[3]), sys.argv[4]
vms = d["vms"]
g = [v for v in vms if v["guest"] == "g"]
assert len(g) == 1, vms
g = g[0]
assert g["pid"] == pid and g["name"] == name and g["joined"] == "vm", g
assert g["kind"] == "qemu" and g["nvcpu"] == 1, g
h = [v for v in vms if v["guest"] == "h"]
assert len(h) == 1, vms
h = h[0]
assert h["pid"] is None and h["joined"] is None and h["name"] == nosuch, h
assert h["why"] == f"no VM named {nosuch} on this host yet", h
print(f"C: JSON: g joined by {g['joined']} to {g['kind']} {g['pid']}; h: {h['why']}")
PY
grep -q "joined by vm=$name" "$work/r.txt" || fail "C: the text report lacks 'joined by vm=$name'"
grep -q "vm=nosuch-$$" "$work/r.txt" || fail "C: the text report lacks h's vm=nosuch-$$"
echo "C: the text report says 'joined by vm=$name'"
stop_vm "$qb"

# --- D: what is refused, in one line ---
refused() { # WANT ARGS...: parallax ARGS fails in one line matching WANT
    local want=$1 rc=0
    shift
    "$bin" --text -n 1 "$@" >"$work/d.out" 2>"$work/d.err" || rc=$?
    [ "$rc" -ne 0 ] || fail "D: $* was taken"
    [ "$(wc -l <"$work/d.err")" = 1 ] || fail "D: $*: not one line: $(cat "$work/d.err")"
    grep -q -- "$want" "$work/d.err" || fail "D: $*: $(cat "$work/d.err")"
    echo "D: $(cat "$work/d.err")"
}
refused "pid= and vm= both name its VM" -h "g=localhost:$port,vm=$name,pid=$$"
refused "pid= and vm= both name its VM" -h "g=localhost:$port,pid=$$,vm=$name"
refused "vm= is empty" -h "g=localhost:$port,vm="
refused "vm= takes a VM's name" -h "g=localhost:$port,vm=a;b"
refused "holds a control character" -h "g=localhost:$port,vm=$(printf 'x\033[2J')"
refused "vm=$name is given to two guests" -h "g=localhost:$port,vm=$name" -h "k=127.0.0.1:$port,vm=$name"
refused "which this session does not watch (--no-vm-view" --no-vm-view -h "g=localhost:$port,vm=$name"
echo "vm join: ok"
