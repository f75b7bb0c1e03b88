#!/bin/bash
# Batch mode against the real host and a real pmcd guest with
# pmdaparallax: the text report on --output with the JSON next to it, exit
# 0 when every run completed; the JSON read back as a baseline column; a
# guest that is down gives exit 1 and still a report; bad input gives a
# one-line error and exit 2; an unwritable report directory is said and
# the report still reaches stdout; SIGINT still writes what was measured.
set -u
export LANG=C.UTF-8 LC_ALL= # the × and Δ% headers are UTF-8
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
. "$here/pmcd.sh"
use_build

work=$(mktemp -d)
trap 'pmcd_stop "$work/g1/pmcd"; rm -rf "$work"' EXIT
port=$(free_port) || fail "no free port"
dead=$(free_port) || fail "no free port"
pmcd_start_agent "$work/g1" "$port" || fail "pmcd with the agent"

"$bin" --batch syscall-null,fork-exit -r 2 -h "g1=localhost:$port" \
    -o "$work/r.txt" 2>"$work/err" || { cat "$work/err"; fail "batch exited $?"; }
grep -q '^batch \[2/2\] fork-exit: host done g1 done' "$work/err" ||
    fail "no progress lines"
for want in '^parallax report' '^INDEX VALUES' '^syscall-null ' \
    '^FINAL SCORE \(geo-mean\) +[0-9.]+' '^COUNTERS' '^TIME'; do
    grep -qE "$want" "$work/r.txt" || fail "report lacks /$want/"
done
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["format"]=="parallax-report" and d["version"]==1; assert d["sources"][1]["workloads"]["syscall-null"]["n"]==2' "$work/r.json" ||
    fail "JSON report"
echo "ok: batch on host and g1: $(grep -E '^FINAL SCORE' "$work/r.txt")"

"$bin" --text -n 1 -t 0.3 --baseline "then=$work/r.json" >"$work/b.txt" ||
    fail "--baseline exited $?"
grep -qE '^ +host +baseline:then +Δ%' "$work/b.txt" || fail "no baseline column"
grep -qE '^CPU idle % .* [+-][0-9]+%$' "$work/b.txt" || fail "no Δ% against the baseline"
echo "ok: the JSON reads back as a baseline column with Δ%"

"$bin" --batch syscall-null -r 1 -h "gone=localhost:$dead" \
    -o "$work/d.txt" 2>"$work/err"
rc=$?
[ $rc -eq 1 ] || fail "a down guest gave exit $rc"
grep -q 'syscall-null on gone: the source is down' "$work/err" ||
    fail "no reason for the down guest"
grep -q '^syscall-null' "$work/d.txt" || fail "no report when a guest was down"
echo "ok: a down guest gives exit 1 and a report"

expect_fail 2 "--batch: 'nosuch' is neither a suite" "$bin" --batch nosuch
expect_fail 2 "add --batch" "$bin" --text -o "$work/x.txt"
expect_fail 2 "repeats '0'" "$bin" --batch quick -r 0
expect_fail 2 "damaged report" "$bin" --text -n 1 --baseline "$work/err"
echo '{"format": "parallax-report", "version": 9}' >"$work/v9.json"
expect_fail 2 "version 9; this parallax reads version 1" "$bin" --text -n 1 \
    --baseline "$work/v9.json"

"$bin" --batch syscall-null -r 1 --report-dir /dev/null/x >"$work/o.txt" \
    2>"$work/err"
rc=$?
[ $rc -eq 1 ] || fail "unwritable report dir gave exit $rc"
grep -q '/dev/null/x' "$work/err" || fail "unwritable dir not named"
grep -q '^syscall-null' "$work/o.txt" || fail "no report on stdout"
echo "ok: unwritable report directory said, report still on stdout"

"$bin" --batch syscall-null,syscall-read,syscall-write -r 3 \
    -o "$work/i.txt" 2>"$work/err" &
pid=$!
wait_for 20 grep -q 'syscall-read' "$work/err" || fail "batch did not reach run 2"
kill -INT "$pid"
wait "$pid"
rc=$?
[ $rc -eq 130 ] || fail "SIGINT gave exit $rc"
grep -qE '^syscall-null +ns +host +done' "$work/i.txt" ||
    fail "the finished run is not in the report after SIGINT"
echo "ok: SIGINT exits 130 with what was measured"
echo "all batch checks passed"
