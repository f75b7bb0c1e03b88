# shellcheck shell=bash
# Shared helpers for the bench scripts: sourced, not run.
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

# The most guests parallax takes as -h options (core/options.h); the rest
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
