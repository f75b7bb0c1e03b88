#!/bin/sh
# Builds parallax's demo guest from what is installed on this host:
# Debian's cloud kernel (OUT/vmlinuz, and OUT/vmlinux, the same kernel
# unpacked for qemu's faster PVH boot, where it can be extracted) and an
# initramfs (OUT/initramfs.cpio.gz, cpio newc + gzip) holding static
# busybox, pmcd with the linux and pmcd PMDAs as DSOs, pminfo, pmstore and
# the agent as its Debian package pcp-pmda-parallax holds it (pmdaparallax,
# the workloads' helpers, pmns, help: the package users install, unpacked).
# Packs only when the image's content changes.
# Usage: guest/build-image.sh [OUT_DIR [PARALLAX_BUILD_DIR]]
#   OUT_DIR             default build/guest
#   PARALLAX_BUILD_DIR  whose deb/ holds the agent's package (make guest
#                       builds it there); default: the parent of OUT_DIR's
#                       real path (make asan links build-asan/guest to
#                       build/guest, so the image keeps the plain build's)
# Environment: PARALLAX_AGENT_DEB=FILE the agent's package to use instead
#   (else PARALLAX_BUILD_DIR/deb's, else the one installed on this host);
#   PARALLAX_PMDA_DOMAIN=N another domain than its domain.h's.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)

die() {
    echo "build-image: $*" >&2
    exit 1
}

say() { echo "build-image: $*" >&2; }

# pcp_conf VAR: the value of VAR in the host's /etc/pcp.conf. The guest
# keeps the host's layout, so one pcp.conf serves both.
pcp_conf() {
    sed -n "s/^$1=//p" "${PCP_CONF:-/etc/pcp.conf}" | tr -d '"' | head -n 1
}

# put SRC DST: copies file SRC to DST inside the image (following
# symlinks, keeping the mode); remembers ELF files for the library closure.
put() {
    mkdir -p "$STAGE$(dirname "$2")"
    cp -L "$1" "$STAGE$2"
    if [ "$(head -c 4 "$1" | tr -d '\177')" = ELF ]; then
        echo "$1" >>"$ELVES"
    fi
}

