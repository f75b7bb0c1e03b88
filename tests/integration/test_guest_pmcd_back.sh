#!/bin/bash
# The demo guest keeps its pmcd (issue 16: any local user could make it
# die, and the column stayed down): in a real guest under qemu, the store
# that once filled its tmpfs (`disk size_mb=1048576 char_mb=0`) is refused
# by pmdaparallax, saying the memory it would take, and pmcd answers on;
# then pmcd is killed (SIGKILL, as the OOM killer does, through the init's
# test hook) and comes back by itself, with pmdaparallax.
# Usage: tests/integration/test_guest_pmcd_back.sh BUILD_DIR
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
build=$(realpath "${1:-build}")
[ -s "$build/guest/initramfs.cpio.gz" ] || fail "no guest image; run make guest"

tmp=$(mktemp -d)
bpid=
cleanup() {
    [ -n "$bpid" ] && kill -TERM "$bpid" 2>/dev/null && wait "$bpid"
    rm -rf "$tmp"
}
trap cleanup EXIT

PARALLAX_GUEST_APPEND="parallax_test_kill_pmcd=12" \
    "$here/../guest/boot.sh" -b "$build/guest" -l "$tmp/serial.log" \
    >"$tmp/out" 2>"$tmp/err" &
bpid=$!
booted() { [ -s "$tmp/out" ] || ! kill -0 "$bpid" 2>/dev/null; }
wait_for 90 booted || fail "no guest after 90 s"
port=$(sed -n 's/^PORT=\([0-9]*\) .*/\1/p' "$tmp/out")
[ -n "$port" ] || { cat "$tmp/err"; fail "the guest did not come up"; }
h=127.0.0.1:$port
echo "ok: guest up, pmcd on $h"

# the store of issue 16, from this host (the guest allows its stores)
pminfo -h "$h" parallax.agent.version >/dev/null || fail "no pmdaparallax"
if pmstore -h "$h" parallax.control.start 'disk size_mb=1048576 char_mb=0' \
    >/dev/null 2>&1; then
    fail "the guest started disk size_mb=1048576"
fi
why=$(pminfo -h "$h" -f parallax.control.error)
grep -q 'size_mb=1048576 needs 1024.0 GiB' <<<"$why" ||
    fail "no reason for the refusal: $why"
pminfo -h "$h" kernel.uname.release >/dev/null || fail "pmcd gone after the store"
echo "ok: refused: $(sed -n 's/.*value "\(.*\)"/\1/p' <<<"$why")"
# what the suites run with their defaults still fits the guest
for wl in disk fcopy page-fault; do
    pmstore -h "$h" parallax.control.start "$wl --count=1 --warmup=0" \
        >/dev/null 2>&1 ||
        fail "$wl refused: $(pminfo -h "$h" -f parallax.control.error)"
done
pmstore -h "$h" parallax.control.stop_all 1 >/dev/null
echo "ok: disk, fcopy and page-fault with their defaults start"

# pmcd killed: it comes back, and so does the agent
wait_for 30 grep -q 'pmcd ended (status 137); starting it again' \
    "$tmp/serial.log" || { cat "$tmp/serial.log"; fail "pmcd not killed"; }
t0=$SECONDS
wait_for 30 pminfo -h "$h" -f parallax.agent.version >/dev/null 2>&1 || {
    cat "$tmp/serial.log"
    fail "pmcd and pmdaparallax not back within 30 s"
}
echo "ok: pmcd and pmdaparallax back $((SECONDS - t0)) s after the kill"
echo "all guest pmcd checks passed"
