#!/bin/bash
# The host's view on the real screen (the v key), in tmux: a qemu TCG
# guest with nothing of ours inside (its init only spins) shows as a
# column of its own, named by its -name, with host-side rows (its vCPU
# told by name, its run time, no KVM and why); v again gives the table
# back; killed, the VM goes from the screen while parallax runs on.
set -u
. "$(dirname "$0")/../lib.sh"
use_guest_image
tmp=$(mktemp -d)
qp=
ours=()
tmux_use parallax-vms
cleanup() {
    [ -n "$qp" ] && kill -KILL "$qp" 2>/dev/null
    tmux_stop
    rm -rf "$tmp"
}
trap cleanup EXIT

name=t26tui-$$
spin_qemu "$name"
qp=$QP

export XDG_STATE_HOME=$tmp/state # where s saves its reports
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
# s saves the reports: the VM in both, its figures and why KVM has none
tm send-keys -t t s
wait_for 10 has 'saved .*parallax-.*\.txt' || { screen; fail "s saved no report"; }
json=$(ls "$tmp"/state/parallax/parallax-*.json)
txt=${json%.json}.txt
python3 - "$json" "$name" "$qp" <<'PY' || fail "the JSON report's vms: see above"
import json, sys
vms = json.load(open(sys.argv[1]))["vms"]
vm = next(v for v in vms if v["name"] == sys.argv[2])
assert vm["pid"] == int(sys.argv[3]) and vm["kind"] == "qemu", vm
assert vm["guest"] is None and vm["nvcpu"] == 1, vm
assert vm["figures"]["vcpu_run"] > 0 and vm["figures"]["vcpu_wait"] >= 0, vm
assert vm["figures"]["kvm_exits"] is None and "TCG" in vm["notes"]["kvm_exits"], vm
print("ok: JSON report: run %.1f%%, wait %.1f%%" % (vm["figures"]["vcpu_run"], vm["figures"]["vcpu_wait"]))
PY
grep -q "^-- host's view: [0-9]* VMs\? on this host --" "$txt" && grep -q " $name" "$txt" ||
    fail "the text report has no host's view of $name"
echo "ok: text report"
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
