#!/bin/bash
# --no-vm-view turns the host's view off, and without it the view is on
# (issue 26: what the view costs is measured against the same screen
# without it, bench/vmview_cost.sh). A real qemu process (TCG, stopped by
# -S before its first instruction: a VM process with its vCPU thread,
# costing no CPU) is the VM; strace, not parallax, says what was read:
#   A: parallax --text with the view opens that qemu's per-thread
#      schedstat files and prints the host's view with its column;
#   B: with --no-vm-view it opens no file of that qemu's and of no other
#      process's /proc/PID (its own /proc/self aside), lists no /proc, and
#      prints no host's view;
#   C: on the screen, v says the view is off (and names the option);
#   D: -h NAME=ADDR,pid=N with --no-vm-view is refused in one line.
# Usage: tests/integration/test_vm_view_off.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.."
# shellcheck source=tests/lib.sh
. tests/lib.sh
PARALLAX_BUILD=${1:-build}
use_build
command -v strace >/dev/null || fail "no strace; run make deps"
command -v qemu-system-x86_64 >/dev/null || fail "no qemu; run make deps"
tmp=$(mktemp -d)
qp=
tmux_use parallax-vmoff
cleanup() {
    [ -n "$qp" ] && kill -KILL "$qp" 2>/dev/null
    tmux_stop
    [ -z "${KEEP:-}" ] && rm -rf "$tmp"
}
trap cleanup EXIT

name=vmoff-$$
paused_qemu "$name" "$tmp/qemu.err"
qp=$QP
vcpu_up() { grep -qs "CPU 0/TCG" /proc/"$qp"/task/*/comm; }
wait_for 20 vcpu_up || fail "qemu did not start: $(cat "$tmp/qemu.err")"

# traced OUT ARGS...: parallax --text -n 4 ARGS under strace (every
# thread's openat and getdents) into OUT.txt and OUT.strace
traced() {
    local out=$1
    shift
    COLUMNS=200 strace -f -qq -e trace=openat,getdents64 -o "$tmp/$out.strace" \
        "$bin" --text -t 0.5 -n 4 "$@" >"$tmp/$out.txt" 2>"$tmp/$out.err" ||
        fail "parallax $*: $(cat "$tmp/$out.err")"
}
# opens OUT PATTERN: how many openat calls of OUT's trace match PATTERN
opens() { grep -cE "openat\(AT_FDCWD, \"$2" "$tmp/$1.strace"; }

# --- A: on by default ---
traced on
n=$(opens on "/proc/$qp/task/[0-9]+/schedstat")
[ "$n" -gt 0 ] || fail "with the view, no schedstat of qemu $qp was opened"
grep -q "^-- host's view: [0-9]* VMs\? on this host --" "$tmp/on.txt" ||
    fail "with the view, --text printed no host's view: $(cat "$tmp/on.txt")"
grep -q " $name" "$tmp/on.txt" || fail "with the view, no column for $name"
lists=$(opens on '/proc", O_RDONLY\|O_NONBLOCK\|O_CLOEXEC\|O_DIRECTORY')
[ "$lists" -gt 0 ] || fail "with the view, /proc was never listed (the check in B would see nothing)"
echo "ok: with the view: $n opens of qemu's schedstat files, /proc listed $lists times, $name shown"

# --- B: off ---
traced off --no-vm-view
n=$(opens off "/proc/$qp/")
[ "$n" = 0 ] || fail "--no-vm-view still opened $n files of qemu $qp"
other=$(grep -E 'openat\(AT_FDCWD, "/proc/[0-9]+/' "$tmp/off.strace" |
    grep -vE "^([0-9]+) .*\"/proc/\1/" || true)
[ -z "$other" ] || fail "--no-vm-view read other processes: $other"
n=$(opens off '/proc", O_RDONLY\|O_NONBLOCK\|O_CLOEXEC\|O_DIRECTORY')
[ "$n" = 0 ] || fail "--no-vm-view still listed /proc $n times"
grep -q "host's view" "$tmp/off.txt" && fail "--no-vm-view printed the host's view"
grep -q "^CPU user %" "$tmp/off.txt" || fail "--no-vm-view printed no table"
echo "ok: --no-vm-view: no file of qemu $qp opened, /proc not listed, no host's view"

# --- C: the v key on the screen says it is off ---
export XDG_STATE_HOME=$tmp/state
tmux_shell 120 32
tmux_parallax "$bin -t 0.5 --no-vm-view"
tm send-keys -t t v
wait_for 10 has "off: --no-vm-view" || { screen; fail "v did not say the view is off"; }
has " $name( |$)" && { screen; fail "$name shown with --no-vm-view"; }
tm send-keys -t t q
wait_for 10 has '^EXIT=0' || { screen; fail "parallax did not quit with 0"; }
echo "ok: v says off: --no-vm-view"

# --- D: pid= needs the view ---
rc=0
err=$("$bin" --text -n 1 --no-vm-view -h "g=localhost:1,pid=$qp" 2>&1 >/dev/null) || rc=$?
[ "$rc" != 0 ] || fail "pid= with --no-vm-view was taken"
[ "$(printf '%s\n' "$err" | wc -l)" = 1 ] && [[ $err == *--no-vm-view* ]] ||
    fail "pid= with --no-vm-view: not one line naming the option: $err"
echo "ok: pid= refused with --no-vm-view -> $rc: $err"
