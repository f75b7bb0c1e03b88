#!/bin/bash
# Makes a demo guest that boots another of Debian 12's kernels: fetches it
# (guest/fetch-kernel.sh, the .deb cached beside the default kernel's) into
# OUT/kernels/VARIANT/kernel, and appends its virtio-net modules, as a
# second cpio archive, to the image build-image.sh made (the kernel
# unpacks the archives in order, so the one image serves every kernel).
# Does nothing when both are up to date. Prints the kernel release.
# Usage: guest/variant-image.sh OUT_DIR VARIANT   (VARIANT: 6.12, 6.12-rt)
# Environment: PARALLAX_GUEST_CACHE, where the .debs are kept (default
#   OUT_DIR/cache, shared with build-image.sh's kernel)
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)

die() {
    echo "variant-image: $*" >&2
    exit 1
}

# modules_cpio KDIR RELEASE: KDIR/modules.cpio.gz, the modules of RELEASE
# under /usr/lib/modules with their modules.dep, rebuilt when the kernel
# package changed.
modules_cpio() {
    kdir=$1
    [ "$kdir/modules.cpio.gz" -nt "$kdir/kernel/package" ] && return 0
    stage=$kdir/root
    rm -rf "$stage"
    mkdir -p "$stage/usr/lib/modules"
    cp -R "$kdir/kernel/modules/$2" "$stage/usr/lib/modules/"
    ln -s usr/lib "$stage/lib" # as in the image (merged /usr)
    busybox depmod -b "$stage" "$2" || die "busybox depmod failed"
    (cd "$stage" && find ./usr | LC_ALL=C sort |
        cpio -o -H newc -R 0:0 --quiet) | gzip -6 >"$kdir/modules.cpio.gz.tmp"
    mv "$kdir/modules.cpio.gz.tmp" "$kdir/modules.cpio.gz"
    rm -rf "$stage"
}

main() {
    [ $# -eq 2 ] || die "usage: guest/variant-image.sh OUT_DIR 6.12|6.12-rt"
    out=$1 variant=$2
    base=$out/initramfs.cpio.gz
    [ -s "$base" ] || die "no $base; run 'make guest' first"
    kdir=$out/kernels/$variant
    mkdir -p "$kdir"
    # one build at a time per variant (guests of one variant booted side
    # by side)
    exec 9>"$kdir/.lock"
    flock 9
    release=$("$HERE/fetch-kernel.sh" --variant "$variant" \
        --cache "${PARALLAX_GUEST_CACHE:-$out/cache}" "$kdir")
    modules_cpio "$kdir" "$release"
    image=$kdir/initramfs.cpio.gz
    if [ ! "$image" -nt "$base" ] || [ ! "$image" -nt "$kdir/modules.cpio.gz" ]; then
        cat "$base" "$kdir/modules.cpio.gz" >"$image.tmp"
        mv "$image.tmp" "$image"
    fi
    echo "$release"
}

main "$@"
