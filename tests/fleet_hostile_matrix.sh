#!/bin/bash
# The hostile-server matrix of issue 24, by hand (not in make check: about
# 10 minutes): every way tests/hostile_pmproxy.py can answer, against
# --text, --batch (its stderr, its .txt and .json) and the fleet screen
# in tmux (its text, its title and the report s saves). Counts crashes
# (a signal), hangs (not done in HANG_S), raw escapes (a C0/C1 control or
# DEL in any output but the JSON's own escapes), and prints each run's
# time and peak memory. Usage: tests/fleet_hostile_matrix.sh [BUILD]
#   [CASE_PATTERN]; PARALLAX_BIN overrides the binary (an older build).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
. tests/lib.sh
PARALLAX_BUILD=${1:-build}
use_build
bin=${PARALLAX_BIN:-$bin}
pattern=${2:-}
HANG_S=${HANG_S:-60}
work=$(mktemp -d /tmp/parallax-hostile-matrix.XXXXXX)
srv=
cleanup() {
    [ -z "$srv" ] || kill "$srv" 2>/dev/null
    tmux -L "hm$$" kill-server 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

start_server() {
    rm -f "$work/port"
    python3 tests/hostile_pmproxy.py "$work/port" "$@" &
    srv=$!
    wait_for 10 test -s "$work/port" || fail "the hostile server did not start"
    url=http://127.0.0.1:$(cat "$work/port")
}
stop_server() {
    kill "$srv" 2>/dev/null
    wait "$srv" 2>/dev/null
    srv=
}

# raw FILE: FILE holds a C0 control (but tab and newline), DEL or a C1
# control (raw, or UTF-8 encoded)
raw() { LC_ALL=C grep -qaP '[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\x9b|\xe2\x80\xae' "$1"; }

runs=0 crashes=0 hangs=0 escapes=0
# note NAME FRONT STATUS SECONDS KB FILES...: one line, and the counts
note() {
    local name=$1 front=$2 st=$3 secs=$4 kb=$5 what=ok f
    shift 5
    runs=$((runs + 1))
    if [ "$st" -ge 128 ] && [ "$st" -ne 143 ] || [ "$st" = 124 ]; then
        [ "$st" = 124 ] && { hangs=$((hangs + 1)); what=HANG; } ||
            { crashes=$((crashes + 1)); what="CRASH($st)"; }
    fi
    for f in "$@"; do
        if [ -f "$f" ] && raw "$f"; then
            escapes=$((escapes + 1))
            what="$what RAW-ESCAPE:$(basename "$f")"
        fi
    done
    printf '%-28s %-6s exit %-3s %6ss %7s KB  %s\n' "$name" "$front" "$st" \
        "$secs" "$kb" "$what"
    # the line each front end printed last, to read what it said
    for f in "$@"; do
        [ -s "$f" ] && [ "${f##*.}" != json ] &&
            printf '      %s: %s\n' "$(basename "$f")" \
                "$(grep -a -v '^ \(guest\|median\|p95\|worst\) ' "$f" |
                    grep -a . | tail -1 | cut -c1-150 | cat -v)"
    done
}

# timed OUT ERR COMMAND...: runs COMMAND for HANG_S at most; sets st,
# secs, kb
timed() {
    local out=$1 err=$2
    shift 2
    /usr/bin/time -o "$work/time" -f '%e %M' timeout -s KILL "$HANG_S" \
        "$@" >"$out" 2>"$err"
    st=$?
    [ "$st" = 137 ] && st=124 # killed by timeout: a hang
    # (time's last line; a killed command's status line comes before it)
    secs='?' kb='?'
    if tail -1 "$work/time" | grep -q '^[0-9.]* [0-9]*$'; then
        read -r secs kb < <(tail -1 "$work/time")
    fi
}

front_text() {
    timed "$work/text.out" "$work/text.err" "$bin" --fleet "$url" --text \
        -n 3 -t 1
    note "$1" text "$st" "$secs" "$kb" "$work/text.out" "$work/text.err"
}

