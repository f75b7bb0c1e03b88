#!/bin/bash
# Guests as sources through real pmcd instances: a live guest fills its
# column and its ratio column; a port nobody listens on reads "down" with
# the reason and gives no ratio; a guest whose pmcd dies mid-run goes down
# within three intervals while the host keeps updating, and comes back
# live by itself when its pmcd returns.
set -u
export LANG=C.UTF-8 LC_ALL= # the × and Δ% headers are UTF-8
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
. "$here/pmcd.sh"
use_build

work=$(mktemp -d)
cleanup() {
    [ -n "${ppid:-}" ] && kill "$ppid" 2>/dev/null
    pmcd_stop "$work/g1"
    rm -rf "$work"
}
trap cleanup EXIT

port=$(free_port) || fail "no free port"
dead=$(free_port) || fail "no free port"
pmcd_start "$work/g1" "$port" || fail "pmcd did not start on $port"
echo "ok: private pmcd on $port"

out=$work/two.txt
"$bin" --text -n 2 -t 0.5 -h "g1=localhost:$port" -h "dead=localhost:$dead" \
    >"$out" || fail "--text with guests exited $?"
grep -qE '^ +host +g1 +× +dead +×' "$out" || { cat "$out"; fail "headers"; }
grep -qE "[^ ]+ localhost:$port no pmda" "$out" || fail "g1 backend line"
grep -qE 'down [0-9]+s, retry' "$out" || fail "dead not down"
grep -q 'Connection refused' "$out" || fail "no reason for down"
# host figure, g1 figure and a ratio on the context switch row (never 0 on
# a running system, unlike user CPU on an idle one), no ratio for dead
line=$(grep -E '^ctx switch/s' "$out" | tail -1)
echo "$line" | grep -qE '^ctx switch/s +[0-9.]+[kMG]? +[^ ]+ +[0-9.]+[kMG]? +[^ ]+ +[0-9.]+ +n/a +n/a$' ||
    fail "row not host, g1, ratio, n/a, n/a: '$line'"
echo "ok: live guest, ratio, and a down guest with no ratio"

# disruption: the guest's pmcd dies and returns while parallax runs
log=$work/run.txt
"$bin" --text -t 0.5 -h "g1=localhost:$port" >"$log" &
ppid=$!
last_state() { grep -E '^ +(live|stale|down|connecting)' "$log" | tail -1; }
wait_for 10 bash -c "grep -cE '^ +live [0-9.]+ms +live' '$log' | grep -q ." ||
    fail "g1 never live"
pmcd_stop "$work/g1"
t0=$SECONDS
refreshes=$(grep -c '^parallax ' "$log")
wait_prompt 5 bash -c "grep -E '^ +live' '$log' | tail -1 | grep -q 'down '" ||
    { tail -20 "$log"; fail "g1 not down after its pmcd stopped"; }
echo "ok: down after $((SECONDS - t0)) s (interval 0.5 s)"
wait_prompt 5 bash -c "[ \$(grep -c '^parallax ' '$log') -ge $((refreshes + 3)) ]" ||
    fail "host stopped refreshing while g1 was down"
grep -E '^CPU user %' "$log" | tail -1 | grep -qE '^CPU user % +[0-9]' ||
    fail "host figures gone while g1 was down"
echo "ok: host kept refreshing"
pmcd_start "$work/g1" "$port" || fail "pmcd did not restart"
wait_for 40 bash -c "grep -E '^ +live' '$log' | tail -1 | grep -qE 'live [0-9.]+ms +live'" ||
    { tail -20 "$log"; fail "g1 did not come back"; }
echo "ok: g1 live again without restarting parallax"
echo "all guest checks passed"
