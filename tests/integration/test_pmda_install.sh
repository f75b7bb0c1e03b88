#!/bin/bash
# Install and Remove, the PCP way (pmdaproc.sh), run in a pmdas/parallax
# directory filled as make install fills it, twice:
#   private: against a pmcd of this test's own on its own port
#     (tests/pmcd.sh), pmdaproc.sh pointed at it through PCP's environment
#     (PCP_PMCDCONF_PATH, PCP_VAR_DIR and PMNS_DEFAULT for the namespace,
#     PCP_LOG_DIR, PCP_RUN_DIR and PMCD_PORT for its pminfo, pmprobe and
#     pmcd_wait, PCP_RC_DIR and PCP_SYSTEMDUNIT_DIR so that nothing can
#     restart the system's pmcd); the system's pmcd.conf and namespace must
#     stay byte for byte as they were.
#   system: against the system's pmcd, where pmdaroot starts the agent as
#     root; when pmcd is not up, the test starts it the standard way (see
#     start_system_pmcd) and stops it again at the end. It fails,
#     saying so, when pmdaparallax is already installed there: an admin's
#     agent is not ours to remove, and a skip would pass silently.
# Each time Install registers the agent and its metrics appear; it runs as
# the PCP user with its workloads; PARALLAX_DOMAIN moves it to another
# domain; Remove takes it out, the agent ends and pmcd carries on.
# pmdaproc.sh signals pmcd with "pmsignal -a -s HUP pmcd" and culls old
# agents with "pmsignal -s TERM <every pmdaparallax>": every pmcd and every
# agent on the machine (other tests', benchmarks'). A pmsignal first on
# PATH narrows that to the pmcd under test and the agents it started, and
# logs what it was asked.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
. "$here/pmcd.sh"
use_agent "${1:-}"
src=$here/../pmda
eval "$(sed -n 's/^\(PCP_[A-Z_]*\)=\(.*\)$/\1=\2/p' /etc/pcp.conf)"

# the scripts are pmdaproc.sh scripts whatever happens below
static_checks() {
    local s
    for s in Install Remove; do
        sh -n "$src/$s" || fail "$s: syntax"
        grep -q '^\. \$PCP_SHARE_DIR/lib/pmdaproc.sh$' "$src/$s" ||
            fail "$s does not source pmdaproc.sh"
        grep -q '^iam=parallax$' "$src/$s" || fail "$s: iam"
    done
    grep -q '^pmdaInstall$' "$src/Install" || fail "Install: pmdaInstall"
    grep -q '^pmdaRemove$' "$src/Remove" || fail "Remove: pmdaRemove"
    echo "ok: Install and Remove are pmdaproc.sh scripts"
}

work=$(mktemp -d)
chmod 755 "$work" # the agent runs as the PCP user and reads its help here
sys_dir=$PCP_PMDAS_DIR/parallax
sys_conf=$PCP_PMCDCONF_PATH
sys_root=$PCP_VAR_DIR/pmns/root
sys_log=$PCP_LOG_DIR/pmcd/parallax.log
sys_started=false
sys_touched=false
had_log=false
[ -e "$sys_log" ] && had_log=true
cp -p "$sys_conf" "$work/sys.pmcd.conf"
cp -p "$sys_root" "$work/sys.root"

cleanup() {
    pmcd_stop "$work/pmcd"
    if $sys_touched; then
        if [ -d "$sys_dir" ]; then
            (cd "$sys_dir" && PATH=$work/shim:$PCP_BINADM_DIR:$PATH ./Remove \
                >/dev/null 2>&1)
            rm -rf "$sys_dir"
        fi
        cmp -s "$work/sys.pmcd.conf" "$sys_conf" || cp -p "$work/sys.pmcd.conf" "$sys_conf"
        cmp -s "$work/sys.root" "$sys_root" || cp -p "$work/sys.root" "$sys_root"
        $had_log || rm -f "$sys_log" "$sys_log.prev"
    fi
    if $sys_started; then
        local pid
        pid=$(cat "$PCP_RUN_DIR/pmcd.pid" 2>/dev/null)
        [ -n "$pid" ] && kill "$pid" 2>/dev/null &&
            wait_for 10 bash -c "! kill -0 $pid 2>/dev/null"
    fi
    rm -rf "$work"
}
trap cleanup EXIT

