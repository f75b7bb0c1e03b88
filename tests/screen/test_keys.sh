#!/bin/bash
# The keys people already know, on the real screen in tmux: the key bar;
# help (F1, ?) lists the keys and closes; + and - change the interval in
# the title and the samplers follow it (the -vv log counts the fetches);
# p freezes the display while sampling goes on, p again shows current
# figures; q with a workload running asks first; a window shrunk to 40x12
# and back with the add-guest prompt or the help open is clean (a full
# repaint with ^L changes nothing) and keys still work; a C locale draws
# ASCII only; the title shows parallax's own cost: a share no larger than
# the CPUs, and the resident size /proc gives its process.
set -u
. "$(dirname "$0")/../lib.sh"
use_build

tmux_use parallax-keys
trap 'tmux_stop; rm -rf "$state"' EXIT
size() { tm resize-window -t t -x "$1" -y "$2"; }
# the screen without the title's clock, which moves on every redraw
masked() { screen | sed '1s/[0-9][0-9]:[0-9][0-9]:[0-9][0-9] *$//'; }
# the table alone: no title, no status row
body() { screen | sed '1,2d'; }

state=$(mktemp -d)
log=$state/parallax/parallax.log
export XDG_STATE_HOME=$state
tmux_shell 100 30

# run parallax with ARGS; its exit status is echoed when it ends
start() { tmux_parallax "$* $bin -t 0.5 -r 30 -vv"; }
quit_ok() {
    wait_for 5 has '^EXIT=0$' || { screen; fail "did not quit with 0"; }
    tm send-keys -t t "clear" Enter
}
# host fetches the -vv log has seen so far
fetches() { grep -c 'parallax: host: fetch ' "$log"; }

start
has '^ F1 Help  Space Start/Stop  a Suite  x Stop all  g Add guest  s Snapshot  t Theme  p Pause  q Quit' ||
    { screen; fail "no full key bar"; }
has '─ workloads [0-9]+-[0-9]+ of [0-9]+ ─' || { screen; fail "no UTF-8 rule in a UTF-8 locale"; }
echo "ok: key bar"

# the title's own cost: a share of the CPUs (at most all of them) and the
# resident size /proc gives the process, within a quarter (it moves)
wait_for 5 has 'parallax itself: [0-9.]+% cpu' || { screen; fail "no own cost"; }
read -r cpu mb < <(screen | sed -n '1s/.*parallax itself: \([0-9.]*\)% cpu, \([0-9.]*\) MB.*/\1 \2/p')
[ -n "$cpu" ] && [ -n "$mb" ] || { screen; fail "own cost not parsed"; }
px=$(pane_parallax) || fail "no parallax in the window"
rss=$(awk '/^VmRSS:/ { print $2 / 1024 }' "/proc/$px/status")
awk -v c="$cpu" -v m="$mb" -v r="$rss" -v n="$(getconf _NPROCESSORS_ONLN)" \
    'BEGIN { exit !(c >= 0 && c <= 100 * n && m >= 0.75 * r && m <= 1.25 * r) }' ||
    fail "own cost: $cpu% cpu, $mb MB; /proc says $rss MB resident"
echo "ok: own cost $cpu% cpu, $mb MB (/proc: $rss MB)"

# help: F1 and ? open it, it lists the keys, Esc and q close it (q there
# does not quit)
tm send-keys -t t F1
wait_for 5 has '─ keys ─' || { screen; fail "F1 did not open the help"; }
# every page of it (Down scrolls a help taller than the window), then
# back to its top
help_pages=$(mktemp)
for _ in $(seq 12); do
    screen >>"$help_pages"
    tm send-keys -t t Down
    sleep 0.1
done
for _ in $(seq 12); do tm send-keys -t t Up; done
for k in 'F1 h \? +this help' 'Space +start' 'p +pause' '\+ - +sample' \
    'q F10 +quit' 't +next colour theme' 'g +add a guest' 'Tab +give'; do
    grep -qE "│ $k" "$help_pages" || { cat "$help_pages"; rm -f "$help_pages"; fail "help does not list /$k/"; }
