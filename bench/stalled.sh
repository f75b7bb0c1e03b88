#!/bin/bash
# A guest that never answers must not freeze the screen: "keys answer
# within 50 ms" (DESIGN.md, Performance budget; issue 5). One live guest (a
# private pmcd) and one stalled guest (a loopback listener that accepts and
# never writes, so each connect hangs in PCP's handshake until it times
# out); over one window, side by side:
#
#  - in a private tmux: `g` opens the add-guest prompt on row 1, ^G closes
#    it; each press is timed from `tmux send-keys` to the first
#    `capture-pane` of row 1 that shows the change (polled in a tight loop).
#    This includes both tmux clients' start-up, so their times alone are
#    reported too.
#  - at a pty of its own (bench/keyprobe.py, no terminal emulator): `g`
#    timed until parallax has written the prompt. This one is parallax's
#    own answer time, and the one BENCH_STRICT judges. Its floor: the same
#    probe on a shell loop that answers `g` at once (what the pty and the
#    scheduler cost on this machine right now); the same latencies less
#    the time parallax's main thread and the probe waited for a CPU; and
#    for the worst press, how long the main thread ran and waited.
#  - whether the live guest keeps its interval meanwhile: the fetches the
#    TUI's live pmcd received (pmcd.pdu_in.*fetch), and a --text run whose
#    refreshes are stamped on arrival and checked for the live column.
#
# Presses are split by whether a connection to the stalled guest was open
# at that moment (its sampler hanging), from the listener's log. This
# script measures; bench/stalled_report.sh makes the table from its logs.
#
# Usage: bench/stalled.sh BUILD_DIR [OUT_FILE]   (bench.sh runs it last and
#   appends to its bench/out/ file; alone it writes bench/out/stalled-*.txt)
#   STALL_SECONDS  length of the window (default 20, QUICK=1 10)
#   STALL_PRESSES  keys timed by each method, spread evenly (default 40,
#                  QUICK=1 20)
#   BENCH_STRICT=1 exit 1 when the 50 ms target is missed at the pty
#   STALL_KEEP=DIR copy the raw logs there (to look into a figure)
# Exit: 0 measured, 1 missed with BENCH_STRICT=1, 2 could not measure.
# shellcheck source-path=SCRIPTDIR
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build=${1:-}
out=${2:-}
if [ "${QUICK:-0}" = 1 ]; then seconds=${STALL_SECONDS:-10} presses=${STALL_PRESSES:-20}
else seconds=${STALL_SECONDS:-20} presses=${STALL_PRESSES:-40}; fi
sock=parallax-stalled-$$
timeout_us=2000000 # a press not seen after this counts as 2000 ms
size=120x40

# shellcheck source=lib.sh
. "$here/lib.sh" # wait_for, free_port, pmcd_start, pmcd_stop, die

# Accepts on every port given and holds each connection open, reading and
# never writing; logs "open|close PORT EPOCH" (close: the client gave up).
listener_py='
import socket, sys, threading, time
log = open(sys.argv[1], "a", buffering=1)
def note(what, port):
    log.write(f"{what} {port} {time.time():.6f}\n")
def hold(conn, port):
    note("open", port)
    try:
        while conn.recv(4096):
            pass
    except OSError:
        pass
    note("close", port)
def serve(srv, port):
    while True:
        conn, _ = srv.accept()
        threading.Thread(target=hold, args=(conn, port), daemon=True).start()
for p in sys.argv[2:]:
    srv = socket.create_server(("127.0.0.1", int(p)))
    threading.Thread(target=serve, args=(srv, p), daemon=True).start()
note("ready", 0)
threading.Event().wait()
'

tmx() { tmux -L "$sock" "$@"; }

