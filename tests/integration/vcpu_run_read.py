#!/usr/bin/env python3
"""Follows the vCPU threads ("CPU N/TCG") of the qemu that process PARENT
starts (its descendant), reading each one's run time and run-queue wait
from /proc/PID/task/TID/schedstat every EVERY s (default 0.05) with the
host's CLOCK_MONOTONIC, until PARENT ends; prints one JSON line per
reading: {"t": mono, "t_end": mono, "run_ns": ..., "wait_ns": ...}, each
summed over the vCPUs and read between t and t_end (a reader preempted
reads later than it stamped). The test then reads what the vCPUs ran and
waited over any span itself.
Usage: vcpu_run_read.py PARENT [EVERY]"""
import glob
import json
import os
import sys
import time

parent = int(sys.argv[1])
every = float(sys.argv[2]) if len(sys.argv) > 2 else 0.05


def ppid_of(pid):
    st = open(f"/proc/{pid}/stat").read()
    return int(st[st.rindex(")") + 2:].split()[1])  # after state: ppid


def qemu_of(ancestor):
    """a qemu descended from ancestor (its child, or a helper's)"""
    for d in glob.glob("/proc/[0-9]*"):
        try:
            pid = int(d.rsplit("/", 1)[1])
            if not open(d + "/comm").read().startswith("qemu"):
                continue
            p = pid
            while p > 1:
                p = ppid_of(p)
                if p == ancestor:
                    return pid
        except (OSError, ValueError):
            pass
    return None


def vcpu_sched_ns(pid):
    """(run, wait) ns summed over the vCPU threads, None when none read"""
    run, wait, seen = 0, 0, False
    for d in glob.glob(f"/proc/{pid}/task/*"):
        try:
            if open(d + "/comm").read().startswith("CPU "):
                f = open(d + "/schedstat").read().split()
                run, wait, seen = run + int(f[0]), wait + int(f[1]), True
        except OSError:
            pass
    return (run, wait) if seen else None


qemu = None
while os.path.exists(f"/proc/{parent}"):
    qemu = qemu or qemu_of(parent)
    if qemu:
        t = time.monotonic()
        ns = vcpu_sched_ns(qemu)
        if ns is not None:
            print(json.dumps({"t": t, "t_end": time.monotonic(),
                              "run_ns": ns[0], "wait_ns": ns[1]}),
                  flush=True)
    time.sleep(every)
