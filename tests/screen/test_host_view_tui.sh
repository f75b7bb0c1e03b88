#!/bin/bash
# The host's view on the real screen (the v key), in tmux: a qemu TCG
# guest with nothing of ours inside (its init only spins) shows as a
# column of its own, named by its -name, with host-side rows (its vCPU
# told by name, its run time, no KVM and why); v again gives the table
# back; killed, the VM goes from the screen while parallax runs on.
set -u
. "$(dirname "$0")/../lib.sh"
use_guest_image
kernel=$gdir/kernel/vmlinux
[ -s "$kernel" ] || kernel=$gdir/kernel/vmlinuz
tmp=$(mktemp -d)
qp=
tmux_use parallax-vms
cleanup() {
    [ -n "$qp" ] && kill -KILL "$qp" 2>/dev/null
    tmux_stop
    rm -rf "$tmp"
}
trap cleanup EXIT

name=t26tui-$$
qemu-system-x86_64 -name "guest=$name,debug-threads=on" -accel tcg -m 128M \
    -nodefaults -no-user-config -display none -no-reboot \
    -kernel "$kernel" -initrd "$gdir/initramfs.cpio.gz" \
    -append "console=ttyS0 quiet panic=-1 parallax_test_spin=only" \
    -serial "file:$tmp/serial.log" </dev/null >"$tmp/qemu.err" 2>&1 &
qp=$!
wait_for 60 grep -qs "test: spinning" "$tmp/serial.log" ||
    fail "the guest did not boot: $(tail -2 "$tmp/qemu.err")"

tmux_shell 120 32
tmux_parallax "$bin -t 0.5"
tm send-keys -t t v
wait_for 10 has "─ host's view: [0-9]+ VMs? \(v: the table\)" || { screen; fail "v did not open the host's view"; }
wait_for 10 has " $name( |$)" || { screen; fail "no column for $name"; }
has "qemu $qp 1vcpu" || { screen; fail "no 'qemu $qp 1vcpu'"; }
has "host side only" || { screen; fail "not said to be host side only"; }
wait_for 10 has '^vCPU run % +[0-9]+\.[0-9] ' || { screen; fail "no vCPU run figure"; }
has '^KVM exits/s +n/a no KVM: emulated \(TCG\)' || { screen; fail "no KVM reason"; }
has '^vCPUs told +vCPUs by thread name' || { screen; fail "vCPUs not told by name"; }
echo "ok: $name shown with host-side rows"
tm send-keys -t t v
wait_for 5 has '^CPU user % +[0-9]+\.[0-9]' || { screen; fail "v did not give the table back"; }
tm send-keys -t t v
wait_for 5 has " $name( |$)" || { screen; fail "v again: $name not shown"; }
kill -KILL "$qp"
wait "$qp" 2>/dev/null
qp=
wait_for 10 hasnt " $name( |$)" || { screen; fail "$name still shown after its qemu was killed"; }
has "─ host's view" || { screen; fail "the screen went"; }
echo "ok: $name gone once killed"
tm send-keys -t t q
wait_for 5 has '^EXIT=0$' || { screen; fail "did not quit with 0"; }
echo "host view screen: ok"
