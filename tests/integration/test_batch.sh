#!/bin/bash
# Batch mode against the real host and a real pmcd guest with
# pmdaparallax: the text report on --output with the JSON next to it, exit
# 0 when every run completed; the guest's statistics complete in the JSON
# (min, max, mean from the agent); the JSON read back as a baseline column
# labelled with its date, and one from another parallax version with a
# one-line warning and the version in its name; a guest that is down does
# not stop this host's runs, is noted in the report and on the progress
# line, and gives exit 1; bad input gives a one-line error and exit 2; an
# unwritable report directory is said and the report still reaches
# stdout; SIGINT still writes what was measured.
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

rc=0
"$bin" --batch syscall-null,fork-exit -r 2 -h "g1=localhost:$port" \
    -o "$work/r.txt" 2>"$work/err" || rc=$?
[ "$rc" -eq 0 ] || { cat "$work/err"; fail "batch exited $rc"; }
grep -q '^batch \[2/2\] fork-exit: host done g1 done' "$work/err" ||
    fail "no progress lines"
for want in '^parallax report' '^INDEX VALUES' '^syscall-null ' \
    '^FINAL SCORE \(geo-mean\) +[0-9.]+' '^COUNTERS' '^TIME'; do
    grep -qE "$want" "$work/r.txt" || fail "report lacks /$want/"
done
python3 - "$work/r.json" <<'PY' || fail "JSON report"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["format"] == "parallax-report" and d["version"] == 1
for src in d["sources"]:
    st = src["workloads"]["syscall-null"]
    assert st["n"] == 2, (src["name"], st)
    for k in ("median", "min", "max", "mean", "ci95"):
        assert isinstance(st[k], float), (src["name"], k, st)
    assert st["min"] <= st["median"] <= st["max"], (src["name"], st)
    assert st["min"] <= st["mean"] <= st["max"], (src["name"], st)
PY
echo "ok: batch on host and g1, g1's statistics whole: $(grep -E '^FINAL SCORE' "$work/r.txt")"

day=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["date"][:10])' "$work/r.json")
"$bin" --text -n 1 -t 0.3 --baseline "then=$work/r.json" >"$work/b.txt" \
    2>"$work/err" || fail "--baseline exited $?"
grep -qE "^ +host +baseline:then $day +Δ%" "$work/b.txt" ||
    fail "no baseline column labelled with its day $day"
# context switches are never 0 (CPU idle is, on a machine the batch kept busy)
grep -qE '^ctx switch/s .* [+-][0-9]+%$' "$work/b.txt" || fail "no Δ% against the baseline"
[ -s "$work/err" ] && fail "a baseline of this version gave: $(cat "$work/err")"
echo "ok: the JSON reads back as a baseline column, baseline:then $day, with Δ%"

python3 - "$work/r.json" "$work/old.json" <<'PY' || fail "cannot rewrite the version"
import json, sys
d = json.load(open(sys.argv[1]))
d["parallax"] = "0.0.9"
for src in d["sources"]:  # written before the syscalls/s row existed
    del src["metrics"]["syscalls"]
json.dump(d, open(sys.argv[2], "w"))
PY
"$bin" --batch syscall-null -r 1 --baseline "old=$work/old.json" \
    -o "$work/o9.txt" 2>"$work/err" || fail "batch with an old baseline exited $?"
warn=$(grep -c 'warning' "$work/err")
[ "$warn" -eq 1 ] || fail "expected one warning, got: $(cat "$work/err")"
grep -qE "^parallax: warning: $work/old.json was written by parallax 0\.0\.9, this is [0-9.]+: .*measure the baseline again" \
    "$work/err" || fail "warning: $(grep warning "$work/err")"
sed -n '/^SOURCES/,/^WORKLOADS/p' "$work/o9.txt" |
    grep -qE "^baseline:old $day v0\.0\.9 +$work/old.json .* saved run$" ||
    fail "the source list lacks the old baseline's day and version"
echo "ok: another version's report (without the syscalls/s row): one warning, baseline:old $day v0.0.9 in the sources"

"$bin" --batch syscall-null,syscall-read -r 1 -h "gone=localhost:$dead" \
    -o "$work/d.txt" 2>"$work/err"
rc=$?
[ $rc -eq 1 ] || fail "a down guest gave exit $rc"
for wl in syscall-null syscall-read; do
    grep -q "^parallax: $wl on gone: the source is down" "$work/err" ||
        fail "no reason for the down guest's $wl"
    grep -qE "^$wl +ns +host +done +1 " "$work/d.txt" ||
        fail "the down guest stopped this host's $wl"
    grep -A1 -E "^$wl +ns +host" "$work/d.txt" |
        grep -qE '^ +gone +failed +0 .* \[1\]$' || fail "$wl on gone not failed in the report"
done
grep -qE '^\[1\] the source is down' "$work/d.txt" || fail "no note of why"
grep -qE '^batch \[2/2\] syscall-read: host done gone failed \(2 runs failed so far\)$' \
    "$work/err" || fail "the progress line does not count the failures"
grep -q '^parallax: 2 of 4 runs did not complete' "$work/err" || fail "no summary"
echo "ok: a down guest: this host's runs all done, the guest's noted failed, exit 1"

expect_fail 2 "--batch: 'nosuch' is neither a suite" "$bin" --batch nosuch
# with --text, -o is a format (pmrep's); a file is -F, a report --batch -o
expect_fail 2 "with --text, -o names a format.*a report to --batch -o FILE" "$bin" --text -o "$work/x.txt"
expect_fail 2 "-o and -F go with --text .* or --batch" "$bin" -o "$work/x.txt"
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
