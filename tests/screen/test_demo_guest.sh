#!/bin/bash
# End to end with parallax's own micro-VM: `parallax --demo-guest` boots the
# guest, shows its boot on the status line and adds it as a column; the
# column reports the image's kernel release and 1 CPU; the null-syscall,
# pipe-latency and fork workloads run on host and guest by key, each
# guest/host ratio is the one the two figures shown give, and the host's
# null system call is what perf bench's makes of this machine (its CPU
# time over the share of the CPU the run got). Which side is faster is not
# asserted: a TCG guest without the host's page-table isolation makes its
# system calls faster than such a host (0.44 on the VM this was fixed on).
# After q no qemu of ours remains. Then the same in batch mode (--batch
# ... --demo-guest -o FILE), read from the JSON report, its ratios and
# intervals recomputed from its medians, with the guest's boot steps on
# stderr; and after parallax is killed outright (SIGKILL: no handler
# runs), once the guest is up and right after it started boot.sh, no
# boot.sh and no qemu remain either. No run leaves a serial log behind in
# the guest's build directory (boot.sh removes its own after a clean stop).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
use_guest_image
image_rel=$(cat "$PARALLAX_BUILD/guest/kernel/release")

tmux_use parallax-demo -J
# qemus booting our image ("[q]" keeps pgrep from matching a shell that
# runs this very pattern)
ours() { pgrep -f "[q]emu-system.*$PARALLAX_BUILD/guest" | wc -l; }
work=$(mktemp -d)
trap 'tmux_stop; rm -rf "$work"' EXIT

before=$(ours)
# boot.sh scripts booting our image
boots() { pgrep -f "[b]oot.sh --build $PARALLAX_BUILD/guest" | wc -l; }
boots_before=$(boots)
# serial logs boot.sh names itself (serial.<its pid>.log), there already
serial_logs() { find "$PARALLAX_BUILD/guest" -maxdepth 1 -name 'serial.*.log' | sort; }
serial_logs >"$work/logs.before"
tmux_new 160 45 "$bin -t 1 --demo-guest; echo EXIT=\$?; sleep 60"
wait_for 10 has '^ demo[- ]' || { screen; fail "no boot progress shown"; }
# the status line follows the boot, the guest's own steps among it: what
# it says is collected until the guest's column answers
status_until_up() {
    screen >"$work/screen"
    grep -E '^ demo(-tcg|-kvm| guest)' "$work/screen" >>"$work/status"
    grep -qE 'pcp 127\.0\.0\.1:[0-9]+ \+pmda' "$work/screen"
}
wait_for 90 status_until_up ||
    { screen; fail "the demo guest never answered with pmdaparallax"; }
grep -qE '^ demo-(tcg|kvm): guest \[[0-9.]+ s\] ' "$work/status" ||
    { uniq "$work/status"; fail "no guest boot step on the status line"; }
echo "ok: boot on the status line: $(uniq "$work/status" | sed 's/ *$//' | tr '\n' '|')"
host_rel=$(uname -r)
wait_for 20 bash -c "tmux -L $sock capture-pane -p -t t | grep -qE 'parallax-guest [0-9][^ ]* (CFS|EEVDF) [a-z]+ 1cpu'" ||
    { screen; fail "guest column lacks its release, scheduler and 1 CPU"; }
guest_rel=$(screen | grep -oE 'parallax-guest [^ ]+' | head -1 | cut -d' ' -f2)
# the column shortens the release to fit: it must be the image's
case "$image_rel" in
"$guest_rel" | "$guest_rel".* | "$guest_rel"-*) ;;
*) fail "guest column says kernel $guest_rel, the image holds $image_rel" ;;
esac
echo "ok: guest column: kernel $guest_rel (image $image_rel, host $host_rel), 1 cpu"

px=$(pane_parallax) || fail "no parallax in the window"
host_null_checked "$px" 2
run_workload pipe-lat 6
run_workload fork-exit 10
has '^  index .* [0-9.]+ *$' || { screen; fail "no index"; }

tm send-keys -t t q
wait_for 20 has '^EXIT=0$' || { screen; fail "q did not exit 0"; }
gone() { [ "$(ours)" -le "$before" ]; }
wait_for 10 gone || fail "a qemu of ours outlived parallax"
echo "ok: no qemu left after q"

