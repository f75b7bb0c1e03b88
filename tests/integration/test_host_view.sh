#!/bin/bash
# The host's view of the VMs on this host (issue 26), with real qemu TCG
# guests booted from the demo image:
#   A: a qemu with nothing of ours inside (its init only spins: no pmcd)
#      appears as a column by itself with host-side rows (its vCPU named
#      by -name ...,debug-threads=on, run time and wait figures, no KVM and
#      why), and goes when its qemu is killed.
#   B: while stress-ng --cpu 2 loads the host, that qemu's vCPU wait as
#      parallax prints it, over refreshes 3..N, is within 5 % of what this
#      test reads itself from /proc/PID/task/TID/schedstat between
#      refreshes 2 and N, and pidstat -t (sysstat) agrees within 10 % with
#      the test's own reading over pidstat's 10 s (a span inside it).
#   C: a demo guest (pmcd inside, a busy loop for a while) joined to its qemu
#      by the process parallax started: under the load its column says
#      "costs x..." and flags "held N%, said 0%" as a fault; after the load
#      the flag shows exactly where the test's own reading of the vCPU's
#      wait, interval by interval, says the guest was held more than it
#      said (other work shares this machine: the test judges by what it
#      reads, never by an idle host), skipping readings nearer the threshold
#      than 2 points and the two readings' difference (their intervals are
#      up to a quarter interval apart), and the two readings summed over
#      every interval agree within 5 %; once the guest's busy loop ends (50 s after it is up)
#      its idle vCPU is seldom runnable, and no flag shows where the test
#      reads that the host did not hold it (on a machine this busy, even an
#      idle vCPU can be held: then the test says the case was not seen).
#   D: -h NAME=ADDR,pid=N with a pid that is no VM is refused in one line.
# Usage: tests/integration/test_host_view.sh BUILD_DIR
set -eu
cd "$(dirname "$0")/../.."
# shellcheck source=tests/lib.sh
. tests/lib.sh

PARALLAX_BUILD=${1:-build}
use_guest_image
command -v pidstat >/dev/null || fail "no pidstat; run make deps (sysstat)"
command -v stress-ng >/dev/null || fail "no stress-ng; run make deps"
tmp=$(mktemp -d)
ours=()
reader=tests/integration/host_view_read.py

cleanup() {
    ours_stop
    rm -rf "$tmp"
}
trap cleanup EXIT


# watch OUT PID ARGS...: parallax --text ARGS through the reader (the
# vCPU thread of PID read at each refresh) into OUT; its pid in WP.
watch() {
    local out=$1 pid=$2
    shift 2
    "$bin" --text --interval 1 "$@" 2>"$out.err" \
        > >(python3 "$reader" "$pid" "CPU 0/TCG" >"$out") &
    WP=$! # parallax itself: the reader ends at its end
    ours+=("$WP")
}

# refreshes OUT: how many the reader has written
refreshes() { wc -l <"$1" 2>/dev/null || echo 0; }
has_refreshes() { [ "$(refreshes "$1")" -ge "$2" ]; }

# --- A: a VM with no agent, by itself, and gone when killed ---
name=t26spin-$$
spin_qemu "$name"
qa=$QP
watch "$tmp/a.json" "$qa"
wa=$WP
python3 - "$tmp/a.json" "$name" <<'PY' || fail "A: see above"
import json, sys, time
path, name = sys.argv[1], sys.argv[2]
end = time.monotonic() + 60
while time.monotonic() < end:
    for l in open(path):
        r = json.loads(l)
        c = (r["cols"] or {}).get(name)
        if c and c["vCPU run %"][0] not in ("...", ""):
            assert c["_join"] == "host side only", c
            assert c["_kind"].startswith("qemu "), c
            run = float(c["vCPU run %"][0])
            assert run > 0, c
            float(c["vCPU wait %"][0])
            assert c["KVM exits/s"][0] == "n/a" and "TCG" in c["KVM exits/s"][1], c
            print(f"A: {name} shown: run {run}%, wait {c['vCPU wait %'][0]}%")
            sys.exit(0)
    time.sleep(0.2)
print("FAIL: A: no column for", name, file=sys.stderr)
sys.exit(1)
PY
kill -KILL "$qa"
wait "$qa" 2>/dev/null || true
seen=$(refreshes "$tmp/a.json")
gone() {
    python3 - "$tmp/a.json" "$name" "$1" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])][int(sys.argv[3]):]
