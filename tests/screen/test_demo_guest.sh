#!/bin/bash
# End to end with parallax's own micro-VM: `parallax --demo-guest` boots the
# guest, shows its boot on the status line and adds it as a column; the
# column reports the guest's kernel release and 1 CPU; the null-syscall,
# pipe-latency and fork workloads run on host and guest by key, and each
# guest/host ratio is above 1; after q no qemu of ours remains. Then the
# same in batch mode (--batch ... --demo-guest -o FILE), read from the JSON
# report, with the guest's boot steps on stderr; and after parallax is
# killed outright (SIGKILL: no handler runs), once the guest is up and
# right after it started boot.sh, no boot.sh and no qemu remain either. No
# run leaves a serial log behind in the guest's build directory (boot.sh
# removes its own after a clean stop).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
use_build
[ -s "$PARALLAX_BUILD/guest/initramfs.cpio.gz" ] ||
    fail "no guest image in $PARALLAX_BUILD/guest; run make guest"
image_rel=$(cat "$PARALLAX_BUILD/guest/kernel/release")

tmux_use parallax-demo -J
# qemus booting our image ("[q]" keeps pgrep from matching a shell that
# runs this very pattern)
ours() { pgrep -f "[q]emu-system.*$PARALLAX_BUILD/guest" | wc -l; }
work=$(mktemp -d)
trap 'tmux_stop; rm -rf "$work"' EXIT
ratio() { screen | grep -E "^[> ] $1 " | awk '{print $NF}'; }

before=$(ours)
# boot.sh scripts booting our image
boots() { pgrep -f "[b]oot.sh --build $PARALLAX_BUILD/guest" | wc -l; }
boots_before=$(boots)
# serial logs boot.sh names itself (serial.<its pid>.log), there already
serial_logs() { find "$PARALLAX_BUILD/guest" -maxdepth 1 -name 'serial.*.log' | sort; }
serial_logs >"$work/logs.before"
tmux_new 160 45 "$bin -t 1 --demo-guest; echo EXIT=\$?; sleep 60"
wait_for 10 has '^ demo guest: ' || { screen; fail "no boot progress shown"; }
# the status line follows the boot, the guest's own steps among it: what
# it says is collected until the guest's column answers
status_until_up() {
    screen >"$work/screen"
    grep -E '^ demo guest' "$work/screen" >>"$work/status"
    grep -qE 'pcp 127\.0\.0\.1:[0-9]+ \+pmda' "$work/screen"
}
wait_for 90 status_until_up ||
    { screen; fail "the demo guest never answered with pmdaparallax"; }
grep -qE '^ demo guest: guest \[[0-9.]+ s\] ' "$work/status" ||
    { uniq "$work/status"; fail "no guest boot step on the status line"; }
echo "ok: boot on the status line: $(uniq "$work/status" | sed 's/ *$//' | tr '\n' '|')"
host_rel=$(uname -r)
wait_for 20 bash -c "tmux -L $sock capture-pane -p -t t | grep -qE 'parallax-guest [0-9][^ ]* 1cpu'" ||
    { screen; fail "guest column lacks its release and 1 CPU"; }
guest_rel=$(screen | grep -oE 'parallax-guest [^ ]+' | head -1 | cut -d' ' -f2)
[ "$guest_rel" != "$host_rel" ] || fail "guest reports the host's kernel"
echo "ok: guest column: kernel $guest_rel (host $host_rel), 1 cpu"

# a finished workload cell: the figure, any marks (shared, noisy, ...),
# the median's interval and the unit
cell='[0-9.]+[kM]? ([^ ]+ )*[0-9.]+[kM]?\.\.[0-9.]+[kM]? [^ ]+'
# run_workload NAME DOWNS: select it (DOWNS rows below the first), start it,
# wait for both sides' statistics, and check the ratio is above 1
run_workload() {
    local name=$1 downs=$2 r
    tm send-keys -t t Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up
    for ((i = 0; i < downs; i++)); do tm send-keys -t t Down; done
    tm send-keys -t t Space
    wait_for 10 has "^> $name " || { screen; fail "$name did not start"; }
    wait_for 60 bash -c "tmux -L $sock capture-pane -p -J -t t | grep -qE '^  $name +$cell +$cell +[0-9.]+\$'" ||
        { screen; fail "$name gave no figures on both sides"; }
    r=$(ratio "$name")
    # sanitized builds slow the host's side (a fork copies ASan's shadow
    # mappings): there a ratio only has to exist
    if [ -n "${PARALLAX_SANITIZED:-}" ]; then
        awk -v r="$r" 'BEGIN { exit !(r > 0) }' || fail "$name: no ratio"
    else
        awk -v r="$r" 'BEGIN { exit !(r > 1) }' ||
            fail "$name ratio $r not above 1"
    fi
    echo "ok: $(screen | grep -E "^  $name " | sed 's/  */ /g')"
}
run_workload syscall-null 0
run_workload pipe-lat 6
run_workload fork-exit 10
has '^  index .* [0-9.]+ *$' || { screen; fail "no index"; }

tm send-keys -t t q
wait_for 20 has '^EXIT=0$' || { screen; fail "q did not exit 0"; }
gone() { [ "$(ours)" -le "$before" ]; }
wait_for 10 gone || fail "a qemu of ours outlived parallax"
echo "ok: no qemu left after q"

