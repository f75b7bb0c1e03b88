#!/bin/bash
# A source whose clock really runs at another rate: a private pmcd under
# faketime at 1.01 host seconds per second. parallax must report its drift
# within 10% of the injected +10000 ppm, and a growing positive offset; the
# host (the reference) shows none.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
. "$here/pmcd.sh"
use_build

work=$(mktemp -d)
trap 'pmcd_stop "$work/fast"; rm -rf "$work"' EXIT
port=$(free_port) || fail "no free port"
pmcd_faketime 1.01 pmcd_start "$work/fast" "$port" ||
    fail "pmcd under faketime did not start"

"$bin" --text -t 0.5 -n 30 -h "fast=localhost:$port" >"$work/out" ||
    fail "parallax exited $?"
drift=$(grep -E '^clock drift ppm' "$work/out" | tail -1)
offset=$(grep -E '^clock offset' "$work/out" | tail -1)
echo "last: $drift"
echo "last: $offset"
ppm=$(echo "$drift" | awk '{print $5}')
awk -v p="$ppm" 'BEGIN { exit !(p >= 9000 && p <= 11000) }' ||
    fail "drift '$ppm' ppm not within 10% of +10000"
echo "$drift" | grep -qE '^clock drift ppm +- ' || fail "the host shows a drift"
echo "$offset" | grep -qE ' \+[0-9.]+ms ' || fail "no positive offset"
echo "ok: faketime x1.01 read as $ppm ppm"