# Stops what this script started, each by its PID or private server.
cleanup() {
    trap - EXIT INT TERM HUP
    tmx kill-server 2>/dev/null || true
    rm -f "/tmp/tmux-$(id -u)/$sock"
    local pid
    for pid in "$probe_pid" "$floor_pid" "$text_pid" "$listener_pid"; do
        [ -z "$pid" ] || kill "$pid" 2>/dev/null || true
    done
    [ -z "$stamp_pid" ] || wait "$stamp_pid" 2>/dev/null || true
    pmcd_stop "$tmp/tui" 2>/dev/null || true
    pmcd_stop "$tmp/text" 2>/dev/null || true
    [ -z "${STALL_KEEP:-}" ] || cp -r "$tmp/." "$STALL_KEEP/" || true
    rm -rf "$tmp"
}

check_prereqs() {
    [[ $seconds =~ ^[1-9][0-9]*$ ]] || die "STALL_SECONDS: whole seconds"
    [[ $presses =~ ^[1-9][0-9]*$ ]] || die "STALL_PRESSES: a positive count"
    bench_parallax "$build" "bench/stalled.sh BUILD_DIR [OUT_FILE]"
    local c
    for c in tmux python3 pmprobe; do
        command -v "$c" >/dev/null || die "$c not found; run 'make deps'"
    done
}

# ports: distinct free loopback ports: live (pmcd) and stalled (listener)
# guests for the TUI in tmux, the --text run and the pty probe (which
# shares the text run's live pmcd).
ports() {
    local p
    declare -gA port=()
    for p in tui_live tui_stall text_live text_stall probe_stall; do
        port[$p]=$(free_port) || die "no free port"
    done
    [ "$(printf '%s\n' "${port[@]}" | sort -u | wc -l)" = 5 ] ||
        die "free_port gave the same port twice; run it again"
    for p in "${!port[@]}"; do echo "$p ${port[$p]}"; done >"$tmp/ports"
}

# guests LIVE STALL: parallax's options for the two guests.
guests() {
    echo "-h live=localhost:${port[$1]} -h stalled=localhost:${port[$2]}"
}

# stamp: prefixes each line read with the time it arrived (epoch seconds).
stamp() {
    local line
    while IFS= read -r line; do printf '%s %s\n' "$EPOCHREALTIME" "$line"; done
}

start_all() {
    pmcd_start "$tmp/tui" "${port[tui_live]}" >/dev/null || die "pmcd for the TUI"
    pmcd_start "$tmp/text" "${port[text_live]}" >/dev/null || die "pmcd for --text"
    python3 -c "$listener_py" "$tmp/listener.log" "${port[tui_stall]}" \
        "${port[text_stall]}" "${port[probe_stall]}" &
    listener_pid=$!
    wait_for 10 grep -qs '^ready' "$tmp/listener.log" || die "listener not up"

    # shellcheck disable=SC2046 # guests gives words on purpose
    tmx -f /dev/null set -g status off \; \
        set -g default-terminal "$TERM" \; \
        new-session -d -s px -x "${size%x*}" -y "${size#*x}" \
        "exec $(printf '%q ' "$parallax" -t 1 $(guests tui_live tui_stall))"
    tui_pid=$(tmx display -p -t px '#{pane_pid}')
    # the text run: its subshell writes its PID, then becomes parallax
    text_start=${EPOCHREALTIME/./}
    # shellcheck disable=SC2046
    (echo "$BASHPID" >"$tmp/text.pid"
        exec "$parallax" --text -t 1 $(guests text_live text_stall) \
            2>"$tmp/text.err") | stamp >"$tmp/text.log" &
    stamp_pid=$!
    wait_for 5 test -s "$tmp/text.pid" || die "--text run did not start"
    text_pid=$(<"$tmp/text.pid")
    wait_for 15 bash -c "tmux -L $sock capture-pane -p -t px | grep -q 'CPU user %'" ||
        { tmx capture-pane -p -t px >&2 || true; die "no first screen"; }
    [ "$(tmx display -p -t px '#{pane_width}x#{pane_height}')" = "$size" ] ||
        die "pane is not $size"
}

