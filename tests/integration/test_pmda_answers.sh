#!/bin/bash
# +pmda only while pmdaparallax answers (issue 16.12). A pmcd whose
# namespace lists parallax.* but that runs no agent for it reads "no pmda"
# (it read +pmda, and Space then failed with "Unknown or illegal metric
# identifier"); a guest whose agent dies turns to "no pmda", and back to
# +pmda when pmcd restarts the agent.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
. "$here/pmcd.sh"
use_build

work=$(mktemp -d)
cleanup() {
    [ -n "${ppid:-}" ] && kill "$ppid" 2>/dev/null
    pmcd_stop "$work/a/pmcd"
    pmcd_stop "$work/none/pmcd"
    rm -rf "$work"
}
trap cleanup EXIT
read -r p1 p2 <<<"$(free_port) $(free_port)"

# the agent's namespace, as pmcd_start_agent builds it, for a pmcd that
# runs no agent
pmcd_start_agent "$work/a" "$p1" || fail "pmcd with pmdaparallax on $p1"
PMNS_DEFAULT=$work/a/root pmcd_start "$work/none/pmcd" "$p2" ||
    fail "pmcd without the agent on $p2"
pminfo -h "localhost:$p2" parallax.control.start >/dev/null ||
    fail "the namespace lacks parallax.*"

out=$work/out.txt
"$bin" --text -n 2 -t 0.5 -h "none=localhost:$p2" -h "a=localhost:$p1" \
    >"$out" || fail "--text exited $?"
# the row saying how each source is read: "[HOST ]/proc  ... no pmda ..."
backends=$(grep -E "/proc +" "$out" | tail -1 | tr -s ' ')
echo "$backends" | grep -qE "/proc .*no pmda .*\+pmda" ||
    fail "not 'no pmda' for the agentless pmcd and +pmda for a: '$backends'"
echo "ok: a namespace without an agent reads no pmda: $backends"

# the agent dies under a running parallax, then pmcd starts it again
log=$work/run.txt
"$bin" --text -t 0.5 -h "a=localhost:$p1" >"$log" &
ppid=$!
agent() { grep -E '/proc +' "$log" | tail -1; }
wait_for 10 bash -c "grep -E '/proc +' '$log' | tail -1 | grep -q '+pmda'" ||
    fail "a never read +pmda"
pkill -f "^$PARALLAX_BUILD/pmdaparallax .*-h $work/a/help" ||
    fail "no agent to stop"
wait_for 10 bash -c "grep -E '/proc +' '$log' | tail -1 | grep -q 'no pmda'" ||
    { agent; fail "+pmda still shown after the agent died"; }
echo "ok: the agent died: $(agent | tr -s ' ')"
kill -HUP "$(cat "$work/a/pmcd/pid")" # pmcd restarts the agents it lost
wait_for 40 bash -c "grep -E '/proc +' '$log' | tail -1 | grep -q '+pmda'" ||
    { agent; fail "+pmda not back after pmcd restarted the agent"; }
echo "ok: the agent is back: $(agent | tr -s ' ')"