done
rm -f "$help_pages"
wait_for 5 has '│ F1 h \? +this help' || { screen; fail "Up did not bring the help back to its top"; }
tm send-keys -t t Escape
wait_for 5 hasnt '─ keys ─' || { screen; fail "Esc did not close the help"; }
tm send-keys -t t '?'
wait_for 5 has '─ keys ─' || { screen; fail "? did not open the help"; }
tm send-keys -t t q
wait_for 5 hasnt '─ keys ─' || { screen; fail "q did not close the help"; }
has '^forks/s +[0-9]' && hasnt '^EXIT=' || { screen; fail "q in the help quit"; }
echo "ok: help opens with F1 and ?, lists the keys, closes"

# + and -: the title says the new interval and the samplers follow it
has ' - interval 0\.5 s - ' || { screen; fail "no interval in the title"; }
tm send-keys -t t + +
wait_for 5 has ' - interval 2 s - ' || { screen; fail "+ did not lengthen it"; }
wait_for 5 has '^ sampling every 2 s' || { screen; fail "no status for +"; }
n0=$(fetches) s0=$(stall_s) t0=$(date +%s.%N)
sleep 4.2 # a window to count fetches in
n=$(($(fetches) - n0)) w=$(since "$t0")
fetches_fit "$n" "$w" 2 "$s0" || fail "$n fetches in $w s at 2 s"
tm send-keys -t t - - - -
wait_for 5 has ' - interval 0\.1 s - ' || { screen; fail "- did not shorten it"; }
tm send-keys -t t -
wait_for 5 has 'already 0\.1 s, the shortest' || { screen; fail "went below 0.1 s"; }
n0=$(fetches) s0=$(stall_s) t0=$(date +%s.%N)
sleep 2
n=$(($(fetches) - n0)) w=$(since "$t0")
fetches_fit "$n" "$w" 0.1 "$s0" || fail "$n fetches in $w s at 0.1 s"
tm send-keys -t t + +
wait_for 5 has ' - interval 0\.5 s - ' || { screen; fail "+ back to 0.5 s"; }
echo "ok: + and - change the interval and the samplers follow"

# p: the display stays put over several intervals while fetches go on
a=$(body)
wait_for 5 eval '[ "$(body)" != "$a" ]' || fail "the table never changes"
tm send-keys -t t p
wait_for 5 has '^  PAUSED  p resumes' || { screen; fail "no PAUSED"; }
a=$(screen)
n0=$(fetches) s0=$(stall_s) t0=$(date +%s.%N)
sleep 1.5 # three intervals
[ "$(screen)" = "$a" ] || { screen; fail "the paused screen changed"; }
n=$(($(fetches) - n0)) w=$(since "$t0")
[ "$n" -ge 1 ] && fetches_fit "$n" "$w" 0.5 "$s0" ||
    fail "sampling stopped while paused ($n fetches in $w s)"
a=$(body)
tm send-keys -t t p
wait_for 5 has '^ resumed' || { screen; fail "p did not resume"; }
wait_for 5 eval '[ "$(body)" != "$a" ]' ||
    { screen; fail "no current figures after resuming"; }
echo "ok: p freezes the display while sampling goes on, and resumes"

