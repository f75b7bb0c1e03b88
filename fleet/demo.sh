#!/bin/bash
# make fleet-demo: a fleet of FLEET_N (100) sources on this machine
# (fleet/farm.sh: redis-server, pmproxy, a pmlogger farm over private
# pmcds with pmdaparallax, one guest in ten under faketime), then the
# fleet screen on it; the farm stops when parallax does. The same
# `parallax --fleet URL` works against a real pmproxy (docs/fleet.md).
# Usage: fleet/demo.sh BUILD_DIR [PARALLAX_OPTION...]
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-build}" && pwd) || exit 2
shift
n=${FLEET_N:-100}
dir=${FLEET_DIR:-$(mktemp -d /tmp/parallax-fleet-demo.XXXXXX)}
stop() {
    echo "fleet-demo: stopping the farm in $dir"
    "$here/farm.sh" stop "$dir"
    [ -n "${FLEET_DIR:-}" ] || rm -rf "$dir"
}
trap stop EXIT
trap 'exit 130' INT TERM HUP
echo "fleet-demo: starting $n sources in $dir (a minute or so)"
PARALLAX_BUILD=$build "$here/farm.sh" start "$dir" "$n" ||
    echo "fleet-demo: not every source started; going on with the others"
url=$("$here/farm.sh" url "$dir") || exit 1
echo "fleet-demo: parallax --fleet $url (q quits and stops the farm)"
"$build/parallax" --fleet "$url" "$@"