front_batch() {
    rm -f "$work/b.txt" "$work/b.json"
    timed "$work/b.out" "$work/b.err" "$bin" --fleet "$url" --batch \
        syscall-null -r 1 -o "$work/b.txt"
    note "$1" batch "$st" "$secs" "$kb" "$work/b.out" "$work/b.err" \
        "$work/b.txt" "$work/b.json"
    if [ -f "$work/b.json" ] &&
        ! python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$work/b.json"; then
        echo "      the JSON report does not parse"
        escapes=$((escapes + 1))
    fi
}

# the fleet screen for 8 s, then s (save) and q; its text and title
front_tui() {
    local t=hm$$ rdir=$work/reports title
    rm -rf "$rdir"
    mkdir -p "$rdir"
    tmux -L "$t" kill-server 2>/dev/null
    tmux -L "$t" -f /dev/null new-session -d -x 200 -y 40 \
        "TERM=xterm-256color LANG=C.UTF-8 XDG_STATE_HOME=$rdir timeout --foreground -s KILL $HANG_S $bin --fleet $url -t 1 2>$work/tui.err; echo exit \$? >$work/tui.st; sleep 30"
    local t0=$SECONDS
    sleep 8
    tmux -L "$t" send-keys s
    sleep 1
    # (ncurses shows a control character it is given as ^X: that counts)
    tmux -L "$t" capture-pane -p | sed 's/\^\[/\x1b/g' >"$work/tui.screen"
    title=$(tmux -L "$t" display -p '#{pane_title}')
    # a title an escape set (OSC 0) counts as a raw escape
    case $title in *evil*) printf '\x1b%s' "$title" ;; *) printf '%s' "$title" ;; esac \
        >"$work/tui.title"
    tmux -L "$t" send-keys q
    wait_for 20 test -s "$work/tui.st"
    st=$(awk '{ print $2 }' "$work/tui.st" 2>/dev/null)
    tmux -L "$t" kill-server 2>/dev/null
    note "$1" tui "${st:-124}" "$((SECONDS - t0))" - "$work/tui.screen" \
        "$work/tui.err" "$work/tui.title" $(ls "$rdir"/*/*.txt "$rdir"/*/*.log 2>/dev/null)
    rm -f "$work/tui.st"
}

# case NAME SERVER-ARGS...: every front end against one server
case_() {
    local name=$1
    shift
    [ -n "$pattern" ] && [[ "$name" != *$pattern* ]] && return
    start_server "$@"
    front_text "$name"
    stop_server
    start_server "$@"
    front_batch "$name"
    stop_server
    if [ -z "${NO_TUI:-}" ]; then
        start_server "$@"
        front_tui "$name"
        stop_server
    fi
}

case_ fleet
for f in labels label-names units instances release ids ids40; do
    case_ "evil-$f" --evil "$f"
done
case_ raw-escapes --mode raw
case_ raw-empty --mode raw --body ''
case_ raw-null --mode raw --body 'null'
case_ raw-object --mode raw --body '{"series":1}'
case_ raw-numbers --mode raw --body '[1,2,3]'
case_ raw-nested --mode raw --body "$(printf '%.0s[' $(seq 5000))"
case_ error-json --mode error-json
case_ error-html --mode error-html
case_ truncated --mode truncated
case_ wrongtype --mode wrongtype
case_ huge-50mb --mode huge --mb 50
case_ huge-stream-50mb --mode huge-stream --mb 50
case_ endless --mode endless
case_ close --mode close
case_ empty --empty
case_ slow-5s-empty --delay 5 --empty
case_ slow-1s-fleet --delay 1
case_ slow-7s-ping-fast --delay 7 --ping-fast
case_ midrun-slow-3s --after 45 slow --slow 3
case_ midrun-lost --after 45 lost
case_ midrun-escapes --after 45 raw
case_ midrun-error-json --after 45 error-json
case_ midrun-huge --after 45 huge
case_ midrun-close --after 45 close
echo "$runs runs: $crashes crashes, $hangs hangs, $escapes outputs with raw escapes"
