#!/bin/bash
# Reported versus real time and fairness, from a guest: a private pmcd with
# pmdaparallax under faketime at 1.1 host seconds per second (the agent
# and its workloads inherit the clock). Batch runs sleep and sched on the
# host and the guest: the report's Time section shows the guest's sleeps
# by its own clock and what the host saw of them (through the clock model,
# within 3% of the injected 1/1.1), the JSON carries the same figures, and
# the fairness table has a column per source, each with the CPUs its
# tasks may use. Then j2, started through the agent's control metric and
# through parallax-run on the host, gives the Jain index its two tasks'
# wall times give (how fair the machine is is not asserted: other load
# may favour a task).
set -u
export LANG=C.UTF-8 LC_ALL=
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
. "$here/pmcd.sh"
use_build

work=$(mktemp -d)
trap 'pmcd_stop "$work/g/pmcd"; rm -rf "$work"' EXIT
port=$(free_port) || fail "no free port"
pmcd_faketime 1.1 pmcd_start_agent "$work/g" "$port" ||
    fail "pmcd with the agent under faketime"

rc=0
"$bin" --batch sleep,sched -r 1 -t 0.3 -h "fast=localhost:$port" \
    -o "$work/r.txt" 2>"$work/err" || rc=$?
if [ "$rc" -ne 0 ]; then
    cat "$work/err" "$work/r.txt"
    fail "batch exited $rc"
fi
sed -n '/^TIME/,/^-- end/p' "$work/r.txt"

# sleep 1s took  HOST p99 +Nus  GUEST host saw SAW  RATIO
line=$(grep -E '^sleep 1s took ' "$work/r.txt") || fail "no 'sleep 1s took' line"
secs() { awk '{ print ($0 ~ /ms$/) ? $0 / 1000 : $0 + 0 }'; } # "913ms" -> s
read -r took saw <<<"$(echo "$line" |
    sed -nE 's/.* ([0-9.]+m?s) host saw ([0-9.]+m?s) .*/\1 \2/p')"
[ -n "${saw:-}" ] || fail "no host view of the guest's sleep: $line"
took=$(echo "$took" | secs) saw=$(echo "$saw" | secs)
awk -v t="$took" -v s="$saw" 'BEGIN { r = s * 1.1 / t; exit !(r > 0.97 && r < 1.03) }' ||
    fail "host saw $saw s of a $took s sleep; want about $took/1.1"
echo "$line" | grep -qE '^sleep 1s took +1\.0[0-9]+s p99 \+[0-9.]+(us|ms)' ||
    fail "the host's own sleep line: $line"
echo "ok: the guest's 1 s sleeps took $took s by its clock, the host saw $saw s"

python3 - "$work/r.json" <<'PY' || fail "JSON sleep_workload figures"
import json, sys
d = json.load(open(sys.argv[1]))
g = d["sources"][1]["time"]["sleep_workload"]
assert [round(x["requested_s"], 3) for x in g] == [0.001, 0.01, 1.0], g
s = g[2]
assert abs(s["host_saw_s"] * 1.1 / s["took_s"] - 1) < 0.03, s
assert d["sources"][0]["time"]["sleep_workload"][2]["host_saw_s"] is None
x = {e["name"]: e["value"] for e in d["sources"][1]["workloads"]["sched"]["extras"]}
assert x["jN wall actual"] > 0 and 0 < x["jain index (throughput)"] <= 1, x
PY
echo "ok: the JSON has the same sleeps and the guest's fairness extras"

grep -qE '^SCHEDULER FAIRNESS \(sched, last repeat on each source\)' \
    "$work/r.txt" || fail "no fairness section"
grep -qE '^fairness +host +fast +x$' "$work/r.txt" || fail "fairness columns"
ncpu=$(nproc) # the CPUs this test, parallax and the pmcd it starts may use
for row in "tasks/cpus +3/$ncpu +3/$ncpu +-" 'jN expected s( +[0-9.]+){3}' \
    'Jain index( +[0-9.]+){3}' 'task 3 wall s( +[0-9.]+){3}'; do
    grep -qE "^$row\$" "$work/r.txt" || fail "fairness row /$row/"
done
echo "ok: the fairness table has the host's and the guest's columns"

# j2 on both sides: the index is Jain's over the tasks' throughputs (the
# same work each, so 1 / their wall times)
# pminfo prints a string with its tabs and newlines as they are
extra() { sed -n "s/^$1\t[^\t]*\t\([0-9.e+-]*\)\$/\1/p"; } # NAME UNIT VALUE
pmstore -h "localhost:$port" parallax.control.start "sched tasks=2 --repeats=1" \
    >/dev/null || fail "start sched tasks=2 on the agent"
done_() { pminfo -h "localhost:$port" -f parallax.workload.state |
    grep -q '"sched"] value "done"'; }
wait_for 60 done_ || fail "sched did not finish on the agent"
pminfo -h "localhost:$port" -f parallax.workload.extras >"$work/g.extras"
g="$(extra 'jain index (throughput)' <"$work/g.extras") $(extra 'task 1 jN wall' <"$work/g.extras") $(extra 'task 2 jN wall' <"$work/g.extras")"
"$PARALLAX_BUILD/parallax-run" sched tasks=2 -r 1 >"$work/h.out"
hx() { sed -n "s/^ *$1 .* \([0-9.]*\)\$/\1/p" "$work/h.out"; }
h="$(hx 'jain index (throughput)') $(hx 'task 1 jN wall') $(hx 'task 2 jN wall')"
echo "j2 Jain index, task walls: guest $g, host $h"
# jain J W1 W2 TOL: J is Jain's index of 1/W1 and 1/W2 within TOL (the
# host's figures are printed to 3 digits)
jain_of() {
    awk -v j="$1" -v a="$2" -v b="$3" -v t="$4" 'BEGIN {
        x = 1 / a; y = 1 / b; want = (x + y) ^ 2 / (2 * (x * x + y * y))
        exit !(a > 0 && b > 0 && j > 0 && j <= 1 && (j - want) ^ 2 <= t * t) }'
}
# shellcheck disable=SC2086
jain_of $g 1e-6 || fail "the guest's Jain index is not its tasks': $g"
# shellcheck disable=SC2086
jain_of $h 0.005 || fail "the host's Jain index is not its tasks': $h"
echo "ok: j2's Jain index is its tasks' on both sides: guest $g, host $h"
