#!/bin/bash
# A hostile pmproxy (tests/hostile_pmproxy.py, an HTTP server on
# 127.0.0.1) against --fleet (issue 24): its text never reaches a terminal
# or a report raw (escape sequences as whole answers, which jansson's
# reason quotes, in every field of a well-formed fleet, in error messages
# and pages: --text, --batch's stderr, the fleet screen's text and title
# and the report s saves); a slow one holds no front end without a word
# (its first discovery is not waited for whole, and --text says what it
# waits for); huge answers are refused in one line and not held; and
# which part is at fault is said: pmproxy, or its key-value server (a
# series request unanswered while /series/ping is, a fleet no query
# finds while its values still come).
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
cd "$here"
# shellcheck source=../lib.sh
. tests/lib.sh
use_build
work=$(mktemp -d /tmp/parallax-fleet-hostile.XXXXXX)
srv=
tmux_use parallax-fleet-hostile
cleanup() {
    [ -z "$srv" ] || kill "$srv" 2>/dev/null
    tmux_stop
    rm -rf "$work"
}
trap cleanup EXIT

# serve ARGS...: the hostile server with ARGS (another one stopped first);
# sets url
serve() {
    [ -z "$srv" ] || { kill "$srv"; wait "$srv" 2>/dev/null; }
    rm -f "$work/port"
    python3 tests/hostile_pmproxy.py "$work/port" "$@" &
    srv=$!
    wait_for 10 test -s "$work/port" || fail "the hostile server did not start"
    url=http://127.0.0.1:$(cat "$work/port")
}

# clean FILE WHAT: FILE holds no C0 control but tab and newline, no DEL,
# no C1 control (raw or UTF-8) and no bidi override
clean() {
    if LC_ALL=C grep -qaP '[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80\xae' "$1"; then
        LC_ALL=C grep -naP '[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]' "$1" | head -3 | cat -v
        fail "$2 holds control characters"
    fi
}

# text ARGS...: --text on the server into text.out/err; its status in st
text() {
    "$bin" --fleet "$url" --text "$@" >"$work/text.out" 2>"$work/text.err"
    st=$?
}
said() { grep -a -m1 "$1" "$work/text.out" | cut -c1-160; }

# --- escapes as the whole answer: jansson's reason quotes them ----------
serve --mode raw
text -n 1
grep -aq "pmproxy's answer is not JSON" "$work/text.out" ||
    fail "--text: $(head -3 "$work/text.out")"
clean "$work/text.out" "--text"
clean "$work/text.err" "--text's stderr"
echo "ok: --text: $(said 'not JSON')"
"$bin" --fleet "$url" --batch syscall-null 2>"$work/batch.err" &&
    fail "--batch on a server of escapes exited 0"
clean "$work/batch.err" "--batch's stderr"
[ "$(wc -l <"$work/batch.err")" = 1 ] || fail "--batch: $(cat -v "$work/batch.err")"
echo "ok: --batch: one clean line: $(cut -c1-120 "$work/batch.err")"
# the screen: its status line and title, and the report s saves
tmux_new 160 30 "XDG_STATE_HOME=$work/state $bin --fleet $url -t 1"
wait_for 10 has 'not JSON' || { screen; fail "the screen does not say why"; }
tm send-keys -t t s
wait_for 10 bash -c "ls '$work'/state/parallax/parallax-fleet-*.txt" >/dev/null 2>&1 ||
    { screen; fail "s saved no report"; }
report=$(ls "$work"/state/parallax/parallax-fleet-*.txt | head -1)
grep -aq "not JSON" "$report" || fail "the report does not say why: $(head -3 "$report")"
clean "$report" "the fleet report s saved"
title=$(tm display -p -t t '#{pane_title}')
[[ $title != *evil* ]] || fail "the server retitled the terminal: $title"
screen | grep -q '\^\[' && fail "the screen shows a control character"
tm send-keys -t t q
wait_for 5 bash -c "! tmux -L '$sock' has-session -t t 2>/dev/null" ||
    fail "q did not end the fleet screen"
tmux_stop
echo "ok: the screen, its title ($title) and its report are clean"

# --- escapes in every field of a fleet, in its error texts ----------------
serve --evil labels,label-names,units,instances,release,ids,ids40
text -n 2
[ "$st" = 0 ] || fail "--text exited $st: $(cat "$work/text.err")"
# (its roles are no role then: two sources shown, unpaired)
grep -aq '^hosts 0, guests 0, .*shown 2' "$work/text.out" ||
    fail "no fleet with escapes in its fields: $(head -3 "$work/text.out")"
grep -aq '^ g001?\]0;evil' "$work/text.out" || fail "the names are not shown masked"
clean "$work/text.out" "--text of escapes in every field"
echo "ok: escapes in every field: $(grep -a -m1 -o '^ [a-z0-9]*?\]0;[^ ]*' "$work/text.out")"
for mode in error-json error-html; do
    serve --mode "$mode"
    text -n 1
    grep -aq "pmproxy answered HTTP [45]00: .*evil-title" "$work/text.out" ||
        fail "$mode: $(head -3 "$work/text.out")"
    clean "$work/text.out" "--text of $mode"
    echo "ok: $mode: $(said 'answered HTTP')"
done