# descendants PID: PID's live descendants (zombies have ended), as "pid
# comm parent's-comm" lines.
descendants() {
    ps -e -o pid=,ppid=,stat=,comm= | awk -v top="$1" '
        $3 !~ /^Z/ { parent[$1] = $2; comm[$1] = $4 }
        END {
            for (p in parent) {
                for (q = parent[p]; q > 1; q = parent[q])
                    if (q == top) { print p, comm[p], comm[parent[p]]; break }
            }
        }'
}

# agents PMCD_PID: the pmdaparallax processes that pmcd started (directly
# or through pmdaroot), with the agent's helper; none of anyone else's.
agents() { descendants "$1" | awk '$2 == "pmdaparallax" { print $1 }'; }

# agent PMCD_PID: the agent itself (not its helper, a pmdaparallax too).
agent() {
    descendants "$1" | awk '$2 == "pmdaparallax" && $3 != "pmdaparallax" { print $1 }'
}

# make_shim DIR PMCD_PID: DIR/pmsignal, the narrowed pmsignal (see the top);
# it logs to DIR/log.
make_shim() {
    mkdir -p "$1"
    cat >"$1/pmsignal" <<EOF
#!/bin/bash
# pmsignal for pmdaproc.sh under test: only pmcd $2 and what it started
sig=TERM all=false
while [ \$# -gt 0 ]; do
    case \$1 in
    -a) all=true ;;
    -s) sig=\${2#SIG} && shift ;;
    *) break ;;
    esac
    shift
done
if \$all; then
    [ "\$*" = pmcd ] || { echo "refused: -a \$*" >>"$1/log"; exit 1; }
    kill -s "\$sig" $2 && echo "sent \$sig to pmcd $2" >>"$1/log"
    exit
fi
ours=" \$(ps -e -o pid=,ppid= | awk -v top=$2 '
    { parent[\$1] = \$2 }
    END { for (p in parent) for (q = parent[p]; q > 1; q = parent[q])
              if (q == top) { printf "%s ", p; break } }') "
for p in "\$@"; do
    if [[ \$ours == *" \$p "* ]]; then
        kill -s "\$sig" "\$p" && echo "sent \$sig to agent \$p" >>"$1/log"
    else
        echo "spared \$p (not pmcd $2's)" >>"$1/log"
    fi
done
EOF
    chmod 755 "$1/pmsignal"
}

# put_files DIR: what make install puts into $PCP_PMDAS_DIR/parallax.
put_files() {
    mkdir -p "$1"
    install -m 755 "$agent" "$src/Install" "$src/Remove" "$1/"
    install -m 644 "$src/"{pmns,root,help,domain.h} "$1/"
}

# value METRIC: the value pminfo -f prints for a singular metric (through
# pcpenv, the environment that reaches the pmcd under test).
value() {
    pcpenv pminfo -f "$1" 2>&1 | sed -n 's/^ *value "\{0,1\}\([^"]*\)"\{0,1\}$/\1/p'
}

