#!/bin/bash
# The fault matrix of issue 24, by hand (not part of make check: minutes
# long): the real binary against archives mutated hundreds of ways (the
# corpus of tests/archive_mutations.py, every STEP-th input, by -a and by
# --baseline), FIFOs in an archive's place, recordings into full disks
# (tmpfs of several sizes, ulimit -f) and wrong places, and -o into
# special files. Prints the counts: crashes, hangs, refusals that are not
# one line, lost records, special files replaced.
#   tests/fault_matrix.sh [BUILD_DIR [STEP]]     (root: tmpfs, mknod)
# PARTS="archives recordings output" (the default) picks the parts. The
# mutated archives are named by their directory, which -a and --baseline
# of every version take (the base name was refused before issue 23).
set -u
export LANG=C.UTF-8 LC_ALL=
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
PARALLAX_BUILD=${1:-$here/../build}
step=${2:-3}
use_build
export PARALLAX_LIBEXEC=$PARALLAX_BUILD
[ "$(id -u)" -eq 0 ] || fail "needs root (tmpfs, mknod)"
work=$(mktemp -d)
mnt=$work/mnt
mkdir "$mnt"
trap 'umount "$mnt" 2>/dev/null; rm -rf "$work"' EXIT

declare -A n
count() { n[$1]=$((${n[$1]:-0} + 1)); }

# one RUN...: classify how parallax ended
one() {
    local rc err
    err=$(timeout 30 "$@" 2>&1 >/dev/null </dev/null)
    rc=$?
    if [ "$rc" -eq 124 ]; then count hang
    elif [ "$rc" -ge 128 ]; then count crash
    elif [ "$rc" -eq 0 ]; then count accepted
    elif [ "$rc" -eq 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ]; then count refused
    else count other; echo "  other (exit $rc): $err" | head -3
    fi
}

parts=${PARTS:-archives recordings output}
part() { [[ " $parts " == *" $1 "* ]]; }

# --- archives ---
if part archives; then
"$bin" --record "$work/r" --text -n 4 -t 0.2 >/dev/null 2>&1 || fail "a recording"
A=$(find "$work/r/host" -name '*.meta' | sed 's/\.meta$//')
N=$(basename "$A")
/usr/bin/python3 "$here/archive_mutations.py" "$A" "$work/corpus" >/dev/null
k=0
for f in "$work"/corpus/*; do
    k=$((k + 1))
    [ $((k % step)) -eq 0 ] || continue
    rm -rf "$work/m" && mkdir "$work/m"
    /usr/bin/python3 - "$f" "$work/m/$N" <<'PY'
import struct, sys
b = open(sys.argv[1], "rb").read()
ext = {"m": "meta", "i": "index", "0": "0"}
while len(b) >= 5:
    n = struct.unpack(">I", b[1:5])[0]
    open(sys.argv[2] + "." + ext[chr(b[0])], "wb").write(b[5:5 + n])
    b = b[5 + n:]
PY
    [ -e "$work/m/$N.meta" ] || continue
    count mutations
    one "$bin" --text -n 1 -t 0.1 -a "$work/m"
    one "$bin" --text -n 1 -t 0.1 --baseline "$work/m"
done
for part in meta 0 index; do
    rm -rf "$work/f" && mkdir "$work/f" && cp "$A".* "$work/f/"
    rm "$work/f/$N.$part" && mkfifo "$work/f/$N.$part"
    for t in "$work/f" "$work/f/$N.0"; do
        count mutations
        one "$bin" --text -n 1 -t 0.1 -a "$t"
        one "$bin" --text -n 1 -t 0.1 --baseline "$t"
    done
done
echo "archives: ${n[mutations]:-0} archives by -a and --baseline:" \
    "${n[accepted]:-0} replayed, ${n[refused]:-0} refused in one line," \
    "${n[crash]:-0} crashes, ${n[hang]:-0} hangs, ${n[other]:-0} other"
fi

# --- recordings ---
if part recordings; then
lost=0 torn=0 runs=0 said=0 kept=0 unreplayed=0
check_rec() { # check_rec DIR ERRFILE RC
    runs=$((runs + 1))
    local a c m
    m=$(grep -o 'the [0-9]* whole record' "$2" | grep -o '[0-9]*')
    [ "$3" -eq 1 ] || echo "  exit $3: $(tail -1 "$2")"
    for a in $(find "$1" -name '*.meta' | sed 's/\.meta$//'); do
        pmlogcheck "$a" >/dev/null 2>&1 || torn=$((torn + 1))
        c=$(pmdumplog "$a" kernel.all.pswitch 2>/dev/null | grep -c '(kernel.all.pswitch): value')
        kept=$((kept + c))
    done
    said=$((said + ${m:-0}))
    timeout 60 "$bin" --text -n 1 -t 0.1 --baseline "$1" >/dev/null 2>&1 ||
        unreplayed=$((unreplayed + 1))
}
for size in 48k 64k 96k 128k 256k; do
    mount -t tmpfs -o size=$size tmpfs "$mnt" || fail "tmpfs"
    "$bin" --record "$mnt/rec" --text -n 400 -t 0.1 >/dev/null 2>"$work/e"
    check_rec "$mnt/rec" "$work/e" $?
    umount "$mnt"
done
for blocks in 24 30 60 120; do
    rm -rf "$work/u"
    (trap '' XFSZ; ulimit -f $blocks
     exec "$bin" --record "$work/u" --text -n 400 -t 0.1 >/dev/null 2>"$work/e")
    check_rec "$work/u" "$work/e" $?
done
lost=$((said - kept))
: >"$work/file"
mkfifo "$work/fifo"
wrong=0 wrong_ok=0
mknod "$work/rnull" c 1 3
for t in "$work/file" "$work/rnull" "$work/file/sub" "$work/fifo"; do
    wrong=$((wrong + 1))
    err=$(timeout 30 "$bin" --record "$t" --text -n 2 2>&1 >/dev/null)
    [ $? -eq 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] && wrong_ok=$((wrong_ok + 1))
done
echo "recordings: $runs into full disks: $said records said kept, $kept read by pmdumplog" \
    "($lost lost), $torn archives failing pmlogcheck, $unreplayed not replayed;" \
    "$wrong_ok of $wrong wrong places refused in one line, exit 2"
fi

# --- -o into special files ---
part output || exit 0
# device nodes of its own (null, zero, full, a loop device's number): an
# old parallax run as root replaces what -o names, so never /dev's
cd "$work" || fail "cd"
mknod cnull c 1 3 && mknod czero c 1 5 && mknod cfull c 1 7 &&
    mknod bdev b 7 200 && mkfifo ofifo && mkdir odir && ln -s cnull olink &&
    mkfifo pair.json || fail "special files"
python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind("osock")'
specials="cnull czero cfull bdev ofifo odir olink osock pair.json"
before=$(stat -c '%n %F' $specials)
outs=0 outs_ok=0
for t in cnull czero cfull bdev ofifo odir olink osock pair.txt; do
    outs=$((outs + 1))
    err=$(timeout 120 "$bin" --batch syscall-null -r 1 -t 0.2 -o "$t" 2>&1 >/dev/null)
    [ $? -eq 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] && outs_ok=$((outs_ok + 1))
done
after=$(stat -c '%n %F' $specials)
replaced=$(diff <(echo "$before") <(echo "$after") | grep -c '^>')
echo "-o: $outs_ok of $outs special files refused in one line, exit 2;" \
    "$replaced replaced"
