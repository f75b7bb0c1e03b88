#!/bin/bash
# End to end with parallax's own micro-VM: `parallax --demo-guest` boots the
# guest, shows its boot on the status line and adds it as a column; the
# column reports the guest's kernel release and 1 CPU; the null-syscall,
# pipe-latency and fork workloads run on host and guest by key, and each
# guest/host ratio is above 1; after q no qemu of ours remains, nor after
# parallax is killed outright (SIGKILL: no handler runs).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
use_build
[ -s "$PARALLAX_BUILD/guest/initramfs.cpio.gz" ] ||
    fail "no guest image in $PARALLAX_BUILD/guest; run make guest"

sock=parallax-demo-$$
tm() { tmux -L "$sock" "$@"; }
# qemus booting our image ("[q]" keeps pgrep from matching a shell that
# runs this very pattern)
ours() { pgrep -f "[q]emu-system.*$PARALLAX_BUILD/guest" | wc -l; }
cleanup() {
    tm kill-server 2>/dev/null
    rm -f "/tmp/tmux-$(id -u)/$sock"
}
trap cleanup EXIT
screen() { tm capture-pane -p -J -t t; }
has() { screen | grep -qE "$1"; }
ratio() { screen | grep -E "^[> ] $1 " | awk '{print $NF}'; }

before=$(ours)
export TERM=xterm-256color LANG=C.UTF-8
tm -f /dev/null new-session -d -s t -x 160 -y 45 \
    "$bin -t 1 --demo-guest; echo EXIT=\$?; sleep 60"
wait_for 10 has '^ demo guest: ' || { screen; fail "no boot progress shown"; }
echo "ok: boot progress: $(screen | sed -n 2p | sed 's/ *$//')"
wait_for 90 has 'pcp 127\.0\.0\.1:[0-9]+ \+pmda' ||
    { screen; fail "the demo guest never answered with pmdaparallax"; }
host_rel=$(uname -r)
wait_for 20 bash -c "tmux -L $sock capture-pane -p -t t | grep -qE 'parallax-guest [0-9][^ ]* 1cpu'" ||
    { screen; fail "guest column lacks its release and 1 CPU"; }
guest_rel=$(screen | grep -oE 'parallax-guest [^ ]+' | head -1 | cut -d' ' -f2)
[ "$guest_rel" != "$host_rel" ] || fail "guest reports the host's kernel"
echo "ok: guest column: kernel $guest_rel (host $host_rel), 1 cpu"

# run_workload NAME DOWNS: select it (DOWNS rows below the first), start it,
# wait for both sides' statistics, and check the ratio is above 1
run_workload() {
    local name=$1 downs=$2 r
    tm send-keys -t t Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up
    for ((i = 0; i < downs; i++)); do tm send-keys -t t Down; done
    tm send-keys -t t Space
    wait_for 10 has "^> $name " || { screen; fail "$name did not start"; }
    wait_for 60 bash -c "tmux -L $sock capture-pane -p -J -t t | grep -qE '^  $name +[0-9.]+[kM]? ±[^ ]+ [^ ]+ +[0-9.]+[kM]? ±[^ ]+ [^ ]+ +[0-9.]+\$'" ||
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

log=$(mktemp)
"$bin" --text -t 1 --demo-guest >/dev/null 2>"$log" &
pid=$!
wait_for 90 grep -q 'demo guest up' "$log" || { cat "$log"; fail "no boot"; }
[ "$(ours)" -gt "$before" ] || fail "no qemu while the guest is up"
kill -KILL "$pid"
wait "$pid" 2>/dev/null # (bash reports the kill otherwise)
wait_for 15 gone || fail "a qemu of ours outlived a killed parallax"
rm -f "$log"
echo "ok: no qemu left after SIGKILL"
echo "all demo guest checks passed"