# image_path PATH: where a host library lands in the merged-/usr image
# (/lib, /lib64 are symlinks into /usr there, as on Debian 12).
image_path() {
    case $1 in
    /usr/*) echo "$1" ;;
    *) echo "/usr$1" ;;
    esac
}

# add_libraries: copies the ldd closure of every ELF file put so far,
# including the dynamic loader. ldd resolves the whole closure at once, so
# no second pass is needed.
add_libraries() {
    sort -u "$ELVES" | while read -r elf; do
        ldd "$elf" 2>/dev/null || true
    done | awk '
        / => not found/ { print "MISSING " $1; next }
        $2 == "=>" && $3 ~ /^\// { print $3; next }
        $1 ~ /^\// { print $1 }' | sort -u >"$WORK/libs"
    if grep -q '^MISSING' "$WORK/libs"; then
        die "libraries not found on this host: $(grep '^MISSING' "$WORK/libs" | cut -d' ' -f2 | tr '\n' ' ')"
    fi
    while read -r lib; do
        dst=$(image_path "$lib")
        mkdir -p "$STAGE$(dirname "$dst")"
        cp -L "$lib" "$STAGE$dst"
    done <"$WORK/libs"
}

# skeleton: the directory tree, merged-/usr symlinks and busybox applets.
skeleton() {
    for d in usr/bin usr/sbin usr/lib usr/lib64 proc sys dev tmp run root \
        etc var/tmp; do
        mkdir -p "$STAGE/$d"
    done
    for d in bin sbin lib lib64; do
        ln -s "usr/$d" "$STAGE/$d"
    done
    bb=$(command -v busybox) || die "no busybox; run guest/deps.sh"
    ldd "$bb" >/dev/null 2>&1 && die "$bb is not static; install busybox-static (guest/deps.sh)"
    cp "$bb" "$STAGE/usr/bin/busybox"
    for applet in $("$bb" --list); do
        [ -e "$STAGE/usr/bin/$applet" ] || ln -s busybox "$STAGE/usr/bin/$applet"
    done
    cp "$HERE/init" "$STAGE/init"
    chmod 755 "$STAGE/init"
}

# clock_sync: the guest's clock setter, static, compiled when its source
# changes (busybox can only set whole seconds).
clock_sync() {
    bin=$OUT/clock-sync
    sum=$(sha256sum <"$HERE/clock_sync.c")
    if [ ! -x "$bin" ] || [ "$(cat "$bin.src" 2>/dev/null)" != "$sum" ]; then
        ${CC:-cc} -std=c11 -Wall -Wextra -O2 -static -o "$bin.tmp" \
            "$HERE/clock_sync.c" ||
            die "cannot compile guest/clock_sync.c (static libc: libc6-dev)"
        mv "$bin.tmp" "$bin"
        echo "$sum" >"$bin.src"
    fi
    put "$bin" /usr/bin/clock-sync
}

# etc_files: users, name lookup and the host's time zone, so the guest's
# timestamps read like the host's.
etc_files() {
    printf '%s\n' 'root:x:0:0:root:/root:/bin/sh' \
        'pcp:x:998:998:Performance Co-Pilot:/var/lib/pcp:/bin/false' \
        >"$STAGE/etc/passwd"
    printf '%s\n' 'root:x:0:' 'pcp:x:998:' >"$STAGE/etc/group"
    printf '%s\n' 'passwd: files' 'group: files' 'hosts: files' \
        >"$STAGE/etc/nsswitch.conf"
    printf '%s\n' '127.0.0.1 localhost' '10.0.2.15 parallax-guest' \
        >"$STAGE/etc/hosts"
    [ -e /etc/localtime ] && cp -L /etc/localtime "$STAGE/etc/localtime"
    # udhcpc calls this with the lease in its environment (parallax_net=dhcp)
    cat >"$STAGE/etc/udhcpc.script" <<'EOF'
#!/bin/sh
[ "$1" = bound ] || [ "$1" = renew ] || exit 0
ip addr flush dev "$interface"
ip addr add "$ip/${mask:-24}" dev "$interface"
[ -n "${router:-}" ] && ip route add default via "${router%% *}"
exit 0
EOF
    chmod 755 "$STAGE/etc/udhcpc.script"
}

# kernel_modules RELEASE: the virtio-net modules and their modules.dep, so
# /init only says `modprobe virtio_pci virtio_net`.
kernel_modules() {
    mkdir -p "$STAGE/usr/lib/modules"
    cp -R "$OUT/kernel/modules/$1" "$STAGE/usr/lib/modules/"
    busybox depmod -b "$STAGE" "$1" ||
        die "busybox depmod failed"
}

# pcp_files: pmcd, the clients, the linux and pmcd PMDAs and their help.
pcp_files() {
    bin=$(pcp_conf PCP_BIN_DIR)
    binadm=$(pcp_conf PCP_BINADM_DIR)
    pmdas=$(pcp_conf PCP_PMDAS_DIR)
    var=$(pcp_conf PCP_VAR_DIR)
    [ -x "$binadm/pmcd" ] || die "no $binadm/pmcd; run 'make deps' (installs pcp)"
    put "$binadm/pmcd" "$binadm/pmcd"
    for b in pminfo pmstore pmprobe; do
        put "$bin/$b" "$bin/$b"
    done
    for p in linux pmcd; do
        for f in "pmda_$p.so" help.dir help.pag; do
            put "$pmdas/$p/$f" "$pmdas/$p/$f"
        done
    done
    put /etc/pcp.conf /etc/pcp.conf
    put /etc/pcp.env /etc/pcp.env
    for d in "$(pcp_conf PCP_LOG_DIR)/pmcd" "$(pcp_conf PCP_TMP_DIR)" \
        "$var/config/pmda" "$(dirname "$(pcp_conf PCP_PMCDCONF_PATH)")" \
        "$var/pmns"; do
        mkdir -p "$STAGE$d"
    done
}

# parallax_domain: the domain number of pmdaparallax, from the
# environment or the package's domain.h (#define PARALLAX N), as Install
# takes it.
parallax_domain() {
    if [ -n "${PARALLAX_PMDA_DOMAIN:-}" ]; then
        echo "$PARALLAX_PMDA_DOMAIN"
        return
    fi
    sed -n 's/^#[ \t]*define[ \t]\{1,\}PARALLAX[ \t]\{1,\}\([0-9]\{1,\}\).*/\1/p' \
        "$PMDA_SRC/domain.h" 2>/dev/null | head -n 1
}

