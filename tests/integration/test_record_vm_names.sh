#!/bin/bash
# The names a recording gives its VMs (issue 26): PCP's instance names
# must differ before their first space, and libpcp_import refuses a name
# it was given before, which stopped the recording. Real qemu processes
# (paused with -S: no guest needs to boot) under parallax --text --record:
#   - two VMs whose names agree up to a space ("NAME a", "NAME b"): two
#     instances, the spaces made '_' (NAME_a.PID, NAME_b.PID);
#   - the first of them killed and started again under its own pid (the
#     kernel's ns_last_pid set before the fork): another VM with the same
#     NAME.PID, named NAME_a.PID.2;
# and the recording goes on to the end: parallax exits 0, pmlogcheck
# passes the archive, and records after the restart hold all three.
# Usage: tests/integration/test_record_vm_names.sh BUILD_DIR
set -eu
cd "$(dirname "$0")/../.."
# shellcheck source=tests/lib.sh
. tests/lib.sh

PARALLAX_BUILD=${1:-build}
use_build
command -v qemu-system-x86_64 >/dev/null || fail "no qemu; run make deps"
[ -w /proc/sys/kernel/ns_last_pid ] || fail "cannot write ns_last_pid (root needed)"
ours_tmp
name=t26n$$

# vm NAME: a paused qemu named NAME, one of ours; its pid in QP.
vm() {
    paused_qemu "$1" "$tmp/qemu.err"
    ours+=("$QP")
}

vm "$name a"
pa=$QP
vm "$name b"
pb=$QP

"$bin" --text -t 0.3 --record "$tmp/rec" >"$tmp/out" 2>"$tmp/err" &
wp=$!
ours+=("$wp")
seen() { grep -c "$1" "$tmp/out" 2>/dev/null || true; }
wait_for 30 grep -qs "$name a" "$tmp/out" ||
    fail "parallax did not show $name a: $(tail -3 "$tmp/err")"
sleep 1

# the first VM again, under the pid it had
kill -KILL "$pa"
wait "$pa" 2>/dev/null || true
again=
for _ in $(seq 20); do
    echo $((pa - 1)) >/proc/sys/kernel/ns_last_pid
    vm "$name a"
    [ "$QP" = "$pa" ] && { again=$QP; break; }
    kill -KILL "$QP"
    wait "$QP" 2>/dev/null || true
done
[ -n "$again" ] || fail "could not start a qemu under pid $pa again"
sleep 2
kill -INT "$wp"
rc=0
wait "$wp" || rc=$?
[ "$rc" = 0 ] || fail "parallax exited $rc: $(tail -3 "$tmp/err")"
! grep -q "cannot record" "$tmp/err" || fail "the recording stopped: $(grep "cannot record" "$tmp/err")"

arch=$(find "$tmp/rec/host" -name '*.meta' | sed 's/\.meta$//')
[ -n "$arch" ] || fail "no archive of this host in $tmp/rec"
pmlogcheck "$arch" >"$tmp/check" 2>&1 || fail "pmlogcheck: $(tail -3 "$tmp/check")"
pmdumplog "$arch" parallax.vm.pid >"$tmp/dump" 2>&1 ||
    fail "pmdumplog: $(tail -2 "$tmp/dump")"
for inst in "${name}_a.$pa" "${name}_b.$pb" "${name}_a.$pa.2"; do
    grep -q "\"$inst\"" "$tmp/dump" ||
        fail "no instance $inst in the archive: $(grep -o 'or "[^"]*"' "$tmp/dump" | sort -u | tr '\n' ' ')"
done
# the last record holds the two VMs alive then, the restarted one by its
# new instance
last=$(awk '/^[0-9][0-9]:[0-9][0-9]:/ {r = ""; next} {r = r $0 "\n"} END {printf "%s", r}' "$tmp/dump")
echo "$last" | grep -q "\"${name}_a.$pa.2\"" || fail "the last record lacks ${name}_a.$pa.2: $last"
echo "$last" | grep -q "\"${name}_b.$pb\"" || fail "the last record lacks ${name}_b.$pb: $last"
if echo "$last" | grep -q "\"${name}_a.$pa\"\]"; then
    fail "the last record holds the killed VM: $last"
fi
echo "record vm names: ok (${name}_a.$pa, ${name}_b.$pb, ${name}_a.$pa.2)"
