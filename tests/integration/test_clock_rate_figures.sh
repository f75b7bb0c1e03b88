#!/bin/bash
# A guest's clock at another rate neither flatters nor wrongs its figures
# (issue 23.3). Five pmcds with pmdaparallax under faketime at x0.25,
# x0.5, x2, x4 and x10 share this host's CPUs and kernel, so in real time
# their dhry (CPU-bound) and syscall-null (system calls) are the host's:
# each repeat and the warm-up last as long in real time on every source
# (parallax asks a guest for its clock's seconds: a x10 guest measured a
# tenth of a real second per repeat after 10 ms of warm-up, and read 10%
# worse, as a fresh run is slower in its first 100 ms or so), and each
# ratio's interval meets its x1 twins' (7 repeats: the lowest to the
# highest, 98% sure to hold the median). The references are pmcds with the
# agent under faketime x1, not the host: their workloads run by the same
# agent under the same libfaketime as the others (a host run is
# parallax's own child, beside its samplers). The runs go one source at a
# time (--overlap on 2 CPUs made the sources' shares of them, not their
# clocks, the figure: x0.92 and x1.27 in two runs), and each clock runs
# between two twins, one just before it and one just after (A B A): this
# VM's speed drifts between runs a minute apart (a single x1 twin run
# first read 15-20% apart from all five clocks run after it, on two
# machines), and what drifts alike for neighbours cancels. A clock's
# interval must meet the span of its two twins' intervals.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
. "$here/pmcd.sh"
use_build

work=$(mktemp -d)
# the order the batch runs them in: every clock between two x1 twins
names="t0 x0.25 t1 x0.5 t2 x2 t3 x4 t4 x10 t5"
trap 'for n in $names; do pmcd_stop "$work/$n/pmcd"; done; rm -rf "$work"' EXIT
hosts=()
for n in $names; do
    r=${n#x}
    [ "${n#t}" = "$n" ] || r=1
    port=$(free_port) || fail "no free port"
    pmcd_faketime "$r" pmcd_start_agent "$work/$n" "$port" ||
        fail "pmcd with the agent under faketime x$r ($n)"
    hosts+=(-h "$n=localhost:$port")
done

LANG=C "$bin" --batch syscall-null,dhry -r 7 "${hosts[@]}" \
    -o "$work/r.txt" 2>"$work/err" || { cat "$work/err"; fail "batch exited $?"; }
sed -n '/^WORKLOADS/,/^INDEX/p' "$work/r.txt" | grep -E '^(syscall|dhry|  )'

python3 - "$work/r.json" "$names" <<'PY' || fail "JSON: real time on every clock"
import json, sys
src = {s["name"]: s for s in json.load(open(sys.argv[1]))["sources"]}
order = sys.argv[2].split()
bad = []
for k, name in enumerate(order):
    if not name.startswith("x"):
        continue
    rate = float(name[1:])
    before, after = order[k - 1], order[k + 1]
    for wl in ("syscall-null", "dhry"):
        g = src[name]["workloads"][wl]
        tw = [src[t]["workloads"][wl] for t in (before, after)]
        assert g["basis"] == "real" and g["state"] == "done", g
        assert abs(g["clock_rate"] / rate - 1) < 0.01, g["clock_rate"]
        # the same real length of repeats as the twins', on any clock
        # (asked for its own seconds as they were, x10's lasted a tenth
        # and x0.25's four times as long; a loaded machine makes each
        # repeat's last batch run over by up to a tenth of a second)
        for h in tw:
            assert abs(g["real_s"] / h["real_s"] - 1) < 0.25, (name, wl, g["real_s"], h["real_s"])
        # the twins' span: the lowest of their intervals to the highest
        lo_t = min(h["median_lo"] for h in tw)
        hi_t = max(h["median_hi"] for h in tw)
        mid = (tw[0]["median"] * tw[1]["median"]) ** 0.5
        r, lo, hi = g["median"] / mid, g["median_lo"] / mid, g["median_hi"] / mid
        print(f"{name} {wl}: x{r:.2f} [{lo:.2f}, {hi:.2f}] to its twins' "
              f"[{lo_t / mid:.2f}, {hi_t / mid:.2f}] ({before} x{tw[0]['median'] / mid:.2f}, "
              f"{after} x{tw[1]['median'] / mid:.2f}), its repeats {g['real_s']:.3f} real s, "
              f"clock x{g['clock_rate']:.4f}")
        if g["median_hi"] < lo_t or g["median_lo"] > hi_t:
            bad.append(f"{name} {wl} x{r:.2f} [{lo:.2f}, {hi:.2f}] "
                       f"twins [{lo_t / mid:.2f}, {hi_t / mid:.2f}]")
assert not bad, "intervals apart from their twins': " + "; ".join(bad)
print("ok: every clock's repeats last its x1 twins' real seconds, every ratio's interval meets theirs")
PY
