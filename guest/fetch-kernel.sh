#!/bin/sh
# Fetches one of Debian 12's kernels for the demo guest: resolves the
# package through its metapackage (so version bumps need no edit), keeps
# the .deb in the cache, and unpacks the kernel (vmlinuz, and vmlinux for
# qemu's PVH boot), the virtio-net modules it does not build in and its
# modules.builtin into OUT/kernel. Prints the kernel release.
# Usage: guest/fetch-kernel.sh [--variant V] [--cache DIR] OUT_DIR
#   V      6.1 (default: the cloud kernel, CFS), 6.12 (the 6.12 cloud
#          kernel, EEVDF) or 6.12-rt (6.12 with PREEMPT_RT)
#   DIR    where the .debs are kept (default OUT_DIR/cache)
set -eu

# What virtio-net needs, in load order (modprobe follows modules.dep
# anyway). 6.1's cloud kernel builds none of them in; 6.12 builds in the
# virtio core and PCI transport (modules.builtin lists them) and ships the
# rest compressed (.ko.xz).
MODULES="virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev
virtio_pci failover net_failover virtio_net"

# variant V: sets META (the metapackage that follows the newest kernel of
# V) and FLAVOUR (the end of its kernel's package name), or fails.
variant() {
    case $1 in
    6.1) META=linux-image-cloud-amd64 FLAVOUR=cloud-amd64 SERIES=6.1 ;;
    6.12) META=linux-image-6.12-cloud-amd64 FLAVOUR=cloud-amd64 SERIES=6.12 ;;
    6.12-rt) META=linux-image-6.12-rt-amd64 FLAVOUR=rt-amd64 SERIES=6.12 ;;
    *) die "unknown kernel variant '$1' (6.1, 6.12 or 6.12-rt)" ;;
    esac
}

die() {
    echo "fetch-kernel: $*" >&2
    exit 1
}

# resolve_package: prints linux-image-<release>, the package META
# depends on, or nothing when apt's lists do not know it.
resolve_package() {
    apt-cache depends "$META" 2>/dev/null |
        sed -n "s/^ *Depends: \(linux-image-${SERIES}[.][^ ]*-$FLAVOUR\)\$/\1/p" |
        head -n 1
}

# resolve_deb: prints the .deb file name of the current cloud kernel, from
# apt's lists (slow: apt here keeps no binary cache, each call takes
# seconds), or fails.
resolve_deb() {
    pkg=$(resolve_package)
    [ -n "$pkg" ] || return 1
    apt-get download --print-uris "$pkg" 2>/dev/null | awk 'NR == 1 {print $2}' |
        grep .
}

# download DIR PACKAGE: apt-get download into DIR. apt's _apt user may not
# write there: apt then downloads as root and warns; that is expected.
download() {
    echo "fetch-kernel: downloading $2" >&2
    (cd "$1" && apt-get download -q "$2" >/dev/null 2>&1)
}

# cached_debs CACHE: the variant's .debs in CACHE, newest first.
cached_debs() {
    # shellcheck disable=SC2012 # names are ours and have no odd characters
    ls -t "$1"/linux-image-"$SERIES".*-"$FLAVOUR"_*.deb 2>/dev/null
}

# fetch_deb CACHE: makes sure the current kernel .deb is in CACHE and prints
# its path. The resolution is remembered for a day (CACHE/resolved, one
# file per variant) so that a rebuild with nothing to do stays fast;
# GUEST_KERNEL_REFRESH=1 asks apt again now. Without apt lists or network
# it falls back to a cached .deb; without one either, it fails in one line
# naming the package.
fetch_deb() {
    cache=$1
    memo=$cache/resolved
    [ "$VARIANT" = 6.1 ] || memo=$cache/resolved.$VARIANT
    deb=
    if [ "${GUEST_KERNEL_REFRESH:-0}" != 1 ] && [ -n "$(find "$memo" -mmin -1440 2>/dev/null)" ]; then
        deb=$(cat "$memo")
        [ -s "$cache/$deb" ] || deb=
    fi
    if [ -z "$deb" ] && deb=$(resolve_deb); then
        if [ ! -s "$cache/$deb" ] && ! download "$cache" "${deb%%_*}"; then
            # lists older than the mirror name a .deb it no longer has
            [ "$(id -u)" = 0 ] ||
                die "apt-get download ${deb%%_*} failed (stale lists? run apt-get update as root)"
            echo "fetch-kernel: download failed; apt-get update, then again" >&2
            # (without --error-on=any, a fetch that fails is a warning)
            apt-get update -qq --error-on=any >/dev/null 2>&1 ||
                die "cannot download ${deb%%_*} ($META): the archive is unreachable (apt-get update failed); nothing cached for kernel $VARIANT"
            deb=$(resolve_deb) || die "apt knows no $META after apt-get update"
            download "$cache" "${deb%%_*}" ||
                die "cannot download ${deb%%_*} ($META): the archive is unreachable; nothing cached for kernel $VARIANT"
        fi
        [ -s "$cache/$deb" ] || die "apt-get download wrote no $deb"
        echo "$deb" >"$memo"
    fi
    if [ -n "$deb" ]; then
        echo "$cache/$deb"
        return 0
    fi
    deb=$(cached_debs "$cache" | head -n 1)
    [ -n "$deb" ] || die "apt knows no $META and nothing is cached for kernel $VARIANT; run guest/deps.sh (apt-get update)"
    echo "fetch-kernel: apt cannot resolve the kernel; using cached $(basename "$deb")" >&2
    echo "$deb"
}

