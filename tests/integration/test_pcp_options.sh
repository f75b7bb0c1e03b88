#!/bin/bash
# PCP's conventions (issue 28) against a real pmcd with pmdaparallax and
# PCP's own tools:
#   - --batch -F FILE writes each refresh as CSV (pmrep -o csv's layout:
#     Time, then SOURCE:KEY (UNIT) columns) that Python's csv module reads,
#     and its last row holds exactly the JSON report's figures, host and
#     guest;
#   - --text -o csv of that recording replayed (-a) ends on the same
#     figures (the replay's rates are taken on the recorded clocks);
#   - -a forms: an archive's base name (as pmdumplog takes it), its
#     .meta, its .0, its directory and a comma-separated list of two
#     archives of one source (of files or of base names) replay the same
#     records: each shown record time is one pmdumplog lists, a list and
#     the directory holding its archives start at the first archive's
#     records and end at the second's last;
#   - -S and -T bound the replay to exactly the records pmdumplog -S -T of
#     the same archive lists (nothing outside, the window's last shown at
#     the end), -O starts it later, and a window with no record is one
#     line, exit 2; the same of an archive's base name;
#   - pcp(1)'s environment: `pcp -a ARCHIVE -S ... parallax` replays as
#     -a -S do; pcp(1) itself runs pcp-parallax with its -h and -t;
#   - -z shows times in the archive's zone, -Z in the zone given;
#   - --container NAME that the pmcd (pmdaroot) does not know: one line.
set -u
export LANG=C.UTF-8 LC_ALL=
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
. "$here/pmcd.sh"
use_build
# pmdumplog's clock in UTC, as parallax's -Z UTC
export TZ=UTC

work=$(mktemp -d)
trap 'pmcd_stop "$work/g1/pmcd"; pmcd_stop "$work/croot"; rm -rf "$work"' EXIT
port=$(free_port) || fail "no free port"
pmcd_start_agent "$work/g1" "$port" || fail "pmcd with the agent"

# --- a batch's CSV against its JSON report ---
"$bin" --batch syscall-null -r 2 -t 0.5 -h "g1=localhost:$port" \
    --record "$work/rec" -o "$work/r.txt" -F "$work/live.csv" 2>"$work/err" ||
    fail "--batch -F exited $?: $(cat "$work/err")"
python3 - "$work/live.csv" "$work/r.json" <<'PY' || fail "the batch's CSV and its report differ"
import csv, json, math, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
head, body = rows[0], rows[1:]
assert head[0] == "Time", head
assert len(body) >= 3, len(body)
assert all(len(r) == len(head) for r in body), "ragged rows"
rep = {s["name"]: s for s in json.load(open(sys.argv[2]))["sources"]}
last = dict(zip(head, body[-1]))
checked = 0
for src in ("host", "g1"):
    for key, want in rep[src]["metrics"].items():
        cols = [h for h in head if h.startswith(f"{src}:{key}")]
        assert len(cols) == 1, (src, key, cols)
        got = last[cols[0]]
        if want is None:
            assert got == "", (src, key, got)
        else:
            assert float(got) == want, (src, key, got, want)
            checked += 1
assert checked >= 20, checked
assert '"host:ctxsw (count/s)"' in open(sys.argv[1]).readline()
print(f"ok: --batch -F: {len(body)} CSV rows; the last equals the JSON report "
      f"in {checked} figures of host and g1")
PY
grep -q '^Time,"host:time (s)","host:cpu_user (%)",' "$work/live.csv" ||
    fail "the CSV header: $(head -c 200 "$work/live.csv")"

# --- --text -F FILE: the table (or the CSV) there, nothing on stdout ---
"$bin" --text -n 2 -t 0.3 -F "$work/table.txt" >"$work/stdout.txt" 2>"$work/err" ||
    fail "--text -F exited $?: $(cat "$work/err")"
[ ! -s "$work/stdout.txt" ] && [ "$(grep -c '^parallax .* - interval ' "$work/table.txt")" = 2 ] ||
    fail "--text -F FILE: the table is not (only) in FILE"
"$bin" --text -o csv -n 2 -t 0.3 -F "$work/t.csv" >"$work/stdout.txt" || fail "--text -o csv -F exited $?"
[ ! -s "$work/stdout.txt" ] && [ "$(wc -l <"$work/t.csv")" = 3 ] ||
    fail "--text -o csv -n 2 -F FILE: want a header and 2 rows in FILE"
expect_fail 2 "-F /nonexistent/x.csv: No such file or directory" \
    "$bin" --batch syscall-null -F /nonexistent/x.csv