# probe: the pty runs, in the background: parallax and the stand-in, each
# "WHEN LATENCY RUN WAIT SELF_WAIT" a press (see keyprobe.py).
probe() {
    # shellcheck disable=SC2046
    python3 "$here/keyprobe.py" "$size" "$presses" "$seconds" -- \
        "$parallax" -t 1 $(guests text_live probe_stall) >"$tmp/probe" &
    probe_pid=$!
    python3 "$here/keyprobe.py" "$size" "$presses" "$seconds" -- \
        bash -c "$stand_in_sh" >"$tmp/floor" &
    floor_pid=$!
}

# measure: the tmux presses, "T_SEND T_SENT T_SEEN POLLS KEY" a line
# (epoch microseconds) in $tmp/presses.
measure() {
    local i key want line t0 t1 t2 polls due now step
    step=$((seconds * 1000000 / presses))
    window_start=${EPOCHREALTIME/./}
    for ((i = 0; i < presses; i++)); do
        due=$((window_start + i * step)) now=${EPOCHREALTIME/./}
        if ((due > now)); then
            sleep "$(printf '%d.%06d' $(((due - now) / 1000000)) \
                $(((due - now) % 1000000)))"
        fi
        [ -e "/proc/$tui_pid" ] || die "parallax exited during the window"
        line=$(tmx capture-pane -p -t px -S 1 -E 1)
        if [[ $line == *"add guest"* ]]; then key=C-g want=closed
        else key=g want=open; fi
        polls=0
        t0=${EPOCHREALTIME/./}
        tmx send-keys -t px "$key"
        t1=${EPOCHREALTIME/./}
        while :; do
            line=$(tmx capture-pane -p -t px -S 1 -E 1)
            t2=${EPOCHREALTIME/./}
            polls=$((polls + 1))
            [[ $line == *"add guest"* ]] && [ "$want" = open ] && break
            [[ $line != *"add guest"* ]] && [ "$want" = closed ] && break
            ((t2 - t0 <= timeout_us)) || { t2=$((t0 + timeout_us)); break; }
        done
        echo "$t0 $t1 $t2 $polls $key" >>"$tmp/presses"
    done
    window_end=${EPOCHREALTIME/./}
}

# overhead: a capture-pane alone, timed N times (microseconds, one a line).
overhead() {
    local i t0 t1
    for ((i = 0; i < presses; i++)); do
        t0=${EPOCHREALTIME/./}
        tmx capture-pane -p -t px -S 1 -E 1 >/dev/null
        t1=${EPOCHREALTIME/./}
        echo $((t1 - t0))
    done >"$tmp/capture"
}

main() {
    check_prereqs
    probe_pid="" floor_pid="" text_pid="" stamp_pid="" listener_pid=""
    bench_section "parallax stalled-guest bench ($("$parallax" -V), $(
        git -C "$here" rev-parse --short HEAD 2>/dev/null || echo no git))"
    ports
    start_all
    echo "stalled: $presses keys in tmux and $presses at a pty over $seconds s," \
        "one guest silent..." >&2
    fetch0=$(pmcd_fetches "${port[tui_live]}")
    probe
    measure
    fetch1=$(pmcd_fetches "${port[tui_live]}")
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    kill "$text_pid" # the text run ends with the window
    wait "$stamp_pid" || true
    text_pid="" stamp_pid=""
    wait "$probe_pid" || die "keyprobe.py failed"
    wait "$floor_pid" || die "keyprobe.py failed on the stand-in"
    probe_pid="" floor_pid=""
    overhead
    printf '%s\n' "size=$size" "window_start=$window_start" \
        "window_end=$window_end" "text_start=$text_start" "fetch0=$fetch0" \
        "fetch1=$fetch1" "cpus=$(nproc)" "load=$load" >"$tmp/meta"
    local rc=0
    "$here/stalled_report.sh" "$tmp" >"$tmp/section" || rc=$?
    [ "$rc" = 0 ] || [ "$rc" = 1 ] || die "stalled_report.sh failed"
    echo "stalled: appending to bench/out/${out##*/}" >&2
    bench_section_end "$rc"
}

main "$@"
