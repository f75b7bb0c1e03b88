#!/bin/sh
# Installs the Debian packages parallax needs to build, run and test, and
# gets pcp configured where there is no systemd. Idempotent: when nothing is
# missing it prints one line and changes nothing. `deps.sh fuzz` installs
# only what make fuzz needs.
set -eu

# build: compiler flags come from pkg-config for every library
BUILD="pkg-config libncurses-dev libpcp3-dev libpcp-pmda3-dev libgtop2-dev libssl-dev libjansson-dev libcurl4-openssl-dev"
# run: pcp itself (local context, pmcd for guests and tests); redis-server
# for the fleet (pmproxy and pmseries keep their series there: make
# fleet-demo, the fleet tests and bench)
RUN="pcp redis-server"
# test and bench: cmocka, tmux for the screen tests, htop as the bench
# reference, groff and man-db to check that the man pages render
TEST="libcmocka-dev tmux htop clang-format iproute2 procps faketime groff-base man-db"
PKGS="$BUILD $RUN $TEST"
# make fuzz only (scripts/deps.sh fuzz): clang with libFuzzer and the
# sanitizer runtimes
FUZZ="clang libclang-rt-dev"
mode=${1:-all}
[ "$mode" = fuzz ] && PKGS=$FUZZ

missing=""
for p in $PKGS; do
    st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [ "$st" = "install ok installed" ] || missing="$missing $p"
done

pmns_ok() { [ "$mode" = fuzz ] || [ -s /var/lib/pcp/pmns/root ]; }

if [ -z "$missing" ] && pmns_ok; then
    echo "deps: all present"
    exit 0
fi

if [ "$(id -u)" != 0 ]; then
    echo "deps: missing:$missing; run 'make deps' as root (or: sudo apt-get install$missing)" >&2
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
echo "deps: done"
