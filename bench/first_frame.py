#!/usr/bin/env python3
"""Start-up: the time from exec to a curses program's first frame, at its
own pty, timed by this probe's clock (not the program's own word).

Usage: first_frame.py COLSxROWS RUNS MARKER -- COMMAND...

RUNS times: forks, sets the pty's size, execs COMMAND, and times from just
before the fork until MARKER (text of the first screen, "CPU user %" for
parallax) has come out on the pty; then sends SIGTERM and reaps it (SIGKILL
after 3 s). A run that shows no MARKER in 10 s counts as 10 s. Prints one
line a run ("run N MS") and then "first frame ms: median M max X of N"."""
import fcntl
import os
import pty
import select
import signal
import struct
import sys
import termios
import time

TIMEOUT = 10.0


def one_run(cols, rows, marker, argv):
    """Milliseconds from fork to marker on the pty (TIMEOUT when never)."""
    t0 = time.monotonic()
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        try:
            os.execvp(argv[0], argv)
        finally:
            os._exit(127)
    seen, took = b"", TIMEOUT
    deadline = t0 + TIMEOUT
    try:
        while time.monotonic() < deadline:
            if not select.select([fd], [], [], deadline - time.monotonic())[0]:
                continue
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # the program exited: its pty is gone
                break
            if not chunk:
                break
            seen = seen[-len(marker):] + chunk
            if marker in seen:
                took = time.monotonic() - t0
                break
    finally:
        stop(pid, fd)
    return took * 1000


def stop(pid, fd):
    """SIGTERM, then SIGKILL after 3 s; drains the pty meanwhile so that a
    program restoring the terminal never blocks on a full pty."""
    os.kill(pid, signal.SIGTERM)
    end = time.monotonic() + 3
    while time.monotonic() < end:
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if select.select([fd], [], [], 0.05)[0]:
            try:
                os.read(fd, 65536)
            except OSError:
                pass
    else:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    os.close(fd)


def main():
    args = sys.argv[1:]
    if len(args) < 5 or args[3] != "--" or "x" not in args[0]:
        sys.exit("usage: first_frame.py COLSxROWS RUNS MARKER -- COMMAND...")
    cols, rows = (int(v) for v in args[0].split("x"))
    runs, marker, argv = int(args[1]), args[2].encode(), args[4:]
    times = []
    for i in range(runs):
        ms = one_run(cols, rows, marker, argv)
        times.append(ms)
        print(f"run {i + 1} {ms:.1f}")
    times.sort()
    mid = times[len(times) // 2] if len(times) % 2 else \
        (times[len(times) // 2 - 1] + times[len(times) // 2]) / 2
    print(f"first frame ms: median {mid:.1f} max {times[-1]:.1f} of {runs}")


if __name__ == "__main__":
    main()
