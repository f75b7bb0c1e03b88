#!/usr/bin/python3
"""The clock offsets of a fleet report against direct fetches: for each
guest of REPORT (a parallax-fleet .json) with an offset, its pmcd's clock
less its host's, each taken from the fastest of five pmFetches of that
pmcd of the farm in FARM_DIR (fleet/farm.sh), must lie within the bounds
the report claims (offset_s +- offset_resolution_s, widened by the
fetches' round trips). At least MIN guests must have been checked.

Usage: fleet_offsets.py REPORT FARM_DIR [MIN]   (Debian's python3, with
PCP's bindings). Prints a line per guest; exits 1 on a bound that does not
hold or too few checked."""
import json
import sys
import time

from pcp import pmapi


def direct(farm, name):
    """(its clock less this host's, round trip) by the fastest fetch."""
    port = open(f"{farm}/src/{name}/port").read().strip()
    c = pmapi.pmContext(pmapi.c_api.PM_CONTEXT_HOST, "localhost:" + port)
    ids, best = c.pmLookupName(("hinv.ncpu",)), None
    for _ in range(5):
        a = time.time()
        r = c.pmFetch(ids)
        b = time.time()
        ts = r.contents.timestamp.tv_sec + r.contents.timestamp.tv_usec / 1e6
        if best is None or b - a < best[1]:
            best = (ts - (a + b) / 2, b - a)
    return best


def main():
    rep, farm = json.load(open(sys.argv[1])), sys.argv[2]
    least = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    checked = 0
    for s in rep["sources"]:
        if s["role"] != "guest" or s["offset_s"] is None:
            continue
        (g, grtt), (h, hrtt) = direct(farm, s["name"]), direct(farm, s["host"])
        claim, width = s["offset_s"], s["offset_resolution_s"]
        ok = abs(claim - (g - h)) <= width + grtt + hrtt
        print(f"{'ok' if ok else 'FAIL'}: {s['name']}: offset {claim:+.3f} "
              f"+- {width:.3f} s, direct {g - h:+.3f}")
        if not ok:
            sys.exit(1)
        checked += 1
    if checked < least:
        sys.exit(f"FAIL: {checked} guests with an offset, {least} wanted")


if __name__ == "__main__":
    main()
