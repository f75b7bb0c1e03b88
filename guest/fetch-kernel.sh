#!/bin/sh
# Fetches Debian's cloud kernel for the demo guest: resolves the package
# through the linux-image-cloud-amd64 metapackage (so version bumps need no
# edit), keeps the .deb in OUT/cache, and unpacks the kernel (vmlinuz, and
# vmlinux for qemu's PVH boot) and the eight virtio-net modules into
# OUT/kernel. Prints the kernel release.
# Usage: guest/fetch-kernel.sh OUT_DIR
set -eu

# The cloud kernel builds no network driver in; these are the modules that
# virtio-net needs, in load order (modprobe follows modules.dep anyway).
MODULES="virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev
virtio_pci failover net_failover virtio_net"

die() {
    echo "fetch-kernel: $*" >&2
    exit 1
}

# resolve_package: prints linux-image-<release>, the package the cloud
# metapackage depends on, or nothing when apt's lists do not know it.
resolve_package() {
    apt-cache depends linux-image-cloud-amd64 2>/dev/null |
        sed -n 's/^ *Depends: \(linux-image-[^ ]*-cloud-amd64\)$/\1/p' |
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

# fetch_deb CACHE: makes sure the current kernel .deb is in CACHE and prints
# its path. The resolution is remembered for a day (CACHE/resolved) so that
# a rebuild with nothing to do stays fast; GUEST_KERNEL_REFRESH=1 asks apt
# again now. Without apt lists or network it falls back to a cached .deb.
fetch_deb() {
    cache=$1
    memo=$cache/resolved
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
            apt-get update -qq || die "apt-get update failed (no network?)"
            deb=$(resolve_deb) || die "apt knows no linux-image-cloud-amd64 after apt-get update"
            download "$cache" "${deb%%_*}" ||
                die "apt-get download ${deb%%_*} failed (no network?)"
        fi
        [ -s "$cache/$deb" ] || die "apt-get download wrote no $deb"
        echo "$deb" >"$memo"
    fi
    if [ -n "$deb" ]; then
        echo "$cache/$deb"
        return 0
    fi
    # shellcheck disable=SC2012 # names are ours and have no odd characters
    deb=$(ls -t "$cache"/linux-image-*-cloud-amd64_*.deb 2>/dev/null | head -n 1)
    [ -n "$deb" ] || die "apt knows no linux-image-cloud-amd64 and nothing is cached; run guest/deps.sh"
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
# DEST (vmlinuz, vmlinux when extractable, release, modules/<release>/...),
# atomically.
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
    members="$kernel $config"
    for m in $MODULES; do
        path=$(grep -m 1 "/kernel/.*/$m\.ko\$" "$list") ||
            die "$deb holds no module $m.ko"
        members="$members $path"
    done
    # shellcheck disable=SC2086 # one word per member
    dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp/x" $members
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
    # ./lib/modules/<release>/kernel/... (or ./usr/lib/...): keep <release>/
    mv "$tmp/x/${path%%/kernel/*}" "$tmp/modules/"
    echo "$release" >"$tmp/release"
    basename "$deb" >"$tmp/package"
    rm -rf "$tmp/x" "$list" "$dest"
    mv "$tmp" "$dest"
}

main() {
    [ $# -eq 1 ] || die "usage: guest/fetch-kernel.sh OUT_DIR"
    out=$1
    mkdir -p "$out/cache"
    deb=$(fetch_deb "$out/cache")
    if [ "$(cat "$out/kernel/package" 2>/dev/null)" != "$(basename "$deb")" ]; then
        echo "fetch-kernel: unpacking $(basename "$deb")" >&2
        unpack "$deb" "$out/kernel"
        # keep only the kernel in use: each .deb is ~26 MB
        for old in "$out"/cache/linux-image-*.deb; do
            [ "$old" = "$deb" ] || rm -f "$old"
        done
    fi
    cat "$out/kernel/release"
}

main "$@"
