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
# Then the packages' run (tests/fresh/packages.sh): the two packages
# step 2 built (make check's make guest builds them) are installed with
# `apt install ./...deb` into a second fresh Debian 12 that has no source
# tree, used and removed there; its line ends the output. The exit status
# is .ci/run's, or the packages' run's when .ci/run passed.
# Needs root and debootstrap (scripts/deps.sh fresh). About 30 minutes.
# Usage: tests/fresh/run.sh [COMMIT]
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
commit=$(git -C "$repo" rev-parse --verify "${1:-HEAD}^{commit}") || {
    echo "fresh: '${1:-HEAD}' is not a commit of $repo" >&2
    exit 2
}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
[ "$(id -u)" = 0 ] || { say "needs root (debootstrap, chroot, namespaces)"; exit 2; }
command -v debootstrap >/dev/null || { say "no debootstrap; run scripts/deps.sh fresh"; exit 2; }

mirror=$(fresh_mirror)
[ -n "$mirror" ] || { say "this machine's apt uses no deb.debian.org mirror"; exit 2; }

root=$(mktemp -d "${FRESH_DIR:-/var/tmp}/parallax-fresh.XXXXXX")
debs=$(mktemp -d "${FRESH_DIR:-/var/tmp}/parallax-fresh-debs.XXXXXX")
# shellcheck disable=SC2317 # run by the trap
cleanup() {
    local rc=$?
    fresh_cleanup "$root"
    rm -rf "$debs"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

say "debootstrap bookworm from $mirror into $root"
fresh_root "$root" "$mirror" git,make,iproute2 || exit 1

say "clean clone of $commit"
git clone -q --no-local "$repo" "$root/root/parallax"
git -C "$root/root/parallax" checkout -q --detach "$commit"

say "step 1 (network): scripts/deps.sh, guest/deps.sh, the guests' kernels"
# the 6.12 kernels too: test_kernel_variants fetches them through apt (in
# CI, with the network); here step 2 finds them in the cache instead
in_root "$root" "" /root/parallax 'scripts/deps.sh && guest/deps.sh && guest/fetch-kernel.sh build/guest >/dev/null &&
    for v in 6.12 6.12-rt; do
        guest/fetch-kernel.sh --variant $v --cache build/guest/cache build/guest/kernels/$v >/dev/null || exit 1
    done'
[ ! -e "$root/run/pcp" ] || { say "step 1 left a /run/pcp"; exit 1; }

say "step 2 (no network, no pmcd has ever run here): bash .ci/run"
rc=0
in_root "$root" --net /root/parallax 'bash .ci/run' || rc=$?
say ".ci/run exited $rc"
[ "$rc" = 0 ] || exit "$rc"

# the packages make check built, for a machine without the source tree
cp "$root"/root/parallax/build/deb/parallax_*.deb \
    "$root"/root/parallax/build/deb/pcp-pmda-parallax_*.deb "$debs/" || {
    say "make check built no packages in build/deb"
    exit 1
}
fresh_cleanup "$root"
"$here/packages.sh" "$debs"
