#!/bin/bash
# A guest's clock at another rate neither flatters nor wrongs its figures
# (issue 23.3). Five pmcds with pmdaparallax under faketime at x0.25,
# x0.5, x2, x4 and x10 share this host's CPUs and kernel, so in real time
# their dhry (CPU-bound) and syscall-null (system calls) are the host's.
# On every clock: each repeat lasts as long in real time (parallax asks a
# guest for its clock's seconds: a x10 guest measured a tenth of a real
# second per repeat after 10 ms of warm-up, and read 10% worse, as a
# fresh run is slower in its first 100 ms or so); each figure is what the
# guest said times the rate this test chose; and it is its x1 twin's,
# within what two processes doing the same work differ by. A twin is a
# pmcd with the agent under faketime x1, not the host: its workloads run
# by the same agent under the same libfaketime (a host run is parallax's
# own child, beside its samplers).
#
# Each clock runs at the same time as its twin (--overlap), the two pinned
# to one CPU, so that CPU's speed is theirs alike: this VM's speed drifts
# 25-30% within a minute, on either CPU (parallax-run dhry pinned: 48-64 M
# loops/s; CI's twins run one after another read 46-59 M, and their
# intervals missed the truth). Parallax, its samplers and the host's own
# run (a source of every batch) go on another CPU: beside them, x2's dhry
# read x1.17, x1.14 and x0.85. Two x1 twins on one CPU get fair halves of
# it (2002 and 2002 ms of 4 s) yet do up to 11% more or fewer dhry loops
# than each other (x1.115, x1.108, x0.892, x0.910 in 6 pairs): a figure
# on the guest's clock is off by x2 at least, so the twin check allows
# x0.8 to x1.25. (An --overlap of all eleven sources on 2 CPUs put 5 and
# 6 on a CPU: shares, not clocks, read x0.92 and x1.27.)
#
# For debugging: CLOCKS="2 10" runs only those rates; KEEP=1 leaves the
# work directory (pmcd logs, reports) behind.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
. "$here/pmcd.sh"
use_build

command -v taskset >/dev/null || fail "no taskset (util-linux); run make deps"
work=$(mktemp -d)
clocks="${CLOCKS:-0.25 0.5 2 4 10}"
# the pair on the last CPU; parallax, with its samplers and the host's
# own run (a source of every batch), on the first: unpinned, the host's
# run now and then shared the pair's CPU and took a third of it
cpu=$(($(nproc) - 1))
trap 'for r in $clocks; do pmcd_stop "$work/t$r/pmcd"; pmcd_stop "$work/x$r/pmcd"; done
      [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
for r in $clocks; do
    hosts=()
    for n in "t$r" "x$r"; do
        rate=$r
        [ "${n#t}" = "$n" ] || rate=1
        port=$(free_port) || fail "no free port"
        # pinned in a subshell: pmcd, its agent and their workloads inherit it
        (taskset -cp "$cpu" "$BASHPID" >/dev/null &&
            pmcd_faketime "$rate" pmcd_start_agent "$work/$n" "$port") ||
            fail "pmcd with the agent under faketime x$rate ($n) on cpu $cpu"
        hosts+=(-h "$n=localhost:$port")
    done
    LANG=C taskset -c 0 "$bin" --batch syscall-null,dhry -r 7 --overlap "${hosts[@]}" \
        -o "$work/$r.txt" 2>"$work/err" || { cat "$work/err"; fail "batch x$r exited $?"; }
    sed -n '/^WORKLOADS/,/^INDEX/p' "$work/$r.txt" | grep -E '^(syscall|dhry|  )'
    pmcd_stop "$work/t$r/pmcd"
    pmcd_stop "$work/x$r/pmcd"
done

python3 - "$work" "$clocks" "$cpu" <<'PY' || fail "JSON: real time on every clock"
import json, sys
work, clocks, cpu = sys.argv[1], sys.argv[2].split(), sys.argv[3]
bad = []
for c in clocks:
    rep = json.load(open(f"{work}/{c}.json"))
    src = {s["name"]: s for s in rep["sources"]}
    unit = {w["name"]: w["unit"] for w in rep["workloads"]}
    rate = float(c)
    for wl in ("syscall-null", "dhry"):
        g = src["x" + c]["workloads"][wl]
        t = src["t" + c]["workloads"][wl]
        for w in (g, t):
            assert w["basis"] == "real" and w["state"] == "done", w
            assert w["bracket_ok"], ("the host's clock around the run", w)
        assert abs(g["clock_rate"] / rate - 1) < 0.01, g["clock_rate"]
        assert abs(t["clock_rate"] - 1) < 0.01, t["clock_rate"]
        # the same real length of repeats as the twin's, on any clock
        # (asked for its own seconds as they were, x10's lasted a tenth
        # and x0.25's four times as long; a loaded machine makes each
        # repeat's last batch run over by up to a tenth of a second)
        assert abs(g["real_s"] / t["real_s"] - 1) < 0.25, (c, wl, g["real_s"], t["real_s"])
        # what the guest said, per second of its clock (dhry's loops/s)
        # or in its seconds (syscall-null's ns), is in real seconds by
        # the rate this test chose, not only by the one measured
        said = g["median"] / g["reported"]["median"]
        want = rate if unit[wl].endswith("/s") else 1 / rate
        m = t["median"]
        r, lo, hi = g["median"] / m, g["median_lo"] / m, g["median_hi"] / m
        print(f"x{c} {wl}: x{r:.3f} [{lo:.3f}, {hi:.3f}] to its twin's "
              f"[{t['median_lo'] / m:.3f}, {t['median_hi'] / m:.3f}] beside it on cpu {cpu}, "
              f"x{said:.4f} what it said, its repeats {g['real_s']:.3f} real s, "
              f"the twin's {t['real_s']:.3f}, clock x{g['clock_rate']:.4f}")
        if abs(said / want - 1) > 0.01:
            bad.append(f"x{c} {wl}: the real figure x{said:.4f} of the guest's, not x{want:.4f}")
        # a figure on the guest's clock is off by the rate, x2 at least;
        # two processes running the same workload on one CPU at once, with
        # the same CPU time (2002 ms each), do 11% more or fewer dhry loops
        # than each other (4 of 6 x1 pairs: x1.115, x1.108, x0.892, x0.910)
        if not 0.8 < r < 1.25:
            bad.append(f"x{c} {wl} x{r:.3f} [{lo:.3f}, {hi:.3f}] "
                       f"to twin [{t['median_lo'] / m:.3f}, {t['median_hi'] / m:.3f}]")
assert not bad, "figures apart from real time: " + "; ".join(bad)
print("ok: every clock's repeats last its x1 twin's real seconds, its figures are per real second")
PY