# exercise LEG DIR CONF PMCD_PID: Install, checks, Install in another
# domain, Remove, checks, in DIR (a .../pmdas/parallax) for the pmcd
# PMCD_PID whose control file is CONF. pcpenv runs a command in the
# environment that reaches that pmcd; PATH holds the shim.
exercise() {
    local leg=$1 dir=$2 conf=$3 pmcd=$4 out=$work/$1.out user apid
    (cd "$dir" && pcpenv ./Install </dev/null) >"$out" 2>&1 ||
        fail "$leg: Install failed: $(cat "$out")"
    grep -qE 'Check parallax metrics have appeared \.\.\. [0-9]+ metrics and [0-9]+ values' \
        "$out" || fail "$leg: Install: metrics did not appear: $(cat "$out")"
    grep -qE "^parallax[[:space:]]+498[[:space:]]+pipe[[:space:]]+binary[[:space:]]+$dir/pmdaparallax -d 498" \
        "$conf" || fail "$leg: pmcd.conf line: $(grep parallax "$conf")"
    echo "ok: $leg: Install: $(grep -o 'Check parallax.*' "$out")"

    user=$(value parallax.agent.user)
    [ "$user" = "$PCP_USER" ] || fail "$leg: agent runs as '$user', not $PCP_USER"
    pcpenv pmstore parallax.control.start "syscall-null --duration=60" >/dev/null ||
        fail "$leg: local store refused"
    apid=$(agent "$pmcd")
    [ -n "$apid" ] || fail "$leg: no pmdaparallax under pmcd $pmcd"
    wuser() { ps -o user= --ppid "$apid" | grep -qx "$PCP_USER"; }
    wait_for 5 wuser ||
        fail "$leg: no workload running as $PCP_USER: $(ps -o user=,pid=,comm= --ppid "$apid")"
    [ "$(ps -o user= -p "$apid" | xargs)" = "$PCP_USER" ] || fail "$leg: agent not $PCP_USER"
    pcpenv pmstore parallax.control.stop syscall-null >/dev/null || fail "$leg: stop refused"
    echo "ok: $leg: the agent runs as $user, and so does its workload"

    (cd "$dir" && PARALLAX_DOMAIN=496 pcpenv ./Install </dev/null) >"$out" 2>&1 ||
        fail "$leg: Install with PARALLAX_DOMAIN=496: $(cat "$out")"
    pcpenv pminfo -m parallax.agent.version | grep -q 'PMID: 496\.0\.0' ||
        fail "$leg: not moved to domain 496: $(pcpenv pminfo -m parallax.agent.version)"
    [ -n "$(value parallax.agent.version)" ] || fail "$leg: no value in 496"
    pcpenv pminfo -t parallax.workload.ops | grep -q 'Operations measured' ||
        fail "$leg: help text lost in domain 496"
    grep -qE '^parallax[[:space:]]+496[[:space:]].*-d 496' "$conf" ||
        fail "$leg: pmcd.conf not moved to 496"
    echo "ok: $leg: PARALLAX_DOMAIN=496 ./Install moved it to domain 496"

    (cd "$dir" && pcpenv ./Remove </dev/null) >"$out" 2>&1 ||
        fail "$leg: Remove failed: $(cat "$out")"
    grep -q 'Check parallax metrics have gone away ... OK' "$out" ||
        fail "$leg: Remove: $(cat "$out")"
    grep -q '^parallax' "$conf" && fail "$leg: Remove left the pmcd.conf line"
    pcpenv pminfo parallax >/dev/null 2>&1 && fail "$leg: parallax names left in the namespace"
    pcpenv pminfo -f pmcd.version >/dev/null 2>&1 || fail "$leg: pmcd unhealthy after Remove"
    no_agents() { [ -z "$(agents "$pmcd")" ]; }
    wait_for 10 no_agents ||
        fail "$leg: pmdaparallax still running after Remove: $(descendants "$pmcd" | xargs)"
    echo "ok: $leg: Remove: names and agent gone, pmcd still answers"
}

# check_shim LEG: pmdaproc.sh's signals went through the shim, to its pmcd.
check_shim() {
    grep -q '^sent HUP to pmcd ' "$work/$1.shim/log" ||
        fail "$1: pmdaproc.sh never signalled pmcd through the shim: $(cat "$work/$1.shim/log" 2>&1)"
    local log=$work/$1.shim/log
    echo "ok: $1: pmdaproc.sh's signals narrowed: $(grep -c 'to pmcd' "$log")" \
        "to its pmcd, $(grep -c 'to agent' "$log") to its agents," \
        "$(grep -c '^spared' "$log") to others' agents held back"
}

private_leg() {
    local port root=$work/private
    port=${PMCD_TEST_PORT:-} # a fixed port where ports are shared out
    [ -n "$port" ] || port=$(free_port) || fail "no free port"
    mkdir -p "$root/var/pmns" "$root/log/pmcd" "$root/rc"
    cp "$sys_root" "$root/var/pmns/root"
    # nothing may restart a pmcd (__restore_pmcd would start the system's)
    printf '#!/bin/sh\necho "rc: not starting pmcd $*" >&2\nexit 1\n' >"$root/rc/pmcd"
    chmod 755 "$root/rc/pmcd"
    # the environment that points PCP's tools (and pmcd, and through it the
    # agent, which finds its help in $PCP_PMDAS_DIR) at this pmcd
    local pcp_vars=(PCP_PMCDCONF_PATH="$work/pmcd/pmcd.conf"
        PCP_PMDAS_DIR="$root/pmdas" PCP_VAR_DIR="$root/var"
        PMNS_DEFAULT="$root/var/pmns/root" PCP_LOG_DIR="$root/log"
        PCP_RUN_DIR="$work/pmcd" PMCD_PORT="$port"
        PCP_RC_DIR="$root/rc" PCP_SYSTEMDUNIT_DIR="$root/rc")
    # pmcd from its log directory, as the rc script starts it: its agents
    # log into the current directory
    (cd "$root/log/pmcd" && export "${pcp_vars[@]}" &&
        pmcd_start "$work/pmcd" "$port") || fail "private pmcd did not start on $port"
    local pmcd
    pmcd=$(cat "$work/pmcd/pid")
    make_shim "$work/private.shim" "$pmcd"
    pcpenv() {
        env PATH="$work/private.shim:$PCP_BINADM_DIR:$PATH" "${pcp_vars[@]}" "$@"
    }
    pcpenv pminfo -f pmcd.pmlogger.port >/dev/null 2>&1 # warm up
    [ "$(pcpenv pminfo -f pmcd.pid 2>/dev/null | sed -n 's/^ *value //p')" = "$pmcd" ] ||
        fail "private: pminfo does not reach pmcd $pmcd through the environment"
    echo "ok: private: pmcd $pmcd on port $port, reached through PCP's environment"
    put_files "$root/pmdas/parallax"
    exercise private "$root/pmdas/parallax" "$work/pmcd/pmcd.conf" "$pmcd"
    check_shim private
    cmp -s "$work/sys.pmcd.conf" "$sys_conf" || fail "private: the system's pmcd.conf changed"
    cmp -s "$work/sys.root" "$sys_root" || fail "private: the system's namespace changed"
    echo "ok: private: the system's pmcd.conf and namespace untouched"
    pmcd_stop "$work/pmcd"
}

