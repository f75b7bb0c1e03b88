#!/bin/bash
# Boots parallax's demo guest (made by guest/build-image.sh) with qemu, or
# with User-Mode Linux (--uml), pmcd's port 44321 forwarded to a free port
# on 127.0.0.1, and stays as the supervisor of qemu (or linux.uml) until
# it ends; "qemu" below stands for either. The contract with callers:
#   stdout  exactly one line, once pmcd in the guest listens:
#             PORT=<port> PID=<qemu pid> ACCEL=<kvm|tcg|uml> LOG=<serial log>
#           then nothing more
#   stderr  progress lines "boot: ...", among them the guest's own steps
#           relayed from its console as "boot: guest [UPTIME s] STEP" (kernel
#           up, network up, clock, starting pmcd); when the guest does not
#           come up, the last line is the reason
#   exit    1 when the guest does not come up (qemu is gone by then).
#           Once up, it runs as long as qemu. SIGTERM/SIGINT/SIGHUP to this
#           script, at any time, stop qemu (SIGTERM, SIGKILL after 5 s),
#           reap it and exit 0; qemu stopped by SIGTERM to its PID also
#           gives 0; qemu ending any other way gives 1
#   death   qemu gets SIGKILL from the kernel when this script dies, however
#           it dies (PR_SET_PDEATHSIG, set through setpriv); this script
#           gets SIGTERM when its own parent dies. So no qemu outlives its
#           caller, provided the caller is a process, not a thread that
#           ends before it (PDEATHSIG follows the parent thread).
#   log     LOG (the serial console: the guest's "parallax-guest: [uptime]
#           ..." lines, then the ready marker) is removed with its qemu
#           messages after an exit 0 when boot.sh chose its name, and when
#           qemu was killed outright (they cannot say why); kept after any
#           other failure, or when boot.sh itself was SIGKILLed
# Run guest/boot.sh --help for the options.
set -eu

READY=PARALLAX-GUEST-READY
FAILED=PARALLAX-GUEST-FAILED

usage() {
    cat <<'EOF'
usage: guest/boot.sh [options]
  -b, --build DIR      guest build directory (default build/guest)
  -c, --cpus N         virtual CPUs, 1 or 2 (default 1)
  -m, --mem SIZE       guest memory (default 128M, 256M with --uml; 96M is
                       the floor)
  -k, --kernel VER     6.1 (default: Debian's cloud kernel, CFS), 6.12 (its
                       6.12 cloud kernel, EEVDF) or 6.12-rt (PREEMPT_RT);
                       fetched through apt and cached (guest/variant-image.sh)
      --prepare        only fetch and build what --kernel needs, then exit
      --icount MODE    the guest's clock follows executed instructions
                       (forces tcg; 1 vCPU only). fast: qemu -icount
                       shift=5,sleep=off, idle time skipped: the clock runs
                       50-850x real time idle, 3-10x busy. slow: -icount
                       shift=0,sleep=on, 1 ns per instruction: the clock
                       keeps real time idle and runs slow while busy (1.5x
                       to 2.6x on a quiet host, more on a loaded one)
      --uml            User-Mode Linux instead of qemu: the kernel runs as a
                       host process (linux.uml), its network through slirp;
                       1 CPU, no KVM, no --icount, the host's own clock
      --port N         with --uml: the port to forward to pmcd first
                       (default: a free one); when slirp finds it taken,
                       boot.sh tries a free one
      --clock MODE     host: set the guest's clock from the host's at boot
                       (default; within a few ms); rtc: keep the emulated
                       RTC's whole seconds (up to 1 s off, unsynchronised)
      --accel MODE     auto (default: kvm if a quick probe boots, else tcg),
                       kvm or tcg
      --net MODE       static (default; 10.0.2.15/24) or dhcp
  -l, --log FILE       serial console log (default BUILD/serial.<pid>.log,
                       removed after a clean stop, kept after a failure)
  -t, --timeout SECS   give up when not ready by then (default 90)
      --selftest       the guest also tries a store itself and logs whether
                       it was refused (tests)
  -v, --verbose        kernel messages and pmcd's log on the serial console
EOF
}

die() {
    say "$*"
    exit 1
}

