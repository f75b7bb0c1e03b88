#!/bin/bash
# -o into special files (issue 24): a report is renamed into place, which
# replaced a device node (mknod'ed here: 1:3, /dev/null's, which as root
# -o /dev/null would have replaced) or a FIFO with a regular file. A
# device, a FIFO, a directory, a link to a device, a FIFO where the JSON
# report goes are each refused before anything runs, one line and exit
# 2, and left as they were; -o - writes the text report on standard output and no
# file at all; a new file is written as before. Needs root for mknod.
set -u
export LANG=C.UTF-8 LC_ALL=
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
use_build
[ "$(id -u)" -eq 0 ] || fail "needs root, for mknod"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || fail "no $work"
mknod mynull c 1 3 || fail "mknod"
mkfifo fifo
mkdir dir
ln -s mynull link
mkfifo pair.json
run() { "$bin" --batch syscall-null -r 1 -t 0.2 "$@"; }
# never /dev/null itself: a parallax that regressed would replace it
# (mynull is the same device, 1:3)
for t in mynull fifo dir link; do
    expect_fail 2 "^parallax: -o: cannot write $t: it is (a character device|a FIFO|a directory), not a regular file" \
        run -o "$t"
done
expect_fail 2 "^parallax: -o: cannot write pair.json: it is a FIFO, not a regular file" \
    run -o pair.txt
[ -c mynull ] && [ -p fifo ] && [ -d dir ] && [ -L link ] &&
    [ -p pair.json ] || fail "a special file was replaced: $(ls -l)"
[ ! -e mynull.json ] && [ ! -e pair.txt ] ||
    fail "a report was written next to a refused -o: $(ls)"
echo "ok: a device, a FIFO, a directory, a link to a device, a FIFO for the JSON: refused, each left as it was"

run -o - >out.txt 2>err.txt || fail "-o - exited $?: $(cat err.txt)"
grep -q '^FINAL SCORE\|syscall-null' out.txt ||
    fail "no report on standard output: $(head out.txt)"
[ ! -e ./- ] && [ ! -e ./-.json ] || fail "-o - wrote a file: $(ls)"
echo "ok: -o - writes the text report on standard output, no file"
run -o new.txt >/dev/null 2>err.txt || fail "-o new.txt exited $?: $(cat err.txt)"
[ -f new.txt ] && [ -f new.json ] || fail "no new.txt and new.json: $(ls)"
echo "ok: -o into a new file writes it and its JSON"
