"""Reads parallax --text refreshes and checks each guest column's CPU shares
against the first column's (the host, whose kernel the guests share): the
seven states add up to 100 within rounding, and each state's median over
the refreshes (from the third: the first has no rate) is the reference
column's within 2 points: the host's, or REF's and only for the columns
after it (a replay: rec:host, beside this host's live column).
Usage: cpu_shares.py TEXT_OUTPUT [FIRST_REFRESH [REF]]."""
import statistics
import sys

STATES = ("CPU user %", "CPU sys %", "CPU nice %", "CPU idle %",
          "iowait %", "irq %", "steal %")
LABEL_W = 17  # view: the label column


def refreshes(path):
    block = None
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("parallax "):
            block = {}
            yield block
        elif block is not None and line.startswith(" " * LABEL_W) and "names" not in block:
            block["names"] = line.split()
        elif block is not None:
            for s in STATES:
                if line.startswith(s):
                    cells = line[LABEL_W:].split()
                    # host: value spark; each guest: value spark ratio
                    block[s] = [cells[0]] + cells[2::3]


def main():
    path = sys.argv[1]
    first = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    ref_name = sys.argv[3] if len(sys.argv) > 3 else None
    blocks = list(refreshes(path))[first - 1:]
    assert blocks, "no refreshes"
    names = [n for n in blocks[0]["names"] if n != "x"]  # each guest's "x": its ratios
    ref = names.index(ref_name) if ref_name else 0
    diffs = {}
    for b in blocks:
        # a parallax without some rows (older ones had no nice, no irq):
        # the states it shows must still add up
        states = [s for s in STATES if s in b]
        vals = [[float(b[s][c]) for s in states] for c in range(len(names))]
        for c, v in enumerate(vals):
            assert abs(sum(v) - 100) <= 0.5, (names[c], dict(zip(states, v)))
            for s, x, h in zip(states, v, vals[ref]):
                if c > ref:
                    diffs.setdefault((names[c], s), []).append(x - h)
    worst = 0
    for (name, s), d in sorted(diffs.items()):
        m = statistics.median(d)
        worst = max(worst, abs(m))
        assert abs(m) <= 2, f"{name}: {s} differs from the host's by {m:+.1f} points (median of {len(d)})"
    print(f"ok: {len(names)} columns' CPU shares add up to 100 in {len(blocks)} "
          f"refreshes; each state of the {len(names) - ref - 1} after "
          f"{names[ref]} within {worst:.1f} points of its")


main()