# say MESSAGE: a progress line. A caller that has gone away (a closed
# pipe) must not end us before we stop qemu and clean up: see main's PIPE
# trap; the failed write is ignored.
say() { echo "boot: $*" >&2 || true; }

parse_args() {
    BUILD=build/guest CPUS=1 MEM='' ICOUNT=0 CLOCK=host KIND=qemu KVER=6.1
    ACCEL=${PARALLAX_GUEST_ACCEL:-auto} NET=static LOG='' TIMEOUT=90
    SELFTEST=0 VERBOSE=0 PREPARE=0 PORT0=''
    while [ $# -gt 0 ]; do
        case $1 in
        -b | --build | -c | --cpus | -m | --mem | -k | --kernel | --icount | \
            --port | --clock | --accel | --net | -l | --log | -t | --timeout)
            [ $# -ge 2 ] || die "$1 needs a value (see guest/boot.sh --help)"
            ;;
        esac
        case $1 in
        -b | --build) BUILD=$2 && shift ;;
        -c | --cpus) CPUS=$2 && shift ;;
        -m | --mem) MEM=$2 && shift ;;
        -k | --kernel) KVER=$2 && shift ;;
        --prepare) PREPARE=1 ;;
        --icount) ICOUNT=$2 && shift ;;
        --uml) KIND=uml ;;
        --port) PORT0=$2 && shift ;;
        --clock) CLOCK=$2 && shift ;;
        --accel) ACCEL=$2 && shift ;;
        --net) NET=$2 && shift ;;
        -l | --log) LOG=$2 && shift ;;
        -t | --timeout) TIMEOUT=$2 && shift ;;
        --selftest) SELFTEST=1 ;;
        -v | --verbose) VERBOSE=1 ;;
        -h | --help) usage && exit 0 ;;
        *) die "unknown option '$1' (see guest/boot.sh --help)" ;;
        esac
        shift
    done
    [[ $CPUS =~ ^[12]$ ]] || die "--cpus takes 1 or 2, not '$CPUS'"
    if [ -z "$MEM" ]; then
        MEM=128M
        [ $KIND = qemu ] || MEM=256M
    fi
    [[ $MEM =~ ^[0-9]+[MG]?$ ]] || die "--mem takes a size like 128M, not '$MEM'"
    [[ $KVER =~ ^(6\.1|6\.12|6\.12-rt)$ ]] ||
        die "--kernel takes 6.1, 6.12 or 6.12-rt, not '$KVER'"
    [[ $ICOUNT =~ ^(0|fast|slow)$ ]] || die "--icount takes fast or slow, not '$ICOUNT'"
    [[ $PORT0 =~ ^([0-9]{1,5})?$ ]] || die "--port takes a port number, not '$PORT0'"
    [[ $CLOCK =~ ^(host|rtc)$ ]] || die "--clock takes host or rtc, not '$CLOCK'"
    [[ $ACCEL =~ ^(auto|kvm|tcg)$ ]] || die "--accel takes auto, kvm or tcg, not '$ACCEL'"
    [[ $NET =~ ^(static|dhcp)$ ]] || die "--net takes static or dhcp, not '$NET'"
    [[ $TIMEOUT =~ ^[0-9]+$ ]] || die "--timeout takes whole seconds, not '$TIMEOUT'"
    # seen here: with -icount the second vCPU never comes up (the kernel
    # stops at "Booting SMP configuration")
    [ "$ICOUNT" = 0 ] || [ "$CPUS" = 1 ] || die "--icount runs 1 vCPU only"
    [ $KIND = qemu ] || uml_args_ok
    # without --log, a log of this boot's own, so that guests booted side
    # by side do not share one; removed after a clean stop (exit 0)
    OWN_LOG=0
    [ -n "$LOG" ] || LOG=$BUILD/serial.$$.log OWN_LOG=1
    QEMU_ERR=${LOG%.log}.$KIND.log
    INITRD=$BUILD/initramfs.cpio.gz
    [ -s "$INITRD" ] || die "no $INITRD; run 'make guest' first"
    if [ $KIND = uml ]; then
        { command -v linux.uml && command -v slirp; } >/dev/null ||
            die "no linux.uml or slirp; run guest/deps.sh"
    else
        command -v qemu-system-x86_64 >/dev/null ||
            die "no qemu-system-x86_64; run guest/deps.sh"
    fi
}

