#!/bin/bash
# parallax-run through the real binary: one-line errors with exit 2 for
# bad names, parameters and options; the result table; Ctrl-C and SIGTERM
# stop the run cleanly; a SIGKILLed parallax-run leaves no workload process
# and no run directory (the run's keeper removes it).
set -u
. "$(dirname "$0")/../lib.sh"
bin=${PARALLAX_BUILD:-build}/parallax-run
[ -x "$bin" ] || fail "no $bin; run make build"
TMPDIR=$(mktemp -d /tmp/parallax-test-run.XXXXXX)
export TMPDIR
trap 'rm -rf "$TMPDIR"' EXIT

# --- usage errors: one line, exit 2 ---
"$bin" --version | grep -qE '^parallax-run [0-9]+\.[0-9]+\.[0-9]+$' ||
    fail "--version"
"$bin" --help | grep -q '^usage: parallax-run' || fail "--help"
expect_fail 2 'unknown workload or suite "nope"; workloads: syscall-null, .*; suites: syscalls, .*all' \
    "$bin" nope
expect_fail 2 'syscall-null: unknown parameter "x"; valid: none' \
    "$bin" syscall-null x=1
expect_fail 2 'no workload of syscalls has a parameter "size"' \
    "$bin" syscalls size=1
expect_fail 2 "no workload given; see --list" "$bin"
expect_fail 2 "unknown option '--bogus'; see --help" "$bin" --bogus
expect_fail 2 "option '--duration' needs a value" "$bin" syscall-null --duration
expect_fail 2 "option '-r' needs a value" "$bin" syscall-null -r
expect_fail 2 "run: --repeats 0: expected a whole number 1..1000" "$bin" -r 0 syscall-null
expect_fail 2 "run: --duration abc: expected a number" "$bin" -d abc syscall-null
expect_fail 2 "run: --count 1.5: expected a whole number" "$bin" -c 1.5 syscall-null
expect_fail 2 "give --duration or --count, not both" "$bin" -d 1 -c 5 syscall-null

# a workload with a parameter, if the catalogue has one: bounds and types
list=$("$bin" --list) || fail "--list"
read -r pw pk pmax < <(echo "$list" | awk '
    /^[a-z0-9-]+ / && NF >= 3 { w = $1 }
    /^                      [a-z_]+=/ && w != "" {
        split($1, kv, "="); r = $2; gsub(/[(),]/, "", r); split(r, b, "\\.\\.")
        print w, kv[1], b[2]; exit }')
if [ -n "${pw:-}" ]; then
    expect_fail 2 "$pw: $pk=1e\\+?30 is out of range; $pk takes .*$pmax" \
        "$bin" "$pw" "$pk=1e30"
    expect_fail 2 "$pw: $pk=\"abc\" is not a number" "$bin" "$pw" "$pk=abc"
    expect_fail 2 "$pw: unknown parameter \"zz\"; valid: .*$pk=" \
        "$bin" "$pw" zz=1
fi

# --- --list names every workload and suite ---
for w in syscall-null syscall-read syscall-write syscall-stat syscall-fstat \
         syscall-open; do
    echo "$list" | grep -qE "^$w +ns +lower " || fail "--list lacks $w"
done
echo "$list" | grep -qE '^syscalls +.*: syscall-null syscall-read' ||
    fail "--list lacks the syscalls suite"

# --- the table ---
out=$("$bin" -c 2000 -r 3 -w 0 syscall-null) || fail "a run failed"
echo "$out"
echo "$out" | head -1 | grep -qE '^workload +params +placement +unit +n +median +min +max +median interval$' ||
    fail "table header"
echo "$out" | grep -qE '^syscall-null +- +any +ns +3 +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+\.\.[0-9.]+ 75%$' ||
    fail "table row"
cpu=$(first_cpu)
out=$("$bin" -c 500 -r 1 -w 0 --cpu "$cpu" syscall-null) || fail "--cpu $cpu"
echo "$out" | grep -qE "^syscall-null +- +same@cpu$cpu " || fail "placement"
out=$("$bin" -c 500 -r 2 -w 0 syscalls) || fail "suite run"
[ "$(echo "$out" | grep -cE '^syscall-[a-z]+ +- +any +ns +2 ')" -eq 6 ] ||
    fail "suite rows: $out"
expect_fail 2 "cpu 4000: not a CPU this process may use" \
    "$bin" --cpu 4000 -c 1 syscall-null
# options may follow the workload name
"$bin" syscall-null -c 100 -r 1 | grep -qE '^syscall-null .* 1 ' ||
    fail "options after the workload"

# --- processes and directories ---
# pids of live processes whose process group is $1
group_pids() {
    local f line rest
    for f in /proc/[0-9]*/stat; do
        read -r line 2>/dev/null <"$f" || continue
        rest=${line##*) }
        set -- "$1" $rest
        [ "$4" = "$1" ] && [ "$2" != Z ] && echo "${f//[^0-9]/}"
    done
}
group_empty() { [ -z "$(group_pids "$1")" ]; }
child_of() { # the run's child: a process whose parent is $1
    local f line rest
    for f in /proc/[0-9]*/stat; do
        read -r line 2>/dev/null <"$f" || continue
        rest=${line##*) }
        set -- "$1" $rest
        [ "$3" = "$1" ] && { echo "${f//[^0-9]/}"; return 0; }
    done
    return 1
}
run_dirs() { ls -d "$TMPDIR"/parallax-wl.* 2>/dev/null | wc -l; }
has_run_dir() { [ "$(run_dirs)" -ge 1 ]; }

# start a long run and find its process group
start_long() {
    "$bin" -d 30 -r 1 syscall-open >/dev/null 2>"$TMPDIR/err" &
    pid=$!
    wait_for 5 child_of "$pid" >/dev/null || fail "no workload process"
    pgid=$(child_of "$pid")
    wait_for 5 has_run_dir || fail "no run directory"
    wait_for 5 test -n "$(group_pids "$pgid")" || fail "no process group"
}

for sig in INT TERM; do
    start_long
    kill -s "$sig" "$pid"
    wait "$pid"
    rc=$?
    want=$((128 + $(kill -l "$sig")))
    [ "$rc" -eq "$want" ] || fail "SIG$sig: exit $rc, expected $want"
    grep -q "interrupted" "$TMPDIR/err" || fail "SIG$sig: no message"
    group_empty "$pgid" || fail "SIG$sig left $(group_pids "$pgid")"
    [ "$(run_dirs)" -eq 0 ] || fail "SIG$sig left a run directory"
    echo "ok: SIG$sig stops the run, exit $rc, nothing left"
done

start_long
kill -KILL "$pid"
wait "$pid" 2>/dev/null
wait_for 3 group_empty "$pgid" || fail "SIGKILL left $(group_pids "$pgid")"
echo "ok: SIGKILL of parallax-run leaves no workload process"
# a SIGKILLed parent cannot remove its directory: the run's keeper does
no_run_dirs() { [ "$(run_dirs)" -eq 0 ]; }
wait_for 5 no_run_dirs || fail "SIGKILL left the run's directory"
echo "ok: SIGKILL of parallax-run leaves no run directory"
echo "all parallax-run tests passed"
