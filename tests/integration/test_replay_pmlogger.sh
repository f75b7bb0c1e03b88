#!/bin/bash
# Archives from plain pmlogger replay too (issue 19): a real pmlogger
# records a private pmcd with pmdaparallax while a workload runs there,
# and another records one without the agent's metrics. Replayed with -a,
# each shows its counters (with rates) and says on stderr what it lacks
# (no clock rows: pmlogger holds no host timestamps); the agent's workload
# figure reaches the recorded column of a batch, lined up with the live
# run, equal to what pmdumplog reads in the archive.
set -u
export LANG=C.UTF-8 LC_ALL=
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
. "$here/pmcd.sh"
use_build

work=$(mktemp -d)
loggers=()
trap 'for p in "${loggers[@]}"; do kill "$p" 2>/dev/null; done
      pmcd_stop "$work/g1/pmcd"; rm -rf "$work"' EXIT
port=$(free_port) || fail "no free port"
pmcd_start_agent "$work/g1" "$port" || fail "pmcd with the agent"

counters="kernel.all.cpu.user kernel.all.cpu.sys kernel.all.cpu.idle
    kernel.all.cpu.wait.total kernel.all.cpu.steal kernel.all.pswitch
    kernel.all.sysfork kernel.all.intr kernel.all.runnable kernel.all.load
    disk.all.read_bytes disk.all.write_bytes mem.physmem mem.util.available
    kernel.uname.nodename kernel.uname.release hinv.ncpu"
printf 'log mandatory on every 1 second {\n%s\nparallax.workload parallax.clock\n}\n' \
    "$counters" >"$work/with.config"
printf 'log mandatory on every 1 second {\n%s\n}\n' "$counters" >"$work/plain.config"

# logger NAME SAMPLES: pmlogger records NAME for SAMPLES seconds
logger() {
    pmlogger -h "localhost:$port" -c "$work/$1.config" -s "$2" -t 1 \
        -l "$work/$1.log" "$work/$1/arch" </dev/null >/dev/null 2>&1 &
    loggers+=($!)
}
mkdir -p "$work/with" "$work/plain"
logger with 10
logger plain 5
wait_for 10 test -s "$work/with/arch.0" || fail "pmlogger did not start: $(cat "$work/with.log")"
pmstore -h "localhost:$port" parallax.control.start \
    "syscall-null --repeats=2 --duration=0.5 --warmup=0.1" >/dev/null ||
    fail "pmstore could not start a workload"
for p in "${loggers[@]}"; do wait "$p"; done
loggers=()
pmdumplog "$work/with/arch" parallax.workload.stats.median >"$work/dump" 2>&1 ||
    fail "pmdumplog: $(tail -2 "$work/dump")"
want=$(awk '/"syscall-null"/ { v = $NF } END { print v }' "$work/dump")
[ -n "$want" ] || fail "pmlogger recorded no syscall-null figure: $(tail "$work/dump")"
echo "ok: pmlogger recorded the agent's syscall-null median $want"

for kind in with plain; do
    "$bin" --text -n 10 -t 0.5 -a "$kind=$work/$kind/arch" >"$work/$kind.txt" \
        2>"$work/$kind.err" || fail "-a $kind exited $?: $(cat "$work/$kind.err")"
    grep -q "^parallax: $kind: .*no clock rows: not recorded by parallax" \
        "$work/$kind.err" || fail "what $kind lacks is not said: $(cat "$work/$kind.err")"
    python3 - "$work/$kind.txt" "$kind" <<'PY' || fail "$kind's counters do not replay"
import sys
block = open(sys.argv[1], encoding="utf-8").read().strip().split("\n\n")[-1]
lines = block.split("\n")
rows = {r[:16].strip(): r for r in lines}
assert f" {sys.argv[2]} " in lines[1], block  # the column is there
for label in ("ctx switch/s", "CPU user %", "interrupts/s", "memory used"):
    cell = rows[label][16 + 28:16 + 28 + 8].strip()
    assert cell not in ("n/a", ""), (label, rows[label])
    assert rows["syscalls/s"][16 + 28:16 + 28 + 8].strip() == "n/a"
print(f"ok: {sys.argv[2]}: counters with rates (ctx switch/s "
      f"{rows['ctx switch/s'][44:52].strip()}), syscalls/s n/a as not logged")
PY
done

"$bin" --batch syscall-null -r 1 -a "pl=$work/with/arch" -o "$work/b.txt" \
    2>"$work/err" || fail "batch next to the pmlogger archive exited $?: $(cat "$work/err")"
python3 - "$work/b.json" "$want" <<'PY' || fail "the agent's recorded figure is not shown"
import json, sys
src = [s for s in json.load(open(sys.argv[1]))["sources"] if s["name"] == "pl"][0]
got = src["workloads"]["syscall-null"]["median"]
assert abs(got - float(sys.argv[2])) <= 1e-6 * got, (got, sys.argv[2])
print(f"ok: the batch shows the pmlogger archive's syscall-null {got:.3f}, "
      f"ratio {src['workloads']['syscall-null']['ratio']:.2f}")
PY
echo "all pmlogger checks passed"
