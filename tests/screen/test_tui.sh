#!/bin/bash
# The real live screen in a real terminal (tmux): numbers appear in the host
# column, a resize down to 40x12 and back keeps it drawing, a smaller window
# says so, q quits with status 0 and the shell prompt works again; SIGINT,
# SIGTERM and SIGHUP also restore the terminal; a too-small terminal at
# start gives a one-line error and exit 2.
set -u
. "$(dirname "$0")/../lib.sh"
use_build

tmux_use parallax-test -J
trap 'tmux_stop; rm -rf "$state"' EXIT
size() { tm resize-window -t t -x "$1" -y "$2"; }

state=$(mktemp -d) # the snapshot key saves under $XDG_STATE_HOME/parallax
export XDG_STATE_HOME=$state
tmux_shell 100 30

# run parallax; its exit status is echoed when it ends
start() { tmux_parallax "$bin -t 0.5"; }
prompt_ok() {
    local want=$1
    wait_for 5 has "^EXIT=$want\$" || { screen; fail "exit status not $want"; }
    tm send-keys -t t "echo alive-\$((6*7))" Enter
    wait_for 5 has '^alive-42$' || { screen; fail "prompt not usable"; }
    tm send-keys -t t "clear" Enter
    echo "ok: exit $want, prompt usable"
}

start
# the host's back-end, after its host name when the line above has no room
# for it (a long host name)
has '^ +([^ ]+ )?/proc' || fail "collector not named"
has '^ F1 Help .* q Quit' || fail "no key bar"
echo "ok: figures on screen"

tm send-keys -t t s
wait_for 5 has "^ saved $state/parallax/parallax-[0-9]{8}-[0-9]{6}-[0-9]{3}\.txt \(and \.json\)" ||
    { screen; fail "no snapshot saved"; }
ls "$state"/parallax/parallax-*.txt "$state"/parallax/parallax-*.json >/dev/null ||
    fail "snapshot files missing"
grep -q '^INDEX VALUES' "$state"/parallax/parallax-*.txt || fail "snapshot text"
echo "ok: s saved a snapshot"

size 40 12
wait_for 5 has '^CPU user %' || { screen; fail "nothing drawn at 40x12"; }
size 39 11
wait_for 5 has 'too small' || { screen; fail "no too-small notice"; }
size 100 30
wait_for 5 has '^forks/s +[0-9]' || { screen; fail "no redraw after resize"; }
echo "ok: resize 40x12, 39x11 and back"

# add a guest at run time: a bad one is refused on the status line, a
# good one (nobody listens there) gets a column that says it is down;
# a resize with the prompt open keeps the typed text
. "$(dirname "$0")/../pmcd.sh"
dead=$(free_port) || fail "no free port"
tm send-keys -t t g
wait_for 5 has 'add guest \[NAME=\]HOST\[:PORT\]: *$' || { screen; fail "no prompt"; }
tm send-keys -t t 'bad=host:0' Enter
wait_for 5 has "guest 'bad=host:0': the port is not 1 to 65535" ||
    { screen; fail "bad guest not refused"; }
tm send-keys -t t g "late=localhost:$dead"
size 60 20
wait_for 5 has "add guest .*late=localhost:$dead *$" ||
    { screen; fail "prompt text lost on resize"; }
size 100 30
tm send-keys -t t Enter
wait_for 5 has "^ added late \(localhost:$dead\)" || { screen; fail "not added"; }
wait_for 10 has 'down [0-9]+s, retry' || { screen; fail "no down column"; }
echo "ok: guests added at run time"

tm send-keys -t t q
prompt_ok 0

# a snapshot that cannot be written is said on screen; parallax goes on
tmux_parallax "$bin -t 0.5 --report-dir /dev/null/x"
tm send-keys -t t s
wait_for 5 has '^ not saved: .*/dev/null/x' || { screen; fail "no save error"; }
wait_for 5 has '^forks/s +[0-9]' || { screen; fail "stopped after a failed save"; }
tm send-keys -t t q
prompt_ok 0
echo "ok: a failed snapshot is said and parallax goes on"

pid_of() { pgrep -f "^$bin -t 0.5" | head -1; }
for sig in INT TERM HUP; do
    start
    pid=$(pid_of)
    [ -n "$pid" ] || fail "no parallax process"
    kill -s "$sig" "$pid"
    case $sig in INT) want=130 ;; TERM) want=143 ;; HUP) want=129 ;; esac
    prompt_ok "$want"
done

# a window too small from the start: one line, exit 2
size 30 10
tm send-keys -t t "clear; $bin; echo EXIT=\$?" Enter
wait_for 5 has '^EXIT=2$' || { screen; fail "no exit 2 when too small"; }
has 'terminal is 30x10, parallax needs at least 40x12' ||
    { screen; fail "no size message"; }
echo "all screen checks passed"
