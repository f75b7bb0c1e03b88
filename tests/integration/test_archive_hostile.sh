#!/bin/bash
# Archives from anywhere (issue 24): parallax never dies or hangs of one.
# A .meta whose first metric's name says it is 5 MB long (byte 165; it
# crashes pminfo -a, and crashed parallax inside libpcp), a FIFO in the
# place of each of an archive's files, a .meta cut 1-3 bytes past a
# record's end or exactly at one, a .index with a byte changed: each is
# refused in one line naming the file, exit 2, by -a and by --baseline.
# An archive's base name replays (issue 23: PCP's name for an archive was
# refused). A value typed as an event record passes every framing check
# and crashes libpcp's decoder (pmdumplog too): read in parallax-archive,
# it costs one line. So does a reader that dies with glibc's last words
# or never answers (a stand-in for parallax-archive, to see the words
# quoted and the deadline kept); one that dies at the first record of a
# replay leaves its column saying so, and is not started again.
set -u
export LANG=C.UTF-8 LC_ALL=
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
use_build

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin" --record "$work/r" --text -n 3 -t 0.2 >/dev/null 2>"$work/err" ||
    fail "the recording: $(cat "$work/err")"
A=$(find "$work/r/host" -name '*.meta' | sed 's/\.meta$//')
N=$(basename "$A")
copy() { # copy NAME: the archive as $work/NAME/$N.*
    rm -rf "${work:?}/$1"
    mkdir -p "$work/$1"
    cp "$A".* "$work/$1/"
}
# both ways in, each one line and exit 2 within 20 s (a hang fails)
refused() { # refused PATTERN TARGET
    expect_fail 2 "$1" timeout 20 "$bin" --text -n 1 -t 0.2 -a "$2"
    expect_fail 2 "$1" timeout 20 "$bin" --text -n 1 -t 0.2 --baseline "$2"
}

# --- the base name (issue 23) ---
pmdumplog -L "$A" >/dev/null 2>&1 || fail "pmdumplog -L does not read $A"
"$bin" --text -n 1 -t 0.2 -a "$A" >/dev/null 2>"$work/err" ||
    fail "-a of the base name: $(cat "$work/err")"
"$bin" --text -n 1 -t 0.2 --baseline "$A" >"$work/b.txt" 2>"$work/err" ||
    fail "--baseline of the base name: $(cat "$work/err")"
grep -q " baseline:$N" "$work/b.txt" || fail "no baseline column: $(cat "$work/b.txt")"
echo "ok: -a and --baseline take $N, the base name pmdumplog takes"

# --- byte 165: the first descriptor's name length ---
copy crafted
printf '\x50' | dd of="$work/crafted/$N.meta" bs=1 seek=165 conv=notrunc 2>/dev/null
pminfo -a "$work/crafted/$N" >/dev/null 2>&1
rc=$?
[ "$rc" -ge 128 ] || fail "pminfo -a survived the crafted .meta (exit $rc): not the crasher"
refused "^parallax: $work/crafted/$N\.meta: corrupt: the record at byte 132 names a metric 524[0-9]+ bytes long" \
    "$work/crafted/$N.0"
echo "ok: the .meta that crashes pminfo -a (exit $rc) is refused by -a and --baseline"

# --- a FIFO in each file's place, in a directory and by base name ---
for part in meta 0 index; do
    copy fifo
    rm "$work/fifo/$N.$part"
    mkfifo "$work/fifo/$N.$part"
    refused "^parallax: $work/fifo/$N\.$part: a FIFO, not a regular file" "$work/fifo"
    refused "^parallax: $work/fifo/$N\.$part: a FIFO, not a regular file" "$work/fifo/$N"
done
echo "ok: a FIFO as .meta, .0 or .index is refused, nothing waits on it"

# --- a .meta cut short: 1-3 bytes past a record's end, and at one ---
end=$(python3 - "$A.meta" <<'PY'
import struct, sys
b = open(sys.argv[1], "rb").read()
off = struct.unpack(">I", b[:4])[0]  # the label
for _ in range(20):  # the 20th record's end
    off += struct.unpack(">I", b[off:off + 4])[0]
print(off)
PY
)
for d in 1 2 3; do
    copy cut$d
    truncate -s $((end + d)) "$work/cut$d/$N.meta"
    pmlogcheck "$work/cut$d/$N" >"$work/check" 2>&1 &&
        fail "pmlogcheck passed a .meta cut $d bytes past a record"
    refused "^parallax: $work/cut$d/$N\.meta: truncated: its last record is cut short at byte $end of $((end + d))" \
        "$work/cut$d"
done
copy cut0
truncate -s "$end" "$work/cut0/$N.meta"
refused "^parallax: $work/cut0/$N\.(index: corrupt: entry [0-9]+ points past the end of|meta)" "$work/cut0"
echo "ok: a .meta cut 1-3 bytes past its 20th record, or at its end, is refused"

