#!/bin/bash
# Stores from another host: a network namespace joined to this one by a
# veth pair stands in for the host that runs parallax (10.200.N.2), the
# guest's pmcd listens here (10.200.N.1). Under pmcd's default access list
# the remote host may fetch but not store (PM_ERR_PERMISSION, and nothing
# starts); after the admin's one line `allow "10.200.N.2" : store;` (the
# docs/guests.md's) it may start and stop a workload. All traffic stays on
# addresses of this machine. A renewal of a lease (parallax.control.renew)
# is refused from the remote host like any store: the lease runs out.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
. "$here/pmcd.sh"
use_agent "${1:-}"
command -v ip >/dev/null || fail "no ip (package iproute2)"
[ "$(id -u)" = 0 ] || fail "needs root for a network namespace"

ns=pxns$$
veth=pxa$$
# a /24 no interface of this machine uses yet
for _ in $(seq 20); do
    net=10.200.$((RANDOM % 250 + 1))
    ip -4 addr | grep -q " $net\." || break
done
work=$(mktemp -d)
cleanup() {
    pmcd_stop "$work/pmcd"
    ip link del "$veth" 2>/dev/null
    ip netns del "$ns" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

ip netns add "$ns" || fail "cannot create a network namespace"
ip link add "$veth" type veth peer name pxb$$ &&
    ip link set pxb$$ netns "$ns" &&
    ip addr add "$net.1/24" dev "$veth" && ip link set "$veth" up &&
    ip -n "$ns" addr add "$net.2/24" dev pxb$$ &&
    ip -n "$ns" link set pxb$$ up && ip -n "$ns" link set lo up ||
    fail "cannot set up the veth pair"
echo "ok: namespace $ns at $net.2, this host at $net.1"

port=$(free_port) || fail "no free port"
pmcd_start_agent "$work" "$port" || fail "pmcd did not start"
remote=$net.1:$port
inns() { ip netns exec "$ns" "$@"; }
wait_for 10 inns pminfo -h "$remote" parallax.agent.version >/dev/null 2>&1 ||
    fail "the namespace cannot reach pmcd at $remote"
echo "ok: pmcd at $remote reachable from the namespace"

state() {
    inns pminfo -h "$remote" -f parallax.workload.state 2>/dev/null |
        sed -n 's/^ *inst \[[0-9]* or "syscall-null"\] value "\(.*\)"$/\1/p'
}
[ "$(state)" = idle ] || fail "remote fetch of the state failed"
if inns pmstore -h "$remote" parallax.control.start syscall-null \
    >"$work/out" 2>&1; then
    fail "a remote store was accepted under the default access list"
fi
grep -q 'No permission' "$work/out" || fail "not PM_ERR_PERMISSION: $(cat "$work/out")"
[ "$(state)" = idle ] || fail "the refused store started something"
grep -q 'Info: started' "$work/agent.log" && fail "the agent saw the store"
echo "ok: remote fetch allowed, remote store refused: $(cat "$work/out")"

# a lease's renewal is a store like any other: refused from the remote
# host, so a run started here with a lease ends when it runs out
idle() { [ "$(state)" = idle ]; }
pmstore -h "localhost:${remote##*:}" parallax.control.start \
    "syscall-null --duration=60 --lease=2" >"$work/out" 2>&1 ||
    fail "local start with a lease: $(cat "$work/out")"
if inns pmstore -h "$remote" parallax.control.renew syscall-null \
    >"$work/out" 2>&1; then
    fail "a remote renewal was accepted under the default access list"
fi
grep -q 'No permission' "$work/out" || fail "renewal not PM_ERR_PERMISSION: $(cat "$work/out")"
wait_for 6 idle || fail "the lease did not run out"
echo "ok: remote renewal refused: $(cat "$work/out"); the lease ran out"

# the guest's admin opts in for this one host
echo "allow \"$net.2\" : store;" >>"$work/pmcd/pmcd.conf"
kill -HUP "$(cat "$work/pmcd/pid")"
stored() {
    inns pmstore -h "$remote" parallax.control.start \
        "syscall-null --duration=60" >"$work/out" 2>&1
}
wait_for 10 stored || fail "store still refused after the allow line: $(cat "$work/out")"
running() { [ "$(state)" = running ]; }
wait_for 5 running || fail "not running after the remote start"
inns pmstore -h "$remote" parallax.control.stop syscall-null >/dev/null 2>&1 ||
    fail "remote stop refused"
wait_for 5 idle || fail "not idle after the remote stop"
if inns pminfo -h "$remote" -f pmcd.version >/dev/null 2>&1; then :; else
    fail "remote fetch refused after the allow line"
fi
echo "ok: after 'allow \"$net.2\" : store;' the remote host starts and stops"
echo "all remote-store checks passed"
