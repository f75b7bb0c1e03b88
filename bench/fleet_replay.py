#!/usr/bin/python3
"""Simulated fleet sources for bench/fleet.sh: N PCP archives written as
pmlogger writes them, one record per source every INTERVAL seconds, each
with parallax's fleet labels (fleet/fleet_labels.h) as its context labels
and the metrics fleet/pmlogger.conf names, in DIR/NAME/NAME.{0,meta,index}
under a pmproxy's PCP_ARCHIVE_DIR, which tails them into its key-value
server as it tails a pmlogger farm. One process stands for N pmcds and
their loggers, so 1000 sources fit on one machine. Counters advance at
rates of their own per source; one guest in ten keeps a clock that runs
at a rate of its own (its stamps, as a faketime'd pmcd's would).

Usage: fleet_replay.py DIR N [INTERVAL]   (runs until SIGTERM or SIGINT)
Writes DIR/ready once every archive has its first record.
Needs Debian's python3 with PCP's bindings (python3-pcp)."""
import os
import random
import signal
import sys
import time

import cpmapi as c
from pcp import pmi

# name, pmid (domain, cluster, item), type, semantics, units (dim space,
# time, count, scale space, time, count), instances, per-second rate
COUNTER, INSTANT, DISCRETE = c.PM_SEM_COUNTER, c.PM_SEM_INSTANT, c.PM_SEM_DISCRETE
MSEC = (0, 1, 0, 0, c.PM_TIME_MSEC, 0)
KBYTE = (1, 0, 0, c.PM_SPACE_KBYTE, 0, 0)
COUNT = (0, 0, 1, 0, 0, c.PM_COUNT_ONE)
NONE = (0, 0, 0, 0, 0, 0)
METRICS = [
    ("kernel.all.cpu.user", (60, 0, 20), c.PM_TYPE_U64, COUNTER, MSEC, 600),
    ("kernel.all.cpu.sys", (60, 0, 22), c.PM_TYPE_U64, COUNTER, MSEC, 200),
    ("kernel.all.cpu.idle", (60, 0, 21), c.PM_TYPE_U64, COUNTER, MSEC, 1150),
    ("kernel.all.cpu.wait.total", (60, 0, 35), c.PM_TYPE_U64, COUNTER, MSEC, 10),
    ("kernel.all.cpu.steal", (60, 0, 55), c.PM_TYPE_U64, COUNTER, MSEC, 40),
    ("kernel.all.pswitch", (60, 0, 13), c.PM_TYPE_U64, COUNTER, COUNT, 4000),
    ("kernel.all.sysfork", (60, 0, 14), c.PM_TYPE_U64, COUNTER, COUNT, 20),
    ("kernel.all.intr", (60, 0, 12), c.PM_TYPE_U64, COUNTER, COUNT, 900),
    ("kernel.all.runnable", (60, 2, 2), c.PM_TYPE_U32, INSTANT, NONE, 3),
    ("disk.all.read_bytes", (60, 0, 41), c.PM_TYPE_U64, COUNTER, KBYTE, 50),
    ("disk.all.write_bytes", (60, 0, 42), c.PM_TYPE_U64, COUNTER, KBYTE, 300),
    ("mem.physmem", (60, 1, 0), c.PM_TYPE_U64, DISCRETE, KBYTE, 4194304),
    ("mem.util.available", (60, 1, 58), c.PM_TYPE_U64, INSTANT, KBYTE, 2097152),
    ("hinv.ncpu", (60, 0, 32), c.PM_TYPE_U32, DISCRETE, NONE, 2),
    ("kernel.uname.release", (60, 12, 0), c.PM_TYPE_STRING, DISCRETE, NONE, 0),
]
LOAD = ("kernel.all.load", (60, 2, 0), c.PM_TYPE_FLOAT, INSTANT, NONE)
LOAD_INSTANCES = [(1, "1 minute"), (5, "5 minute"), (15, "15 minute")]
RATES = [1.001, 0.9995, 1.01]  # the clocks of the faketime'd, in turn

stop = False


def on_stop(*_):
    global stop
    stop = True


def plan(n):
    """(name, role, host, variant, clock rate) per source, as farm.sh."""
    hosts = max(1, (n + 9) // 10)
    out = [(f"h{h:02d}", "host", f"h{h:02d}", "plain", 1.0)
           for h in range(1, hosts + 1)]
    for g in range(1, n - hosts + 1):
        rate, variant = 1.0, "plain"
        if g % 10 == 0:
            rate, variant = RATES[(g // 10 - 1) % len(RATES)], "faketime"
        out.append((f"g{g:03d}", "guest", f"h{(g - 1) % hosts + 1:02d}",
                    variant, rate))
    return out


class Source:
    def __init__(self, d, name, role, host, variant, rate, t0):
        os.makedirs(f"{d}/{name}", exist_ok=True)
        self.log = log = pmi.pmiLogImport(f"{d}/{name}/{name}")
        self.rate, self.t0 = rate, t0
        log.pmiSetHostname(f"sim-{name}")
        for m in METRICS:
            log.pmiAddMetric(m[0], log.pmiID(*m[1]), m[2], c.PM_INDOM_NULL,
                             m[3], log.pmiUnits(*m[4]))
        indom = log.pmiInDom(60, 2)
        log.pmiAddMetric(LOAD[0], log.pmiID(*LOAD[1]), LOAD[2], indom,
                         LOAD[3], log.pmiUnits(*LOAD[4]))
        for inst, iname in LOAD_INSTANCES:
            log.pmiAddInstance(indom, iname, inst)
        for k, v in (("role", role), ("name", name), ("host", host),
                     ("variant", variant), ("pmcd", f"sim-{name}:44321")):
            log.pmiPutLabel(c.PM_LABEL_CONTEXT, 0, 0, "parallax_" + k, v)
        # each its own rates, within 20% of the table's
        self.speed = [m[5] * random.uniform(0.8, 1.2) for m in METRICS]
        self.count = [0.0] * len(METRICS)

    def write(self, now, dt):
        log = self.log
        for i, m in enumerate(METRICS):
            if m[2] == c.PM_TYPE_STRING:
                value = "6.1.0-sim"
            elif m[3] == COUNTER:
                self.count[i] += self.speed[i] * dt
                value = str(int(self.count[i]))
            else:
                value = str(int(self.speed[i]))
            log.pmiPutValue(m[0], "", value)
        for _, iname in LOAD_INSTANCES:
            log.pmiPutValue(LOAD[0], iname, "%.2f" % random.uniform(0.5, 2))
        stamp = self.t0 + (now - self.t0) * self.rate
        log.pmiWrite(int(stamp), int((stamp % 1) * 1e6))


def main():
    d, n = sys.argv[1], int(sys.argv[2])
    interval = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
    signal.signal(signal.SIGTERM, on_stop)
    signal.signal(signal.SIGINT, on_stop)
    random.seed(n)
    t0 = time.time()
    sources = [Source(d, *p, t0) for p in plan(n)]
    tick, last = time.monotonic(), time.time()
    for s in sources:
        s.write(last, 0)
    open(f"{d}/ready", "w").close()
    while not stop:
        tick += interval
        time.sleep(max(0.0, tick - time.monotonic()))
        now = time.time()
        for s in sources:
            s.write(now, now - last)
        last = now
    for s in sources:
        s.log.pmiEnd()


if __name__ == "__main__":
    main()