echo "ok: --text -F FILE holds the table, -o csv -F FILE the header and a row a refresh; an unwritable -F is one line"

# --- the recording replayed as CSV ends on the report's figures ---
nrec=$(pmdumplog "$(find "$work/rec/host" -name '*.meta' | sed 's/\.meta$//')" |
    grep -cE '^[0-9:.]+ +[0-9]+ metrics?$')
# sampled faster than recorded (0.2 s, records 0.5 s apart), so that even
# on a loaded machine the replay shows every record and its last rate
# spans the last two, as the report's does
"$bin" --text -o csv -t 0.2 -n $((nrec * 5 / 2 + 25)) -a "$work/rec" \
    >"$work/replay.csv" 2>"$work/err" || fail "-a -o csv exited $?: $(cat "$work/err")"
python3 - "$work/replay.csv" "$work/r.json" <<'PY' || fail "the replay's CSV differs from the report"
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
head, last = rows[0], dict(zip(rows[0], rows[-1]))
rep = {s["name"]: s for s in json.load(open(sys.argv[2]))["sources"]}
n = 0
for src in ("host", "g1"):
    for key, want in rep[src]["metrics"].items():
        col = [h for h in head if h.startswith(f"rec:{src}:{key}")][0]
        if want is None:
            continue
        got = float(last[col])
        assert abs(got - want) <= 1e-9 * max(1, abs(want)), (src, key, got, want)
        n += 1
print(f"ok: -a REC --text -o csv ends on the report's {n} figures (rec:host, rec:g1)")
PY

# --- two recordings of one source, for the -a forms ---
for k in 1 2; do
    "$bin" --text -n 8 -t 0.3 --record "$work/two" >/dev/null 2>"$work/err" ||
        fail "--text --record ($k) exited $?: $(cat "$work/err")"
done
mapfile -t bases < <(find "$work/two/host" -name '*.meta' | sort | sed 's/\.meta$//')
[ "${#bases[@]}" = 2 ] || fail "want two archives in two/host: ${bases[*]}"
a1=${bases[0]} a2=${bases[1]}

# rec_times CSV: the replayed column's record times, in order, once each
rec_times() {
    python3 - "$1" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
col = rows[0].index("r:time (s)")
seen = []
for r in rows[1:]:
    if r[col] and (not seen or seen[-1] != r[col]):
        seen.append(r[col])
print("\n".join(seen))
PY
}
# dump_times ARGS...: pmdumplog's record times (UTC, s since the epoch)
dump_times() {
    local day
    day=$(date -u -d @"$(date +%s)" +%F)
    pmdumplog -Z UTC "$@" | awk '/^[0-9][0-9]:[0-9][0-9]:[0-9.]+ +[0-9]+ metrics?$/ { print $1 }' |
        while read -r t; do date -u -d "$day $t" +%s.%6N; done
}
replay() { # replay OUT ARGS...: --text -o csv of a replay until it ended
    # (sampled twice as often as recorded: no record skipped under load)
    local out=$1
    shift
    "$bin" --text -o csv -Z UTC -t 0.15 -n 60 "$@" >"$out" 2>"$work/err" ||
        fail "replay $* exited $?: $(cat "$work/err")"
    rec_times "$out" >"$out.times"
}
# within FILE WANT: every time in FILE is one of WANT's (within 1 µs), in order
within_dump() {
    python3 - "$1" "$2" <<'PY'
import sys
got = [float(x) for x in open(sys.argv[1]).read().split()]
want = [float(x) for x in open(sys.argv[2]).read().split()]
assert got, "no record shown"
idx = []
for g in got:
    m = [i for i, w in enumerate(want) if abs(w - g) < 2e-6]
    assert m, (g, "not a record pmdumplog lists")
    idx.append(m[0])
assert idx == sorted(idx), "out of order"
print(len(got), len(want), idx[0], idx[-1])
PY
}

dump_times "$a1" >"$work/d1"
cat "$work/d1" <(dump_times "$a2") >"$work/d12"
replay "$work/base.csv" -a "r=$a1"
replay "$work/meta.csv" -a "r=$a1.meta"
replay "$work/vol.csv" -a "r=$a1.0"
replay "$work/list.csv" -a "r=$a1.meta,$a2.0"
replay "$work/blist.csv" -a "r=$a1,$a2"
replay "$work/dir.csv" -a "r=$work/two/host"
for f in base meta vol; do
    read -r got want first last < <(within_dump "$work/$f.csv.times" "$work/d1") ||
        fail "-a $f: a shown record is not the archive's"
    [ "$last" = $((want - 1)) ] || fail "-a $f ended at record $last of $want"
