#!/bin/bash
# A replay's host's view on the real screen (the v key), in tmux: this
# host's recording of a real qemu (paused with -S: a VM process with its
# vCPU thread, no guest to boot), replayed with --no-vm-view (nothing of
# this host's is read), shows the VM as it was recorded: "1 VM recorded"
# in the rule, its name with the recording's _ for a space, "qemu PID
# 1vcpu", whose recording it is, its rows and why KVM has none; paused
# (p), the screen's copy of the session keeps it.
set -u
. "$(dirname "$0")/../lib.sh"
use_build
command -v qemu-system-x86_64 >/dev/null || fail "no qemu; run make deps"
tmp=$(mktemp -d)
qp=
tmux_use parallax-replay-vms
cleanup() {
    [ -n "$qp" ] && kill -KILL "$qp" 2>/dev/null
    tmux_stop
    rm -rf "$tmp"
}
trap cleanup EXIT

name=t26rep$$
paused_qemu "$name x" "$tmp/qemu.err"
qp=$QP
"$bin" --text -n 4 -t 0.5 --record "$tmp/rec" >"$tmp/live.txt" 2>"$tmp/live.err" ||
    fail "the recording failed: $(tail -2 "$tmp/live.err")"
grep -q "$name x" "$tmp/live.txt" || fail "the live run did not show $name x"
{ kill -KILL "$qp" && wait "$qp"; } 2>/dev/null
qp=

tmux_shell 120 32
tmux_parallax "$bin -t 0.5 --no-vm-view -a rec=$tmp/rec/host"
tm send-keys -t t v
wait_for 10 has "─ host's view: 1 VM recorded \(v: the table\)" || { screen; fail "v showed no recorded VM"; }
has " ${name}_x( |$)" || { screen; fail "no column for ${name}_x"; }
wait_for 10 has "qemu [0-9]+ 1vcpu" || { screen; fail "no 'qemu PID 1vcpu'"; }
has "rec: host side only" || { screen; fail "not said whose recording"; }
has '^vCPU run % +[0-9]+\.[0-9] ' || { screen; fail "no vCPU run figure"; }
has '^KVM exits/s +n/a no KVM: emulated \(TCG\)' || { screen; fail "no KVM reason"; }
has '^vCPUs told +vCPUs by thread name' || { screen; fail "vCPUs not told by name as recorded"; }
echo "ok: the recorded VM ${name}_x on the screen"
# p pauses the screen on a copy of the session: the recorded VM stays
tm send-keys -t t p
wait_for 10 has "PAUSED" || { screen; fail "p did not pause"; }
sleep 1.5 # three refreshes of the paused screen
has "─ host's view: 1 VM recorded \(v: the table\)" && has " ${name}_x( |$)" ||
    { screen; fail "the paused screen lost the recorded VM"; }
echo "ok: paused, the recorded VM stays"
