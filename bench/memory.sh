#!/bin/bash
# Private memory of a watching parallax (issue 29): USS (Private_Clean +
# Private_Dirty) and PSS from /proc/PID/smaps_rollup, peak RSS (VmHWM)
# and the shared objects mapped, read MEM_LEAD seconds before the end of a
# MEM_SECONDS window, of `parallax -t 1` watching this host and two
# private pmcd guests with pmdaparallax, beside `htop -d 10` (the
# reference of DESIGN.md's budget), each in its own detached 80x24 tmux
# session of one private tmux server, all running at once so that the
# machine's noise hits every one alike. Several parallax builds (say the
# one before a change and the one after) run side by side in the same
# invocation.
#
# Usage: bench/memory.sh BUILD_DIR...   (the guests run build/'s agent)
#   MEM_MODE=text|tui   parallax --text (default) or the screen
#   MEM_SECONDS=30  MEM_LEAD=5
# Prints one line a program: label, USS and its two parts, PSS, RSS, peak
# RSS (KB), the number of shared objects mapped; then USS/htop's for each
# parallax. USS's clean part is file pages no other process maps: a
# library's code counts there only while nothing else on the machine maps
# it (another parallax, a valgrind), so compare runs by the dirty part
# (heap, stacks, relocated data), which is this process's alone.
# Everything it starts (pmcds, the tmux server) is stopped by PID.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { echo "usage: bench/memory.sh BUILD_DIR..." >&2; exit 2; }
mode=${MEM_MODE:-text}
seconds=${MEM_SECONDS:-30}
lead=${MEM_LEAD:-5}
sock=parallax-memory-$$
. "$here/tests/lib.sh"
. "$here/tests/pmcd.sh"
export TERM=xterm-256color LANG=C.UTF-8 LC_ALL=
use_build # the agent (pmdaparallax) the two guests run
command -v htop >/dev/null || { echo "no htop (apt-get install htop)" >&2; exit 2; }

work=$(mktemp -d /tmp/parallax-memory.XXXXXX)
cleanup() {
    tmux -L "$sock" kill-server 2>/dev/null || true
    pmcd_stop "$work/g1/pmcd" 2>/dev/null || true
    pmcd_stop "$work/g2/pmcd" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
p1=$(free_port) && p2=$(free_port) || { echo "no free port" >&2; exit 2; }
[ "$p1" != "$p2" ] || p2=$(free_port)
pmcd_start_agent "$work/g1" "$p1" >/dev/null || { echo "pmcd g1" >&2; exit 2; }
pmcd_start_agent "$work/g2" "$p2" >/dev/null || { echo "pmcd g2" >&2; exit 2; }

tmx() { tmux -L "$sock" -f /dev/null "$@"; }
labels=() pids=()
start() { # LABEL COMMAND...
    local name="s${#pids[@]}"
    tmx new-session -d -s "$name" -x 80 -y 24 "exec $(printf '%q ' "${@:2}")"
    tmx set -t "$name" status off >/dev/null
    labels+=("$1")
    pids+=("$(tmx display -p -t "$name" '#{pane_pid}')")
}
flags=(-t 1 -h "g1=localhost:$p1" -h "g2=localhost:$p2")
[ "$mode" = text ] && flags+=(--text)
for b in "$@"; do
    start "parallax($(basename "$(dirname "$(realpath "$b")/x")"))" \
        "$(realpath "$b")/parallax" "${flags[@]}"
done
start "htop -d 10" htop -d 10
sleep "$((seconds - lead))" # the window itself: no condition ends it early
kb() { awk -v k="$2:" '$1 == k { s += $2 } END { print s + 0 }' "/proc/$1/smaps_rollup"; }
printf '%-28s %8s %8s %8s %8s %8s %8s %5s\n' program USS_KB dirty clean PSS_KB \
    RSS_KB HWM_KB libs
uss=()
for i in "${!pids[@]}"; do
    p=${pids[i]}
    [ -e "/proc/$p" ] || { echo "${labels[i]} (PID $p) exited early" >&2; exit 1; }
    d=$(kb "$p" Private_Dirty) c=$(kb "$p" Private_Clean)
    u=$((d + c))
    uss+=("$u")
    hwm=$(awk '$1 == "VmHWM:" { print $2 }' "/proc/$p/status")
    libs=$(awk '$6 ~ /\.so/ { print $6 }' "/proc/$p/maps" | sort -u | wc -l)
    printf '%-28s %8d %8d %8d %8d %8d %8d %5d\n' "${labels[i]}" "$u" "$d" "$c" \
        "$(kb "$p" Pss)" \
        "$(kb "$p" Rss)" "$hwm" "$libs"
done
sleep "$lead"
h=${uss[${#uss[@]} - 1]}
for i in $(seq 0 $((${#uss[@]} - 2))); do
    awk -v l="${labels[i]}" -v u="${uss[i]}" -v h="$h" \
        'BEGIN { printf "%s USS / htop USS: %.2f\n", l, u / h }'
done
