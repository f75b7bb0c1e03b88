#!/bin/bash
# Bad recordings (issue 19): an archive cut short, one with a corrupt
# record, a file that is no archive, an archive of none of parallax's
# metrics, a directory without one, and an archive whose host clock
# jumped are each refused in one line naming the file and what is wrong,
# exit 2 (a cut one also as a member of a list of archives, -a A,B);
# next to a live guest the column says why instead. A recording killed
# with SIGKILL reads to its last record, in PCP's tools and in a replay.
# The bad archives are made with PCP's own python writer (pcp.pmi) or by
# cutting a real recording, not with parallax's writer.
set -u
export LANG=C.UTF-8 LC_ALL=
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
. "$here/pmcd.sh"
use_build
py() { /usr/bin/python3 "$@"; } # Debian's, with PCP's modules

work=$(mktemp -d)
trap 'pmcd_stop "$work/g1/pmcd"; [ -z "${pid:-}" ] || kill -9 "$pid" 2>/dev/null; rm -rf "$work"' EXIT
port=$(free_port) || fail "no free port"
pmcd_start_agent "$work/g1" "$port" || fail "pmcd with the agent"

# --- SIGKILL while recording ---
"$bin" --text -t 0.2 -h "g1=localhost:$port" --record "$work/k" >/dev/null \
    2>"$work/k.err" &
pid=$!
records() { pmdumplog "$(find "$work/k/g1" -name '*.meta' 2>/dev/null | sed 's/\.meta$//')" \
    2>/dev/null | grep -c '(kernel.all.pswitch): value'; }
enough() { [ "$(records)" -ge 15 ]; }
wait_for 30 enough || fail "the recording did not reach 15 records: $(cat "$work/k.err")"
kill -9 "$pid"
wait "$pid" 2>/dev/null
pid=
for src in host g1; do
    a=$(find "$work/k/$src" -name '*.meta' | sed 's/\.meta$//')
    pmdumplog "$a" >"$work/dump" 2>&1 || fail "pmdumplog after SIGKILL: $(tail -2 "$work/dump")"
    pmlogcheck "$a" >"$work/check" 2>&1 || fail "pmlogcheck after SIGKILL: $(cat "$work/check")"
done
n=$(records)
[ "$n" -ge 15 ] || fail "only $n records after SIGKILL"
"$bin" --text -t 0.2 -a "$work/k" >"$work/k.txt" 2>"$work/err" &
pid=$!
ended() { grep -q 'recorded k:host, k:g1 at .*, ended$' "$work/k.txt"; }
wait_for 60 ended || fail "the killed recording did not replay to its end: $(cat "$work/err")"
kill -INT "$pid"
wait "$pid" || fail "the replay exited $?"
pid=
echo "ok: killed with SIGKILL, the recording holds $n whole records of g1: pmdumplog, pmlogcheck and a replay to its end read it"

# --- the host's clock steps while recording: a new archive from there ---
lib=$(dpkg -L libfaketime 2>/dev/null | grep -m1 '/libfaketime\.so\.1$')
[ -n "$lib" ] || fail "no libfaketime; run make deps"
echo "+0" >"$work/fake"
asan=${PARALLAX_SANITIZED:+verify_asan_link_order=0}
FAKETIME_TIMESTAMP_FILE=$work/fake FAKETIME_DONT_FAKE_MONOTONIC=1 \
    FAKETIME_CACHE_DURATION=1 LD_PRELOAD=$lib \
    ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}$asan \
    "$bin" --text -t 0.3 --record "$work/step" >/dev/null 2>"$work/step.err" &
