#!/bin/sh
# Installs the Debian packages parallax needs to build, run and test, and
# gets pcp configured where there is no systemd. Idempotent: when nothing is
# missing it prints one line and changes nothing. `deps.sh fuzz` installs
# only what make fuzz needs; `deps.sh fresh` what tests/fresh/run.sh needs.
set -eu

# build: a C compiler and its libc headers (a fresh Debian 12 has neither;
# gcc only recommends libc6-dev), make; compiler flags come from pkg-config
# for every library; debhelper (with dpkg-dev) builds the Debian packages
# (make deb, and make guest, whose agent comes from its package), and
# build-essential, which dpkg-checkbuilddeps asks of every package build
# (without it make guest's package build asks apt for g++: a fresh machine
# without the network failed there); debian/control's Build-Depends names
# the same libraries
BUILD="gcc libc6-dev make build-essential pkg-config libncurses-dev libpcp3-dev libpcp-pmda3-dev libpcp-import1-dev libgtop2-dev libssl-dev libjansson-dev libcurl4-openssl-dev debhelper"
# run: pcp itself (local context, pmcd for guests and tests); redis-server
# for the fleet (pmproxy and pmseries keep their series there: make
# fleet-demo, the fleet tests and bench), curl for fleet/farm.sh's checks
# of pmproxy (a fresh Debian 12 has no curl), PCP's python bindings for
# the scripts that read and write archives (tests, bench/fleet_replay.py)
RUN="pcp redis-server curl python3-pcp"
# test and bench: cmocka, tmux for the screen tests, htop as the bench
# reference, groff and man-db to check that the man pages render, faketime
# for guests whose clocks diverge, stress-ng for a host whose CPUs are busy,
# linux-perf (perf bench) for a null system call timed by another tool,
# lintian for the packages (make deb, test_deb), rt-tests (cyclictest) as
# the reference of timer-lat's latencies, time (GNU time) for make bench's
# latency cost, sysstat (pidstat -t) for the host's view of a VM's threads
# read by another tool, strace for what --no-vm-view no longer reads
TEST="libcmocka-dev tmux htop clang-format iproute2 procps faketime groff-base man-db stress-ng linux-perf lintian rt-tests time sysstat strace"
PKGS="$BUILD $RUN $TEST"
# make fuzz only (scripts/deps.sh fuzz): clang with libFuzzer and the
# sanitizer runtimes
FUZZ="clang libclang-rt-dev"
# tests/fresh/run.sh only (scripts/deps.sh fresh): a Debian 12 made from
# scratch to run .ci/run in
FRESH="debootstrap git"
mode=${1:-all}
case $mode in
all) ;;
fuzz) PKGS=$FUZZ ;;
fresh) PKGS=$FRESH ;;
*)
    echo "deps: no mode '$mode'; give none, fuzz or fresh" >&2
    exit 2
    ;;
esac

missing=""
for p in $PKGS; do
    st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [ "$st" = "install ok installed" ] || missing="$missing $p"
done

pmns_ok() { [ "$mode" != all ] || [ -s /var/lib/pcp/pmns/root ]; }

# pmcd's run directory ($PCP_RUN_DIR, /run/pcp) is on a tmpfs that every
# boot empties. A pcp package that ships a tmpfiles.d file for it leaves
# its making to systemd-tmpfiles at boot, and without systemd nothing makes
# it: then we apply that file, as it says. Debian 12's pcp ships none; its
# rc script makes the directory whenever it starts pmcd (the standard way:
# /etc/init.d/pmcd start), so there nothing is missing. PCP_CONF names
# another pcp.conf, as it does for PCP's own scripts.
pcp_var() {
    sed -n "s/^$1=//p" "${PCP_CONF:-/etc/pcp.conf}" 2>/dev/null | tail -n 1
}
tmpfiles_confs() {
    d=$(pcp_var PCP_SYSTEMDTMPFILES_DIR)
    [ -n "$d" ] || return 0
    for f in "$d"/pcp*.conf; do
        [ -f "$f" ] && echo "$f"
    done
    return 0
}
run_dir_ok() {
    [ "$mode" != all ] || [ -z "$(tmpfiles_confs)" ] ||
        [ -d "$(pcp_var PCP_RUN_DIR)" ]
}
# systemd-tmpfiles where installed (SYSTEMD_TMPFILES=none: as if it were
# not, for the tests), else the files' d lines: d PATH MODE USER GROUP
make_run_dir() {
    tool=${SYSTEMD_TMPFILES:-systemd-tmpfiles}
    if [ "$tool" != none ] && command -v "$tool" >/dev/null; then
        # shellcheck disable=SC2046 # one file name a line, no spaces
        "$tool" --create $(tmpfiles_confs)
        return
    fi
    tmpfiles_confs | while read -r f; do
        awk '$1 ~ /^[dD]!?$/ { print $2, $3, $4, $5 }' "$f"
    done | while read -r path dmode user group; do
        set --
        [ "$dmode" = - ] || set -- "$@" -m "$dmode"
        [ "$user" = - ] || set -- "$@" -o "$user"
        [ "$group" = - ] || set -- "$@" -g "$group"
        [ -d "$path" ] || install -d "$@" "$path"
    done
}

if [ -z "$missing" ] && pmns_ok && run_dir_ok; then
    echo "deps: all present"
    exit 0
fi

if [ "$(id -u)" != 0 ]; then
    if [ -n "$missing" ]; then
        echo "deps: missing:$missing; run 'make deps' as root (or: sudo apt-get install$missing)" >&2
    else
        echo "deps: PCP's namespace or run directory is missing; run 'make deps' as root" >&2
    fi
    exit 1
fi

# pcp's postinst calls systemctl; on a machine without systemd that fails
# and leaves the package unconfigured. A no-op systemctl first on PATH lets
# the maintainer scripts finish.
shim=$(mktemp -d)
trap 'rm -rf "$shim"' EXIT
printf '#!/bin/sh\nexit 0\n' > "$shim/systemctl"
chmod +x "$shim/systemctl"
PATH="$shim:$PATH"
export PATH DEBIAN_FRONTEND=noninteractive

if [ -n "$missing" ]; then
    echo "deps: installing:$missing"
    apt-get update -qq
    # apt runs dpkg with its own PATH (DPkg::Path) unless told otherwise
    apt-get install -y -qq --no-install-recommends \
        -o DPkg::Path="$PATH" $missing
fi

if ! pmns_ok; then
    echo "deps: rebuilding the PCP namespace (/var/lib/pcp/pmns/Rebuild -du)"
    (cd /var/lib/pcp/pmns && ./Rebuild -du)
fi
if ! run_dir_ok; then
    echo "deps: making $(pcp_var PCP_RUN_DIR) as $(tmpfiles_confs | xargs) says"
    make_run_dir
fi
echo "deps: done"
