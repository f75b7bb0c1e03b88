#!/bin/bash
# Hostile text never reaches a terminal or a text report raw: a real pmcd
# whose host name is "ESC ]2;PWNED BEL ESC [2J" (a UTS namespace of its
# own), a baseline whose version string and fields hold escapes, and a -h
# name that does. The .txt of s and of --batch, --text, stderr and the live
# screen (its title and text, in tmux) get no ESC or BEL; the JSON keeps
# nothing but escaped or masked text (issue 16).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
. "$here/pmcd.sh"
use_build
command -v unshare >/dev/null || fail "no unshare (util-linux)"

work=$(mktemp -d)
tmux_use parallax-hostile
cleanup() {
    tmux_stop
    pmcd_stop "$work/g/pmcd"
    rm -rf "$work"
}
trap cleanup EXIT

# the pmcd's own host name, as its linux agent reads it from uname()
hostile=$'\e]2;PWNED\a\e[2J'
port=$(free_port) || fail "no free port"
PMCD_WRAP=(unshare --uts sh -c 'printf "%s" "$HOSTILE" \
    >/proc/sys/kernel/hostname && exec "$@"' sh)
HOSTILE=$hostile pmcd_start "$work/g/pmcd" "$port" || fail "pmcd on $port"
PMCD_WRAP=()
pminfo -h "localhost:$port" -f kernel.uname.nodename | grep -q PWNED ||
    fail "the pmcd's host name is not the hostile one"
echo "ok: pmcd on $port, host name $(printf '%q' "$hostile")"

# clean FILE WHAT: FILE holds no ESC, BEL or other C0 control but newlines
clean() {
    if LC_ALL=C grep -qP '[\x00-\x09\x0b-\x1f\x7f]' "$1"; then
        od -c "$1" | grep -E '033|\\a' | head -3
        fail "$2 holds control characters"
    fi
}

# --batch: the text report, its JSON and stderr
"$bin" --batch syscall-null -r 1 -h "g=localhost:$port" \
    -o "$work/batch.txt" 2>"$work/batch.err"
[ -s "$work/batch.txt" ] || { cat "$work/batch.err"; fail "no batch report"; }
grep -q 'PWNED' "$work/batch.txt" || fail "the guest's host name not in the report"
clean "$work/batch.txt" "the --batch .txt"
clean "$work/batch.err" "--batch's stderr"
clean "$work/batch.json" "the --batch .json" # escaped as \u001b, or masked
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$work/batch.json" ||
    fail "the JSON report does not parse"
echo "ok: --batch .txt, .json and stderr clean: $(grep -o '.\]2;PWNED..\[2J' "$work/batch.txt" | head -1)"

# --text
"$bin" --text -n 2 -t 0.5 -h "g=localhost:$port" >"$work/text.out" \
    2>"$work/text.err" || fail "--text exited $?"
# (80 columns leave no room for this host name beside its kernel)
clean "$work/text.out" "--text"
clean "$work/text.err" "--text's stderr"
echo "ok: --text clean"

# a baseline whose version, host and kernel strings hold escapes: its
# warning on stderr, its column and the reports made with it
python3 - "$work/batch.json" "$work/base.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
r["parallax"] = "\x1b]2;OWNED\x07\x1b[2J9.9"
r["date"] = "2024-01-01\x1b[2J"
r["sources"][0]["host"] = "h\x1b[31m"
r["sources"][0]["kernel"] = "k\x9b2J"
json.dump(r, open(sys.argv[2], "w"))
EOF
"$bin" --text -n 1 -t 0.5 --baseline "$work/base.json" >"$work/base.out" \
    2>"$work/base.err" || fail "--text with the baseline exited $?"
grep -q 'OWNED' "$work/base.err" || { cat "$work/base.err"; fail "no version warning"; }
clean "$work/base.err" "the baseline's version warning"
clean "$work/base.out" "--text with the baseline"
echo "ok: baseline with escapes: $(head -c 120 "$work/base.err")"

# a -h name echoed in an error
"$bin" --text -h "${hostile}=h:0" >/dev/null 2>"$work/arg.err"
rc=$?
[ "$rc" -eq 2 ] || fail "a -h name with escapes exited $rc, not 2"
[ "$(wc -l <"$work/arg.err")" -eq 1 ] || fail "not one line: $(cat "$work/arg.err")"
clean "$work/arg.err" "the error for a -h name"
echo "ok: -h with escapes refused: $(cat "$work/arg.err")"

# the live screen: its title stays, the name shows masked; s saves clean
export XDG_STATE_HOME=$work/state
tmux_shell 160 40
tm set-option -g set-titles on
tmux_parallax "$bin -v -t 0.5 -h g=localhost:$port"
wait_for 10 has 'PWNED' || { screen; fail "the host name not on screen"; }
title=$(tm display-message -p -t t '#{pane_title}')
[[ "$title" != *PWNED* ]] || fail "the pane was retitled: $title"
has '^CPU user %' || { screen; fail "the screen was cleared"; }
tm send-keys -t t s
wait_for 5 has '^ saved ' || { screen; fail "no snapshot saved"; }
snap=$(ls "$XDG_STATE_HOME"/parallax/parallax-*.txt)
grep -q PWNED "$snap" || fail "the snapshot lacks the host name"
clean "$snap" "the snapshot's .txt"
clean "${snap%.txt}.json" "the snapshot's .json"
tm send-keys -t t q
wait_for 5 has '^EXIT=0$' || { screen; fail "q did not exit 0"; }
[ -s "$XDG_STATE_HOME/parallax/parallax.log" ] || fail "no log"
clean "$XDG_STATE_HOME/parallax/parallax.log" "the log"
echo "ok: live screen: title '$title', snapshot and log clean"
echo "all hostile text checks passed"
