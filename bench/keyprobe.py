#!/usr/bin/env python3
"""Key-to-output latency of a curses program at its own pty, no terminal
emulator in between (bench/stalled.sh runs it next to its tmux figures).

Usage: keyprobe.py COLSxROWS PRESSES SECONDS -- COMMAND...

Starts COMMAND on a fresh pty of COLSxROWS, waits for "CPU user %" on it,
then PRESSES times, evenly over SECONDS: writes `g` and times until the
output holds "add guest" (the add-guest prompt is drawn), then writes ^G
to close the prompt again, untimed. Prints a line a press, in microseconds:
"WHEN LATENCY RUN WAIT SELF_WAIT": the epoch of the key, the time until
the prompt came out, and within it how long COMMAND's main thread ran,
how long it waited for a CPU, and how long this probe waited for one
(from schedstat), to tell a slow program from a busy machine. COMMAND is
killed (by its PID) when done or interrupted.

KEYPROBE_READY, KEYPROBE_KEY and KEYPROBE_PROMPT change the first screen's
text, the key and the prompt's text (the fleet screen: "parallax fleet",
"/" and "filter (host").

KEYPROBE_ADD="SPEC ..." adds guests through the add-guest prompt (g, the
spec, Enter) after the first screen: more than -h takes on a command line.
KEYPROBE_SETTLE=S waits S seconds after the first screen before the first
press (sources connect meanwhile). KEYPROBE_CPU=FILE writes there, for the
window of presses, "CPU_NS TICKS WALL_S": COMMAND's CPU time as its
threads' schedstat run times and as utime+stime clock ticks, and the
window's length."""
import fcntl
import os
import select
import signal
import struct
import subprocess
import sys
import termios
import threading
import time

PROMPT = os.environ.get("KEYPROBE_PROMPT", "add guest").encode()
READY = os.environ.get("KEYPROBE_READY", "CPU user %").encode()
KEY = os.environ.get("KEYPROBE_KEY", "g").encode()
TIMEOUT = 2.0  # a press not answered after this counts as 2 s


def drain_until(fd, needle, deadline):
    """Reads fd until needle shows up (True) or deadline passes (False)."""
    seen = b""
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        if select.select([fd], [], [], left)[0]:
            seen = seen[-len(needle):] + os.read(fd, 65536)
            if needle in seen:
                return True


def schedstat(path):
    """(ns on a CPU, ns waiting for one) of a thread."""
    try:
        with open(path) as f:
            run, wait, _ = f.read().split()
        return int(run), int(wait)
    except (OSError, ValueError):
        return 0, 0


def cpu(pid):
    """(ns on a CPU over all threads, utime+stime ticks) of a process."""
    ns = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        ns += schedstat(f"/proc/{pid}/task/{tid}/schedstat")[0]
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return ns, int(fields[11]) + int(fields[12])


def drain(fd, until):
    """Reads and drops fd's output until monotonic time `until`."""
    while (left := until - time.monotonic()) > 0:
        if select.select([fd], [], [], left)[0]:
            os.read(fd, 65536)


def main():
    cols, rows = (int(x) for x in sys.argv[1].split("x"))
    presses, seconds = int(sys.argv[2]), float(sys.argv[3])
    cmd = sys.argv[5:] if sys.argv[4] == "--" else sys.exit("usage")
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    child = subprocess.Popen(cmd, stdin=slave, stdout=slave, stderr=slave,
                             start_new_session=True)
    os.close(slave)
    theirs = f"/proc/{child.pid}/task/{child.pid}/schedstat"
    ours = f"/proc/self/task/{threading.get_native_id()}/schedstat"
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(130))
    try:
        if not drain_until(master, READY, time.monotonic() + 30):
            sys.exit("keyprobe: no first screen")
        for spec in os.environ.get("KEYPROBE_ADD", "").split():
            os.write(master, b"g")
            # the status line says "added ..." now: curses writes only
            # where the prompt differs from it, so look for its end
            if not drain_until(master, b"NAME=]", time.monotonic() + 5):
                sys.exit("keyprobe: no add-guest prompt")
            os.write(master, spec.encode() + b"\r")
            # "added NAME (HOST)" on the status line before the next g
            name = spec.split("=")[0].encode() + b" ("
            if not drain_until(master, name, time.monotonic() + 5):
                sys.exit("keyprobe: guest not added: " + spec)
        drain(master, time.monotonic() + float(os.environ.get("KEYPROBE_SETTLE", 0)))
        cpu0, start, step = cpu(child.pid), time.monotonic(), seconds / presses
        for i in range(presses):
            drain(master, start + i * step)
            c0, s0 = schedstat(theirs), schedstat(ours)
            when, t0 = time.time(), time.monotonic()
            os.write(master, KEY)
            ok = drain_until(master, PROMPT, t0 + TIMEOUT)
            took = (time.monotonic() if ok else t0 + TIMEOUT) - t0
            c1, s1 = schedstat(theirs), schedstat(ours)
            print(int(when * 1e6), int(took * 1e6), (c1[0] - c0[0]) // 1000,
                  (c1[1] - c0[1]) // 1000, (s1[1] - s0[1]) // 1000, flush=True)
            os.write(master, b"\x07")
        drain(master, start + seconds)
        cpu1, end = cpu(child.pid), time.monotonic()
        if os.environ.get("KEYPROBE_CPU"):
            with open(os.environ["KEYPROBE_CPU"], "w") as f:
                print(cpu1[0] - cpu0[0], cpu1[1] - cpu0[1], f"{end - start:.3f}", file=f)
    finally:
        child.kill()
        child.wait()


if __name__ == "__main__":
    main()
