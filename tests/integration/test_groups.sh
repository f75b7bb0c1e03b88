#!/bin/bash
# tests/groups and tests/run_all.sh -g: this tree's groups file lists every
# test file (found here with find, not with run_all.sh's own globs) and
# names no file that is missing. On a copy of run_all.sh and a groups file
# in a tree of stand-in tests (each records that it ran), -g GROUP runs
# exactly that group's tests, several -g any of theirs, PATTERN narrows
# them, a folder is a group, and -n lists them without running them; a test file in no group, a line naming
# a missing file, a group nobody declared, a test listed twice and an
# unknown -g each stop run_all.sh before any test runs, with one line
# naming the file or group, exit 2.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
top=$(cd "$here/.." && pwd)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A tree of stand-ins: C tests as built binaries, shell tests as scripts,
# each appending its name to $work/ran.
fresh() {
    rm -rf "$work/t" "$work/ran"
    mkdir -p "$work/t/tests/unit" "$work/t/tests/integration" \
        "$work/t/tests/screen" "$work/t/build/tests/unit" \
        "$work/t/build/tests/integration"
    cp "$top/tests/run_all.sh" "$work/t/tests/"
    local f
    for f in unit/test_a unit/test_b integration/test_c; do
        : >"$work/t/tests/$f.c"
        printf '#!/bin/sh\necho %s >>%s\n' "$f" "$work/ran" \
            >"$work/t/build/tests/$f"
        chmod +x "$work/t/build/tests/$f"
    done
    for f in integration/test_d.sh screen/test_e.sh; do
        printf 'echo %s >>%s\n' "$f" "$work/ran" >"$work/t/tests/$f"
    done
    cat >"$work/t/tests/groups" <<'EOF'
# stand-ins
group alpha  the first
group beta   the second,
group beta   on two lines
unit/test_a.c           alpha
unit/test_b.c           beta
integration/test_c.c    alpha beta
integration/test_d.sh   beta
screen/test_e.sh        alpha
EOF
}

# runs WANT ARGS...: run_all.sh ARGS in the stand-in tree passes and runs
# exactly the tests WANT lists (space-separated, any order)
runs() {
    local want=$1 got out
    shift
    rm -f "$work/ran"
    out=$(cd "$work/t" && tests/run_all.sh "$@" 2>&1) ||
        fail "run_all.sh $*: $out"
    got=$(sort "$work/ran" 2>/dev/null | tr '\n' ' ')
    want=$(tr ' ' '\n' <<<"$want" | grep . | sort | tr '\n' ' ')
    [ "$got" = "$want" ] || fail "run_all.sh $*: ran '$got', not '$want': $out"
    echo "ok: run_all.sh $*: $got"
}

# refuses TEXT ARGS...: run_all.sh ARGS exits 2 with the one line TEXT
# (a part of it) and runs nothing
refuses() {
    local text=$1 out rc
    shift
    rm -f "$work/ran"
    out=$(cd "$work/t" && tests/run_all.sh "$@" 2>&1)
    rc=$?
    [ $rc -eq 2 ] || fail "run_all.sh $*: exit $rc, not 2: $out"
    [ "$(wc -l <<<"$out")" -eq 1 ] || fail "run_all.sh $*: not one line: $out"
    grep -qF -- "$text" <<<"$out" || fail "run_all.sh $*: '$out' lacks '$text'"
    [ ! -e "$work/ran" ] || fail "run_all.sh $*: ran $(cat "$work/ran")"
    echo "ok: refused: $out"
}

fresh
runs "unit/test_a integration/test_c screen/test_e.sh" build -g alpha
runs "unit/test_b integration/test_c integration/test_d.sh" -g beta
runs "unit/test_a unit/test_b integration/test_c integration/test_d.sh \
    screen/test_e.sh" build -g alpha -g beta
runs "integration/test_c" build integration -g alpha
runs "unit/test_a unit/test_b" -g unit
runs "unit/test_a unit/test_b integration/test_c integration/test_d.sh \
    screen/test_e.sh" build
rm -f "$work/ran"
out=$(cd "$work/t" && tests/run_all.sh build -g beta -n) || fail "-n: $out"
[ "$out" = "unit/test_b
integration/test_c
integration/test_d.sh" ] || fail "-n -g beta lists: $out"
[ ! -e "$work/ran" ] || fail "-n ran $(cat "$work/ran")"
echo "ok: -n -g beta lists its three and runs none"
out=$(cd "$work/t" && tests/run_all.sh -l) || fail "-l: $out"
[ "$out" = "alpha         3  the first
beta          3  the second, on two lines
unit          2  the tests in tests/unit/
integration   2  the tests in tests/integration/
screen        1  the tests in tests/screen/" ] || fail "-l lists: $out"
echo "ok: -l"

refuses "-g gamma: no such group" build -g gamma

: >"$work/t/tests/screen/test_f.sh"
refuses "tests/screen/test_f.sh is in no group: add a line 'screen/test_f.sh GROUP...'" -g alpha

fresh
rm "$work/t/tests/unit/test_b.c"
refuses "line 6: tests/unit/test_b.c does not exist" build

fresh
echo "screen/test_e.sh beta" >>"$work/t/tests/groups"
refuses "screen/test_e.sh is listed twice" build -g beta

fresh
sed -i 's|^integration/test_d.sh .*|integration/test_d.sh   beta gama|' \
    "$work/t/tests/groups"
refuses "integration/test_d.sh is in group gama, which no 'group gama' line declares" build

fresh
sed -i 's|^integration/test_d.sh .*|integration/test_d.sh|' \
    "$work/t/tests/groups"
refuses "line 8: integration/test_d.sh has no group" build

fresh
sed -i 's|^unit/test_b.c .*|unit/test_b.c alpha|; s|^integration/test_d.sh .*|integration/test_d.sh alpha|; s|^integration/test_c.c .*|integration/test_c.c alpha|' \
    "$work/t/tests/groups"
refuses "group beta has no test" build
# This tree: every test file in tests/groups, every line a file.
listed=$(awk '$1 != "group" && $1 !~ /^#/ && NF { print $1 }' \
    "$top/tests/groups" | sort)
found=$(cd "$top/tests" && find unit integration screen -maxdepth 1 \
    -type f -name 'test_*' \( -name '*.c' -o -name '*.sh' \) | sort)
[ "$listed" = "$found" ] || fail "tests/groups and the tree differ:
$(diff <(echo "$listed") <(echo "$found"))"
out=$("$top/tests/run_all.sh" -l 2>&1) || fail "run_all.sh -l: $out"
grep -qE '^clock +[0-9]+ ' <<<"$out" || fail "no clock group in: $out"
echo "ok: this tree: $(wc -l <<<"$found") test files, each in a group;" \
    "$(wc -l <<<"$out") groups"

echo "PASS"
