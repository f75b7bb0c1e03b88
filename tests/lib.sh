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

# use_guest_image: use_build, then sets gdir to the demo guest's build
# directory (BUILD/guest), and fails when its image is not built.
use_guest_image() {
    use_build
    gdir=$PARALLAX_BUILD/guest
    [ -s "$gdir/initramfs.cpio.gz" ] || fail "no guest image in $gdir; run make guest"
}

# use_agent [BUILD_DIR]: sets build (PARALLAX_BUILD, else BUILD_DIR in the
# source tree, else build/), exported as PARALLAX_BUILD (pmcd_start_agent
# runs the agent from it), and agent to its pmdaparallax; fails when that
# is not built.
use_agent() {
    local top
    top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
    build=${PARALLAX_BUILD:-$top/${1:-build}}
    export PARALLAX_BUILD=$build
    agent=$build/pmdaparallax
    [ -x "$agent" ] || fail "no $agent; run make build"
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

# within VALUE LO HI: VALUE (a decimal number) is from LO to HI.
within() { awk -v s="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(s >= lo && s <= hi) }'; }

# since T: the seconds from T (date +%s.%N) to now, to the hundredth.
since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }'; }

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

# The screen tests drive the real TUI in a tmux server of their own.
# tmux_use NAME [-J]: names that server (socket NAME-PID, in sock) for the
# helpers below; -J makes screen join wrapped lines.
tmux_use() {
    sock=$1-$$
    screen_join=${2:-}
}

# tm ARGS...: tmux on the test's own server.
tm() { tmux -L "$sock" "$@"; }

# tmux_stop: kills the test's server and removes its socket file (tmux 3.3
# leaves it behind).
tmux_stop() {
    tm kill-server 2>/dev/null
    rm -f "/tmp/tmux-$(id -u)/$sock"
}

# screen: what window t shows; has ERE / hasnt ERE: whether a line of it
# matches ERE.
screen() { tm capture-pane -p ${screen_join:+"$screen_join"} -t t; }
has() { screen | grep -qE "$1"; }
hasnt() { ! has "$1"; }

# tmux_new WIDTH HEIGHT COMMAND: starts the server with one window, t, of
# WIDTHxHEIGHT running COMMAND, in an xterm-256color with a UTF-8 locale
# (exported, so that what the test runs later gets them too).
tmux_new() {
    export TERM=xterm-256color LANG=C.UTF-8
    tm -f /dev/null new-session -d -s t -x "$1" -y "$2" "$3"
}

# tmux_shell WIDTH HEIGHT [TERMINAL]: tmux_new with a plain bash at the
# prompt "PROMPT$ ", in a window that keeps the size resize-window gives
# it; TERMINAL, when given, becomes tmux's default-terminal. Fails the
# test when no prompt shows.
tmux_shell() {
    tmux_new "$1" "$2" "bash --norc --noprofile" || fail "tmux did not start"
    tm set-option -g window-size manual
    [ -z "${3:-}" ] || tm set-option -g default-terminal "$3"
    tm send-keys -t t "PS1='PROMPT\$ '; clear" Enter
    wait_for 5 has '^PROMPT\$' || fail "no shell prompt"
}

# tmux_parallax COMMAND_LINE: at tmux_shell's prompt, clears the screen and
# runs COMMAND_LINE (a parallax with its environment and options), which
# then echoes EXIT=its status; fails the test when no CPU figure shows
# within 10 s.
tmux_parallax() {
    tm send-keys -t t "clear; $*; echo EXIT=\$?" Enter
    wait_for 10 has '^CPU user % +[0-9]+\.[0-9]' || { screen; fail "no figures ($*)"; }
}

# row_ratios NAME NSRC: the guests' ratios on the screen's row of workload
# NAME, one a line, when it shows a finished figure on each of NSRC sources
# (host first): a finished cell ends in the interval of its median
# ("1.10µs..1.31µs"), and each guest's is followed by its ratio. Fails
# otherwise.
row_ratios() {
    screen | awk -v name="$1" -v nsrc="$2" '
        $1 == name || ($1 == ">" && $2 == name) {
            n = 0
            ok = 1
            for (i = 1; i <= NF; i++)
                if ($i ~ /^[<0-9.]+[^ ]*\.\.[0-9.]+/) {
                    n++
                    if (n > 1) {
                        ok = ok && $(i + 1) ~ /^<?[0-9.]+$/
                        r[n] = $(i + 1)
                    }
                }
            # not it (the status line names workloads too): the next line
            if (!ok || n != nsrc)
                next
            for (k = 2; k <= n; k++) print r[k]
            found = 1
            exit 0
        }
        END { exit !found }'
}

# workload_figures NAME NSRC: the screen's row of workload NAME shows a
# finished figure on each of NSRC sources (host first) and a ratio after
# every guest's, the run over.
workload_figures() {
    row_ratios "$1" "$2" >/dev/null
}

# run_workload NAME DOWNS [NSRC [MIN]]: on the live screen (tmux_use with
# -J), selects workload NAME (DOWNS rows below the first), starts it with
# Space on every source, waits up to 120 s for its figures on NSRC sources
# (2) and checks every guest's ratio is above MIN (1; in a sanitized build
# only that it exists: a fork there copies ASan's shadow mappings).
run_workload() {
    local name=$1 downs=$2 nsrc=${3:-2} min=${4:-1} r i
    [ -z "${PARALLAX_SANITIZED:-}" ] || min=0
    tm send-keys -t t Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up
    for ((i = 0; i < downs; i++)); do tm send-keys -t t Down; done
    tm send-keys -t t Space
    wait_for 10 has "^> $name " || { screen; fail "$name did not start"; }
    wait_for 120 workload_figures "$name" "$nsrc" ||
        { screen; fail "$name gave no figures on $nsrc sources"; }
    for r in $(row_ratios "$name" "$nsrc" | tr -d '<'); do
        awk -v r="$r" -v m="$min" 'BEGIN { exit !(r > m) }' ||
            fail "$name ratio $r not above $min: $(screen | grep -E "^[> ] $name ")"
    done
    echo "ok: $(screen | grep -E "^[> ] $name " | sed 's/  */ /g')"
}
