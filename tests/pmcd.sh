# A private pmcd for tests: sourced, not run. Each one listens on its own
# port with its own config, socket and log under a directory the test owns,
# and is stopped by PID; the system's pmcd is never touched.
PMCD_BIN=$(. /etc/pcp.conf && echo "$PCP_BINADM_DIR/pmcd")
PMDAS_DIR=$(. /etc/pcp.conf && echo "$PCP_PMDAS_DIR")

# free_port: prints a loopback TCP port nobody answers on.
free_port() {
    local p
    for _ in $(seq 50); do
        p=$((40000 + RANDOM % 20000))
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
            echo "$p"
            return 0
        fi
    done
    return 1
}

# pmcd_start DIR PORT [CONFIG_LINES]: starts pmcd with the linux and pmcd
# PMDAs as DSOs (plus CONFIG_LINES, e.g. another agent), stores refused
# except from local connections; waits until it answers.
pmcd_start() {
    local dir=$1 port=$2 extra=${3:-}
    mkdir -p "$dir"
    cat >"$dir/pmcd.conf" <<CONF
pmcd	2	dso	pmcd_init	$PMDAS_DIR/pmcd/pmda_pmcd.so
linux	60	dso	linux_init	$PMDAS_DIR/linux/pmda_linux.so
$extra
[access]
disallow ".*" : store;
disallow ":*" : store;
allow "local:*" : all;
CONF
    PCP_RUN_DIR=$dir "$PMCD_BIN" -f -A -U root -p "$port" \
        -s "$dir/pmcd.socket" -c "$dir/pmcd.conf" -l "$dir/pmcd.log" \
        -x "$dir/pmcd.err" </dev/null >/dev/null 2>&1 &
    echo $! >"$dir/pid"
    wait_for 15 pminfo -h "localhost:$port" hinv.ncpu >/dev/null 2>&1 || {
        cat "$dir/pmcd.log" >&2
        return 1
    }
}

# pmcd_stop DIR: stops the pmcd started in DIR, if it still runs.
pmcd_stop() {
    local dir=$1 pid
    pid=$(cat "$dir/pid" 2>/dev/null) || return 0
    kill "$pid" 2>/dev/null && wait_for 10 bash -c "! kill -0 $pid 2>/dev/null"
    rm -f "$dir/pid"
}