# --- a slow server: answers [] after 5 s (its whole discovery, 10
# queries, takes 50 s: 40.5 s at 4 s before issue 24); --text -n 1 says
# what it waits for, and ends well before that ----------------------------
serve --delay 5 --empty
t0=$(date +%s.%N)
text -n 1
took=$(since "$t0")
grep -aqE "discovering the fleet: [0-9]+ of [0-9]+ steps in [0-9]+ s" "$work/text.out" ||
    fail "--text on a slow server: $(head -3 "$work/text.out")"
within "$took" 0 40 || fail "--text -n 1 took $took s on a server answering in 5 s"
echo "ok: a slow server: after $took s: $(said discovering)"

# --- which part is at fault ----------------------------------------------
# series requests unanswered (7 s: longer than the first discovery's 6 s)
# while /series/ping is answered at once: the key-value server
serve --delay 7 --ping-fast
text -n 1
grep -aq "pmproxy's key-value server does not answer: pmproxy answers /series/ping" \
    "$work/text.out" || fail "ping answered: $(head -3 "$work/text.out")"
echo "ok: $(said key-value)"
serve --delay 7
text -n 1
grep -aq "pmproxy does not answer: no answer in 6.0 s" "$work/text.out" ||
    fail "nothing answered: $(head -3 "$work/text.out")"
echo "ok: $(said 'does not answer')"
# a fleet, then every answer 3 s late: a poll's request gives up after 2 s
serve --after 30 slow --slow 3
text -n 12 -t 1
grep -aq "pmproxy does not answer: no answer in 2.0 s" "$work/text.out" ||
    fail "a poll's timeout: $(grep -a '^no fleet' "$work/text.out" | head -3)"
echo "ok: $(said 'no answer in 2.0')"
# the timeouts docs/fleet.md gives are the ones parallax keeps
grep -q "no answer in 2.0 s" docs/fleet.md && grep -q "6.0 s" docs/fleet.md ||
    fail "docs/fleet.md does not give the timeouts parallax keeps (2.0 s, 6.0 s)"
# the fleet as a key-value server restarted empty leaves it: no query
# finds it, its values still come; its rows stay live and pmproxy is
# named as what must be restarted
serve --after 30 lost
text -n 40 -t 0.5
grep -aq "^hosts 1, guests 1, live 2, .*key-value server no longer lists 2 of the sources shown .*restart pmproxy" \
    "$work/text.out" || fail "a fleet no query finds: $(grep -a '^hosts\|^no fleet' "$work/text.out" | tail -3)"
echo "ok: $(said 'no longer lists' | cut -c1-150)"

# --- a UTF-8 label: shown as it is, its row lined up with the header ----
# (base/safe_text keeps printable UTF-8; the table pads by cells, so the
# columns after a name of 6 characters in 8 bytes start where the header's
# do: issue 25)
serve --guest-name "gäst-ü"
LC_ALL=C.UTF-8 "$bin" --fleet "$url" --text -n 3 -t 0.5 >"$work/text.out" 2>"$work/text.err"
grep -aq '^ gäst-ü ' "$work/text.out" ||
    fail "the UTF-8 name is not shown as it is: $(grep -a 'h01 ' "$work/text.out" | tail -1)"
# the cell (character) where each header word and each word of the row
# start, the same for the row's host (h01, under "host") and its state
# (live, under "state")
LC_ALL=C.UTF-8 python3 - "$work/text.out" <<'PY' || fail "the columns do not line up after a UTF-8 name: $(grep -a -e '^ guest' -e '^ gäst' "$work/text.out" | tail -2)"
import sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
head = [l for l in lines if l.startswith(" guest ")][-1]
row = [l for l in lines if l.startswith(" gäst-ü ")][-1]
for word, under in (("h01", "host"), ("live", "state"), ("6.1.0-hostile", "kernel")):
    if row.index(" " + word) != head.index(" " + under):
        sys.exit(f"{word} at cell {row.index(' ' + word)}, {under} at {head.index(' ' + under)}")
if len(row) != len(head):
    sys.exit(f"the row is {len(row)} cells, the header {len(head)}")
PY
echo "ok: a UTF-8 name shown whole, its row's columns under the header's"

# --- huge answers: refused in one line, not held -------------------------
# peak_kb ARGS...: the peak memory of parallax --fleet URL --text ARGS
peak_kb() {
    /usr/bin/time -o "$work/time" -f '%M' \
        "$bin" --fleet "$url" --text "$@" >"$work/text.out" 2>"$work/text.err"
    tail -1 "$work/time"
}
serve
base=$(peak_kb -n 2) # the same binary on a fleet's ordinary answers
for mode in huge huge-stream; do
    serve --mode "$mode" --mb 50
    kb=$(peak_kb -n 2)
    grep -aq "an answer longer than 8 MB" "$work/text.out" ||
        fail "$mode: $(head -3 "$work/text.out")"
    # it grew by less than half an answer: the answer was not read whole
    # (a sanitized build's own overhead is in both figures)
    [ $((kb - base)) -lt $((25 * 1024)) ] ||
        fail "$mode: parallax grew from $base to $kb KB on 50 MB answers"
    echo "ok: $mode answers of 50 MB: $base KB -> $kb KB; $(said 'longer than' | cut -c1-100)"
done
echo "PASS"
