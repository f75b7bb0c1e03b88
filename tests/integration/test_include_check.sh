#!/bin/bash
# scripts/check_includes.sh holds the floors of docs/hacking.md: on a copy
# of this tree's sources and its floors table it passes, and each broken
# rule added to a fresh copy (an include that points up, one across a
# floor, curses or PCP outside their folders, PCP brought in through
# another folder's header, a folder in no floor) makes it exit 1 with one
# line naming the file and line, the include and the rule, and nothing
# else broken.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
top=$(cd "$here/.." && pwd)
check=$top/scripts/check_includes.sh

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# this tree as it is
out=$("$check" 2>&1) || fail "the tree breaks its floors: $out"
echo "ok: the tree: $out"

# fresh: a copy of the sources and the floors table in $work/tree
fresh() {
    rm -rf "$work/tree"
    mkdir "$work/tree"
    (cd "$top" && git ls-files -co --exclude-standard -- '*.c' '*.h' \
        docs/hacking.md | tar -cf - -T -) | tar -C "$work/tree" -xf - ||
        fail "cannot copy the tree"
}

# breaks FILE LINE_TEXT EXPECTED: appends LINE_TEXT to FILE of a fresh
# copy; the check must exit 1 and print EXPECTED (a prefix of the line,
# after FILE:LINE: ) as its one broken rule
breaks() {
    local file=$1 text=$2 want=$3 n rc
    fresh
    mkdir -p "$(dirname "$work/tree/$file")"
    printf '%s\n' "$text" >>"$work/tree/$file"
    n=$(wc -l <"$work/tree/$file")
    out=$("$check" "$work/tree" 2>&1)
    rc=$?
    [ $rc -eq 1 ] || fail "$file + '$text': exit $rc, not 1: $out"
    grep -qF -- "$file:$n: $want" <<<"$out" ||
        fail "$file + '$text': no line '$file:$n: $want...' in: $out"
    [ "$(tail -n 1 <<<"$out")" = "1 include against the floors" ] ||
        fail "$file + '$text': not one broken rule: $out"
    [ "$(wc -l <<<"$out")" -eq 2 ] || fail "$file + '$text': $out"
    echo "ok: $(head -n 1 <<<"$out")"
}

fresh
out=$("$check" "$work/tree" 2>&1) || fail "the copy breaks its floors: $out"
[ "$out" = "includes: ok" ] || fail "the copy: $out"

breaks core/model.c '#include "session/jobs.h"' \
    '#include "session/jobs.h" points up: core/ (floor 2) includes only its own folder and the floors below; session/ is floor 6 (docs/hacking.md, the floors)'
breaks workloads/syscall.c '#include "runner/runner.h"' \
    '#include "runner/runner.h" points up: workloads/ (floor 1)'
breaks collectors/sampler.c '#include "session/session.h"' \
    '#include "session/session.h" points up: collectors/ (floor 4)'
breaks fleet/http.c '#include "guest/demo_guest.h"' \
    '#include "guest/demo_guest.h" points across: fleet/ (floor 7) includes only its own folder and the floors below; guest/ is floor 7'
breaks view/fmt.c '#include <curses.h>' \
    '#include <curses.h>: curses headers only in tests/, tui/ (docs/hacking.md, the floors)'
breaks cli/options.c '#include <ncursesw/ncurses.h>' \
    '#include <ncursesw/ncurses.h>: curses headers only in tests/, tui/'
breaks session/job_cells.c '#include <pcp/pmapi.h>' \
    '#include <pcp/pmapi.h>: pcp headers only in tests/, archive/, pmda/, collectors/ (docs/hacking.md, the floors)'
breaks view/fmt.c '#include "collectors/pcp_source.h"' \
    '#include "collectors/pcp_source.h", which brings <pcp/pmapi.h>: pcp headers only in tests/, archive/, pmda/, collectors/'
breaks report/report.c '#include "nowhere/thing.h"' \
    '#include "nowhere/thing.h": nowhere/ is in no floor of docs/hacking.md'

# a folder the table does not name
fresh
mkdir "$work/tree/attic"
echo 'int attic;' >"$work/tree/attic/old.c"
out=$("$check" "$work/tree" 2>&1)
rc=$?
[ $rc -eq 1 ] || fail "a file in no floor: exit $rc: $out"
grep -qxF 'attic/old.c: in no floor: add attic/ to the floors table of docs/hacking.md' <<<"$out" ||
    fail "a file in no floor: $out"
echo "ok: $(head -n 1 <<<"$out")"

# without its table the check refuses to pass
fresh
rm "$work/tree/docs/hacking.md"
out=$("$check" "$work/tree" 2>&1)
rc=$?
[ $rc -eq 2 ] || fail "no table: exit $rc: $out"
echo "ok: no table: $out"
