#!/bin/bash
# Install and Remove, the PCP way, against the system's pmcd: Install (run
# in $PCP_PMDAS_DIR/parallax, where make install puts the files) registers
# the agent and its metrics appear; pmdaroot starts it as root and it runs
# as the PCP user with its workloads; PARALLAX_DOMAIN moves it to another
# domain; Remove takes it out and pmcd carries on. pmcd.conf and the
# namespace are restored byte for byte, and pmcd is stopped again only if
# this test started it. Skipped (saying so) when pmdaparallax is already
# installed there: an admin's agent is not ours to remove.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
build=${PARALLAX_BUILD:-$here/../${1:-build}}
agent=$build/pmdaparallax
[ -x "$agent" ] || fail "no $agent; run make build"
eval "$(sed -n 's/^\(PCP_[A-Z_]*\)=\(.*\)$/\1=\2/p' /etc/pcp.conf)"
dir=$PCP_PMDAS_DIR/parallax
conf=$PCP_PMCDCONF_PATH
nsroot=$PCP_VAR_DIR/pmns/root

# the scripts are pmdaproc.sh scripts whatever happens below
for s in Install Remove; do
    sh -n "$here/../pmda/$s" || fail "$s: syntax"
    grep -q '^\. \$PCP_SHARE_DIR/lib/pmdaproc.sh$' "$here/../pmda/$s" ||
        fail "$s does not source pmdaproc.sh"
    grep -q '^iam=parallax$' "$here/../pmda/$s" || fail "$s: iam"
done
grep -q '^pmdaInstall$' "$here/../pmda/Install" || fail "Install: pmdaInstall"
grep -q '^pmdaRemove$' "$here/../pmda/Remove" || fail "Remove: pmdaRemove"
echo "ok: Install and Remove are pmdaproc.sh scripts"

[ "$(id -u)" = 0 ] || fail "Install and Remove need root"
if [ -e "$dir" ] || grep -q '^parallax[[:space:]]' "$conf"; then
    echo "skip: pmdaparallax is already installed here ($dir); not touching it"
    exit 0
fi

work=$(mktemp -d)
log=$PCP_LOG_DIR/pmcd/parallax.log
had_log=false
[ -e "$log" ] && had_log=true
cp -p "$conf" "$work/pmcd.conf"
cp -p "$nsroot" "$work/root"
started=false
cleanup() {
    if [ -d "$dir" ]; then
        (cd "$dir" && ./Remove >/dev/null 2>&1)
        rm -rf "$dir"
    fi
    cmp -s "$work/pmcd.conf" "$conf" || cp -p "$work/pmcd.conf" "$conf"
    cmp -s "$work/root" "$nsroot" || cp -p "$work/root" "$nsroot"
    if $started; then
        local pid
        pid=$(cat "$PCP_RUN_DIR/pmcd.pid" 2>/dev/null)
        [ -n "$pid" ] && kill "$pid" 2>/dev/null &&
            wait_for 10 bash -c "! kill -0 $pid 2>/dev/null"
    fi
    $had_log || rm -f "$log" "$log.prev"
    rm -rf "$work"
}
trap cleanup EXIT

# pmcd itself, not its rc script: that one refuses to start while any
# other pmcd runs (the private ones of other tests or benchmarks). From
# its log directory, as the rc script starts it: its agents log into the
# current directory.
if ! pminfo pmcd.version >/dev/null 2>&1; then
    (cd "$PCP_LOG_DIR/pmcd" && "$PCP_BINADM_DIR/pmcd" -A) >"$work/start" 2>&1 ||
        fail "cannot start pmcd: $(tr "\n" " " <"$work/start")"
    started=true
    wait_for 30 pminfo pmcd.version >/dev/null 2>&1 || fail "pmcd not up"
fi
echo "ok: system pmcd up (started by this test: $started)"

# what make install puts there
mkdir -p "$dir"
install -m 755 "$agent" "$here/../pmda/Install" "$here/../pmda/Remove" "$dir/"
install -m 644 "$here/../pmda/"{pmns,root,help,domain.h} "$dir/"

(cd "$dir" && ./Install </dev/null) >"$work/install" 2>&1 ||
    fail "Install failed: $(cat "$work/install")"
grep -qE 'Check parallax metrics have appeared \.\.\. [0-9]+ metrics and [0-9]+ values' \
    "$work/install" || fail "Install: metrics did not appear: $(cat "$work/install")"
grep -qE '^parallax[[:space:]]+498[[:space:]]+pipe[[:space:]]+binary[[:space:]]+.*pmdaparallax -d 498' \
    "$conf" || fail "pmcd.conf line: $(grep parallax "$conf")"
echo "ok: Install: $(grep -o 'Check parallax.*' "$work/install")"

user=$(pminfo -f parallax.agent.user | sed -n 's/^ *value "\(.*\)"$/\1/p')
[ "$user" = "$PCP_USER" ] || fail "agent runs as '$user', not $PCP_USER"
pmstore parallax.control.start "syscall-null --duration=60" >/dev/null ||
    fail "local store refused"
apid=$(pgrep -x pmdaparallax | head -1)
wuser() { ps -o user= --ppid "$apid" | grep -qx "$PCP_USER"; }
wait_for 5 wuser || fail "no workload running as $PCP_USER: $(ps -o user=,pid=,comm= --ppid "$apid")"
[ "$(ps -o user= -p "$apid" | xargs)" = "$PCP_USER" ] || fail "agent not $PCP_USER"
pmstore parallax.control.stop syscall-null >/dev/null || fail "stop refused"
echo "ok: started by pmdaroot as root, runs as $user, and so does its workload"

(cd "$dir" && PARALLAX_DOMAIN=496 ./Install </dev/null) >"$work/install" 2>&1 ||
    fail "Install with PARALLAX_DOMAIN=496: $(cat "$work/install")"
pminfo -m parallax.agent.version | grep -q 'PMID: 496\.0\.0' ||
    fail "not moved to domain 496: $(pminfo -m parallax.agent.version)"
pminfo -f parallax.agent.version | grep -q 'value "' || fail "no value in 496"
pminfo -t parallax.workload.ops | grep -q 'Operations measured' ||
    fail "help text lost in domain 496"
grep -qE '^parallax[[:space:]]+496[[:space:]].*-d 496' "$conf" ||
    fail "pmcd.conf not moved to 496"
echo "ok: PARALLAX_DOMAIN=496 ./Install moved it to domain 496"

(cd "$dir" && ./Remove </dev/null) >"$work/remove" 2>&1 ||
    fail "Remove failed: $(cat "$work/remove")"
grep -q 'Check parallax metrics have gone away ... OK' "$work/remove" ||
    fail "Remove: $(cat "$work/remove")"
grep -q '^parallax' "$conf" && fail "Remove left the pmcd.conf line"
pminfo parallax >/dev/null 2>&1 && fail "parallax names left in the namespace"
pminfo -f pmcd.version >/dev/null 2>&1 || fail "pmcd unhealthy after Remove"
gone() { ! pgrep -x pmdaparallax >/dev/null; }
wait_for 10 gone || fail "pmdaparallax still running after Remove"
echo "ok: Remove: names and agent gone, pmcd still answers"
echo "all Install/Remove checks passed"