# le FILE OFFSET BYTES: the unsigned little-endian number at OFFSET.
le() { od -An -t "u$3" -j "$2" -N "$3" "$1" | tr -d ' '; }

# extract_vmlinux BZIMAGE OUT: writes the kernel ELF inside BZIMAGE to OUT.
# qemu boots that ELF through its PVH entry point, skipping the real-mode
# setup and the decompression, which cost seconds under TCG. The payload's
# place comes from the boot protocol header (setup_sects at 0x1f1,
# payload_offset/length at 0x248/0x24c); its last 4 bytes are the
# decompressed size, which checks the result. Fails when the method or
# tool is missing; boot.sh then boots the bzImage itself.
extract_vmlinux() {
    sects=$(le "$1" 497 1)
    [ "$sects" -ne 0 ] || sects=4
    start=$(((sects + 1) * 512 + $(le "$1" 584 4)))
    payload=$2.payload
    tail -c +$((start + 1)) "$1" | head -c "$(le "$1" 588 4)" >"$payload"
    case $(od -An -t x1 -N 4 "$payload" | tr -d ' ') in
    1f8b*) unpack_cmd="gzip -dc" ;;
    fd377a58) unpack_cmd="xz -dc --single-stream" ;;
    02214c18) unpack_cmd="lz4 -dc" ;;
    28b52ffd) unpack_cmd="zstd -dcq" ;;
    *) unpack_cmd=false ;;
    esac
    # the decompressors complain about the size trailer; the check below
    # is what tells a whole kernel
    $unpack_cmd <"$payload" >"$2" 2>/dev/null || true
    want=$(tail -c 4 "$payload" | od -An -t u4 | tr -d ' ')
    rm -f "$payload"
    if [ "$(head -c 4 "$2" | tr -d '\177')" = ELF ] &&
        [ "$(wc -c <"$2")" -eq "${want:-0}" ]; then
        return 0
    fi
    rm -f "$2"
    return 1
}

# unpack DEB DEST: extracts vmlinuz and the virtio-net modules of DEB into
# DEST (vmlinuz, vmlinux when extractable, release,
# modules/<release>/{kernel/...,modules.builtin}), atomically. A module
# the kernel builds in is not needed; a compressed one is decompressed
# (busybox modprobe loads plain .ko files).
unpack() {
    deb=$1 dest=$2
    tmp=$dest.tmp
    rm -rf "$tmp"
    mkdir -p "$tmp/x"
    list=$tmp/members
    dpkg-deb -c "$deb" | awk '{print $NF}' >"$list"
    kernel=$(grep -m 1 '^\./boot/vmlinuz-' "$list") ||
        die "$deb holds no /boot/vmlinuz-*"
    config=$(grep -m 1 '^\./boot/config-' "$list") ||
        die "$deb holds no /boot/config-*"
    builtin=$(grep -m 1 '/modules\.builtin$' "$list") ||
        die "$deb holds no modules.builtin"
    members="$kernel $config"
    dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp/x" "$builtin"
    for m in $MODULES; do
        if path=$(grep -m 1 -E "/kernel/.*/$m\.ko(\.xz)?\$" "$list"); then
            members="$members $path"
        elif ! grep -q -E "/$m\.ko\$" "$tmp/x/$builtin"; then
            die "$deb holds no module $m.ko and does not build it in"
        fi
    done
    # shellcheck disable=SC2086 # one word per member
    dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp/x" $members
    find "$tmp/x" -name '*.ko.xz' -exec xz -d {} + ||
        die "cannot decompress the modules of $deb (xz-utils)"
    release=${kernel#./boot/vmlinuz-}
    mv "$tmp/x/$kernel" "$tmp/vmlinuz"
    # PVH entry needs CONFIG_PVH; without it only the bzImage boots
    if grep -q '^CONFIG_PVH=y' "$tmp/x/$config" &&
        extract_vmlinux "$tmp/vmlinuz" "$tmp/vmlinux"; then
        echo "fetch-kernel: extracted the PVH-bootable vmlinux" >&2
    else
        echo "fetch-kernel: no PVH vmlinux (method or tool missing); booting the bzImage" >&2
    fi
    mkdir -p "$tmp/modules"
    # ./lib/modules/<release>/modules.builtin (or ./usr/lib/...): keep
    # <release>/
    mv "$tmp/x/${builtin%/modules.builtin}" "$tmp/modules/"
    echo "$release" >"$tmp/release"
    basename "$deb" >"$tmp/package"
    rm -rf "$tmp/x" "$list" "$dest"
    mv "$tmp" "$dest"
}

main() {
    VARIANT=6.1 cache=
    while [ $# -gt 1 ]; do
        case $1 in
        --variant) VARIANT=$2 ;;
        --cache) cache=$2 ;;
        *) break ;;
        esac
        shift 2
    done
    [ $# -eq 1 ] || die "usage: guest/fetch-kernel.sh [--variant 6.1|6.12|6.12-rt] [--cache DIR] OUT_DIR"
    variant "$VARIANT"
    out=$1
    cache=${cache:-$out/cache}
    mkdir -p "$cache"
    deb=$(fetch_deb "$cache")
    if [ "$(cat "$out/kernel/package" 2>/dev/null)" != "$(basename "$deb")" ]; then
        echo "fetch-kernel: unpacking $(basename "$deb")" >&2
        unpack "$deb" "$out/kernel"
        # keep only this variant's kernel in use: each .deb is 26-107 MB
        cached_debs "$cache" | while read -r old; do
            [ "$old" = "$deb" ] || rm -f "$old"
        done
    fi
    cat "$out/kernel/release"
}

main "$@"
