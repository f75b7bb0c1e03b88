# shellcheck shell=bash
# The latency references' (latency_ref.sh, wakeup_ref.sh) shared parts:
# the median over rounds, the agreement test (within 10% or one of the
# latency histogram's buckets, 12.2%, plus half a 1 us bin, whichever is
# wider), the CPU hogs beside the loaded rounds, and their start: a copy
# of parallax-run a rebuild cannot touch, a work directory, the cleanup.
# Sourced, not run.

# ref_begin NAME BUILD: checks stress-ng and BUILD's parallax-run (NAME's
# one-line error, exit 2), copies it into a new $work as $run, and clears
# both (and the hogs) at exit.
ref_begin() {
    command -v stress-ng >/dev/null ||
        { echo "$1: no stress-ng; make deps installs it" >&2; exit 2; }
    run=$2/parallax-run
    [ -x "$run" ] || { echo "$1: no $run; run make first" >&2; exit 2; }
    work=$(mktemp -d)
    cp "$run" "$work/parallax-run" && run=$work/parallax-run # a rebuild meanwhile cannot touch it
    stress_pid=
    trap ref_cleanup EXIT
}
ref_cleanup() {
    load_stop
    rm -rf "$work"
}
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
