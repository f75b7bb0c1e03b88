# A private pmcd for tests: sourced, not run. Each one listens on its own
# port with its own config, socket and log under a directory the test owns,
# and is stopped by PID; the system's pmcd is never touched.
PMCD_BIN=$(. /etc/pcp.conf && echo "$PCP_BINADM_DIR/pmcd")
PMDAS_DIR=$(. /etc/pcp.conf && echo "$PCP_PMDAS_DIR")
PMCD_WRAP=()

# free_port: prints a loopback TCP port nobody answers on, below the
# kernel's ephemeral range: a port in that range can be nobody's listener
# yet the local end of some connection, and then pmcd's IPv4 bind fails
# (seen: 53548, pmcd up on IPv6 only, unreachable on 127.0.0.1).
free_port() {
    local p lo=32768
    read -r lo _ </proc/sys/net/ipv4/ip_local_port_range 2>/dev/null
    [ "$lo" -ge 13024 ] 2>/dev/null || lo=32768 # keep clear of ports < 1024
    for _ in $(seq 50); do
        p=$((lo - 12000 + RANDOM % 12000))
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
            echo "$p"
            return 0
        fi
    done
    return 1
}

# pmcd_start DIR PORT [CONFIG_LINES [ACCESS]]: starts pmcd with the linux
# and pmcd PMDAs as DSOs (plus CONFIG_LINES, e.g. another agent) and the
# [access] lines ACCESS (default: Debian's, stores only from local
# connections); waits until it answers.
pmcd_start() {
    local dir=$1 port=$2 extra=${3:-}
    local access=${4:-'disallow ".*" : store;
disallow ":*" : store;
allow "local:*" : all;'}
    mkdir -p "$dir"
    cat >"$dir/pmcd.conf" <<CONF
pmcd	2	dso	pmcd_init	$PMDAS_DIR/pmcd/pmda_pmcd.so
linux	60	dso	linux_init	$PMDAS_DIR/linux/pmda_linux.so
$extra
[access]
$access
CONF
    # PMCD_WRAP: a command to run pmcd under, e.g. faketime -f "+0 x1.01"
    # (an array, so its arguments stay whole)
    PCP_RUN_DIR=$dir "${PMCD_WRAP[@]}" "$PMCD_BIN" -f -A -U root -p "$port" \
        -s "$dir/pmcd.socket" -c "$dir/pmcd.conf" -l "$dir/pmcd.log" \
        -x "$dir/pmcd.err" </dev/null >/dev/null 2>&1 &
    echo $! >"$dir/pid"
    wait_for 15 pminfo -h "localhost:$port" hinv.ncpu >/dev/null 2>&1 || {
        cat "$dir/pmcd.log" >&2
        return 1
    }
    # a wrapper (faketime forks and waits) is not pmcd: $dir/pid names
    # pmcd itself (signals go there), $dir/wrapper.pid the wrapper
    local pid
    pid=$(pgrep -f "^$PMCD_BIN .*-s $dir/pmcd.socket" | head -1)
    if [ -n "$pid" ] && [ "$pid" != "$(cat "$dir/pid")" ]; then
        mv "$dir/pid" "$dir/wrapper.pid"
        echo "$pid" >"$dir/pid"
    fi
}

# pmcd_faketime RATE COMMAND...: runs COMMAND (pmcd_start or
# pmcd_start_agent with their arguments) with pmcd, and the agents it
# starts, under faketime at RATE host seconds per second (PMCD_WRAP); fails
# the test when faketime is not installed.
pmcd_faketime() {
    local rate=$1
    shift
    pmcd_faked "+0 x$rate" "$@"
}

# pmcd_faked SPEC COMMAND...: pmcd_faketime with faketime's own
# specification: "+1d" (a day ahead), "-2" (2 s behind), "+0 x1.01".
pmcd_faked() {
    local spec=$1 rc
    shift
    command -v faketime >/dev/null || fail "no faketime; run make deps"
    PMCD_WRAP=(faketime -f "$spec")
    # an ASan-built agent refuses to run after libfaketime is preloaded
    # unless told that this order is meant
    [ -n "${PARALLAX_SANITIZED:-}" ] && PMCD_WRAP=(env
        ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
        "${PMCD_WRAP[@]}")
    "$@"
    rc=$?
    PMCD_WRAP=()
    return "$rc"
}

# pmcd_stop DIR: stops the pmcd started in DIR (and its wrapper), if it
# still runs, and removes what pmcd_start_agent put beside it.
pmcd_stop() {
    local dir=$1 pid
    for pid in $(cat "$dir/pid" "$dir/wrapper.pid" 2>/dev/null); do
        kill "$pid" 2>/dev/null &&
            wait_for 10 bash -c "! kill -0 $pid 2>/dev/null"
    done
    rm -f "$dir/pid" "$dir/wrapper.pid"
    # pmcd_start_agent's copy of the exec helpers
    if [ -f "$dir/helpers" ]; then
        rm -rf "$(cat "$dir/helpers")" "$dir/helpers"
    fi
}

# The domain pmcd_start_agent gives pmdaparallax: not domain.h's, as
# PARALLAX_DOMAIN would give.
PMCD_AGENT_DOMAIN=497

# pmcd_start_agent DIR PORT [ACCESS]: pmcd_start in DIR/pmcd with
# pmdaparallax (from $PARALLAX_BUILD) as a pipe agent under
# PMCD_AGENT_DOMAIN, its namespace (DIR/root) and help (DIR/help) built
# as Install builds them (from PMCD_AGENT_PMNS and PMCD_AGENT_HELP when
# set: an older agent's, else pmda/pmns and pmda/help), its log
# DIR/agent.log; waits until it answers.
pmcd_start_agent() {
    local dir=$1 port=$2 access=${3:-} dom=$PMCD_AGENT_DOMAIN binadm var src
    binadm=$(. /etc/pcp.conf && echo "$PCP_BINADM_DIR")
    var=$(. /etc/pcp.conf && echo "$PCP_VAR_DIR")
    src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/pmda
    mkdir -p "$dir"
    chmod 755 "$dir" # the agent runs as pcp and reads its help here
    cp "$var/pmns/root" "$dir/root"
    # a pmdaparallax installed for the system's pmcd (docs/guests.md) left
    # parallax.* there under its own domain, which pmnsadd would keep: out
    # with it first (pmnsdel fails, harmlessly, when there is none)
    (cd "$dir" && "$binadm/pmnsdel" -n root parallax >/dev/null 2>&1)
    sed "s/PARALLAX:/$dom:/" "${PMCD_AGENT_PMNS:-$src/pmns}" >"$dir/parallax"
    (cd "$dir" && "$binadm/pmnsadd" -n root parallax >/dev/null) || return 1
    sed "s/^@ PARALLAX\./@ $dom./" "${PMCD_AGENT_HELP:-$src/help}" |
        "$binadm/newhelp" -n "$dir/root" -o "$dir/help" || return 1
    local line="parallax	$dom	pipe	binary	$PARALLAX_BUILD/pmdaparallax -d $dom -h $dir/help -l $dir/agent.log -P 0"
    # the agent runs as the PCP user, which may reach neither the build (a
    # clone under /root) nor the test's directory: the exec workloads'
    # helpers go into a directory of their own in /tmp, which pmcd_stop
    # removes
    local lib
    lib=$(mktemp -d /tmp/parallax-helpers.XXXXXX) || return 1
    mkdir -p "$dir/pmcd"
    echo "$lib" >"$dir/pmcd/helpers"
    chmod 755 "$lib"
    cp "$PARALLAX_BUILD/parallax-hello" "$PARALLAX_BUILD/parallax-hello-dyn" \
        "$lib/" || return 1
    PARALLAX_LIBEXEC=$lib PMNS_DEFAULT=$dir/root \
        pmcd_start "$dir/pmcd" "$port" "$line" "$access" &&
        wait_for 10 pminfo -h "localhost:$port" parallax.agent.version \
            >/dev/null 2>&1
}

# agent_running PORT WORKLOAD: the pmdaparallax behind localhost:PORT
# reports WORKLOAD running; agent_not_running: it does not.
agent_running() {
    pminfo -h "localhost:$1" -f parallax.workload.state_code |
        grep -qE "\"$2\"\] value 1\$"
}
agent_not_running() { ! agent_running "$@"; }

# agent_value PORT METRIC INSTANCE: the value the agent behind
# localhost:PORT gives for METRIC's INSTANCE (a workload), a string
# unquoted; nothing when it has none. agent_single PORT METRIC: the same
# for a metric without instances.
agent_value() {
    pminfo -h "localhost:$1" -f "$2" 2>/dev/null |
        sed -n "s/^ *inst \[[0-9]* or \"$3\"\] value \(.*\)\$/\1/p" |
        sed 's/^"\(.*\)"$/\1/'
}
agent_single() {
    pminfo -h "localhost:$1" -f "$2" 2>/dev/null |
        sed -n 's/^ *value \(.*\)$/\1/p' | sed 's/^"\(.*\)"$/\1/'
}

# lease_ends_run PID PORT LEASE LOG: PID is a parallax whose run of
# syscall-null on the agent behind localhost:PORT (logging to LOG) has a
# lease of LEASE s on a clock that keeps real time; once the renewals say
# so (the lease starts at the agent's longest while the guest's rate is
# not known), kill -9 of PID, and the run must end within the lease by
# this host's clock (plus the agent's stop, about 0.2 s, and the polls,
# and what the machine stalled meanwhile), not before the lease less a
# renewal period (LEASE/6), with the agent's
# log saying the lease ran out; sets took to the seconds it took.
lease_ends_run() {
    local pid=$1 port=$2 lease=$3 log=$4 t0 s0
    renewed() {
        agent_single "$port" parallax.control.renew |
            grep -qE "^--lease=$lease(\.[0-9]*)? syscall-null\$" &&
            within "$(agent_value "$port" parallax.workload.lease syscall-null)" 0 "$lease"
    }
    wait_for 10 renewed || fail "parallax does not renew the lease: $(agent_single "$port" parallax.control.renew)"
    kill -9 "$pid"
    t0=$(date +%s.%N) s0=$(stall_s)
    wait_for 10 agent_not_running "$port" syscall-null ||
        fail "the guest's run went on 10 s after parallax was killed (lease $lease s)"
    took=$(since "$t0")
    within_late "$took" "$(awk -v l="$lease" 'BEGIN { print l * 5 / 6 - 0.1 }')" \
        "$(awk -v l="$lease" 'BEGIN { print l + 1.5 }')" "$s0" ||
        fail "the guest's run ended $took s after the kill; the lease is $lease s"
    grep -qE "lease of syscall-null ran out: no renewal in $lease(\.[0-9]*)? s" "$log" ||
        fail "the agent's log does not say the lease ran out"
}

# pmcd_two_agents DIR1 DIR2 [ACCESS2]: pmcd_start_agent in DIR1 and in DIR2
# (with the [access] lines ACCESS2) on the ports PARALLAX_TEST_PORTS="P1
# P2" names, else on free ones; sets p1 and p2. Fails the test when either
# does not start.
pmcd_two_agents() {
    read -r p1 p2 <<<"${PARALLAX_TEST_PORTS:-$(free_port) $(free_port)}"
    [ -n "$p1" ] && [ -n "$p2" ] || fail "no free ports"
    pmcd_start_agent "$1" "$p1" || fail "pmcd with agent on $p1"
    pmcd_start_agent "$2" "$p2" "${3:-}" || fail "pmcd with agent on $p2"
}

# state_poller PORT WORKLOAD: prints "SECONDS STATE" by this host's clock
# each time the agent on PORT shows WORKLOAD in another state, until
# killed: a guest run timed on the host's clock without parallax.
state_poller() {
    local port=$1 wl=$2 last= st now
    while :; do
        st=$(pminfo -h "localhost:$port" -f parallax.workload.state 2>/dev/null |
            sed -n "s/.*\"$wl\"\] value \"\(.*\)\"/\1/p")
        now=$(date +%s.%N)
        [ -n "$st" ] && [ "$st" != "$last" ] && echo "$now $st" && last=$st
    done
}

# poller_span FILE: the seconds from the first "running" to the "done"
# after it in a state_poller's output; nothing when there is none.
poller_span() {
    awk '$2 == "running" { r = $1 } $2 == "done" && r { print $1 - r; exit }' "$1"
}
