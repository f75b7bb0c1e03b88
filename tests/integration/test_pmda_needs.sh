#!/bin/bash
# A run that would fill the agent's file system or memory is refused
# before it starts, with the reason in parallax.control.error, and the
# agent and pmcd stay up (issue 16: `disk size_mb=1048576`, stored by any
# local user, filled the demo guest's tmpfs and the OOM killer took pmcd
# and the agent). A real pmcd with pmdaparallax runs in a mount namespace
# of its own whose TMPDIR is a 64 MiB tmpfs with 2,000 inodes; then the
# same tmpfs grown beyond this machine's memory.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
. "$here/pmcd.sh"
use_agent "${1:-}"
command -v unshare >/dev/null && command -v nsenter >/dev/null ||
    fail "no unshare/nsenter (util-linux)"

work=$(mktemp -d)
chmod 755 "$work"
small=$work/small
mkdir -p "$small"
cleanup() {
    pmcd_stop "$work/pmcd"
    rm -rf "$work"
}
trap cleanup EXIT

port=$(free_port) || fail "no free port"
PMCD_WRAP=(env TMPDIR="$small" unshare -m sh -c \
    'mount -t tmpfs -o size=64m,nr_inodes=2000,mode=1777 tmpfs "$TMPDIR" &&
     exec "$@"' sh)
pmcd_start_agent "$work" "$port" || fail "pmcd with the agent on $port"
PMCD_WRAP=()
pmcd=$(cat "$work/pmcd/pid")
agent=$(pgrep -f "pmdaparallax -d $PMCD_AGENT_DOMAIN -h $work/help" | head -1)
[ -n "$agent" ] || fail "no agent"
nsenter -t "$pmcd" -m -r df -h "$small" | tail -1 | grep -q tmpfs ||
    fail "no tmpfs at $small in pmcd's namespace"
echo "ok: pmcd $pmcd, agent $agent, TMPDIR a 64 MiB tmpfs"

h=localhost:$port
error() { pminfo -h "$h" -f parallax.control.error | sed -n 's/.*value "\(.*\)"$/\1/p'; }
# refused START-TEXT PATTERN: the store fails and control.error matches
refused() {
    if pmstore -h "$h" parallax.control.start "$1" >/dev/null 2>&1; then
        fail "'$1' was started"
    fi
    local why
    why=$(error)
    grep -qE -- "$2" <<<"$why" || fail "'$1' refused with: $why"
    echo "ok: refused $1: $why"
}
state() {
    pminfo -h "$h" -f parallax.workload.state |
        sed -n "s/.*\"$1\"] value \"\(.*\)\"$/\1/p"
}
alive() { kill -0 "$pmcd" 2>/dev/null && kill -0 "$agent" 2>/dev/null; }

refused 'disk size_mb=1048576 char_mb=0' \
    "size_mb=1048576 needs 1024.0 GiB in $small, which has 6[0-9] MiB free, 16 MiB of it kept for the rest; give a smaller size_mb"
refused 'disk size_mb=60' 'size_mb=60 needs 60 MiB'
refused 'disk size_mb=4 files=5000' 'files=5000 makes 5001 files .* room for [0-9]+ more; give a smaller files'
refused 'fcopy max_blocks=32768' 'max_blocks=32768 needs 64 MiB'
refused 'page-fault size=256' 'size=256 needs 256 MiB'
alive || fail "pmcd or the agent died"

# what fits runs, and ends
pmstore -h "$h" parallax.control.start 'disk size_mb=4 char_mb=1 files=100' \
    >/dev/null || fail "a small disk run refused: $(error)"
wait_for 60 bash -c "pminfo -h $h -f parallax.workload.state | grep -q '\"disk\"] value \"done\"'" ||
    fail "the small disk run did not finish: $(state disk) $(error)"
echo "ok: disk size_mb=4 ran: $(state disk)"

# a tmpfs larger than memory: memory bounds what goes into it
nsenter -t "$pmcd" -m -r mount -o remount,size=4T,nr_inodes=0 "$small" ||
    fail "cannot grow the tmpfs"
refused 'disk size_mb=1048576 char_mb=0' \
    "size_mb=1048576 needs 1024.0 GiB of memory \\($small is a tmpfs\\), and .* is available"
alive || fail "pmcd or the agent died"
echo "all resource checks passed"
