#!/bin/bash
# parallax's command line: --help/--version, one-line errors with exit 2
# for bad input (guests included), and --text printing N plain refreshes
# from PCP (and from libgtop+/proc when the PCP namespace is missing).
set -u
. "$(dirname "$0")/../lib.sh"
use_build

"$bin" --version | grep -qE '^parallax [0-9]+\.[0-9]+\.[0-9]+$' ||
    fail "--version"
"$bin" --help | grep -q '^Usage: parallax' || fail "--help"

expect_fail 2 "interval '0' .* try -t 1" "$bin" -t 0
expect_fail 2 "interval 'abc'" "$bin" -t abc
expect_fail 2 "interval '-2'" "$bin" -t -2
expect_fail 2 "unknown option '--bogus'; see --help" "$bin" --bogus
expect_fail 2 "unknown option '-x'" "$bin" -x
expect_fail 2 "--local 'kstat' is not a way to read this host; use proc" "$bin" --local=kstat
expect_fail 2 "samples '0'" "$bin" --text -n 0
expect_fail 2 "add --text" "$bin" -n 3
expect_fail 2 "not a terminal.*--text" "$bin"
expect_fail 2 "guest 'h:0': the port" "$bin" --text -h h:0
expect_fail 2 "guest '=h': the name" "$bin" --text -h =h
expect_fail 2 "option '-h' needs a value" "$bin" --text -h
# issue 16: each of these was taken (exit 0 or 1, or libpcp's three lines
# twice) or lost its reason
expect_fail 2 "guest 'a:b:c': more than one ':'; an IPv6 address goes in brackets" \
    "$bin" --text -n 1 -h a:b:c
expect_fail 2 "interval '0x1' is not a decimal number" "$bin" --text -t 0x1
expect_fail 2 "--batch names no suite or workload" "$bin" --batch ""
expect_fail 2 "--batch names no suite or workload" "$bin" --batch ,,,
expect_fail 2 "guest localhost:1 is given twice" \
    "$bin" --text -n 1 -h a=localhost:1 -h b=localhost:1
long=$(printf 'h%.0s' $(seq 5000))
expect_fail 2 "guest 'h{40}\.\.\.': the host is too long; give HOST" \
    "$bin" --text -n 1 -h "$long"
expect_fail 2 "unknown theme 'no-such-theme'; available: .*light" \
    "$bin" --text -n 1 --theme no-such-theme
expect_fail 2 "unknown theme 'no-such-theme'" \
    "$bin" --batch quick --theme no-such-theme
# issue 24: a file that is no theme was taken, and the built-in theme
# shown without a word, where an unknown name exits 2
expect_fail 2 "^parallax: --theme: /etc/passwd:1: expected 'role = colour" \
    "$bin" --text -n 1 --theme /etc/passwd
expect_fail 2 "^parallax: --theme: /dev/zero: not a regular file" \
    "$bin" --text -n 1 --theme /dev/zero
expect_fail 2 "argument 2 \('\?\[2J'\) holds a control character" \
    "$bin" --text $'\e[2J'
# a name that does not resolve is not "No route to host"
err=$("$bin" --text -n 1 -t 0.5 -v -h nonexistent.invalid 2>&1 >/dev/null)
grep -q 'nonexistent.invalid: connecting -> down: pmcd: the name does not resolve' \
    <<<"$err" || fail "nonexistent.invalid: $err"
echo "ok: nonexistent.invalid: the name does not resolve"

check_text() {
    local out=$1 backend=$2
    [ "$(grep -c '^parallax ' "$out")" -eq 2 ] || fail "want 2 refreshes"
    grep -F "$backend" "$out" | grep -qE '^ +[a-z/]' ||
        fail "backend $backend not named"
    if grep -qP '\x1b' "$out"; then fail "escape sequence in --text"; fi
    # every refresh has a figure (not n/a) in the host column
    [ "$(grep -cE '^CPU user % +[0-9]+\.[0-9]' "$out")" -eq 2 ] ||
        fail "no CPU figure"
    [ "$(grep -cE '^forks/s +[0-9]' "$out")" -eq 2 ] || fail "no fork rate"
    [ "$(grep -cE '^memory used +[0-9.]+[KMG]' "$out")" -eq 2 ] ||
        fail "no memory figure"
    echo "ok: --text via $backend"
}

out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$bin" --text -n 2 -t 0.3 >"$out" || fail "--text exited $?"
check_text "$out" "/proc"
"$bin" --local=pcp --text -n 2 -t 0.3 >"$out" || fail "--local=pcp exited $?"
check_text "$out" "pcp local"

# without a PCP namespace PCP's local context falls back to libgtop
PMNS_DEFAULT=/nonexistent "$bin" --local=pcp --text -n 2 -t 0.3 >"$out" \
    2>/dev/null || fail "--text (fallback) exited $?"
check_text "$out" "libgtop+/proc"
"$bin" --local=gtop --text -n 2 -t 0.3 >"$out" || fail "--local=gtop exited $?"
check_text "$out" "libgtop+/proc"
echo "all cli checks passed"
