# Fresh Debian 12 roots for tests/fresh/run.sh and packages.sh: sourced,
# not run. Needs root and debootstrap (scripts/deps.sh fresh).

say() { echo "fresh: $*" >&2; }

# fresh_mirror: prints the deb.debian.org URI of this machine's apt
# (deb822 or one-line sources); nothing when it uses none.
fresh_mirror() {
    cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null |
        grep -oE 'https?://deb\.debian\.org/debian/?( |$)' | head -n 1 | tr -d ' ' ||
        true
}

# fresh_root ROOT MIRROR [PACKAGES]: debootstraps bookworm (minbase, with
# ca-certificates and PACKAGES, comma-separated) into ROOT, with this
# machine's suites (updates, security) from the same mirror, its resolver,
# and a host name of its own (parallax-fresh).
fresh_root() {
    local root=$1 mirror=$2 f
    chmod 755 "$root" # its /: users such as pcp, _apt and man walk through it
    debootstrap --variant=minbase --include="ca-certificates${3:+,$3}" \
        bookworm "$root" "$mirror" >"$root.debootstrap.log" 2>&1 || {
        tail -n 20 "$root.debootstrap.log" >&2
        rm -f "$root.debootstrap.log"
        say "debootstrap failed"
        return 1
    }
    rm -f "$root.debootstrap.log"
    rm -f "$root/etc/apt/sources.list"
    for f in /etc/apt/sources.list.d/*.sources /etc/apt/sources.list; do
        [ -f "$f" ] && grep -q 'deb\.debian\.org' "$f" &&
            cp "$f" "$root/etc/apt/${f#/etc/apt/}"
    done
    cp /etc/resolv.conf "$root/etc/resolv.conf"
    printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost\n127.0.1.1\tparallax-fresh\n' \
        >"$root/etc/hosts"
    echo parallax-fresh >"$root/etc/hostname"
}

# fresh_cleanup ROOT: removes ROOT unless a mount is left under it (then
# rm -rf would reach this machine's files) or KEEP=1.
fresh_cleanup() {
    local root=$1
    # every mount was made inside the namespaces and went with them
    if findmnt -rn -o TARGET | grep -q "^$root"; then
        say "mounts left under $root; not removing it"
    elif [ "${KEEP:-0}" = 1 ]; then
        say "kept $root"
    else
        rm -rf --one-file-system "$root"
    fi
}

# in_root ROOT NET_FLAG DIR COMMAND: COMMAND (a bash script) as root in
# ROOT, in DIR there, in mount, PID, UTS and IPC namespaces of its own,
# chrooted, with /proc, /sys, /dev (a devpts of its own), a tmpfs on /run
# (so no /run/pcp) and /dev/shm; NET_FLAG --net gives it a network
# namespace with only loopback, up; "" this machine's network.
in_root() {
    local root=$1 cmd=$4 dir=$3 ns=(--mount --pid --uts --ipc)
    [ -z "$2" ] || ns+=("$2")
    # shellcheck disable=SC2016 # expanded by the inner shell
    unshare "${ns[@]}" --fork \
        env ROOT="$root" CMD="$cmd" NET="$2" DIR="$dir" bash -c '
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
            TERM=xterm-256color bash -c "cd \"$DIR\" && $CMD"'
}
