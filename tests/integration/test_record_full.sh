#!/bin/bash
# Recordings into full and wrong places (issue 24). A 64 KiB tmpfs fills:
# the recording stops before a write it has no room for, says so on
# stderr with the records kept, exits 1, and what it holds passes
# pmlogcheck, has the records pmdumplog counts, and replays to its end.
# A write that fails halfway (ulimit -f: the file may grow no further,
# so libpcp_import's record is cut short) is cut back to the last whole
# record: the same checks. --record to a file or a device is refused at
# once, exit 2 (it said "recording stopped" and exited 0). Needs root
# for the tmpfs mount.
set -u
export LANG=C.UTF-8 LC_ALL=
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
use_build
[ "$(id -u)" -eq 0 ] || fail "needs root, to mount a tmpfs of 64 KiB"

work=$(mktemp -d)
mnt=$work/mnt
mkdir "$mnt"
trap 'umount "$mnt" 2>/dev/null; rm -rf "$work"' EXIT
mount -t tmpfs -o size=64k tmpfs "$mnt" || fail "cannot mount a tmpfs"

# kept DIR N: DIR's one archive holds N whole records, pmlogcheck passes
# it, and parallax replays it to its end
kept() {
    local a
    a=$(find "$1/host" -name '*.meta' | sed 's/\.meta$//')
    [ -n "$a" ] || fail "no archive in $1"
    pmlogcheck "$a" >"$work/check" 2>&1 || fail "pmlogcheck $a: $(cat "$work/check")"
    local n
    n=$(pmdumplog "$a" kernel.all.pswitch 2>/dev/null | grep -c '(kernel.all.pswitch): value')
    [ "$n" -eq "$2" ] || fail "pmdumplog reads $n records of $a, parallax said $2"
    "$bin" --text -t 0.2 -a "$1" >"$work/replay.txt" 2>"$work/replay.err" &
    local pid=$!
    ended() { grep -q 'recorded .* ended$' "$work/replay.txt"; }
    wait_for 60 ended || { kill "$pid"; fail "$1 does not replay to its end: $(cat "$work/replay.err")"; }
    kill -INT "$pid"
    wait "$pid" || fail "the replay of $1 exited $?"
}

# --- a full disk ---
"$bin" --record "$mnt/rec" --text -n 200 -t 0.1 >/dev/null 2>"$work/full.err"
rc=$?
[ "$rc" -eq 1 ] || fail "a recording that filled the disk exited $rc: $(cat "$work/full.err")"
line=$(grep '^parallax: recording stopped: ' "$work/full.err")
[[ "$line" =~ its\ file\ system\ is\ full.*the\ ([0-9]+)\ whole\ records\ before\ it\ are\ kept\ in\ $mnt/rec$ ]] ||
    fail "not said: $(cat "$work/full.err")"
n=${BASH_REMATCH[1]}
[ "$n" -ge 5 ] || fail "only $n records on 64 KiB"
kept "$mnt/rec" "$n"
echo "ok: a full disk stops the recording, exit 1, its $n records whole and replayed ($(df -k "$mnt" | awk 'NR == 2 { print $4 }') KiB left)"

# --- a write cut short: the file may grow no further ---
(
    trap '' XFSZ # a write past the limit then fails, EFBIG
    ulimit -f 30
    exec "$bin" --record "$work/cut" --text -n 200 -t 0.1 >/dev/null 2>"$work/cut.err"
)
rc=$?
[ "$rc" -eq 1 ] || fail "a recording whose write failed exited $rc: $(cat "$work/cut.err")"
grep -q 'write failed: returns [0-9]* expecting' "$work/cut.err" ||
    fail "libpcp_import's write did not fail halfway: $(cat "$work/cut.err")"
line=$(grep '^parallax: recording stopped: ' "$work/cut.err")
[[ "$line" =~ cannot\ write\ .*File\ too\ large.*the\ ([0-9]+)\ whole\ records\ before\ it\ are\ kept ]] ||
    fail "not said: $(cat "$work/cut.err")"
n=${BASH_REMATCH[1]}
kept "$work/cut" "$n"
echo "ok: a record cut short is cut off: the $n before it whole and replayed, exit 1"

# --- not a directory ---
: >"$work/file"
expect_fail 2 "^parallax: cannot record into $work/file: it is a file, not a directory" \
    "$bin" --record "$work/file" --text -n 2
expect_fail 2 "^parallax: cannot record into /dev/null: it is a character device, not a directory" \
    "$bin" --record /dev/null --text -n 2
expect_fail 2 "^parallax: cannot record into $work/file/sub: Not a directory" \
    "$bin" --record "$work/file/sub" --text -n 2
[ -c /dev/null ] || fail "/dev/null is no longer a device"
echo "ok: --record to a file, a device, or under a file: one line, exit 2"
