#!/bin/bash
# Ways out of the front ends without a screen:
#   --batch on SIGHUP (a closed terminal) ends like on SIGINT: the report
#     pair is written, the guest's run (a real pmcd with pmdaparallax) is
#     stopped, the exit status is 129;
#   --batch with an -o it cannot write says so in one line, exit 2, before
#     the first run;
#   --text with a guest that accepts connections and never answers prints
#     its refreshes on time and quits without waiting for it: -n 4 -t 1
#     takes about 4 s (it took 7.5), checked against the host's clock
#     (later only by what the machine stalled).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
. "$here/pmcd.sh"
use_build

work=$(mktemp -d)
silent=
cleanup() {
    [ -n "$silent" ] && kill "$silent" 2>/dev/null
    pmcd_stop "$work/g/pmcd"
    rm -rf "$work"
}
trap cleanup EXIT
port=$(free_port) || fail "no free port"
pmcd_start_agent "$work/g" "$port" || fail "pmcd with the agent"

# --overlap: the guest's run starts with the host's, not after it
"$bin" --batch syscall-null -r 50 --overlap -h "g=localhost:$port" \
    -o "$work/r.txt" 2>"$work/err" &
pid=$!
wait_for 20 agent_running "$port" syscall-null || { cat "$work/err"; fail "not running on g"; }
kill -HUP "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 129 ] || { cat "$work/err"; fail "batch exited $rc after SIGHUP, not 129"; }
[ -s "$work/r.txt" ] && [ -s "$work/r.json" ] || fail "no report pair after SIGHUP"
wait_for 5 agent_not_running "$port" syscall-null || fail "the guest's run goes on after SIGHUP"
echo "ok: --batch on SIGHUP: exit 129, report pair written, guest's run stopped"

expect_fail 2 '^parallax: -o: cannot write /nonexistent/dir/x\.txt: No such file or directory; give a new or regular file in a directory you can write \(-o - for standard output alone\)$' \
    "$bin" --batch quick -o /nonexistent/dir/x.txt
expect_fail 2 "^parallax: -o: cannot write $work: it is a directory" \
    "$bin" --batch quick -o "$work"
# the JSON goes next to the text report: one named .json would be both
expect_fail 2 "^parallax: -o $work/r2\.json: the text report goes there and the JSON next to it .*; give -o NAME\.txt$" \
    "$bin" --batch quick -o "$work/r2.json"

# a guest that accepts and never answers
sport=$(free_port) || fail "no free port"
python3 - "$sport" <<'PY' &
import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1])))
s.listen(16)
held = []
while True:
    held.append(s.accept()[0])
PY
silent=$!
wait_for 30 bash -c "exec 3<>/dev/tcp/127.0.0.1/$sport" 2>/dev/null ||
    fail "the silent guest does not listen"
t0=$(date +%s.%N) s0=$(stall_s)
"$bin" --text -n 4 -t 1 -h "mute=127.0.0.1:$sport" >"$work/text" ||
    fail "--text exited $?"
t1=$(date +%s.%N)
[ "$(grep -c '^CPU user %' "$work/text")" -eq 4 ] || fail "not 4 refreshes"
# 4 s, 1 s to spare, and what the machine stalled meanwhile
within_late "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" 0 5.0 "$s0" ||
    fail "--text -n 4 -t 1 took $(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }') s with a silent guest"
echo "ok: --text -n 4 -t 1 with a silent guest: $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s"
