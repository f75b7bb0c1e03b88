#!/usr/bin/env python3
"""Reads parallax --text from stdin and, for the host's view column NAME,
follows each refresh: at each one it reads the vCPU thread's schedstat of
process PID itself (run-queue wait, ns) and the host's clock, so that the
figures parallax printed for refreshes 2..N can be checked against the
test's own reading of the same span. Prints one JSON line per refresh:
{"n":i, "t":mono, "wait_ns":..., "cols":{name: {row: [figure, detail]}}}.
PID 0: the qemu of the first joined column, once one shows.
Usage: host_view_read.py PID THREAD_COMM"""
import json
import re
import sys
import time

pid, comm = int(sys.argv[1]), sys.argv[2]


def vcpu_wait_ns():
    import glob
    for d in glob.glob(f"/proc/{pid}/task/*"):
        try:
            if open(d + "/comm").read().strip() == comm:
                return int(open(d + "/schedstat").read().split()[1])
        except OSError:
            pass
    return None


def parse(block):
    """The host's view table of one refresh: {column: {label: [fig, det]}}."""
    lines = block
    try:
        at = next(i for i, l in enumerate(lines) if l.startswith("-- host's view"))
    except StopIteration:
        return None
    rows = lines[at + 1:]
    if not rows or not rows[0].strip():
        return {}
    # the column starts are where the names row's columns begin: fixed
    # width columns of 1 + 8 + 1 + 34 + 2 - 1 after a 16-cell label
    col_w = 8 + 1 + 34 + 2
    names_line = rows[0]
    ncol = max(1, (len(names_line) - 16 + col_w - 1) // col_w)
    cols = {}
    names = []
    for k in range(ncol):
        s = 16 + k * col_w
        n = names_line[s:s + col_w].strip()
        names.append(n if n not in names else f"{n}#{k}")  # VMs of one name
    for k, n in enumerate(names):
        cols[n] = {"_kind": rows[1][16 + k * col_w:16 + (k + 1) * col_w].strip(),
                   "_join": rows[2][16 + k * col_w:16 + (k + 1) * col_w].strip()}
    for l in rows[3:]:
        if not l.strip():
            break
        label = l[:16].strip()
        for k, n in enumerate(names):
            s = 16 + k * col_w
            cell = l[s:s + col_w]
            cols[n][label] = [cell[:8].strip(), cell[9:].strip()]
    return cols


block, n = [], 0
for line in sys.stdin:
    line = line.rstrip("\n")
    if line.startswith("parallax ") and block:
        block = []
    block.append(line)
    if line.startswith("vCPUs told") or line == "-- host's view: 0 VMs on this host --":
        n += 1
        t = time.monotonic()
        cols = parse(block)
        if pid == 0:
            for c in (cols or {}).values():
                if c["_join"].startswith("joined"):
                    pid = int(c["_kind"].split()[1])
                    break
        print(json.dumps({"n": n, "t": t, "wait_ns": vcpu_wait_ns() if pid else None,
                          "pid": pid, "cols": cols}), flush=True)