# uml_args_ok: what User-Mode Linux cannot do is refused (its kernel has
# one CPU, reads the host's clock, and is no qemu).
uml_args_ok() {
    [ "$CPUS" = 1 ] || die "--uml runs 1 CPU only (the kernel has NR_CPUS=1)"
    [ "$ICOUNT" = 0 ] || die "--uml has no --icount (that is qemu's)"
    [ "$KVER" = 6.1 ] || die "--uml boots Debian's linux.uml, no --kernel"
    [ "$CLOCK" = host ] || die "--uml reads the host's clock: no --clock rtc"
    [ "$NET" = static ] || die "--uml has no DHCP (slirp's link is point to point)"
    [[ $ACCEL =~ ^(auto|tcg)$ ]] || die "--uml needs no accelerator, not '$ACCEL'"
}

# choose_kernel: KERNEL and INITRD for --kernel; another kernel than the
# image's own is fetched and added to the image first (variant-image.sh,
# its progress relayed as it comes; when it fails, the last line says why
# and names the package).
choose_kernel() {
    local dir=$BUILD out status
    if [ "$KVER" != 6.1 ]; then
        out=$(mktemp)
        "$(dirname "$0")/variant-image.sh" "$BUILD" "$KVER" 2>&1 >"$out" |
            while IFS= read -r line; do
                say "${line#*: }"
                echo "${line#*: }" >"$out.last"
            done
        status=${PIPESTATUS[0]}
        RELEASE=$(cat "$out") LAST=$(cat "$out.last" 2>/dev/null || true)
        rm -f "$out" "$out.last"
        [ "$status" = 0 ] || die "kernel $KVER: ${LAST:-variant-image.sh failed}"
        dir=$BUILD/kernels/$KVER/kernel
        INITRD=$BUILD/kernels/$KVER/initramfs.cpio.gz
        say "kernel $KVER: $RELEASE"
    fi
    # the unpacked kernel boots seconds faster (PVH entry, no decompression)
    KERNEL=$dir/vmlinux
    [ -s "$KERNEL" ] || KERNEL=$dir/vmlinuz
    [ -s "$KERNEL" ] || die "no $KERNEL; run 'make guest' first"
}

# under_pdeathsig SIG: re-executes this script with PR_SET_PDEATHSIG=SIG,
# so it hears of its parent's death (its TERM trap then stops qemu). A
# parent that died before setpriv set it sends nothing: the re-executed
# script then finds another parent than the one before, and goes.
under_pdeathsig() {
    local sig=$1
    shift
    if [ -n "${PARALLAX_BOOT_PDEATHSIG:-}" ]; then
        [ "$PARALLAX_BOOT_PDEATHSIG" = "$PPID" ] ||
            die "the caller ended before the guest booted"
        return 0
    fi
    have_setpriv || return 0
    export PARALLAX_BOOT_PDEATHSIG=$PPID
    exec setpriv --pdeathsig "$sig" -- "$0" "$@"
}

have_setpriv() {
    setpriv --help 2>/dev/null | grep -q -- --pdeathsig
}

# qemu_path PATH: PATH as a value inside a qemu option (commas doubled).
qemu_path() { echo "${1//,/,,}"; }