# check_batch_json FILE: the guest's column in a batch report: the image's
# kernel, 1 CPU, and every workload done on both sides, with a guest/host
# ratio that is its medians' (oriented: > 1 worse in the guest), an
# interval that is its medians' intervals', and medians within those.
check_batch_json() {
    python3 - "$1" "$image_rel" "$(uname -r)" <<'PY'
import json, sys
path, image_rel, host_rel = sys.argv[1:]
d = json.load(open(path))
host, guest = d["sources"][0], d["sources"][1]
def no(why):
    sys.exit(f"{path}: {why}")
def near(a, b):
    return abs(a - b) <= 1e-9 * abs(b)
if len(d["sources"]) != 2 or not guest["name"].startswith("demo-"):
    no(f"sources {[s['name'] for s in d['sources']]}, want host and demo-*")
rel = guest["kernel"]
if rel != image_rel:
    no(f"guest kernel {rel!r}, the image holds {image_rel!r}")
if guest["ncpu"] != 1:
    no(f"guest ncpu {guest['ncpu']}, want 1")
better = {w["name"]: w["better"] for w in d["workloads"]}
for wl in ("syscall-null", "pipe-lat", "fork-exit"):
    for s in (host, guest):
        c = s["workloads"].get(wl, {})
        if c.get("state") != "done":
            no(f"{wl} not done on {s['name']}: {c}")
        if c["median_lo"] is not None and \
                not c["median_lo"] <= c["median"] <= c["median_hi"]:
            no(f"{wl} on {s['name']}: median {c['median']} outside "
               f"{c['median_lo']}..{c['median_hi']}")
    h, g = host["workloads"][wl], guest["workloads"][wl]
    # one repeat has no interval: then neither has the ratio
    ivs = h["median_lo"] is not None and g["median_lo"] is not None
    if better[wl] == "lower":
        want = g["median"] / h["median"]
        if ivs:
            lo, hi = g["median_lo"] / h["median_hi"], g["median_hi"] / h["median_lo"]
    else:
        want = h["median"] / g["median"]
        if ivs:
            lo, hi = h["median_lo"] / g["median_hi"], h["median_hi"] / g["median_lo"]
    r = g["ratio"]
    if r is None or not near(r, want):
        no(f"{wl}: guest/host ratio {r}, its medians give {want}")
    if ivs and not (near(g["ratio_lo"], lo) and near(g["ratio_hi"], hi)):
        no(f"{wl}: ratio interval {g['ratio_lo']}..{g['ratio_hi']}, "
           f"the medians' give {lo}..{hi}")
    if not ivs and (g["ratio_lo"], g["ratio_hi"]) != (None, None):
        no(f"{wl}: a ratio interval {g['ratio_lo']}..{g['ratio_hi']} "
           f"without the medians'")
    print(f"ok: batch {wl}: host {h['median']:.4g}, guest {g['median']:.4g}, "
          f"ratio {r:.3g}" + (f" ({lo:.3g}..{hi:.3g})" if ivs else ""))
print(f"ok: batch guest {guest['name']}: kernel {rel} (host {host_rel}), "
      f"1 cpu, index {guest['index']:.3g}")
PY
}

# the same workloads in batch mode: exit 0, the JSON report, the guest's
# boot steps relayed on stderr, and no qemu left
t0=$SECONDS
"$bin" --batch syscall-null,pipe-lat,fork-exit --repeats 3 --demo-guest \
    --output "$work/batch.txt" 2>"$work/batch.err" ||
    { cat "$work/batch.err"; fail "batch with --demo-guest exited $?"; }
check_batch_json "$work/batch.json" || { cat "$work/batch.err"; fail "batch report"; }
for step in 'accelerator: (kvm|tcg)' 'qemu [0-9]+ started' \
    'guest \[[0-9.]+ s\] kernel [^ ]+ up, 1 cpu' 'guest \[[0-9.]+ s\] network up' \
    'guest \[[0-9.]+ s\] clock: ' 'guest \[[0-9.]+ s\] starting pmcd' \
    'demo-(kvm|tcg) up \((kvm|tcg)\)'; do
    grep -qE "^parallax: (demo-(kvm|tcg): )?$step" "$work/batch.err" ||
        { cat "$work/batch.err"; fail "batch: no boot step /$step/ on stderr"; }
done
echo "ok: batch told the guest's boot steps: $(grep -oE 'guest \[[^]]*\] [a-z]+' "$work/batch.err" | cut -d' ' -f4 | tr '\n' ' ')"
wait_for 10 gone || fail "a qemu of ours outlived parallax --batch"
echo "ok: batch with --demo-guest: exit 0 in $((SECONDS - t0)) s, no qemu left"

log=$work/text.err
"$bin" --text -t 1 --demo-guest >/dev/null 2>"$log" &
pid=$!
wait_for 90 grep -qs 'demo-tcg up\|demo-kvm up' "$log" || { cat "$log"; fail "no boot"; }
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
# (only new ones count: one there before may go meanwhile, its boot.sh
# stopping)
no_new_logs() { [ -z "$(serial_logs | comm -13 "$work/logs.before" -)" ]; }
wait_for 10 no_new_logs ||
    fail "serial logs left behind: $(serial_logs | comm -13 "$work/logs.before" - | tr '\n' ' ')"
echo "ok: no serial log left behind"
echo "all demo guest checks passed"