pid=$!
archives() { [ "$(find "$work/step/host" -name '*.meta' 2>/dev/null | wc -l)" -ge "$1" ]; }
wait_for 20 archives 1 || fail "no recording under faketime: $(cat "$work/step.err")"
echo "+1h" >"$work/fake" # realtime steps an hour on; monotonic does not
wait_for 20 archives 2 || fail "the clock step did not start a new archive"
kill -INT "$pid"
wait "$pid" || fail "the recording under faketime exited $?"
pid=
for m in "$work"/step/host/*.meta; do
    pmlogcheck "${m%.meta}" >"$work/check" 2>&1 || fail "pmlogcheck ${m%.meta}: $(cat "$work/check")"
done
"$bin" --text -n 1 -t 0.3 -a "$work/step" >/dev/null 2>"$work/err" ||
    fail "the recording across the step does not replay: $(cat "$work/err")"
echo "ok: the host's clock stepped an hour while recording: a second archive from there, both whole, the directory replays"

# --- bad archives ---
good=$(find "$work/k/host" -name '*.meta' | sed 's/\.meta$//')
copy() { # copy NAME: the good host archive as $work/NAME/a.*
    mkdir -p "$work/$1"
    for e in 0 meta index; do cp "$good.$e" "$work/$1/a.$e"; done
}
copy cut
size=$(stat -c %s "$work/cut/a.0")
truncate -s $((size - 100)) "$work/cut/a.0"
copy corrupt
printf 'parallax-corrupts-this-record' |
    dd of="$work/corrupt/a.0" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
mkdir -p "$work/empty/sub"
echo '{"format": "parallax-report"}' >"$work/report.json"
py - "$work/foreign" "$work/jump" <<'PY' || fail "pcp.pmi could not write the test archives"
import sys
from pcp import pmi
import cpmapi as c
def archive(path, metrics, values):
    log = pmi.pmiLogImport(path)
    log.pmiSetHostname("elsewhere")
    for name, sem in metrics:
        log.pmiAddMetric(name, c.PM_ID_NULL, c.PM_TYPE_DOUBLE, c.PM_INDOM_NULL,
                         sem, log.pmiUnits(0, 0, 0, 0, 0, 0))
    for t, v in values:
        for name, x in v.items():
            log.pmiPutValue(name, None, str(x))
        log.pmiWrite(t, 0)
    del log
# another program's: none of parallax's metrics
archive(sys.argv[1], [("network.interface.total.bytes", c.PM_SEM_COUNTER)],
        [(1700000000 + k, {"network.interface.total.bytes": 100 * k})
         for k in range(5)])
# parallax's, where realtime steps an hour on and monotonic does not
archive(sys.argv[2], [("kernel.all.pswitch", c.PM_SEM_COUNTER),
                      ("parallax.fetch.host_mono", c.PM_SEM_INSTANT),
                      ("parallax.fetch.rtt", c.PM_SEM_INSTANT)],
        [(1700000000 + k + (3600 if k >= 5 else 0),
          {"kernel.all.pswitch": 1000 * k, "parallax.fetch.host_mono": 500 + k,
           "parallax.fetch.rtt": 0.001}) for k in range(10)])
PY
expect_fail 2 "^parallax: $work/cut/a\.0: truncated: its last record is cut short" \
    "$bin" --text -n 1 -a "$work/cut"
expect_fail 2 "^parallax: $work/corrupt: corrupt after [0-9-]+ [0-9:]+: Corrupted record" \
    "$bin" --text -n 1 -a "$work/corrupt"
expect_fail 2 "^parallax: $work/report\.json: not a PCP archive \(no .*report\.json\.meta beside it\)" \
    "$bin" --text -n 1 -a "$work/report.json"
expect_fail 2 "^parallax: $work/foreign: holds none of parallax's metrics" \
    "$bin" --text -n 1 -a "$work/foreign"
expect_fail 2 "^parallax: $work/empty holds no PCP archive" \
    "$bin" --text -n 1 -a "$work/empty"
expect_fail 2 "^parallax: $work/jump: the host's clock jumped \+3600\.0 s before the record of" \
    "$bin" --text -n 1 -a "$work/jump"
expect_fail 2 "^parallax: $work/cut/a\.0: truncated" \
    "$bin" --text -n 1 --baseline "$work/cut"
# a list (-a A,B, issue 28): each member is checked as an archive alone
expect_fail 2 "^parallax: $work/cut/a\.0: truncated: its last record is cut short" \
    "$bin" --text -n 1 -a "$good,$work/cut/a"
for d in cut corrupt; do
    cmp -s "$good.0" "$work/$d/a.0" && fail "$d is not damaged"
done
sums=$(md5sum "$work"/cut/* "$work"/corrupt/* "$work"/jump.*)
[ "$(md5sum "$work"/cut/* "$work"/corrupt/* "$work"/jump.*)" = "$sums" ] ||
    fail "a refused archive was changed"
echo "ok: cut short, corrupt, not an archive, another program's, none in a directory, a clock jump: one line each, exit 2"

# --- next to a live guest: the column says why ---
"$bin" --text -n 2 -t 0.5 -h "g1=localhost:$port" -a "cut=$work/cut" \
    -a "jump=$work/jump" >"$work/mixed.txt" 2>"$work/err" ||
    fail "a bad archive next to a live guest exited $?: $(cat "$work/err")"
python3 - "$work/mixed.txt" <<'PY' || fail "the bad columns do not say why"
import sys
block = open(sys.argv[1], encoding="utf-8").read().strip().split("\n\n")[-1]
rows = block.split("\n")
assert " cut " in rows[1] and " jump " in rows[1], rows[1]
assert rows[2].count("down") == 2, rows[2]
assert "truncated" in rows[3] and "the host's clock" in rows[3], rows[3]
assert rows[5].split()[4] != "n/a", rows[5]  # g1's CPU user % is live
print("ok: next to a live guest, each bad archive's column says why:",
      " | ".join(x.strip() for x in rows[3][44:].split("   ") if x.strip()))
PY
echo "all bad-archive checks passed"
