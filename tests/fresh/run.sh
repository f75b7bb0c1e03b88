#!/bin/bash
# A fresh machine: debootstraps Debian 12 (bookworm) from the deb.debian.org
# mirror this machine's apt uses into a directory outside the repository,
# puts a clean clone of COMMIT (default: HEAD) in /root/parallax there, and
# runs `bash .ci/run` in it, in namespaces of its own, so that nothing of
# this machine's PCP state (its /run/pcp, its pmcd, its namespace) reaches
# the run. Prints .ci/run's output and ends with its result line; exits
# with .ci/run's status. Everything it made is removed at the end (KEEP=1
# keeps the root for a look; FRESH_DIR: where the root goes, /var/tmp).
#
# Two steps, because what needs the network cannot have its own:
#   1. with this machine's network, in a mount and PID namespace of its
#      own: what a new user's first `make check` downloads, run the way
#      make runs it (scripts/deps.sh, guest/deps.sh, and the guests' kernel
#      packages through guest/fetch-kernel.sh: 6.1's, and the 6.12 ones
#      test_kernel_variants fetches). No pmcd is started.
#   2. in new mount, PID, network (loopback only), UTS and IPC namespaces,
#      chrooted, with /proc, /sys, /dev (a devpts of its own), a tmpfs on
#      /run (so no /run/pcp) and /dev/shm: `bash .ci/run`.
# Needs root and debootstrap (scripts/deps.sh fresh). About 20 minutes.
# Usage: tests/fresh/run.sh [COMMIT]
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
commit=$(git -C "$repo" rev-parse --verify "${1:-HEAD}^{commit}") || {
    echo "fresh: '${1:-HEAD}' is not a commit of $repo" >&2
    exit 2
}
say() { echo "fresh: $*" >&2; }
[ "$(id -u)" = 0 ] || { say "needs root (debootstrap, chroot, namespaces)"; exit 2; }
command -v debootstrap >/dev/null || { say "no debootstrap; run scripts/deps.sh fresh"; exit 2; }

# mirror: the deb.debian.org URI of this machine's apt (deb822 or one-line)
mirror=$(cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null |
    grep -oE 'https?://deb\.debian\.org/debian/?( |$)' | head -n 1 | tr -d ' ' ||
    true)
[ -n "$mirror" ] || { say "this machine's apt uses no deb.debian.org mirror"; exit 2; }

root=$(mktemp -d "${FRESH_DIR:-/var/tmp}/parallax-fresh.XXXXXX")
chmod 755 "$root" # its /: users such as pcp, _apt and man walk through it
# shellcheck disable=SC2317 # run by the trap
cleanup() {
    local rc=$?
    # every mount was made inside the namespaces and went with them; a
    # mount left here would make rm -rf reach this machine's files
    if findmnt -rn -o TARGET | grep -q "^$root"; then
        say "mounts left under $root; not removing it"
    elif [ "${KEEP:-0}" = 1 ]; then
        say "kept $root"
    else
        rm -rf --one-file-system "$root"
    fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

say "debootstrap bookworm from $mirror into $root"
debootstrap --variant=minbase --include=ca-certificates,git,make,iproute2 \
    bookworm "$root" "$mirror" >"$root.debootstrap.log" 2>&1 || {
    tail -n 20 "$root.debootstrap.log" >&2
    rm -f "$root.debootstrap.log"
    say "debootstrap failed"
    exit 1
}
rm -f "$root.debootstrap.log"
# the same suites as this machine (updates, security), from the same mirror
rm -f "$root/etc/apt/sources.list"
for f in /etc/apt/sources.list.d/*.sources /etc/apt/sources.list; do
    [ -f "$f" ] && grep -q 'deb\.debian\.org' "$f" &&
        cp "$f" "$root/etc/apt/${f#/etc/apt/}"
done
cp /etc/resolv.conf "$root/etc/resolv.conf"
printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost\n127.0.1.1\tparallax-fresh\n' \
    >"$root/etc/hosts"
echo parallax-fresh >"$root/etc/hostname"

say "clean clone of $commit"
git clone -q --no-local "$repo" "$root/root/parallax"
git -C "$root/root/parallax" checkout -q --detach "$commit"

# in_root NET_FLAG COMMAND: COMMAND (a bash script) as root in the new
# root, in namespaces of its own; NET_FLAG --net gives it a network
# namespace with only loopback, up.
in_root() {
    local cmd=$2 ns=(--mount --pid --uts --ipc)
    [ -z "$1" ] || ns+=("$1")
    # shellcheck disable=SC2016 # expanded by the inner shell
    unshare "${ns[@]}" --fork \
        env ROOT="$root" CMD="$cmd" NET="$1" bash -c '
        set -e
        hostname parallax-fresh
        [ -z "$NET" ] || ip link set lo up
        mount --bind "$ROOT" "$ROOT" # a mount point, as / is (ip netns)
        mount -t proc proc "$ROOT/proc" # of this PID namespace
        mount --rbind /sys "$ROOT/sys"
        mount --rbind /dev "$ROOT/dev"
        mount -t devpts -o newinstance,ptmxmode=0666,mode=620,gid=5 devpts "$ROOT/dev/pts"
        mount --bind "$ROOT/dev/pts/ptmx" "$ROOT/dev/ptmx"
        mount -t tmpfs -o mode=1777 tmpfs "$ROOT/dev/shm"
        mount -t tmpfs -o mode=755 tmpfs "$ROOT/run"
        exec chroot "$ROOT" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
            PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
            TERM=xterm-256color bash -c "cd /root/parallax && $CMD"'
}

say "step 1 (network): scripts/deps.sh, guest/deps.sh, the guests' kernels"
# the 6.12 kernels too: test_kernel_variants fetches them through apt (in
# CI, with the network); here step 2 finds them in the cache instead
in_root "" 'scripts/deps.sh && guest/deps.sh && guest/fetch-kernel.sh build/guest >/dev/null &&
    for v in 6.12 6.12-rt; do
        guest/fetch-kernel.sh --variant $v --cache build/guest/cache build/guest/kernels/$v >/dev/null || exit 1
    done'
[ ! -e "$root/run/pcp" ] || { say "step 1 left a /run/pcp"; exit 1; }

say "step 2 (no network, no pmcd has ever run here): bash .ci/run"
rc=0
in_root --net 'bash .ci/run' || rc=$?
say ".ci/run exited $rc"
exit "$rc"
