# shellcheck shell=bash
# The latency references' (latency_ref.sh, wakeup_ref.sh) shared parts:
# the median over rounds, the agreement test (within 10% or one of the
# latency histogram's buckets, 12.2%, plus half a 1 us bin, whichever is
# wider), and the CPU hogs beside the loaded rounds. Sourced, not run.
# the median of the rounds that gave a figure (numbers on stdin)
median() { grep -E '^[0-9.]+$' | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
agree() { # ref ours -> "ok" or "DIFF"
    awk -v r="$1" -v o="$2" 'BEGIN {
        tol = r * 0.10; b = r * (10 ^ (1 / 20) - 1) + 0.5; if (b > tol) tol = b
        d = o - r; if (d < 0) d = -d
        printf "%s (|%.1f| vs %.1f)", d <= tol ? "ok" : "DIFF", d, tol }'
}
# load_start / load_stop: stress-ng --cpu 2 beside a round, its pid in
# stress_pid (the caller's cleanup kills it too)
load_start() {
    stress-ng --cpu 2 --timeout 0 >/dev/null 2>&1 &
    stress_pid=$!
    sleep 1
}
load_stop() {
    if [ -n "$stress_pid" ]; then
        kill "$stress_pid" 2>/dev/null; wait "$stress_pid" 2>/dev/null; stress_pid=
    fi
}