# agent_package: the pcp-pmda-parallax the guest gets, unpacked into
# WORK/agent as dpkg would lay it out: PARALLAX_AGENT_DEB, else the one
# package in PB/deb (make guest builds it: scripts/deb.sh), else the
# package installed on this host (an installed parallax building its
# guest). So the guest runs what users install. Sets AGENT_FROM.
agent_package() {
    deb=${PARALLAX_AGENT_DEB:-}
    if [ -z "$deb" ]; then
        set -- "$PB"/deb/pcp-pmda-parallax_*.deb
        [ $# -le 1 ] || die "more than one agent package in $PB/deb ($*); set PARALLAX_AGENT_DEB"
        [ -f "$1" ] && deb=$1
    fi
    mkdir -p "$WORK/agent"
    if [ -n "$deb" ]; then
        dpkg-deb -x "$deb" "$WORK/agent" || die "cannot unpack $deb"
        AGENT_FROM=$(basename "$deb")
    elif dpkg-query -W -f='${Status}' pcp-pmda-parallax 2>/dev/null |
        grep -q 'ok installed'; then
        dpkg-query -L pcp-pmda-parallax | while read -r f; do
            if [ -L "$f" ] || [ -f "$f" ]; then
                mkdir -p "$WORK/agent$(dirname "$f")"
                cp -P "$f" "$WORK/agent$f"
            fi
        done
        AGENT_FROM="pcp-pmda-parallax $(dpkg-query -W -f='${Version}' pcp-pmda-parallax), installed"
    else
        die "no agent package: no pcp-pmda-parallax_*.deb in $PB/deb and none installed; run 'make guest' (it builds the package), or set PARALLAX_AGENT_DEB=FILE"
    fi
}

# parallax_files: the agent package's files (pmdaparallax, the workloads'
# helpers beside it, pmns, help; the links from PCP_PMDAS_DIR), kept as
# the package has them. Writes the PMNS file to merge.
parallax_files() {
    agent_package
    pmdas=$(pcp_conf PCP_PMDAS_DIR)
    dir=$pmdas/parallax
    # the package's files, links as links; ELF ones for the libraries
    (cd "$WORK/agent" && find . ! -type d ! -path './usr/share/*') |
        while read -r f; do
            f=${f#.}
            mkdir -p "$STAGE$(dirname "$f")"
            cp -P "$WORK/agent$f" "$STAGE$f"
            if [ -f "$WORK/agent$f" ] && [ ! -L "$WORK/agent$f" ] &&
                [ "$(head -c 4 "$WORK/agent$f" | tr -d '\177')" = ELF ]; then
                echo "$WORK/agent$f" >>"$ELVES"
            fi
        done
    PMDA_SRC=$WORK/agent$(pcp_conf PCP_PMDASADM_DIR)/parallax
    [ -L "$STAGE$dir/pmdaparallax" ] || [ -f "$STAGE$dir/pmdaparallax" ] ||
        die "$AGENT_FROM holds no $dir/pmdaparallax"
    [ -x "$PMDA_SRC/pmdaparallax" ] ||
        die "$AGENT_FROM holds no $PMDA_SRC/pmdaparallax"
    if [ ! -f "$PMDA_SRC/pmns" ] || [ ! -f "$PMDA_SRC/help" ]; then
        die "$AGENT_FROM holds no pmns or help in $PMDA_SRC"
    fi
    PMDA_DOMAIN=$(parallax_domain)
    [ -n "$PMDA_DOMAIN" ] ||
        die "no domain number for pmdaparallax: no '#define PARALLAX N' in its domain.h (or set PARALLAX_PMDA_DOMAIN)"
    # the PMNS subtree with its domain macro, as a root pmnsmerge accepts;
    # pmns names non-leaf nodes by full path, so top-level ones have no dot
    tops=$(sed -n 's/^[ \t]*\([A-Za-z_][A-Za-z0-9_]*\)[ \t]*{.*/\1/p' "$PMDA_SRC/pmns" |
        grep -vx root | sort -u | tr '\n' ' ')
    [ -n "$tops" ] || die "$PMDA_SRC/pmns names no top-level node"
    cp "$PMDA_SRC/pmns" "$WORK/pmns.parallax"
    {
        echo "#define PARALLAX $PMDA_DOMAIN"
        echo "root { $tops}"
        echo '#include "pmns.parallax"'
    } >"$WORK/root_parallax"
    echo "parallax	$PMDA_DOMAIN	pipe	binary		$dir/pmdaparallax -d $PMDA_DOMAIN" \
        >"$WORK/pmcd.conf.parallax"
    say "including pmdaparallax (domain $PMDA_DOMAIN) from $AGENT_FROM"
}

# pmns_and_help: one PMNS for pmcd and pminfo, merged from the agents' own
# subtrees, then pmdaparallax's help compiled against it.
pmns_and_help() {
    var=$(pcp_conf PCP_VAR_DIR)
    for p in pmcd linux; do
        cp "$var/pmns/root_$p" "$WORK/root_$p"
    done
    set -- root_pmcd root_linux
    [ -f "$WORK/root_parallax" ] && set -- "$@" root_parallax
    (cd "$WORK" && "$(pcp_conf PCP_BINADM_DIR)/pmnsmerge" "$@" root.merged >/dev/null) ||
        die "pmnsmerge failed"
    cp "$WORK/root.merged" "$STAGE$var/pmns/root"
    if [ -f "$WORK/root_parallax" ]; then
        dir=$(pcp_conf PCP_PMDAS_DIR)/parallax
        # instance domains are written "@ PARALLAX.n" (as Install's
        # pmdaproc.sh does, put the number in)
        sed "s/^@ PARALLAX\./@ $PMDA_DOMAIN./" "$PMDA_SRC/help" |
            "$(pcp_conf PCP_BINADM_DIR)/newhelp" -n "$WORK/root.merged" -v 2 \
                -o "$STAGE$dir/help" ||
            die "newhelp failed on $PMDA_SRC/help"
    fi
}

# pmcd_conf: the agents (all DSOs but pmdaparallax, a daemon by design)
# and the access list: stores only from the host, which qemu's user
# networking shows to the guest as 10.0.2.2; everyone may fetch.
pmcd_conf() {
    pmdas=$(pcp_conf PCP_PMDAS_DIR)
    conf=$(pcp_conf PCP_PMCDCONF_PATH)
    {
        echo "# pmcd.conf of parallax's demo guest, made by guest/build-image.sh"
        echo "pmcd	2	dso	pmcd_init	$pmdas/pmcd/pmda_pmcd.so"
        echo "linux	60	dso	linux_init	$pmdas/linux/pmda_linux.so"
        [ -f "$WORK/pmcd.conf.parallax" ] && cat "$WORK/pmcd.conf.parallax"
        echo
        echo "[access]"
        echo "allow hosts 10.0.2.2 : all;"
        echo "disallow hosts * : store;"
    } >"$STAGE$conf"
}

# content_sum: one checksum over the staged tree (names, modes, link
# targets, contents) plus the kernel: the image is rebuilt only when it
# changes.
content_sum() {
    (
        cd "$STAGE"
        find . -printf '%p %m %l\n' | LC_ALL=C sort
        find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum
        cat "$OUT/kernel/package"
    ) | sha256sum | cut -d' ' -f1
}

# pack: the initramfs, written atomically (pmcd's files are owned by root
# in the image; /init hands pcp its directories at boot).
pack() {
    (cd "$STAGE" && find . | LC_ALL=C sort |
        cpio -o -H newc -R 0:0 --quiet) | gzip -6 >"$OUT/initramfs.cpio.gz.tmp"
    mv "$OUT/initramfs.cpio.gz.tmp" "$OUT/initramfs.cpio.gz"
    for k in vmlinuz vmlinux; do
        if [ -f "$OUT/kernel/$k" ]; then
            cp "$OUT/kernel/$k" "$OUT/$k.tmp"
            mv "$OUT/$k.tmp" "$OUT/$k"
        else
            rm -f "$OUT/$k"
        fi
    done
}

main() {
    OUT=${1:-build/guest}
    command -v cpio >/dev/null || die "no cpio; run guest/deps.sh"
    mkdir -p "$OUT"
    OUT=$(cd "$OUT" && pwd -P)
    PB=${2:-$(dirname "$OUT")}
    # one build at a time per directory (make guest beside a test, say)
    exec 9>"$OUT/.lock"
    flock 9
    release=$("$HERE/fetch-kernel.sh" "$OUT")

    STAGE=$OUT/root
    WORK=$OUT/work
    ELVES=$WORK/elves
    rm -rf "$STAGE" "$WORK"
    mkdir -p "$STAGE" "$WORK"
    : >"$ELVES"
    skeleton
    clock_sync
    etc_files
    kernel_modules "$release"
    pcp_files
    parallax_files
    pmns_and_help
    pmcd_conf
    add_libraries

    sum=$(content_sum)
    if [ -s "$OUT/initramfs.cpio.gz" ] && [ -s "$OUT/vmlinuz" ] &&
        [ "$(cat "$OUT/image.sum" 2>/dev/null)" = "$sum" ]; then
        say "up to date ($OUT, kernel $release)"
    else
        pack
        echo "$sum" >"$OUT/image.sum"
        say "built $OUT/initramfs.cpio.gz ($(du -k "$OUT/initramfs.cpio.gz" | cut -f1) KiB), kernel $release"
    fi
    rm -rf "$WORK"
}

main "$@"