done
[ "$(tail -n 1 "$work/meta.csv.times")" = "$(tail -n 1 "$work/vol.csv.times")" ] &&
    [ "$(tail -n 1 "$work/meta.csv.times")" = "$(tail -n 1 "$work/base.csv.times")" ] ||
    fail "-a A, -a A.meta and -a A.0 end on different records"
n1=$(wc -l <"$work/d1")
for f in list blist dir; do
    read -r got want first last < <(within_dump "$work/$f.csv.times" "$work/d12") ||
        fail "-a $f: a shown record is not one of the two archives'"
    [ "$first" -lt "$n1" ] && [ "$last" = $((want - 1)) ] ||
        fail "-a $f did not span both archives (records $first to $last of $want, the first has $n1)"
done
# the last record's own figures (a rate may span one record more when a
# loaded machine's replay skipped one: as live, by design)
last_instants() {
    python3 - "$1" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
last = dict(zip(rows[0], rows[-1]))
print([last[c] for c in rows[0] if c.startswith("r:") and
       c.split(":")[1].split(" ")[0] in ("time", "runnable", "load1", "mem_used")])
PY
}
for f in blist dir; do
    [ "$(last_instants "$work/list.csv")" = "$(last_instants "$work/$f.csv")" ] ||
        fail "-a A.meta,B.0 and -a $f end on different records: $(last_instants "$work/list.csv") $(last_instants "$work/$f.csv")"
done
echo "ok: -a A, A.meta, A.0 (records of A, ending on its last), A.meta,B.0, A,B and DIR (from A's records to B's last, the same last figures) replay the records pmdumplog lists"

# --- -S, -T, -O against pmdumplog ---
dump_times -S +0.7sec -T -0.6sec "$a2" >"$work/dw"
[ "$(wc -l <"$work/dw")" -ge 2 ] || fail "the window holds too few records: $(cat "$work/dw")"
[ "$(wc -l <"$work/dw")" -lt "$(dump_times "$a2" | wc -l)" ] || fail "the window cuts nothing"
replay "$work/win.csv" -a "r=$a2.meta" -S +0.7sec -T -0.6sec
read -r got want first last < <(within_dump "$work/win.csv.times" "$work/dw") ||
    fail "-S/-T showed a record outside pmdumplog -S -T's: $(cat "$work/win.csv.times")"
[ "$last" = $((want - 1)) ] || fail "-S/-T ended at record $last of the window's $want"
echo "ok: -S +0.7sec -T -0.6sec: $got records shown, all of the $want pmdumplog -S -T lists, ending on its last"
# the same window of the archive's base name (no .meta, no .0), as
# pmdumplog was given it
replay "$work/winb.csv" -a "r=$a2" -S +0.7sec -T -0.6sec
read -r got want first last < <(within_dump "$work/winb.csv.times" "$work/dw") ||
    fail "-a BASE -S/-T showed a record outside pmdumplog -S -T's: $(cat "$work/winb.csv.times")"
[ "$last" = $((want - 1)) ] || fail "-a BASE -S/-T ended at record $last of the window's $want"
echo "ok: -a BASE -S +0.7sec -T -0.6sec: $got records shown, all of the $want pmdumplog -S -T lists, ending on its last"
replay "$work/org.csv" -a "r=$a2.meta" -O +1.5sec
dump_times -S +1.5sec "$a2" >"$work/do"
read -r got want first last < <(within_dump "$work/org.csv.times" "$work/do") ||
    fail "-O +1.5sec showed a record before the origin"
replay "$work/orgb.csv" -a "r=$a2" -O +1.5sec
read -r got want first last < <(within_dump "$work/orgb.csv.times" "$work/do") ||
    fail "-a BASE -O +1.5sec showed a record before the origin"
echo "ok: -O +1.5sec: the replay starts at the origin (every shown record at or after it), of A.meta as of A"
expect_fail 2 "no record in the -S/-T window" "$bin" --text -n 1 -a "$a2.meta" -S +1hour
expect_fail 2 "no record in the -S/-T window" "$bin" --text -n 1 -a "$a2" -S +1hour

# --- what pcp(1) passes: the same replay through the environment ---
PCP_ARCHIVE="r=$a2" PCP_START_TIME=+0.7sec PCP_FINISH_TIME=-0.6sec \
    replay "$work/env.csv"
