#!/bin/bash
# Archives mutated hundreds of ways go through -a's and --baseline's path
# (issue 24): a fresh recording (with a VM in it), the corpus tests/archive_mutations.py
# makes of it (cuts at every record's end and 1-3 bytes either side,
# bytes changed in every field PCP reads a record by, byte 165 among
# them, each file left out), every input once, then random mutations of
# them for FUZZ_SECONDS (default 30; longer by hand, or make fuzz). Each
# must give a replay or one line naming the archive; a crash or a hang of
# parallax's side fails, a crash of libpcp in parallax-archive is counted
# as a finding parallax survived. Prints the executions and findings.
set -u
export LANG=C.UTF-8 LC_ALL=
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
use_build
driver=$PARALLAX_BUILD/fuzz-archive
[ -x "$driver" ] || fail "no $driver; run make build"
export PARALLAX_LIBEXEC=${PARALLAX_LIBEXEC:-$PARALLAX_BUILD}

work=$(mktemp -d)
qp=
trap '[ -n "$qp" ] && kill -KILL "$qp" 2>/dev/null; rm -rf "$work"' EXIT
# a VM beside it (a real qemu, paused: no guest to boot), so the corpus
# holds the host's view's instances and rows (parallax.vm.*) the reader
# decodes and parallax parses
command -v qemu-system-x86_64 >/dev/null || fail "no qemu; run make deps"
paused_qemu "fuzz vm" /dev/null
qp=$QP
"$bin" --record "$work/r" --text -n 4 -t 0.2 >"$work/out" 2>"$work/err" ||
    fail "the recording: $(cat "$work/err")"
grep -q "fuzz vm" "$work/out" || fail "the recording did not show the VM: $(tail -5 "$work/out")"
{ kill -KILL "$qp" && wait "$qp"; } 2>/dev/null
qp=
A=$(find "$work/r/host" -name '*.meta' | sed 's/\.meta$//')
/usr/bin/python3 "$here/archive_mutations.py" "$A" "$work/corpus" >"$work/kinds" ||
    fail "archive_mutations.py failed"
n=$(find "$work/corpus" -type f | wc -l)
[ "$n" -ge 500 ] || fail "only $n mutations: $(cat "$work/kinds")"
echo "corpus: $n inputs ($(cat "$work/kinds"))"

mkdir "$work/found"
cd "$work" || fail "no $work"
FUZZ_ARCHIVE_LOG=1 FUZZ_ARCHIVE_FINDINGS=$work/found \
    timeout $((${FUZZ_SECONDS:-30} + 600)) "$driver" -v -t "${FUZZ_SECONDS:-30}" \
    "$work/corpus" 2>"$work/log"
rc=$?
[ "$rc" -eq 0 ] || fail "fuzz-archive exited $rc: $(tail -3 "$work/log")"
summary=$(grep '^fuzz_archive: [0-9]* executions' "$work/log")
[ -n "$summary" ] || fail "no summary: $(tail -3 "$work/log")"
echo "$summary"

# the matrix's own inputs: the whole archive reads, the crafted one is
# refused by its framing, none was stopped for taking too long
grep -q '^whole -> accepted: and read as a baseline$' "$work/log" ||
    fail "the unchanged recording was not read: $(grep '^whole ->' "$work/log")"
grep -q '^meta-165-50 -> framing: .*a\.meta: corrupt: the record at byte 132 names a metric' "$work/log" ||
    fail "byte 165: $(grep '^meta-165-50 ->' "$work/log")"
! grep -q 'took over' "$work/log" || fail "an input was stopped: $(grep -m1 'took over' "$work/log")"
for k in framing reader accepted; do
    printf '  %s: %s of the corpus\n' "$k" \
        "$(grep -v '^+' "$work/log" | grep -c " -> $k")"
done
crashes=$(grep -c ' -> .*libpcp crashed' "$work/log")
echo "ok: every input gave a replay or one line; libpcp crashed on $crashes (survived, kept: $(ls "$work/found" | wc -l))"