sys.exit(0 if any(sys.argv[2] not in (r["cols"] or {}) for r in rows) else 1)
PY
}
wait_for 20 gone "$seen" || fail "A: $name still shown after its qemu was killed: $(tail -c 300 "$tmp/a.json"; cat "$tmp/a.json.err"; ps -o pid,stat,wchan:30,args --ppid $$ | cut -c1-120)"
echo "A: $name gone once its qemu was killed"
kill "$wa" 2>/dev/null || true

# --- B: the vCPU's wait under load, against schedstat and pidstat ---
spin_qemu "$name-b"
qb=$QP
stress-ng --cpu 2 --timeout 300s >/dev/null 2>&1 &
sp=$!
ours+=("$sp")
watch "$tmp/b.json" "$qb" --samples 16
wb=$WP
wait_for 60 has_refreshes "$tmp/b.json" 3 || fail "B: no refresh: $(cat "$tmp/b.json.err")"
# pidstat against the test's own reading of its own span
vcpu_wait() { cut -d' ' -f2 "$(grep -l '^CPU 0/TCG$' /proc/"$qb"/task/*/comm | sed 's/comm$/schedstat/')"; }
w0=$(vcpu_wait) t0=$(date +%s.%N)
LC_ALL=C pidstat -t -p "$qb" 1 10 >"$tmp/pidstat.out"
w1=$(vcpu_wait) t1=$(date +%s.%N)
wait_for 60 has_refreshes "$tmp/b.json" 16 || fail "B: parallax stopped early"
python3 - "$tmp/b.json" "$name-b" "$tmp/pidstat.out" "$w0" "$t0" "$w1" "$t1" <<'PY' || fail "B: see above"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
name = sys.argv[2]
a, b = rows[1], rows[-1]  # refresh 2 and the last
own = (b["wait_ns"] - a["wait_ns"]) / 1e9 / (b["t"] - a["t"]) * 100
figs = [float(r["cols"][name]["vCPU wait %"][0]) for r in rows[2:]]
ours = sum(figs) / len(figs)
# pidstat -t: the thread's lines ("|__CPU 0/TCG"), %wait by the header
hdr, waits = None, []
for l in open(sys.argv[3]):
    w = l.split()
    if "%wait" in w and "TID" in w:
        hdr = w
    elif hdr and l.rstrip().endswith("|__CPU 0/TCG") and not l.startswith("Average"):
        waits.append(float(w[hdr.index("%wait")]))  # the same fields before
assert waits, open(sys.argv[3]).read()
ps = sum(waits) / len(waits)
w0, t0, w1, t1 = map(float, sys.argv[4:8])
own_ps = (w1 - w0) / 1e9 / (t1 - t0) * 100
print(f"B: vCPU wait: parallax {ours:.2f}%, own schedstat {own:.2f}% "
      f"over the same refreshes; pidstat {ps:.2f}%, own {own_ps:.2f}% over "
      f"pidstat's {len(waits)} s")
assert own > 5, f"the load did not hold the vCPU ({own:.2f}%): no test"
assert abs(ours - own) <= 0.05 * own, f"parallax {ours:.2f} vs own {own:.2f}"
assert abs(ps - own_ps) <= 0.10 * own_ps, f"pidstat {ps:.2f} vs own {own_ps:.2f}"
PY
kill "$wb" "$qb" 2>/dev/null || true

# --- C: a demo guest joined to its qemu: costs, held against said ---
kill "$sp" 2>/dev/null || true # it boots without the test's own load
export PARALLAX_GUEST_APPEND="parallax_test_spin=50"
watch "$tmp/c.json" 0 --demo-guest
wcp=$WP
joined_any() { python3 -c 'import json,sys; sys.exit(not any(json.loads(l)["wait_ns"] is not None for l in open(sys.argv[1])))' "$tmp/c.json"; }
wait_for 300 joined_any || fail "C: no joined demo guest: $(tail -3 "$tmp/c.json.err")"
stress-ng --cpu 2 --timeout 300s >/dev/null 2>&1 &
sp=$!
ours+=("$sp")
joined_refreshes() {
    python3 - "$tmp/c.json" "$1" <<'PY'
import json, sys
n = 0
for l in open(sys.argv[1]):
    r = json.loads(l)
    n += r["wait_ns"] is not None
sys.exit(0 if n >= int(sys.argv[2]) else 1)
PY
}
wait_for 120 joined_refreshes 14 ||
    fail "C: no joined demo guest: $(tail -3 "$tmp/c.json.err")"
