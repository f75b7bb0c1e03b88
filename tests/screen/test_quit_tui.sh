#!/bin/bash
# Every way out of the live screen, with a real guest (a private pmcd with
# pmdaparallax) running a long workload this parallax started there:
#   q then y, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGALRM: parallax exits
#     (0, or 128 + the signal), the terminal has left the alternate screen
#     with the cursor shown and the keypad off, the guest's run is stopped,
#     and TMPDIR holds no parallax-wl.* of the host's run;
#   a closed terminal (the tmux window killed), with or without a SIGHUP
#     reaching parallax: it ends, the guest's run is stopped;
#   SIGKILL and SIGSEGV (a fault): the host's run directory goes all the
#     same; the guest's run, out of reach, goes on until its lease runs
#     out (here 600 s: test_lease_tui.sh checks that it does), and the next
#     parallax shows it running (not started by it), and Space on it, or
#     x, stops it.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
. "$here/pmcd.sh"
use_build

work=$(mktemp -d)
mkdir "$work/tmp"
tmux_use parallax-quit -J
cleanup() {
    tmux_stop
    pmcd_stop "$work/g/pmcd"
    rm -rf "$work"
}
trap cleanup EXIT
port=$(free_port) || fail "no free port"
pmcd_start_agent "$work/g" "$port" || fail "pmcd with the agent"

no_run_dirs() { [ -z "$(ls -A "$work/tmp")" ]; }
# restored: tmux's view of the pane: not in the alternate screen, cursor
# shown, keypad (application cursor keys) off
restored() {
    [ "$(tm display -p -t t '#{alternate_on} #{cursor_flag} #{keypad_cursor_flag}')" = "0 1 0" ]
}
cmd="TMPDIR=$work/tmp $bin -r 50 --lease 600 -h g=localhost:$port"
# the parallax of cmd, by its command line (the oldest: its runs share it)
pid_of() { pgrep -o -f "^$bin -r 50 --lease 600 -h g=localhost:$port\$"; }

# start: parallax at the shell's prompt, syscall-null started on the host
# and the guest
start() {
    tmux_parallax "$cmd"
    wait_for 15 has '\+pmda' || { screen; fail "g not live with pmdaparallax"; }
    tm send-keys -t t Down Up Space
    wait_for 10 agent_running "$port" syscall-null || { screen; fail "not running on g"; }
    wait_for 5 bash -c "ls '$work/tmp' | grep -q parallax-wl" ||
        fail "no run directory on the host"
}

tmux_shell 150 40
for way in q TERM HUP QUIT USR1 ALRM; do
    start
    if [ "$way" = q ]; then
        tm send-keys -t t q
        wait_for 5 has 'stop them and quit\? \(y/n\)' || { screen; fail "q did not ask"; }
        tm send-keys -t t y
        want=0
    else
        kill -s "$way" "$(pid_of)" || fail "no parallax to signal"
        want=$((128 + $(kill -l "$way")))
    fi
    wait_for 10 has "^EXIT=[0-9]+\$" || { screen; fail "$way: parallax did not end"; }
    has "^EXIT=$want\$" || { screen; fail "$way: exit status not $want"; }
    restored || fail "$way: terminal not restored: $(tm display -p -t t \
        'alternate #{alternate_on} cursor #{cursor_flag} keypad #{keypad_cursor_flag}')"
    wait_for 5 agent_not_running "$port" syscall-null || fail "$way: the guest's run goes on"
    wait_for 5 no_run_dirs || fail "$way: left $(ls "$work/tmp")"
    echo "ok: $way: exit $want, terminal restored, guest's run stopped, no run directory"
done

# a closed terminal: parallax alone in a tmux of its own (tmux 3.3 dies on
# new-window with window-size manual), which is killed; then the same with
# parallax in a session of its own, which the hangup's SIGHUP misses
for how in "" "setsid -w env"; do
    tmux_stop
    tmux_new 150 40 "$how $cmd"
    wait_for 15 has '\+pmda' || { screen; fail "closed terminal: g not live"; }
    tm send-keys -t t Down Up Space
    wait_for 10 agent_running "$port" syscall-null || fail "closed terminal: not running on g"
    tmux_stop
    wait_for 5 agent_not_running "$port" syscall-null ||
        fail "closed terminal ($how): the guest's run goes on"
    wait_for 5 no_run_dirs || fail "closed terminal ($how): left $(ls "$work/tmp")"
    wait_for 5 bash -c "! pgrep -f '^$bin -r 50 --lease 600 -h g=localhost:$port\$' >/dev/null" ||
        fail "closed terminal ($how): parallax still runs"
    echo "ok: closed terminal${how:+ ($how)}: parallax gone, guest's run stopped, no run directory"
done

tmux_shell 150 40

for sig in KILL SEGV; do
    start
    kill -s "$sig" "$(pid_of)"
    wait_for 10 has "^EXIT=[0-9]+\$" || { screen; fail "$sig: parallax did not end"; }
    wait_for 5 no_run_dirs || fail "$sig: left $(ls "$work/tmp")"
    echo "ok: $sig: no run directory left"
    agent_running "$port" syscall-null || fail "$sig: the guest's run ended by itself?"
    [ "$sig" = SEGV ] && { restored || fail "SEGV: terminal not restored"; }

    # the next parallax shows the guest's run; Space on it (after KILL), or
    # x (after SEGV), stops it
    tmux_parallax "$cmd"
    wait_for 15 has '^> syscall-null ' || { screen; fail "$sig: the left run not shown"; }
    key=x
    [ "$sig" = KILL ] && key=Space && tm send-keys -t t Down Up
    tm send-keys -t t "$key"
    wait_for 10 agent_not_running "$port" syscall-null || { screen; fail "$sig: $key did not stop it"; }
    wait_for 5 has '^  syscall-null ' || { screen; fail "$sig: still shown running"; }
    tm send-keys -t t q
    wait_for 5 has '^EXIT=0$' || { screen; fail "$sig: q did not exit 0"; }
    echo "ok: $sig: the next parallax showed the guest's run and $key stopped it"
done
echo "all ways out checked"
