#!/bin/bash
# The User-Mode Linux demo guest end to end (issue 18): bad variants are
# refused in one line, exit 2, before anything boots; `parallax
# --demo-guest=uml` shows the guest's column live within 150 s with the UML
# kernel, CFS and no preemption; syscall-null started by Space completes on
# both sides with the ratio its two figures give, the host's figure what
# perf bench makes of this machine; its syscalls/s cell says why it counts
# none; after q no linux.uml, slirp or boot.sh of ours is left, nor after
# SIGTERM or SIGKILL of parallax (--text); `--batch seed000` writes the
# first seed comparison's report; boot.sh tries another port when slirp
# finds its port taken; and the guest's pmcd, reachable on every address,
# takes stores from this host's loopback only.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
. "$here/pmcd.sh"
use_guest_image
{ command -v linux.uml && command -v slirp; } >/dev/null ||
    fail "no linux.uml or slirp; run guest/deps.sh"

tmux_use parallax-uml -J
work=$(mktemp -d)
listener=
trap 'tmux_stop; [ -z "$listener" ] || kill "$listener" 2>/dev/null; rm -rf "$work"' EXIT

# what of ours runs: boot.sh scripts booting a UML guest of our image, the
# guests' linux.uml processes (by their umid directory), and the slirp
# forwarding port $1 (when given)
boots() { pgrep -f "[b]oot.sh --build $gdir --uml" | wc -l; }
umls() { pgrep -f "[u]ml_dir=$gdir/uml " | wc -l; }
slirps() { pgrep -f "^/usr/bin/[s]lirp host addr 10.0.2.2 redir tcp ${1:-} " | wc -l; }
boots_before=$(boots) umls_before=$(umls)
# none_left [PORT]: nothing of ours runs, and no umid directory is left
none_left() {
    [ "$(boots)" -le "$boots_before" ] && [ "$(umls)" -le "$umls_before" ] &&
        { [ -z "${1:-}" ] || [ "$(slirps "$1")" = 0 ]; } &&
        [ -z "$(find "$gdir/uml" -mindepth 1 -maxdepth 1 -name "parallax-*" \
            -newer "$work" 2>/dev/null)" ]
}

for v in kernel=5.4 uml,cpus=2 uml,icount; do
    expect_fail 2 "demo guest variant" "$bin" --text -n 1 --demo-guest="$v"
done
[ "$(boots)" -le "$boots_before" ] || fail "a bad variant started boot.sh"

t0=$SECONDS
tmux_new 160 52 "$bin -t 1 --demo-guest=uml; echo EXIT=\$?; sleep 60"
live() { has 'demo-uml' && has 'pcp 127\.0\.0\.1:[0-9]+ \+pmda' && has ' CFS none 1cpu'; }
# (a boot's deadline, not its speed: 60 s was not always enough on a
# machine others loaded)
wait_for 150 live || { screen; fail "the UML guest's column was not live in 150 s"; }
port=$(screen | grep -oE 'pcp 127\.0\.0\.1:[0-9]+' | head -1 | cut -d: -f2)
echo "ok: UML column live in $((SECONDS - t0)) s: $(screen | grep -oE "[^ ]+ $(uml_mm)\.[0-9]+ CFS none 1cpu [^ ]+"), pmcd on port $port"
[ "$(slirps "$port")" = 1 ] || fail "no slirp forwarding port $port"
px=$(pane_parallax) || fail "no parallax in the window"
host_null_checked "$px" 2
tm send-keys -t t y
wait_for 20 has '^syscalls/s .* n/a no tracepoint' ||
    { screen; fail "the UML column's syscalls/s does not say why it is empty"; }
wait_for 20 has 'syscalls/s on demo-uml: .*no tracefs' ||
    { screen; fail "the status line does not say why the guest counts none"; }
echo "ok: $(screen | grep -oE 'syscalls/s on demo-uml: .*no tracefs')"
tm send-keys -t t q
wait_for 20 has '^EXIT=0$' || { screen; fail "q did not exit 0"; }
wait_for 15 none_left "$port" ||
    fail "after q: boot.sh $(boots), linux.uml $(umls), slirp $(slirps "$port")"
echo "ok: after q no linux.uml, slirp or boot.sh of ours"

