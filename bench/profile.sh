#!/bin/bash
# The steady-state cost of parallax in repeatable units: instructions per
# tick under callgrind, and malloc calls per tick. Runs parallax -t 1 in a
# private tmux window (WxH) with this host and NGUESTS private pmcd guests,
# lets it settle, zeroes callgrind's counters, counts for SECONDS, then
# dumps; the figures are per second of that window (one tick at -t 1).
#
# Usage: bench/profile.sh BUILD_DIR [NGUESTS [SECONDS [WxH]]]
#   PROFILE_KEEP=DIR   keep the callgrind.out file there (callgrind_annotate)
#   PROFILE_MODE=text  profile --text -t 1 instead of the screen
#   PROFILE_SETTLE=S   seconds to let it run before counting (default 8;
#                      sparklines fill their width only after as many ticks)
# Prints: "Ir/tick N  malloc/tick M  ticks T  guests G  size WxH".
# NGUESTS share up to 8 pmcds (bench/lib.sh). Everything it starts (pmcds,
# tmux server, valgrind) is stopped by PID.
# shellcheck source-path=SCRIPTDIR
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build=${1:?usage: bench/profile.sh BUILD_DIR [NGUESTS [SECONDS [WxH]]]}
nguests=${2:-2}
seconds=${3:-20}
size=${4:-80x24}
mode=${PROFILE_MODE:-tui}
sock=parallax-profile-$$
# shellcheck source=lib.sh
. "$here/lib.sh" # the terminal and locale, die, pool_start, pool_split

parallax=$(cd "$build" && pwd)/parallax
[ -x "$parallax" ] || die "no parallax in $build"
command -v valgrind >/dev/null || die "valgrind not found (apt-get install valgrind)"

tmp=$(mktemp -d /tmp/parallax-profile.XXXXXX)
vg_pid="" text_pid="" pool_add=()
cleanup() {
    trap - EXIT INT TERM HUP
    tmux -L "$sock" kill-server 2>/dev/null || true
    [ -z "$vg_pid" ] || kill "$vg_pid" 2>/dev/null || true
    [ -z "$text_pid" ] || kill "$text_pid" 2>/dev/null || true
    pool_stop "$tmp"
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
export XDG_STATE_HOME=$tmp

args=(-t 1)
if ((nguests > 0)); then
    pool_start "$tmp" $((nguests < 8 ? nguests : 8)) || die "pmcd pool"
    pool_split "$nguests"
    args+=("${pool_h[@]}")
fi

vg=(valgrind --tool=callgrind --callgrind-out-file="$tmp/callgrind.out"
    --dump-instr=no --collect-atstart=yes --compress-strings=no)
if [ "$mode" = text ]; then
    "${vg[@]}" "$parallax" --text "${args[@]}" >/dev/null 2>"$tmp/vg.err" &
    vg_pid=$! text_pid=$vg_pid
else
    tmux -L "$sock" -f /dev/null new-session -d -s p -x "${size%x*}" \
        -y "${size#*x}" "exec $(printf '%q ' "${vg[@]}" "$parallax" "${args[@]}") 2>$tmp/vg.err"
    vg_pid=$(tmux -L "$sock" display -p -t p '#{pane_pid}')
    wait_for 60 bash -c "tmux -L $sock capture-pane -p -t p | grep -q 'CPU user %'" ||
        die "no first screen under valgrind"
    for spec in "${pool_add[@]}"; do # beyond what -h takes
        tmux -L "$sock" send-keys -t p g
        sleep 0.5
        tmux -L "$sock" send-keys -t p "$spec" Enter
        sleep 0.5
    done
fi
sleep "${PROFILE_SETTLE:-8}" # settle: first samples, lookups, every guest live
callgrind_control -z "$vg_pid" >/dev/null
# the malloc count comes from callgrind's own call counts, read after dump
sleep "$seconds"
callgrind_control -d "$vg_pid" >/dev/null
sleep 1
dump=""
for f in "$tmp"/callgrind.out.*; do [ -e "$f" ] && dump=$f; done # the one dump
[ -n "$dump" ] || die "no dump"
[ -z "${PROFILE_KEEP:-}" ] || cp "$dump" "$PROFILE_KEEP/"
callgrind_annotate --inclusive=yes "$dump" >"$tmp/ann" 2>/dev/null
ir=$(awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1; exit }' "$tmp/ann")
# calls to malloc/calloc/realloc: the "calls=" lines to those functions
mallocs=$(awk '/^cfn=.*\<(malloc|calloc|realloc)\>/ { want = 1; next }
    want && /^calls=/ { split($1, c, "="); n += c[2]; want = 0; next }
    { want = 0 } END { print n + 0 }' "$dump")
awk -v ir="$ir" -v m="$mallocs" -v s="$seconds" -v g="$nguests" -v z="$size" \
    -v mode="$mode" 'BEGIN { printf "Ir/tick %.0f  malloc/tick %.1f  ticks %d  guests %d  %s %s\n",
        ir / s, m / s, s, g, mode, z }'
[ -z "${PROFILE_TOP:-}" ] || head -n "$((PROFILE_TOP + 25))" "$tmp/ann" | tail -n "$PROFILE_TOP"