# kvm_works: boots the kernel without an initramfs under KVM; a usable
# KVM reaches the "no root fs" panic in about a second. Where /dev/kvm is
# not hardware virtualisation, qemu aborts or crawls: both read as no, and
# KVM_WHY says which in a few words (a status line has no room for qemu's
# assertion; --verbose also says qemu's last line). The probe is a child
# like the real qemu (PDEATHSIG, and QPID for the trap).
kvm_works() {
    if [ ! -r /dev/kvm ] || [ ! -w /dev/kvm ]; then
        KVM_WHY="no usable /dev/kvm"
        return 1
    fi
    local probe deadline=$((SECONDS + 8)) ok=1 status=0
    probe=$(mktemp)
    # bash notes a crashed qemu on its stderr: the group sends that nowhere
    {
        "${PDEATH[@]}" qemu-system-x86_64 -accel kvm -cpu host -m 128M \
            -nodefaults -no-user-config -display none -no-reboot \
            -kernel "$KERNEL" -append "console=ttyS0 panic=-1 quiet" \
            -serial "file:$(qemu_path "$probe")" \
            </dev/null >/dev/null 2>"$probe.err" &
        QPID=$!
        while kill -0 "$QPID" && [ $SECONDS -lt $deadline ] &&
            ! grep -q 'Kernel panic' "$probe"; do
            sleep 0.1
        done
        grep -q 'Kernel panic' "$probe" && ok=0
        if [ $ok != 0 ] && kill -0 "$QPID"; then
            KVM_WHY="kvm probe: no boot in 8 s"
        fi
        kill -KILL "$QPID" || true
        wait "$QPID" || status=$?
    } 2>/dev/null
    QPID=
    if [ $ok != 0 ] && [ -z "${KVM_WHY:-}" ]; then
        KVM_WHY="kvm probe: $(exit_words "$status")"
        [ "$VERBOSE" = 0 ] ||
            say "kvm probe: $(grep -v '^$' "$probe.err" | tail -n 1)"
    fi
    rm -f "$probe" "$probe.err"
    return $ok
}

# exit_words STATUS: a shell exit status in a few words.
exit_words() {
    if [ "$1" = 134 ]; then
        echo "qemu aborted"
    elif [ "$1" -gt 128 ]; then
        echo "qemu died of signal $(($1 - 128))"
    else
        echo "qemu exited with status $1"
    fi
}

choose_accel() {
    KVM_WHY=
    if [ $KIND = uml ]; then
        ACCEL=uml
        say "accelerator: none (User-Mode Linux: the guest's kernel is a host process)"
        return
    elif [ "$ICOUNT" != 0 ]; then
        [ "$ACCEL" = kvm ] && die "--icount needs tcg, not kvm"
        ACCEL=tcg KVM_WHY="--icount"
    elif [ "$ACCEL" = auto ]; then
        if kvm_works; then ACCEL=kvm; else ACCEL=tcg; fi
    fi
    say "accelerator: $ACCEL${KVM_WHY:+ ($KVM_WHY)}"
}

# start_qemu: qemu in the background, killed by the kernel if this script
# dies (PDEATH: setpriv --pdeathsig); pmcd's 44321 forwarded from port 0 on the
# loopback, which the kernel turns into a free port (read back below).
start_qemu() {
    # the kernel's crypto self-tests cost over a second of emulated CPU at
    # boot (crypto_algapi_init, crypto_kdf108_init): a demo guest skips them
    # no_timer_check: under TCG on a loaded host the kernel's timing test of
    # the IO-APIC timer fails ("IO-APIC + timer doesn't work!": a panic
    # seen booting beside stress-ng --cpu 2); the timer itself works
    local append="console=ttyS0 panic=-1 cryptomgr.notests no_timer_check"
    append="$append initcall_blacklist=crypto_kdf108_init"
    append="$append parallax_clock=$CLOCK parallax_net=$NET"
    # verbose: the kernel's messages and, once up, pmcd's log
    if [ "$VERBOSE" = 1 ]; then
        append="$append parallax_debug=1"
    else
        append="$append quiet"
    fi
    [ "$SELFTEST" = 1 ] && append="$append parallax_selftest=1"
    # tests may pass more to the guest's init (guest/init's parallax_test_*)
    append="$append ${PARALLAX_GUEST_APPEND:-}"
    local net="user,id=n0,hostfwd=tcp:127.0.0.1:0-:44321"
    # the clock channel: each connection to 10.0.2.100:37 in the guest
    # runs date on the host and gets its time in microseconds (used by the
    # guest's clock-sync with --clock host, and by --selftest)
    net="$net,guestfwd=tcp:10.0.2.100:37-cmd:date +%s%6N"
    # debug-threads=on names qemu's threads ("CPU 0/TCG"): parallax's
    # host's view tells the vCPUs from the emulator's other threads by them
    # shellcheck disable=SC2054 # commas belong to qemu's option syntax
    local args=(-name parallax-guest,debug-threads=on -accel "$ACCEL" -m "$MEM" -smp "$CPUS"
        -nodefaults -no-user-config -display none -no-reboot -rtc base=utc
        -kernel "$KERNEL" -initrd "$INITRD" -append "$append"
        -serial "file:$(qemu_path "$LOG")"
        -netdev "$net" -device virtio-net-pci,netdev=n0)
    [ "$ACCEL" = kvm ] && args+=(-cpu host)
    # fast: 32 ns of virtual time per instruction, idle time skipped; slow:
    # 1 ns per instruction, idle time real (guest/README.md, measured)
    # shellcheck disable=SC2054 # commas belong to qemu's option syntax
    case $ICOUNT in
    fast) args+=(-icount shift=5,sleep=off) ;;
    slow) args+=(-icount shift=0,sleep=on) ;;
    esac
    : >"$LOG"
    "${PDEATH[@]}" qemu-system-x86_64 "${args[@]}" </dev/null >"$QEMU_ERR" 2>&1 &
    QPID=$!
    T0=$EPOCHREALTIME
    say "qemu $QPID started: booting the kernel"
}