# text_guest SIGNAL: --text with the UML guest, then SIGNAL to parallax
text_guest() {
    local log=$work/text.$1.err pid p
    "$bin" --text -t 1 --demo-guest=uml >/dev/null 2>"$log" &
    pid=$!
    wait_for 150 grep -qs 'demo-uml up (uml)' "$log" || { cat "$log"; fail "no UML boot"; }
    p=$(sed -n 's/.*pmcd on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$log" | head -1)
    [ "$(umls)" -gt "$umls_before" ] || fail "no linux.uml while the guest is up"
    kill "-$1" "$pid"
    wait "$pid" 2>/dev/null
    wait_for 15 none_left "$p" ||
        fail "after SIG$1: boot.sh $(boots), linux.uml $(umls), slirp $(slirps "$p")"
    echo "ok: after SIG$1 of parallax no linux.uml, slirp or boot.sh of ours"
}
text_guest TERM
text_guest KILL

# the first seed comparison as a report: seed000 on the host and the UML
# guest, every run done, each ratio its medians' (how much costlier a
# system call is in the guest is the world's to say)
"$bin" --batch seed000 -r 1 --demo-guest=uml -o "$work/seed000.txt" \
    2>"$work/seed000.err" || { tail -5 "$work/seed000.err"; fail "seed000 exited $?"; }
python3 - "$work/seed000.json" <<'PY' || fail "the seed000 report"
import json, sys
d = json.load(open(sys.argv[1]))
host, uml = d["sources"]
assert uml["name"] == "demo-uml" and uml["scheduler"] == "CFS", uml["name"]
for wl in ("syscall-null", "fork-exit", "sleep", "rsa-sign"):
    for s in (host, uml):
        assert s["workloads"][wl]["state"] == "done", (s["name"], wl)
for wl in ("syscall-null", "fork-exit"):
    g, h = uml["workloads"][wl]["median"], host["workloads"][wl]["median"]
    r = uml["workloads"][wl]["ratio"]
    assert r is not None and abs(r - g / h) <= 1e-9 * r, (wl, r, g, h)
r = uml["workloads"]["syscall-null"]["ratio"]
print(f"ok: seed000 report: syscall-null x{r:.1f}, fork-exit "
      f"x{uml['workloads']['fork-exit']['ratio']:.1f} in the UML guest")
PY
none_left || fail "seed000 left something running"

# a port taken between boot.sh's choice and slirp's listen: another try
taken=$(free_port) || fail "no free port"
python3 -c "import socket, time
s = socket.socket(); s.bind(('0.0.0.0', $taken)); s.listen(); time.sleep(120)" &
listener=$!
wait_for 5 bash -c "exec 3<>/dev/tcp/127.0.0.1/$taken" 2>/dev/null ||
    fail "the listener on $taken did not come up"
guest/boot.sh --build "$gdir" --uml --port "$taken" >"$work/taken.out" \
    2>"$work/taken.err" &
bpid=$!
wait_for 150 test -s "$work/taken.out" || { cat "$work/taken.err"; fail "no boot after a taken port"; }
grep -q "^boot: port $taken is taken (slirp: Address already in use); trying another" \
    "$work/taken.err" || { cat "$work/taken.err"; fail "boot.sh did not say port $taken was taken"; }
port=$(sed -n 's/^PORT=\([0-9]*\) .*ACCEL=uml .*/\1/p' "$work/taken.out")
[ -n "$port" ] || fail "no ready line after $taken was taken"
[ "$port" != "$taken" ] || fail "ready on the taken port $taken"
pminfo -h "127.0.0.1:$port" -f kernel.uname.release | grep -q "value \"$(uml_mm)\." ||
    fail "no UML pmcd on port $port"
# slirp listens on every address: stores only from this host (10.0.2.2 in
# the guest), said so; one through another address of this host is refused
grep -q "only stores from 10.0.2.2 (this host) are allowed" "$work/taken.err" ||
    fail "boot.sh did not say who may store"
pmstore -h "127.0.0.1:$port" pmcd.control.debug 0 >/dev/null ||
    fail "a store from this host through 127.0.0.1 was refused"
ext=$(hostname -I 2>/dev/null | tr ' ' '\n' | grep -m 1 -E '^[0-9.]+$' | grep -v '^127\.')
if [ -n "$ext" ]; then
    pmstore -h "$ext:$port" pmcd.control.debug 0 2>&1 | grep -q 'No permission' ||
        fail "a store through $ext:$port was not refused"
    echo "ok: stores through 127.0.0.1 allowed, through $ext refused"
fi
kill -TERM "$bpid"
wait "$bpid" || fail "boot.sh exited $? after SIGTERM"
wait_for 15 none_left "$port" || fail "the retried guest left something"
echo "ok: port $taken taken: boot.sh said so and came up on $port"
echo "all UML guest checks passed"
