# Shared helpers for the shell tests: sourced, not run.
# Tests wait on conditions (wait_for), never on fixed sleeps.

# use_build: makes PARALLAX_BUILD absolute (default build/) and exports it
# (pmcd runs agents from it, from another directory), sets bin to its
# parallax, and fails when that is not built.
use_build() {
    local top
    top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
    PARALLAX_BUILD=$(realpath "${PARALLAX_BUILD:-$top/build}")
    export PARALLAX_BUILD
    bin=$PARALLAX_BUILD/parallax
    [ -x "$bin" ] || fail "no $bin; run make build"
}

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# wait_for SECONDS COMMAND...: runs COMMAND every 0.1 s until it succeeds;
# false when SECONDS pass first.
wait_for() {
    local limit=$1; shift
    local end=$((SECONDS + limit))
    until "$@"; do
        [ $SECONDS -ge $end ] && return 1
        sleep 0.1
    done
}

# expect_fail STATUS PATTERN COMMAND...: COMMAND must exit with STATUS and
# print exactly one line on stderr that matches PATTERN.
expect_fail() {
    local want=$1 pattern=$2; shift 2
    local err rc
    err=$("$@" 2>&1 >/dev/null </dev/null)
    rc=$?
    [ "$rc" -eq "$want" ] || fail "'$*' exited $rc, expected $want ($err)"
    [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] ||
        fail "'$*' printed more than one line: $err"
    printf '%s\n' "$err" | grep -qE -- "$pattern" ||
        fail "'$*' said '$err', expected /$pattern/"
    echo "ok: $* -> $rc: $err"
}