# check_batch_json FILE: the guest's column in a batch report: the image's
# kernel (the cloud kernel, not the host's), 1 CPU, and every workload done
# on both sides with a guest/host ratio above 1 (above 0 when sanitized).
check_batch_json() {
    python3 - "$1" "$image_rel" "$(uname -r)" "${PARALLAX_SANITIZED:-}" <<'PY'
import json, sys
path, image_rel, host_rel, sanitized = sys.argv[1:]
d = json.load(open(path))
host, guest = d["sources"][0], d["sources"][1]
def no(why):
    sys.exit(f"{path}: {why}")
if len(d["sources"]) != 2 or not guest["name"].startswith("demo-"):
    no(f"sources {[s['name'] for s in d['sources']]}, want host and demo-*")
rel = guest["kernel"]
if rel != image_rel:
    no(f"guest kernel {rel!r}, the image holds {image_rel!r}")
if rel == host_rel and not rel.endswith("-cloud-amd64"):
    no(f"guest kernel {rel!r} is the host's")
if guest["ncpu"] != 1:
    no(f"guest ncpu {guest['ncpu']}, want 1")
floor = 0 if sanitized else 1
for wl in ("syscall-null", "pipe-lat", "fork-exit"):
    for s in (host, guest):
        if s["workloads"].get(wl, {}).get("state") != "done":
            no(f"{wl} not done on {s['name']}: {s['workloads'].get(wl)}")
    r = guest["workloads"][wl]["ratio"]
    if r is None or not r > floor:
        no(f"{wl}: guest/host ratio {r}, want > {floor}")
    print(f"ok: batch {wl}: host {host['workloads'][wl]['median']:.4g}, "
          f"guest {guest['workloads'][wl]['median']:.4g}, ratio {r:.3g}")
print(f"ok: batch guest {guest['name']}: kernel {rel} (host {host_rel}), "
      f"1 cpu, index {guest['index']:.3g}")
PY
}

# the same workloads in batch mode: exit 0, the JSON report, the guest's
# boot steps relayed on stderr, and no qemu left
t0=$SECONDS
"$bin" --batch syscall-null,pipe-lat,fork-exit --repeats 1 --demo-guest \
    --output "$work/batch.txt" 2>"$work/batch.err" ||
    { cat "$work/batch.err"; fail "batch with --demo-guest exited $?"; }
check_batch_json "$work/batch.json" || { cat "$work/batch.err"; fail "batch report"; }
for step in 'accelerator: (kvm|tcg)' 'qemu [0-9]+ started' \
    'guest \[[0-9.]+ s\] kernel [^ ]+ up, 1 cpu' 'guest \[[0-9.]+ s\] network up' \
    'guest \[[0-9.]+ s\] clock: ' 'guest \[[0-9.]+ s\] starting pmcd' \
    'demo guest up \((kvm|tcg)\)'; do
    grep -qE "^parallax: (demo guest: )?$step" "$work/batch.err" ||
        { cat "$work/batch.err"; fail "batch: no boot step /$step/ on stderr"; }
done
echo "ok: batch told the guest's boot steps: $(grep -oE 'guest \[[^]]*\] [a-z]+' "$work/batch.err" | cut -d' ' -f4 | tr '\n' ' ')"
wait_for 10 gone || fail "a qemu of ours outlived parallax --batch"
echo "ok: batch with --demo-guest: exit 0 in $((SECONDS - t0)) s, no qemu left"

log=$work/text.err
"$bin" --text -t 1 --demo-guest >/dev/null 2>"$log" &
pid=$!
wait_for 90 grep -q 'demo guest up' "$log" || { cat "$log"; fail "no boot"; }
[ "$(ours)" -gt "$before" ] || fail "no qemu while the guest is up"
kill -KILL "$pid"
wait "$pid" 2>/dev/null # (bash reports the kill otherwise)
wait_for 15 gone || fail "a qemu of ours outlived a killed parallax"
echo "ok: no qemu left after SIGKILL"

# killed within milliseconds of starting boot.sh, before or while its
# child sets its death signal: boot.sh must still go, with what it started
no_boots() { [ "$(boots)" -le "$boots_before" ]; }
for delay in 0.005 0.01 0.02 0.05 0.1; do
    "$bin" --text -t 1 --demo-guest >/dev/null 2>&1 &
    pid=$!
    sleep "$delay"
    kill -KILL "$pid"
    wait "$pid" 2>/dev/null
done
wait_for 15 no_boots || fail "a boot.sh outlived a parallax killed as it started"
wait_for 15 gone || fail "a qemu of ours outlived a parallax killed as it started"
echo "ok: no boot.sh or qemu left after SIGKILLs as the guest started"

# boot.sh's clean stops (q, the batch's end, its caller killed) take their
# serial logs with them
no_new_logs() { serial_logs | cmp -s - "$work/logs.before"; }
wait_for 10 no_new_logs ||
    fail "serial logs left behind: $(serial_logs | comm -13 "$work/logs.before" - | tr '\n' ' ')"
echo "ok: no serial log left behind"
echo "all demo guest checks passed"
