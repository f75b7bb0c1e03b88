# shellcheck shell=bash source-path=SCRIPTDIR
# Shared helpers for the bench scripts: sourced, not run. Brings in the
# tests' helpers (tests/lib.sh: wait_for; tests/pmcd.sh: free_port,
# pmcd_start, pmcd_stop) and sets the terminal and locale.
bench_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bench_name=$(basename "$0" .sh)
# shellcheck source=../tests/lib.sh
. "$bench_here/../tests/lib.sh"
# shellcheck source=../tests/pmcd.sh
. "$bench_here/../tests/pmcd.sh"

# Same terminal and locale for every program: htop and parallax both size
# their drawing (and UTF-8 sparklines) from these.
export TERM=xterm-256color LANG=C.UTF-8
unset LC_ALL LC_CTYPE LC_NUMERIC

# die MESSAGE: "SCRIPT: MESSAGE" on stderr, exit 2 (could not measure).
die() {
    echo "$bench_name: $*" >&2
    exit 2
}

# bench_parallax BUILD_DIR USAGE: sets parallax to BUILD_DIR's parallax
# (absolute); dies with USAGE when BUILD_DIR is empty or holds none.
bench_parallax() {
    [ -n "$1" ] || die "usage: $2"
    parallax=$(cd "$1" 2>/dev/null && pwd)/parallax || true
    [ -x "$parallax" ] || die "no parallax binary in '$1'; run 'make build'"
}

# bench_section [HEADER]: the start of one part of make bench, run alone or
# by bench.sh: tmp, a new directory, is XDG_STATE_HOME (parallax's log goes
# there, not to ~); the script's cleanup runs at exit, and INT, TERM and
# HUP exit 130 through it; out, when empty (run alone), becomes
# bench/out/SCRIPT-TIMESTAMP.txt, begun with HEADER (shown too) when given.
# shellcheck disable=SC2120 # HEADER is for the parts that have one
bench_section() {
    tmp=$(mktemp -d "/tmp/parallax-$bench_name.XXXXXX")
    export XDG_STATE_HOME=$tmp
    trap cleanup EXIT
    trap 'echo "$bench_name: interrupted" >&2; exit 130' INT TERM HUP
    if [ -z "$out" ]; then
        mkdir -p "$bench_here/out"
        out="$bench_here/out/$bench_name-$(date +%Y%m%d-%H%M%S).txt"
        if [ -n "${1:-}" ]; then
            printf '%s\n' "$1" | tee "$out"
        else
            : >"$out"
        fi
    fi
}

# bench_section_end RC: appends the part's table ($tmp/section) to out and
# shows it; exits 1 when RC is 1 (a target missed) and BENCH_STRICT=1.
bench_section_end() {
    tee -a "$out" <"$tmp/section"
    if [ "$1" = 1 ] && [ "${BENCH_STRICT:-0}" = 1 ]; then exit 1; fi
}

# pmcd_fetches PORT...: the fetch requests the pmcds on PORT... have
# received in all (PCP 6 clients send the highres kind), this probe's own
# included.
pmcd_fetches() {
    local p sum=0 n
    for p in "$@"; do
        n=$(pmprobe -v -h "localhost:$p" pmcd.pdu_in.fetch \
            pmcd.pdu_in.highres_fetch | awk '{ s += $3 } END { print s + 0 }')
        sum=$((sum + n))
    done
    echo "$sum"
}

# A stand-in for parallax that answers `g` at once, for keyprobe.py's
# floor: bash -c "$stand_in_sh".
# shellcheck disable=SC2016,SC2034 # expanded by the bash that runs it, set for
# the scripts that source this
stand_in_sh='stty raw -echo; echo "CPU user %"
while IFS= read -rsn1 c; do [ "$c" != g ] || echo "add guest"; done'

# A pool of private pmcd instances (tests/pmcd.sh) that many guests share:
# guest K connects to pmcd K % NPMCD through loopback address 127.0.0.(1 +
# K / NPMCD), so every guest is a context of its own with a target of its
# own (parallax refuses the same target twice), without one pmcd each.

# pool_start DIR NPMCD: starts NPMCD pmcds under DIR/pmcdI at once and
# waits for all; their ports go to the array pool_ports. False (with the
# failing pmcd's log on stderr) when one did not answer.
pool_start() {
    local dir=$1 n=$2 i
    pool_ports=()
    local p tries=0
    while ((${#pool_ports[@]} < n && tries++ < 10 * n)); do
        p=$(free_port) || return 1
        [[ " ${pool_ports[*]} " == *" $p "* ]] || pool_ports+=("$p")
    done
    ((${#pool_ports[@]} == n)) || return 1
    local -a jobs=()
    for ((i = 0; i < n; i++)); do
        pmcd_start "$dir/pmcd$i" "${pool_ports[i]}" >/dev/null &
        jobs+=($!)
    done
    local ok=0
    for ((i = 0; i < n; i++)); do wait "${jobs[i]}" || ok=1; done
    return "$ok"
}

# pool_stop DIR: stops every pmcd pool_start started under DIR (by PID),
# all at once, then waits for each (pmcd_stop one by one took seconds).
pool_stop() {
    local d pid
    local -a pids=()
    for d in "$1"/pmcd*; do
        [ -f "$d/pid" ] || continue
        for pid in $(sort -u "$d/pid"); do
            kill "$pid" 2>/dev/null && pids+=("$pid")
        done
        rm -f "$d/pid"
    done
    for pid in "${pids[@]}"; do
        wait_for 10 bash -c "! kill -0 $pid 2>/dev/null" ||
            kill -KILL "$pid" 2>/dev/null || true
    done
    return 0
}

# pool_specs N: the specs of N guests on the pool, "gK=127.0.0.A:PORT",
# one a line.
pool_specs() {
    local n=$1 k np=${#pool_ports[@]}
    for ((k = 0; k < n; k++)); do
        printf 'g%d=127.0.0.%d:%s\n' "$k" $((1 + k / np)) "${pool_ports[k % np]}"
    done
}

# The most guests parallax takes as -h options (cli/options.h); the rest
# are added at its add-guest prompt.
POOL_MAX_H=56

# pool_split N: sets pool_h (parallax's -h options for the first
# POOL_MAX_H guests) and pool_add (the specs of the rest) for N guests.
pool_split() {
    local spec k=0
    pool_h=() pool_add=()
    while read -r spec; do
        if ((k++ < POOL_MAX_H)); then pool_h+=(-h "$spec"); else pool_add+=("$spec"); fi
    done < <(pool_specs "$1")
}