# free_port: PORT0 when given (as it is: slirp tells when it is taken),
# else a TCP port nobody listens on, below the kernel's ephemeral range (a
# port there can be the local end of a connection).
free_port() {
    local p=$((20000 + RANDOM % 12000)) hex
    if [ -n "$PORT0" ]; then
        echo "$PORT0"
        return
    fi
    for _ in $(seq 50); do
        printf -v hex '%04X' "$p"
        grep -q ":$hex 0*:0000 0A" /proc/net/tcp /proc/net/tcp6 2>/dev/null || break
        p=$((20000 + RANDOM % 12000))
    done
    echo "$p"
}

# start_uml: linux.uml in the background with the image as its initrd, its
# console on LOG, and slirp (a child of linux.uml, gone with it) as its
# network: guest/uml-slirp.sh forwards PORT on every address (slirp has no
# bind option) to pmcd in the guest, and shows the host to the guest as
# 10.0.2.2, as qemu does. linux.uml gets SIGTERM, not SIGKILL, when we
# die: so it stops its own host processes and removes its umid directory.
start_uml() {
    PORT=$(free_port)
    UMID=parallax-$$-$PORT
    UML_DIR=$BUILD/uml
    mkdir -p "$UML_DIR"
    sweep_uml_dirs
    local append="parallax_clock=uml parallax_net=slirp"
    if [ "$VERBOSE" = 1 ]; then
        append="$append parallax_debug=1"
    else
        append="$append quiet"
    fi
    [ "$SELFTEST" = 1 ] && append="$append parallax_selftest=1"
    : >"$LOG"
    # shellcheck disable=SC2086 # the guest's parameters, one word each
    PARALLAX_SLIRP_PORT=$PORT "${PDEATH_UML[@]}" linux.uml "umid=$UMID" \
        "uml_dir=$UML_DIR" "mem=$MEM" "initrd=$INITRD" rdinit=/init \
        con=null con0=null,fd:1 ssl=null \
        "eth0=slirp,,$(dirname "$0")/uml-slirp.sh" $append \
        </dev/null >"$LOG" 2>"$QEMU_ERR" &
    QPID=$!
    T0=$EPOCHREALTIME
    say "linux.uml $QPID started: booting (umid $UMID, pmcd on port $PORT)"
}

