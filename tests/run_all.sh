#!/bin/bash
# Runs every test of parallax and ends with one summary line
# "N passed, N failed". Usage: tests/run_all.sh BUILD_DIR [PATTERN]
#   unit tests:        BUILD/tests/unit/test_*          (cmocka)
#   integration tests: BUILD/tests/integration/test_*   (cmocka, real PCP)
#                      tests/integration/*.sh           (real binaries, pmcd)
#   screen tests:      tests/screen/*.sh                (real TUI in tmux)
# Shell tests get the build directory as $1 and exit 0 on success.
# PATTERN, when given, keeps only the tests whose path contains it.
set -u
build=${1:-build}
pattern=${2:-}
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
export PARALLAX_BUILD="$here/$build"
export PARALLAX_LIBEXEC="$here/$build"   # where parallax-hello is found
log_dir="$here/$build/test-logs"
mkdir -p "$log_dir"

passed=0
failed=0
failures=()

# What a test starts it must stop: any process still carrying the test's
# mark in its environment after the test (a pmcd, a guest, the agent,
# parallax) fails that test and is killed. A leaked pmcd once made the next
# test's "pmcd start" refuse. The mark keeps other people's processes (and
# tests run at the same time elsewhere) out of it.
marked() {
    grep -lsxz "PARALLAX_TEST_MARK=$1" /proc/[0-9]*/environ |
        sed 's|/proc/\([0-9]*\)/environ|\1|'
}
leaked() {
    local left
    for _ in $(seq 10); do
        left=$(marked "$1")
        [ -z "$left" ] && return 1
        sleep 0.3
    done
    for p in $left; do
        echo "left running by the test: $(ps -o pid=,args= -p "$p")"
        kill -9 "$p" 2>/dev/null
    done
    return 0
}

run_one() {
    local name=$1; shift
    local log="$log_dir/$(echo "$name" | tr '/' '_').log"
    local start=$SECONDS mark="$$.$RANDOM.$SECONDS"
    if PARALLAX_TEST_MARK=$mark "$@" >"$log" 2>&1 &&
        ! leaked "$mark" >>"$log"; then
        passed=$((passed + 1))
        printf 'PASS  %-50s %3ds\n' "$name" $((SECONDS - start))
    else
        failed=$((failed + 1))
        failures+=("$name")
        printf 'FAIL  %-50s %3ds  (log: %s)\n' "$name" $((SECONDS - start)) "$log"
        tail -n 30 "$log" | sed 's/^/      | /'
    fi
}

for t in "$build"/tests/unit/test_* "$build"/tests/integration/test_* \
         tests/integration/*.sh tests/screen/*.sh; do
    [ -e "$t" ] || continue
    case "$t" in *.o|*.d) continue ;; esac
    [ -n "$pattern" ] && [[ "$t" != *"$pattern"* ]] && continue
    case "$t" in
        *.sh) run_one "${t#tests/}" bash "$t" "$build" ;;
        *) run_one "${t#"$build"/tests/}" "$t" ;;
    esac
done

if [ ${#failures[@]} -gt 0 ]; then
    echo "failed: ${failures[*]}"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
