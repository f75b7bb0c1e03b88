#!/bin/bash
# Recording many sources at once (issue 24, "nothing lost"): libpcp_import
# 6.0.3 keeps its archives' contexts in one array that pmiStart moves, and
# a written context points into itself, so an archive started beside
# written ones crashed parallax (the host and 3 guests: SIGSEGV at the
# first tick; valgrind: reads inside a block pmiStart had freed). Here the
# host and 3 guests with pmdaparallax record 4 samples: exit 0, one
# archive per source, each whole (pmlogcheck) with a record per sample
# (pmdumplog); then the host's clock steps while the same sources record
# (libfaketime's file, monotonic untouched): every source begins a second
# archive together, each whole, and the directory replays.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
. "$here/pmcd.sh"
use_build

work=$(mktemp -d)
pid=
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null
      for g in g1 g2 g3; do pmcd_stop "$work/$g/pmcd"; done; rm -rf "$work"' EXIT
hosts=()
for g in g1 g2 g3; do
    port=$(free_port) || fail "no free port"
    pmcd_start_agent "$work/$g" "$port" || fail "pmcd with the agent ($g)"
    hosts+=(-h "$g=localhost:$port")
done

# every source's archives: whole, and how many records each holds
check_dir() {
    local dir=$1 want=$2 src m n
    for src in host g1 g2 g3; do
        n=$(find "$dir/$src" -name '*.meta' 2>/dev/null | wc -l)
        [ "$n" -eq "$want" ] || fail "$dir/$src: $n archives, expected $want"
        for m in "$dir/$src"/*.meta; do
            pmlogcheck "${m%.meta}" >"$work/check" 2>&1 ||
                fail "pmlogcheck ${m%.meta}: $(cat "$work/check")"
        done
    done
}
records() { pmdumplog "$1" 2>/dev/null | grep -c '^[0-9][0-9]:[0-9][0-9]:[0-9][0-9]\.[0-9]* *[0-9]* metrics*$'; }

# --- four sources, four samples ---
"$bin" "${hosts[@]}" --record "$work/rec" --text -n 4 -t 0.5 >"$work/out" 2>"$work/err"
rc=$?
[ "$rc" -eq 0 ] || fail "recording the host and 3 guests exited $rc: $(tail -3 "$work/err")"
check_dir "$work/rec" 1
for src in host g1 g2 g3; do
    a=$(find "$work/rec/$src" -name '*.meta' | sed 's/\.meta$//')
    n=$(records "$a")
    # a record per sample taken (4 refreshes, and the first sample before them)
    [ "$n" -ge 4 ] || fail "$src's archive holds $n records for 4 samples"
    echo "$src: $n records, pmlogcheck whole"
done
echo "ok: the host and 3 guests recorded together: exit 0, an archive each, every one whole"

# --- the host's clock steps while the four record ---
lib=$(dpkg -L libfaketime 2>/dev/null | grep -m1 '/libfaketime\.so\.1$')
[ -n "$lib" ] || fail "no libfaketime; run make deps"
echo "+0" >"$work/fake"
asan=${PARALLAX_SANITIZED:+verify_asan_link_order=0}
FAKETIME_TIMESTAMP_FILE=$work/fake FAKETIME_DONT_FAKE_MONOTONIC=1 \
    FAKETIME_CACHE_DURATION=1 LD_PRELOAD=$lib \
    ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}$asan \
    "$bin" "${hosts[@]}" --text -t 0.3 --record "$work/step" >/dev/null 2>"$work/step.err" &
pid=$!
archives() {
    local src
    for src in host g1 g2 g3; do
        [ "$(find "$work/step/$src" -name '*.meta' 2>/dev/null | wc -l)" -ge "$1" ] || return 1
    done
}
wait_for 30 archives 1 || fail "no recording of every source under faketime: $(cat "$work/step.err")"
echo "+1h" >"$work/fake" # realtime steps an hour on; monotonic does not
wait_for 30 archives 2 || fail "the clock step did not start a new archive of every source: $(cat "$work/step.err")"
kill -0 "$pid" 2>/dev/null || fail "parallax died after the clock step: $(tail -3 "$work/step.err")"
kill -INT "$pid"
wait "$pid"
rc=$?
pid=
[ "$rc" -eq 0 ] || fail "the recording across the step exited $rc: $(tail -3 "$work/step.err")"
check_dir "$work/step" 2
"$bin" --text -n 1 -t 0.3 -a "$work/step" >/dev/null 2>"$work/err" ||
    fail "the recording across the step does not replay: $(cat "$work/err")"
echo "ok: the host's clock stepped while 4 sources recorded: each began a second archive, all whole, the directory replays"