# start_system_pmcd: the standard way, pcp's rc script, which also makes
# $PCP_RUN_DIR on a machine that never ran pmcd (Debian's pcp has no
# tmpfiles.d file for it). That script first stops every process named
# pmcd and refuses to start beside one it did not start, so next to the
# private pmcds of other tests or benchmarks pmcd itself is started,
# from its log directory as the rc script starts it; that needs the run
# directory a standard start made since boot.
start_system_pmcd() {
    local others
    others=$(pgrep -x pmcd | xargs)
    if [ -z "$others" ]; then
        "$PCP_RC_DIR/pmcd" start >"$work/start" 2>&1 ||
            fail "$PCP_RC_DIR/pmcd start failed: $(tr "\n" " " <"$work/start")"
        echo "ok: system: pmcd started the standard way ($PCP_RC_DIR/pmcd start)"
        return
    fi
    [ -d "$PCP_RUN_DIR" ] ||
        fail "no $PCP_RUN_DIR, and other pmcds run ($others), so pcp's rc" \
            "script, which makes it, cannot start pmcd here; run this test" \
            "where no other pmcd runs, or start pmcd once the standard way" \
            "($PCP_RC_DIR/pmcd start) when none does"
    (cd "$PCP_LOG_DIR/pmcd" && "$PCP_BINADM_DIR/pmcd" -A) >"$work/start" 2>&1 ||
        fail "cannot start pmcd: $(tr "\n" " " <"$work/start")"
    echo "ok: system: pmcd started by itself, beside other pmcds ($others)"
}

system_leg() {
    [ "$(id -u)" = 0 ] || fail "Install and Remove against the system's pmcd need root"
    local found=()
    [ -e "$sys_dir" ] && found+=("$sys_dir exists")
    grep -q '^parallax[[:space:]]' "$sys_conf" &&
        found+=("$sys_conf has '$(grep -m 1 '^parallax' "$sys_conf" | tr -s '[:space:]' ' ')'")
    [ ${#found[@]} = 0 ] ||
        fail "pmdaparallax is already installed for the system's pmcd" \
            "(${found[*]}); this test installs and removes its own, so" \
            "take that one out first (./Remove in $sys_dir)"
    if ! pminfo pmcd.version >/dev/null 2>&1; then
        start_system_pmcd
        sys_started=true
        wait_for 30 pminfo pmcd.version >/dev/null 2>&1 ||
            fail "pmcd not up: $(tr "\n" " " <"$work/start")"
    fi
    local pmcd
    pmcd=$(pminfo -f pmcd.pid | sed -n 's/^ *value //p')
    [ -n "$pmcd" ] || fail "system: no pmcd.pid"
    echo "ok: system: pmcd $pmcd up (started by this test: $sys_started)"
    make_shim "$work/system.shim" "$pmcd"
    pcpenv() { env PATH="$work/system.shim:$PCP_BINADM_DIR:$PATH" "$@"; }
    sys_touched=true
    put_files "$sys_dir"
    exercise system "$sys_dir" "$sys_conf" "$pmcd"
    check_shim system
}

static_checks
private_leg
system_leg
echo "all Install/Remove checks passed"