kill "$sp" 2>/dev/null || true # the load ends here
loaded=$(refreshes "$tmp/c.json")
# then the guest's busy loop ends (parallax_test_spin=SECS): an idle vCPU
# is seldom runnable, so the host holds it little whatever else runs here
spin_over() {
    python3 - "$tmp/c.json" <<'PY'
import json, sys
r = json.loads(open(sys.argv[1]).readlines()[-1])
c = next(c for c in r["cols"].values() if c["_join"].startswith("joined"))
det = c["busy said/ran"][1]
sys.exit(0 if "said " in det and float(det.split("said ")[1].split("%")[0]) < 20 else 1)
PY
}
wait_for 120 spin_over || fail "C: the guest's busy loop did not end"
calm=$(refreshes "$tmp/c.json")
wait_for 60 joined_refreshes $((calm + 12)) || fail "C: parallax stopped"
kill "$wcp" 2>/dev/null || true
python3 - "$tmp/c.json" "$loaded" "$calm" <<'PY' || fail "C: see above"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
loaded, calm = int(sys.argv[2]), int(sys.argv[3])
calm_unflagged = 0
sum_own = sum_shown = 0
col = lambda r: next(c for c in r["cols"].values() if c["_join"].startswith("joined"))
bad, judged, skipped, flagged_load = [], 0, 0, 0
for i in range(1, len(rows)):
    a, b = rows[i - 1], rows[i]
    if a["wait_ns"] is None or b["wait_ns"] is None:
        continue
    own = (b["wait_ns"] - a["wait_ns"]) / 1e9 / (b["t"] - a["t"]) * 100
    c = col(b)
    fig, det = c["steal said/held"]
    if "said" not in det or "n/a" in det:
        continue
    said = float(det.split("said ")[1].rstrip("%"))
    flag = fig.startswith("!")
    under = i < loaded
    if under and flag:
        flagged_load += 1
        assert det.startswith("held ") and det.endswith("said 0%"), det
        assert "costs " in c["busy said/ran"][1], c["busy said/ran"]
    held = float(det.split("held ")[1].split("%")[0])
    sum_own += own
    sum_shown += held
    # the test reads when the refresh arrives, parallax when the host's
    # sample did (up to a quarter interval apart): a burst of waiting near
    # an edge falls on either side, so near the threshold by less than the
    # two readings differ, the side is unsure
    if abs(own - said - 5) < 2 + abs(own - held):
        skipped += 1
        continue
    judged += 1
    if i > calm and not flag and own - said < 3:
        calm_unflagged += 1
    if flag != (own - said > 5):
        bad.append(f"refresh {b['n']}: own {own:.1f}% said {said}% "
                   f"shown {fig} {det}")
    phase = "load" if under else "calm" if i > calm else "after"
    print(f"C: refresh {b['n']} {phase}: own wait "
          f"{own:.1f}%, shown {fig} ({det}); {c['busy said/ran'][1]}")
print(f"C: {judged} judged, {skipped} too near the threshold, "
      f"{flagged_load} flagged under load, {calm_unflagged} unflagged idle "
      f"and not held; wait summed: shown {sum_shown:.0f}, own {sum_own:.0f}")
assert not bad, bad
assert flagged_load >= 3, "under stress-ng the flag must show"
if not calm_unflagged:  # judged above wherever it was seen
    print("C: the machine held even the idle vCPU in every calm interval: "
          "the no-flag case was not seen this time")
# all intervals together, the two readings of the wait agree
assert abs(sum_shown - sum_own) <= 0.05 * sum_own + 1, (sum_shown, sum_own)
PY

# --- D: a pid that is no VM is refused in one line ---
sleep 60 &
np=$!
ours+=("$np")
if "$bin" --text --samples 1 -h "g=127.0.0.1:1,pid=$np" >"$tmp/d.out" 2>"$tmp/d.err"; then
    fail "D: a pid that is no VM was taken"
fi
[ "$(wc -l <"$tmp/d.err")" = 1 ] || fail "D: not one line: $(cat "$tmp/d.err")"
grep -q "pid $np (sleep) is no VM process" "$tmp/d.err" || fail "D: $(cat "$tmp/d.err")"
echo "D: $(cat "$tmp/d.err")"
echo "host view: ok"