# sweep_uml_dirs: the umid directories of guests whose linux.uml was
# killed outright (it removes its own when it stops).
sweep_uml_dirs() {
    local d pid
    for d in "$UML_DIR"/parallax-*; do
        [ -d "$d" ] || continue
        pid=$(cat "$d/pid" 2>/dev/null) || pid=
        [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && continue
        rm -rf "$d"
    done
}

# port_taken: slirp could not listen on PORT (taken since free_port).
port_taken() { grep -qs 'Redirection failed: Address already in use' "$QEMU_ERR"; }

# listen_port PID: the TCP port PID listens on at 127.0.0.1, from /proc
# (the socket inodes in its fd table, matched in /proc/net/tcp).
listen_port() {
    local inodes
    inodes=$(find "/proc/$1/fd" -lname 'socket:*' -printf '%l\n' 2>/dev/null |
        tr -dc '0-9\n')
    [ -n "$inodes" ] || return 1
    awk -v inodes="$inodes" '
        BEGIN { n = split(inodes, a, "\n"); for (i = 1; i <= n; i++) want[a[i]] = 1 }
        $4 == "0A" && ($10 in want) && $2 ~ /^0100007F:/ {
            print substr($2, 10); exit }' "/proc/$1/net/tcp" |
        while read -r hex; do echo $((16#$hex)); done | grep .
}

# relay_progress: says the guest's progress lines ("parallax-guest:
# [UPTIME] STEP") that reached the serial log since the last call, as
# "guest [UPTIME s] STEP", so that a caller's screen follows the boot.
# LOG_LINES counts the whole lines read so far; a line still being written
# (no newline yet) waits for the next call.
relay_progress() {
    local line
    while IFS= read -r line; do
        LOG_LINES=$((LOG_LINES + 1))
        line=${line%$'\r'}
        if [[ $line =~ ^parallax-guest:\ \[([0-9.]+)\]\ (.*)$ ]]; then
            say "guest [${BASH_REMATCH[1]} s] ${BASH_REMATCH[2]}"
        fi
    done < <(tail -n "+$((LOG_LINES + 1))" "$LOG")
}

# wait_ready: polls the serial log until the guest says ready or failed,
# qemu exits, or the timeout passes, relaying the guest's progress
# meanwhile. Sets PORT (qemu's; a UML guest's is set already). Returns 2
# when slirp found its port taken (a UML guest; stopped by then).
wait_ready() {
    local deadline=$((SECONDS + TIMEOUT)) line
    LOG_LINES=0
    [ $KIND = uml ] || PORT=''
    while :; do
        relay_progress
        if [ $KIND = uml ] && port_taken; then
            stop_qemu
            return 2
        fi
        if ! kill -0 "$QPID" 2>/dev/null; then
            wait "$QPID" 2>/dev/null || true
            QPID=
            die "$VM exited during boot: $(last_words)"
        fi
        [ -n "$PORT" ] || PORT=$(listen_port "$QPID") || PORT=
        line=$(grep -a -m 1 -e "^$READY" -e "^$FAILED" "$LOG" | tr -d '\r') || true
        case $line in
        "$READY"*)
            [ -n "$PORT" ] || PORT=$(listen_port "$QPID") ||
                die "the guest is up, but qemu listens on no port (log: $LOG)"
            return 0
            ;;
        "$FAILED"*) die "guest failed: ${line#"$FAILED" } (log: $LOG)" ;;
        esac
        [ $SECONDS -lt $deadline ] ||
            die "guest not ready after $TIMEOUT s (log: $LOG)"
        sleep 0.1
    done
}

# stopped: the end of a stop on purpose: qemu goes (EXIT trap), the log of
# our own goes, exit 0.
# shellcheck disable=SC2317 # runs from traps
stopped() {
    stop_qemu
    [ "$OWN_LOG" = 1 ] && rm -f "$LOG" "$QEMU_ERR"
    exit 0
}

# elapsed T0: seconds since EPOCHREALTIME was T0, with one decimal.
elapsed() {
    local us=$((${EPOCHREALTIME/[.,]/} - ${1/[.,]/}))
    printf '%d.%d' $((us / 1000000)) $((us % 1000000 / 100000))
}

# qemu_alive: true while qemu runs (a zombie, ended but not yet reaped,
# does not count; nor a qemu bash has reaped already, whose /proc entry is
# gone: the 2>/dev/null comes first so that bash's own "No such file"
# goes nowhere too).
# shellcheck disable=SC2317
qemu_alive() {
    local _pid _comm st
    read -r _pid _comm st _ 2>/dev/null <"/proc/$QPID/stat" && [ "$st" != Z ]
}

# stop_qemu: SIGTERM, SIGKILL after 5 s; reaps it. Polls rather than
# leaving a watchdog in the background: nothing of it may outlive us.
# (Runs from the EXIT trap, which shellcheck does not follow.)
# shellcheck disable=SC2317
stop_qemu() {
    [ -n "${QPID:-}" ] || return 0
    kill -TERM "$QPID" 2>/dev/null || true
    for _ in $(seq 50); do
        qemu_alive || break
        sleep 0.1
    done
    kill -KILL "$QPID" 2>/dev/null || true
    wait "$QPID" 2>/dev/null || true
    QPID=
    [ $KIND = qemu ] || uml_leftovers
}

# uml_leftovers: a linux.uml killed outright (SIGKILL) leaves its other
# host processes, slirp and its umid directory behind; they are ours by
# their umid and port.
# shellcheck disable=SC2317
uml_leftovers() {
    local f pid
    [ -n "${UMID:-}" ] || return 0
    for f in /proc/[0-9]*/cmdline; do
        pid=${f#/proc/}
        pid=${pid%/cmdline}
        case $(tr '\0' ' ' <"$f" 2>/dev/null) in
        *"umid=$UMID "* | "/usr/bin/slirp host addr 10.0.2.2 redir tcp $PORT "*)
            kill -KILL "$pid" 2>/dev/null || true
            ;;
        esac
    done
    rm -rf "${UML_DIR:?}/$UMID"
}

# boot_vm: starts the guest and waits until it is ready. A UML guest whose
# port was taken between free_port and slirp's listen gets another, up to
# five times.
boot_vm() {
    local rc
    if [ $KIND = qemu ]; then
        start_qemu
        wait_ready
        return
    fi
    for _ in 1 2 3 4 5; do
        start_uml
        rc=0
        wait_ready || rc=$?
        [ "$rc" = 2 ] || return 0
        say "port $PORT is taken (slirp: Address already in use); trying another"
        PORT0=
    done
    die "slirp found five ports taken in a row; is something grabbing ports?"
}

# ended STATUS: qemu ended on its own (exit status STATUS): says why, in
# one line, and exits 1. A qemu killed outright by a signal leaves nothing
# in its logs that says why: they go (when ours), the signal is the cause.
ended() {
    local sig
    if [ "$1" -gt 128 ]; then
        sig=$(($1 - 128))
        [ "$OWN_LOG" = 1 ] && rm -f "$LOG" "$QEMU_ERR"
        die "$VM was killed by signal $sig (SIG$(kill -l "$sig")), not stopped by parallax"
    fi
    die "$VM exited with status $1: $(last_words)"
}

# last_words: why qemu ended, by its own last message (or a kernel panic
# on the console), or where to look when it said nothing.
last_words() {
    grep -a -m 1 -o 'Kernel panic.*' "$LOG" 2>/dev/null | tr -d '\r' && return
    grep -v '^$' "$QEMU_ERR" 2>/dev/null | tail -n 1 | grep . ||
        echo "it said nothing (console: $LOG)"
}

main() {
    under_pdeathsig TERM "$@"
    parse_args "$@"
    QPID=
    # qemu (and the KVM probe) get SIGKILL from the kernel when we die
    # linux.uml gets SIGTERM: killed outright it leaves its other host
    # processes behind
    PDEATH=() PDEATH_UML=()
    if have_setpriv; then
        PDEATH=(setpriv --pdeathsig KILL --)
        PDEATH_UML=(setpriv --pdeathsig TERM --)
    fi
    VM=qemu
    [ $KIND = qemu ] || VM=linux.uml
    trap stop_qemu EXIT
    # a write to a caller that died (its pipe closed, its death signal not
    # yet here) fails instead of killing us halfway through a clean stop;
    # a handler, not SIG_IGN, so that qemu does not inherit it
    trap : PIPE
    trap stopped TERM
    trap stopped INT
    trap stopped HUP
    [ $KIND = uml ] || choose_kernel
    [ "$PREPARE" = 0 ] || exit 0
    choose_accel
    boot_vm
    say "ready in $(elapsed "$T0") s: pmcd at 127.0.0.1:$PORT, $VM pid $QPID"
    [ $KIND = qemu ] || say "slirp forwards port $PORT on every address, so other hosts reach this pmcd too: only stores from 10.0.2.2 (this host) are allowed"
    echo "PORT=$PORT PID=$QPID ACCEL=$ACCEL LOG=$LOG"
    local status=0
    wait "$QPID" || status=$?
    QPID=
    # qemu exits 0 on SIGTERM, linux.uml 1 (and 1 on a panic, which the
    # console tells): someone stopped it on purpose
    if [ "$status" = 0 ] ||
        { [ $KIND = uml ] && [ "$status" = 1 ] && ! grep -q -a 'Kernel panic' "$LOG"; }; then
        stopped
    fi
    [ $KIND = qemu ] || uml_leftovers
    ended "$status"
}

main "$@"
