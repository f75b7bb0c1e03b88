#!/bin/bash
# scripts/deps.sh and pmcd's run directory: where PCP's tmpfiles.d file
# exists, deps.sh makes the directory as that file says (mode, owner),
# with systemd-tmpfiles and, where that is missing, by reading the file;
# once made, it says "all present". A pcp.conf of this test's own
# (PCP_CONF) points at a run directory and a tmpfiles.d directory in a
# temp dir, so the machine's are not touched. Debian 12's pcp ships no such
# file (its rc script makes /run/pcp on start): there deps.sh must not make
# the directory itself. Runs after make deps (nothing else is missing).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
deps=$here/../scripts/deps.sh
[ "$(id -u)" = 0 ] || fail "needs root (deps.sh installs as root)"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/tmpfiles"
cat >"$work/pcp.conf" <<EOF
PCP_RUN_DIR=$work/run/pcp
PCP_SYSTEMDTMPFILES_DIR=$work/tmpfiles
EOF
# an unusual mode and group, so that nothing but the file can give them
cat >"$work/tmpfiles/pcp.conf" <<EOF
# Performance Co-Pilot, as a package would ship it
d $work/run/pcp 0751 pcp daemon -
EOF

for tool in systemd-tmpfiles none; do
    rm -rf "$work/run"
    out=$(PCP_CONF=$work/pcp.conf SYSTEMD_TMPFILES=$tool "$deps" 2>&1) ||
        fail "deps.sh ($tool) failed: $out"
    [ -d "$work/run/pcp" ] || fail "deps.sh ($tool) made no run directory: $out"
    got=$(stat -c '%a %U %G' "$work/run/pcp")
    [ "$got" = "751 pcp daemon" ] ||
        fail "deps.sh ($tool) made it '$got', the file says '751 pcp daemon'"
    echo "ok: with $tool: $out -> $got"
    again=$(PCP_CONF=$work/pcp.conf SYSTEMD_TMPFILES=$tool "$deps" 2>&1)
    [ "$again" = "deps: all present" ] || fail "second run ($tool): $again"
done

# without a tmpfiles.d file: nothing to make, nothing made
rm -rf "$work/run" "$work/tmpfiles"
out=$(PCP_CONF=$work/pcp.conf "$deps" 2>&1)
[ "$out" = "deps: all present" ] || fail "no tmpfiles.d file: $out"
[ ! -e "$work/run" ] || fail "deps.sh made a run directory no file asked for"
echo "ok: without a tmpfiles.d file deps.sh leaves the run directory to pcp's rc script"
