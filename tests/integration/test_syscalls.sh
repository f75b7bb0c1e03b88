#!/bin/bash
# The syscalls/s row: off by default (n/a, and a guest's agent keeps its
# tracepoint closed: fetching parallax.syscalls.total would open it); with
# --syscalls this host counts raw_syscalls:sys_enter itself (as root) and a
# guest's pmdaparallax counts its own, both as rates; a host workload run
# closes the host's counter (its figure must not pay for it).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
. "$here/pmcd.sh"
use_build

[ "$(id -u)" = 0 ] || fail "needs root: perf counting of raw_syscalls:sys_enter"
work=$(mktemp -d)
tmux_use syscalls
cleanup() {
    tmux_stop
    pmcd_stop "$work/g/pmcd"
    rm -rf "$work"
}
trap cleanup EXIT
port=$(free_port) || fail "no free port"
pmcd_start_agent "$work/g" "$port" || fail "pmcd with pmdaparallax on $port"
status() { pminfo -h "localhost:$port" -f parallax.syscalls.status | sed -n 's/.*value "\(.*\)"/\1/p'; }

# the row: label, host figure, sparkline cells, guest figure, ..., ratio
row() { grep -E '^syscalls/s' "$1" | tail -1; }

out=$work/off.txt
"$bin" --text -n 3 -t 0.5 -h "g=localhost:$port" >"$out" || fail "--text exited $?"
row "$out" | grep -qE '^syscalls/s +n/a .* n/a .* n/a$' ||
    fail "counted without --syscalls: '$(row "$out")'"
status | grep -q '^closed' || fail "the agent's counter opened: $(status)"
echo "ok: off by default, the guest's tracepoint left closed"

out=$work/on.txt
"$bin" --text -n 3 -t 0.5 --syscalls -h "g=localhost:$port" >"$out" ||
    fail "--text --syscalls exited $?"
line=$(row "$out")
echo "$line" | grep -qE '^syscalls/s +[0-9.]+[kMG]? .* [0-9.]+[kMG]? .* [0-9.]+$' ||
    fail "no host figure, guest figure and ratio: '$line'"
status | grep -q '^counting' || fail "the agent is not counting: $(status)"
echo "ok: counted on the host and in the guest: $line"

# a host run closes this host's counter: the row reads n/a while it runs,
# and counts again after it
tmux_new 120 70 "$bin -t 0.5 -r 2 --syscalls; sleep 30" # room for every row
wait_for 10 has '^syscalls/s +[0-9.]+[kMG]? ' || { screen; fail "no count on screen"; }
tm send-keys -t t Down Up Space # the first workload: syscall-null
wait_for 10 has '^> syscall-null ' || { screen; fail "the run did not start"; }
wait_for 5 has '^syscalls/s +n/a ' || { screen; fail "counted while the host ran"; }
wait_for 40 has '^  syscall-null +[0-9.]+(ns|µs) ' || { screen; fail "the run did not end"; }
wait_for 5 has '^syscalls/s +[0-9.]+[kMG]? ' || { screen; fail "no count after the run"; }
echo "ok: closed while a host workload ran, counting again after it"
echo "all syscalls checks passed"