[ "$(tail -n 1 "$work/env.csv.times")" = "$(tail -n 1 "$work/win.csv.times")" ] ||
    fail "PCP_ARCHIVE, PCP_START_TIME and PCP_FINISH_TIME: not the -a -S -T replay"
echo "ok: PCP_ARCHIVE (a base name), PCP_START_TIME, PCP_FINISH_TIME (pcp -a -S -T) replay as -a -S -T"
# --- pcp(1) itself: `pcp -h HOST -t 500msec parallax` (pcp finds
# pcp-parallax in ~/.pcp/bin as in $PCP_BINADM_DIR, where the packages and
# make install put it) ---
mkdir -p "$work/home/.pcp/bin"
ln -s "$bin" "$work/home/.pcp/bin/pcp-parallax"
HOME=$work/home PATH=/usr/bin:$PATH pcp -h "localhost:$port" -t 500msec \
    parallax --text -n 2 >"$work/pcp.txt" 2>"$work/err" ||
    fail "pcp -h -t parallax exited $?: $(cat "$work/err")"
[ "$(grep -c '^parallax .* - interval 0.5 s - ' "$work/pcp.txt")" = 2 ] &&
    grep -qE "^ +host +localhost:$port " "$work/pcp.txt" ||
    fail "pcp -h localhost:$port -t 500msec parallax --text -n 2: $(head -c 600 "$work/pcp.txt")"
echo "ok: pcp -h localhost:$port -t 500msec parallax --text -n 2: its guest and interval"
# --- -z and -Z: the zone of the times shown (the CSV's Time, the title)
# against Python's zoneinfo for the same zone ---
TZ=Asia/Tokyo "$bin" --text -n 2 -t 0.3 --record "$work/tz" >/dev/null 2>&1 ||
    fail "--record under TZ=Asia/Tokyo"
pmdumplog -L "$(find "$work/tz/host" -name '*.meta')" | grep -q 'timezone: Asia/Tokyo' ||
    fail "the recording's label is not in Asia/Tokyo"
zone_is() { # zone_is ZONE CSV: its last Time is now in ZONE (within 5 s)
    python3 - "$1" "$2" <<'PY'
import csv, sys
from datetime import datetime
from zoneinfo import ZoneInfo
t = list(csv.reader(open(sys.argv[2])))[-1][0]
shown = datetime.strptime(t, "%Y-%m-%d %H:%M:%S").replace(tzinfo=ZoneInfo(sys.argv[1]))
assert abs((datetime.now(ZoneInfo("UTC")) - shown).total_seconds()) < 5, (t, sys.argv[1])
PY
}
"$bin" --text -o csv -n 1 -t 0.3 -z -a "$work/tz" >"$work/z.csv" 2>"$work/err" ||
    fail "-z -a exited $?: $(cat "$work/err")"
zone_is Asia/Tokyo "$work/z.csv" || fail "-z -a: Time is not the archive's zone's: $(tail -n 1 "$work/z.csv" | cut -d, -f1)"
"$bin" --text -o csv -n 1 -t 0.3 -Z America/New_York >"$work/Z.csv" ||
    fail "-Z exited $?"
zone_is America/New_York "$work/Z.csv" || fail "-Z America/New_York: $(tail -n 1 "$work/Z.csv" | cut -d, -f1)"
"$bin" --text -o csv -n 1 -t 0.3 >"$work/u.csv" || fail "--text -o csv exited $?"
zone_is UTC "$work/u.csv" || fail "without -z/-Z, not this host's zone (TZ=UTC)"
echo "ok: -z shows the archive's zone (Asia/Tokyo), -Z America/New_York that zone, neither this host's"

# --- --container: through pmcd's container support (pmdaroot). This
# machine runs no container runtime (a docker client, no daemon), so only
# the refusal can be checked: a pmcd with pmdaroot that knows no such
# container says so in one line, exit 2, instead of a column that would
# answer nothing ---
cport=$(free_port) || fail "no free port"
pmcd_start "$work/croot" "$cport" "root	1	pipe	binary		$PMDAS_DIR/root/pmdaroot -l $work/croot/root.log" ||
    fail "pmcd with pmdaroot"
pminfo -h "localhost:$cport" -f pmcd.feature.containers | grep -q 'value 1' ||
    fail "this pmcd has no container support"
expect_fail 2 "--container web: the pmcd at localhost:$cport knows no such container \(it knows: none" \
    "$bin" --text -n 1 --container "web@localhost:$cport"
expect_fail 2 "--container 'a b' names no container" "$bin" --text -n 1 --container 'a b'
pmcd_stop "$work/croot"
echo "all PCP option checks passed"