# clean after a resize: a full repaint (^L) must not change a cell
clean() {
    local what=$1 before
    before=$(masked)
    echo "$before" | sed -n 1p | grep -qE '^ parallax ' ||
        { echo "$before"; fail "$what: no title"; }
    echo "$before" | tail -n 1 | grep -qE '^ F1 Help ' ||
        { echo "$before"; fail "$what: no key bar"; }
    tm send-keys -t t C-l
    if wait_for 2 eval '[ "$(masked)" != "$before" ]'; then
        echo "before ^L:"; echo "$before"; echo "after:"; screen
        fail "$what: stray cells that a repaint removed"
    fi
    echo "ok: $what clean"
}
tm send-keys -t t p
wait_for 5 has '^  PAUSED' || { screen; fail "no PAUSED"; }
tm send-keys -t t g 'vm1=127.0.0.'
wait_for 5 has 'add guest .*vm1=127\.0\.0\. *$' || { screen; fail "no prompt"; }
size 40 12
wait_for 5 has '^ parallax 0\.5 s - self ' || { screen; fail "no short title"; }
has 'HOST\[:PORT\]: .*127\.0\.0\. *$' || { screen; fail "prompt text lost at 40x12"; }
clean "40x12 with the prompt open"
size 100 30
wait_for 5 has '^memory used' || { screen; fail "no redraw at 100x30"; }
clean "100x30 after 40x12 with the prompt open"
tm send-keys -t t 1:1 Enter
wait_for 5 has "^  PAUSED  p resumes  added vm1 \(127\.0\.0\.1:1\)" ||
    { screen; fail "the prompt did not take keys after the resizes"; }

tm send-keys -t t F1
wait_for 5 has '─ keys ─' || { screen; fail "no help"; }
size 40 12
wait_for 5 has 'Up/Down more; other keys close' || { screen; fail "help at 40x12"; }
clean "40x12 with the help open"
size 100 30
wait_for 5 has '│ F1 h \? +this help' || { screen; fail "help back at 100x30"; }
clean "100x30 after 40x12 with the help open"
tm send-keys -t t Escape
wait_for 5 hasnt '─ keys ─' || { screen; fail "help did not close"; }
tm send-keys -t t p
wait_for 5 hasnt 'PAUSED' || { screen; fail "did not resume"; }
echo "ok: resizes with the prompt and the help open"

# q with a workload running asks first; n keeps going, y quits
for _ in $(seq 40); do # select the sleep workload (light on the CPU)
    # reverse video, maybe a colour (tmux may spell out the default), the
    # name, then an attribute or the end (a row never run is blank after)
    tm capture-pane -e -p -t t |
        grep -qE $'\e\[7m(\e\[[0-9;]*m)*[ >] sleep(\e| *$)' && break
    tm send-keys -t t j
    sleep 0.1
done
tm send-keys -t t Space
wait_for 5 has '^ started sleep' || { screen; fail "sleep not started"; }
tm send-keys -t t q
wait_for 5 has '^ workloads are running: stop them and quit\? \(y/n\)' ||
    { screen; fail "q did not ask"; }
tm send-keys -t t n
wait_for 5 has '^ not quitting; the workloads go on' || { screen; fail "n quit"; }
has '^> sleep' || { screen; fail "the workload stopped on n"; }
tm send-keys -t t F10
wait_for 5 has 'stop them and quit\? \(y/n\)' || { screen; fail "F10 did not ask"; }
tm send-keys -t t y
quit_ok
grep -q 'parallax: sleep: started on' "$log" || fail "-v: no workload start in the log"
grep -q 'parallax: host: connecting -> live' "$log" || fail "-v: no state change in the log"
echo "ok: quitting with a workload running asks first"

# a C locale: ASCII only, rules and the help box too
start LANG=C LC_ALL=C
tm send-keys -t t '?'
wait_for 5 has '^ +\+- keys -+' || { screen; fail "no ASCII help box"; }
ascii_only() {
    if screen | LC_ALL=C grep -q '[^ -~]'; then
        screen | LC_ALL=C grep -n '[^ -~]'
        fail "non-ASCII on screen under a C locale ($1)"
    fi
}
ascii_only "the help open" # its legend too
tm send-keys -t t Escape
wait_for 5 has '^- workloads [0-9]+-[0-9]+ of [0-9]+ ---' ||
    { screen; fail "no ASCII rule"; }
ascii_only "the table"
tm send-keys -t t q
quit_ok
echo "ok: a C locale shows ASCII only"
echo "all key checks passed"
