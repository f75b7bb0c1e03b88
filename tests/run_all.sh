#!/bin/bash
# Runs the tests of parallax and ends with one summary line
# "N passed, N failed".
# Usage: tests/run_all.sh [BUILD_DIR] [PATTERN] [-g GROUP]... [-n]
#        tests/run_all.sh -l            (the groups, after the check below)
#   unit tests:        BUILD/tests/unit/test_*          (cmocka)
#   integration tests: BUILD/tests/integration/test_*   (cmocka, real PCP)
#                      tests/integration/*.sh           (real binaries, pmcd)
#   screen tests:      tests/screen/*.sh                (real TUI in tmux)
# Shell tests get the build directory as $1 and exit 0 on success.
# PATTERN, when given, keeps only the tests whose path contains it; each
# -g GROUP keeps the tests tests/groups puts in that group (several -g:
# any of them); -n lists the tests chosen instead of running them.
# Nothing runs while tests/groups and the tree disagree: a test file in
# no group, a line naming no file, an undeclared group.
set -u
usage() {
    echo "usage: tests/run_all.sh [BUILD_DIR] [PATTERN] [-g GROUP]... [-n] | -l" >&2
    exit 2
}
build='' pattern='' list=0 dry=0
want=()
while [ $# -gt 0 ]; do
    case "$1" in
        -g) [ $# -ge 2 ] || usage; want+=("$2"); shift 2 ;;
        -g*) want+=("${1#-g}"); shift ;;
        -l) list=1; shift ;;
        -n) dry=1; shift ;;
        -h|--help) usage ;;
        -*) echo "run_all.sh: unknown option $1" >&2; usage ;;
        *)
            if [ -z "$build" ]; then build=$1
            elif [ -z "$pattern" ]; then pattern=$1
            else usage
            fi
            shift ;;
    esac
done
build=${build:-build}
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"

# tests/groups: "group NAME words" declares a group, "PATH GROUP..." puts
# the test file tests/PATH in groups. Every problem is one line; any
# problem and nothing runs (exit 2).
declare -A declared=() in_groups=() count=() about=()
problems=0
problem() { echo "tests/groups: $*" >&2; problems=$((problems + 1)); }
n=0
while read -r first rest; do
    n=$((n + 1))
    case "$first" in ''|'#'*) continue ;; esac
    if [ "$first" = group ]; then
        read -r name words <<<"$rest"
        [ -n "$name" ] || continue
        declared[$name]=1 count[$name]=${count[$name]:-0}
        about[$name]="${about[$name]:+${about[$name]} }$words"
        continue
    fi
    if [ -n "${in_groups[$first]+x}" ]; then
        problem "line $n: $first is listed twice: keep one line"
    elif [ ! -f "tests/$first" ]; then
        problem "line $n: tests/$first does not exist: remove the line or fix the name"
    elif [ -z "$rest" ]; then
        problem "line $n: $first has no group: add at least one"
    fi
    in_groups[$first]=" $rest "
done <tests/groups
for first in "${!in_groups[@]}"; do
    for g in ${in_groups[$first]}; do
        if [ -z "${declared[$g]+x}" ]; then
            problem "$first is in group $g, which no 'group $g' line declares"
        else
            count[$g]=$((count[$g] + 1))
        fi
    done
done
for f in tests/unit/test_*.c tests/integration/test_*.c \
         tests/integration/test_*.sh tests/screen/test_*.sh; do
    [ -e "$f" ] || continue
    [ -n "${in_groups[${f#tests/}]+x}" ] ||
        problem "$f is in no group: add a line '${f#tests/} GROUP...'"
done
for g in "${!declared[@]}"; do
    [ "${count[$g]}" -gt 0 ] || problem "group $g has no test: remove its 'group' lines"
done
for g in "${want[@]}"; do
    [[ " unit integration screen " == *" $g "* ]] && continue
    [ -n "${declared[$g]+x}" ] ||
        { echo "run_all.sh: -g $g: no such group (tests/run_all.sh -l lists them)" >&2; problems=$((problems + 1)); }
done
[ "$problems" -eq 0 ] || exit 2
if [ "$list" = 1 ]; then
    for g in "${!declared[@]}"; do
        printf '%-11s %3d  %s\n' "$g" "${count[$g]}" "${about[$g]}"
    done | sort
    for g in unit integration screen; do
        n=0
        for first in "${!in_groups[@]}"; do
            [[ "$first" == "$g/"* ]] && n=$((n + 1))
        done
        printf '%-11s %3d  the tests in tests/%s/\n' "$g" "$n" "$g"
    done
    exit 0
fi

# The test's source under tests/ (its line in tests/groups): a C test by
# its source, a shell test by itself.
source_of() {
    case "$1" in
        "$build"/tests/*) echo "${1#"$build"/tests/}.c" ;;
        *) echo "${1#tests/}" ;;
    esac
}
chosen() {
    local src=$1 g
    [ ${#want[@]} -eq 0 ] && return 0
    for g in "${want[@]}"; do
        [[ "${in_groups[$src]} ${src%%/*} " == *" $g "* ]] && return 0
    done
    return 1
}

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
    src=$(source_of "$t")
    if [ -z "${in_groups[$src]+x}" ]; then
        echo "skip  $t: no tests/$src (built from a source since renamed?)"
        continue
    fi
    chosen "$src" || continue
    if [ "$dry" = 1 ]; then
        case "$t" in *.sh) echo "${t#tests/}" ;; *) echo "${t#"$build"/tests/}" ;; esac
        continue
    fi
    case "$t" in
        *.sh) run_one "${t#tests/}" bash "$t" "$build" ;;
        *) run_one "${t#"$build"/tests/}" "$t" ;;
    esac
done

[ "$dry" = 1 ] && exit 0
if [ ${#failures[@]} -gt 0 ]; then
    echo "failed: ${failures[*]}"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
