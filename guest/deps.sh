#!/bin/sh
# Installs the Debian packages that building and booting the demo guest
# need, on top of what scripts/deps.sh installs (pcp itself). Idempotent:
# prints one line and changes nothing when all is present.
set -eu

# qemu-system-x86 boots the guest; busybox-static is the guest's userland;
# cpio packs the initramfs; lz4 and zstd unpack the kernels (Debian packs
# 6.1 with lz4, 6.12 with zstd) for qemu's faster PVH boot, xz-utils the
# 6.12 modules; libc6-dev has the static libc that guest/clock_sync.c
# links; user-mode-linux and slirp boot the UML guest (--demo-guest=uml:
# the kernel as a host process, its network through slirp, no KVM, tun or
# daemon needed). pcp (pmcd and the PMDAs copied into the guest) comes
# from scripts/deps.sh, which also knows how to configure it without
# systemd.
PKGS="qemu-system-x86 busybox-static cpio lz4 zstd xz-utils libc6-dev
user-mode-linux slirp"

# missing_pkgs: prints the packages of $PKGS that are not installed.
missing_pkgs() {
    for p in $PKGS; do
        st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
        [ "$st" = "install ok installed" ] || printf ' %s' "$p"
    done
}

# have_lists: true when apt has package lists, which fetch-kernel.sh needs
# to resolve and download the cloud kernel. (Asking apt-cache itself takes
# seconds here: apt keeps no binary cache on this machine kind.)
have_lists() {
    ls /var/lib/apt/lists/*_Packages* >/dev/null 2>&1
}

main() {
    missing=$(missing_pkgs)
    if [ -z "$missing" ] && have_lists; then
        echo "guest deps: all present"
        return 0
    fi
    if [ "$(id -u)" != 0 ]; then
        echo "guest deps: missing:${missing:- apt lists}; run 'make guest' as root (or: sudo apt-get update && sudo apt-get install$missing)" >&2
        return 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    # apt-get download of the kernel needs current lists, too
    echo "guest deps: apt-get update"
    apt-get update -qq
    if [ -n "$missing" ]; then
        echo "guest deps: installing:$missing"
        # shellcheck disable=SC2086 # word splitting of the list is wanted
        apt-get install -y -qq --no-install-recommends $missing
    fi
    echo "guest deps: done"
}

main "$@"