# --- a byte of the .index changed: the last entry's time, a second on ---
copy index
python3 - "$work/index/$N.index" <<'PY'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
at = len(b) - 20 + 3  # the low byte of the last entry's seconds (version 2)
b[at] = (b[at] + 1) % 256
open(sys.argv[1], "wb").write(b)
PY
cmp -s "$A.index" "$work/index/$N.index" && fail "the index is not changed"
refused "^parallax: $work/index/$N\.index: corrupt: entry 3 " "$work/index"
echo "ok: a changed byte in the .index is refused by both, naming the .index"

# --- a crash inside libpcp that no framing check foresees ---
# the first double of the first result said to be an event record: its
# framing is whole, and libpcp's decoder crashes (pmdumplog too)
copy event
python3 - "$work/event/$N.0" <<'PY' || fail "no double value in the first record"
import sys
b = bytearray(open(sys.argv[1], "rb").read())
at = b.find(b"\x05\x00\x00\x0c", 132)  # PM_TYPE_DOUBLE, 12 bytes
assert at > 0
b[at] = 9  # PM_TYPE_EVENT
open(sys.argv[1], "wb").write(b)
PY
pmdumplog "$work/event/$N" >/dev/null 2>&1
rc=$?
[ "$rc" -ge 128 ] || fail "pmdumplog survived the event-typed value (exit $rc)"
refused "^parallax: $work/event: libpcp crashed (opening it|reading a record) \(its reader died of SIG[A-Z]+\): a damaged or crafted archive" \
    "$work/event"
echo "ok: a value libpcp crashes on (pmdumplog exit $rc) costs one line, exit 2"

# --- a reader that dies, one that never answers ---
fake=$work/fake
mkdir -p "$fake"
# the real reader's greeting (its build's sample size), then the request
# to open, then glibc's last words and SIGABRT, as libpcp's overflow gave
hello=$(python3 - "$PARALLAX_BUILD/parallax-archive" <<'PY'
import os, socket, subprocess, sys
a, b = socket.socketpair()
p = subprocess.Popen([sys.argv[1], "--reader", str(os.getpid())],
                     stdin=b.fileno(), stdout=b.fileno())
got = b""
while len(got) < 20:  # a head, then the greeting: two writes
    more = a.recv(20 - len(got))
    if not more:
        break
    got += more
print(got.hex())
a.close(); b.close(); p.wait()
PY
)
[ ${#hello} -eq 40 ] || fail "no greeting from parallax-archive: '$hello'"
cat >"$fake/parallax-archive" <<PY
#!/usr/bin/python3
import os, signal, sys
os.write(1, bytes.fromhex("$hello"))
os.read(0, 4096)  # the request to open the archive
sys.stderr.write("*** stack smashing detected ***: terminated\n")
sys.stderr.flush()
os.kill(os.getpid(), signal.SIGABRT)
PY
chmod +x "$fake/parallax-archive"
start=$(date +%s.%N)
PARALLAX_LIBEXEC=$fake refused \
    "^parallax: $work/r/host: libpcp crashed opening it \(its reader died of SIGABRT: \*\*\* stack smashing detected \*\*\*: terminated\): a damaged or crafted archive" \
    "$work/r/host"
# one that opens the archive, then dies at its first record: the column
# says so, and the archive is not opened again in that run
cat >"$fake/parallax-archive" <<PY
#!/usr/bin/python3
import os, signal, struct
with open("$fake/starts", "a") as f:
    f.write("start\\n")
os.write(1, bytes.fromhex("$hello"))
os.read(0, 4096)  # open
os.write(1, struct.pack("=iI", 0, 1) + b"\\0")
os.read(0, 4096)  # the first fetch
os.kill(os.getpid(), signal.SIGSEGV)
PY
PARALLAX_LIBEXEC=$fake timeout 60 "$bin" --text -n 6 -t 0.2 -a "$work/r" \
    >"$work/mid.txt" 2>"$work/mid.err" || fail "a reader dying mid-replay exited $?: $(cat "$work/mid.err")"
grep -q " libpcp crashed reading a r" "$work/mid.txt" ||
    fail "the column does not say why: $(tail -30 "$work/mid.txt")"
starts=$(grep -c start "$fake/starts")
[ "$starts" -eq 2 ] || fail "the reader was started $starts times (the check, then the replay's)"
echo "ok: a reader dying at the first record: the column says so, and it is not started again"
printf '#!/bin/sh\nexec sleep 600\n' >"$fake/parallax-archive"
PARALLAX_LIBEXEC=$fake expect_fail 2 \
    "^parallax: $work/r/host: reading it took over 10 s \(starting, stopped\)" \
    timeout 30 "$bin" --text -n 1 -a "$work/r/host"
left=$(grep -lsxz "PARALLAX_LIBEXEC=$fake" /proc/[0-9]*/environ)
[ -z "$left" ] || fail "a reader was left running: $left"
echo "ok: a reader that dies or hangs costs one line, exit 2, nothing left running"
echo "all hostile-archive checks passed"
