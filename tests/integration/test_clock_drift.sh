#!/bin/bash
# A source whose clock really runs at another rate: a private pmcd under
# faketime at 1.01 host seconds per second. parallax must report its drift
# within 10% of the injected +10000 ppm (in ppm, or as the rate x1.0100
# beyond 1%) and a growing positive offset; the host (the reference) shows
# none. Without colour (--text) the drift, beyond 500 ppm, carries the
# fault marker, and its x column holds the clock's rate.
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

LANG=C "$bin" --text -t 0.5 -n 30 -h "fast=localhost:$port" >"$work/out" ||
    fail "parallax exited $?"
drift=$(grep -E '^clock drift ' "$work/out" | tail -1)
offset=$(grep -E '^clock offset' "$work/out" | tail -1)
echo "last: $drift"
echo "last: $offset"
# the guest's figure: "clock drift  -  FIGURE DETAIL  RATIO"
read -r _ _ host fig _ <<<"$drift"
[ "$host" = - ] || fail "the host shows a drift: $drift"
case $fig in
'!x'*) ppm=$(awk -v f="${fig#!x}" 'BEGIN { print (f - 1) * 1e6 }') ;;
'!'*) ppm=${fig#!} ;;
*) fail "no fault marker on a drift of 1%: '$fig'" ;;
esac
awk -v p="$ppm" 'BEGIN { exit !(p >= 9000 && p <= 11000) }' ||
    fail "drift '$fig' ($ppm ppm) not within 10% of +10000"
rate=$(echo "$drift" | awk '{ print $NF }')
awk -v r="$rate" 'BEGIN { exit !(r >= 1.009 && r <= 1.011) }' ||
    fail "the x column holds '$rate', not the clock's rate 1.0100"
echo "$offset" | grep -qE ' \+[0-9.]+(us|ms|s) ' || fail "no positive offset"
echo "ok: faketime x1.01 read as $fig ($ppm ppm), rate $rate"
