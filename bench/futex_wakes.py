#!/usr/bin/env python3
"""The wake-ups of wakeup-lat's workers as the kernel's system call
tracepoints saw them (perf script --ns -F comm,tid,time,event,trace of
syscalls:sys_enter_futex and sys_exit_futex, and sched:sched_switch, on
stdin), one latency a line on stdout, in us, on the kernel's clock.

A worker's round: it posts (a FUTEX_WAKE of its message thread's word),
then waits on its own word (FUTEX_WAIT) unless the message thread has
already set it; the message thread stamps, sets the word and wakes it (a
FUTEX_WAKE of that word). wakeup-lat counts from that stamp, just before
the wake's system call, to the worker's clock read on waking. Here:
  - a wait that returned woken (0): from the message thread's entry into
    the FUTEX_WAKE of the word (the latest before) to the wait's return;
  - a wait that returned at once (EAGAIN: the word changed before it
    slept): from that entry to the return, or the wait's own time when the
    entry came later (the word is set before the wake's system call);
  - a round with no wait at all (the word set before the worker looked):
    from that entry to the return of the worker's post, or to when it got
    a CPU back if it was preempted after that; 0 when the entry came
    later.
A wake is taken once: the newest wake of the word not taken before.
A woken worker preempted on its way out of the wait (switched out
runnable within 5 us of its return) reads its clock when it gets a CPU
back: its wake-up ends then. A wake whose message thread was preempted (switched out runnable) since
its previous futex call begins at that preemption: its stamp comes just
before the call, and wakeup-lat's latency holds the preemption.
On stderr: how many of each, and how often the message thread was
preempted."""
import re
import sys

EVENT = re.compile(r"\s*(\S+)\s+(\d+)\s+([\d.]+):\s+syscalls:sys_(enter|exit)_futex:\s*(.*)")
ARGS = re.compile(r"uaddr: (0x[0-9a-f]+), op: (0x[0-9a-f]+)")
SWITCH = re.compile(r"\s*\S+\s+\d+\s+([\d.]+):\s+sched:sched_switch:\s+prev_comm=(\S+) "
                    r"prev_pid=(\d+) .*prev_state=(\S+) ==> next_comm=(\S+) next_pid=(\d+)")
RETURN_S = 5e-6  # a preemption this soon after a call's end: on its way out
last_wake = {}  # futex word -> when the message thread entered its wake
word_of = {}    # worker tid -> its own word (from its waits)
waiting = {}    # worker tid -> when its wait began
posting = {}    # worker tid -> when its post began (it is in the call)
rnd = {}        # worker tid -> (post entered, post returned, waited)
used = {}       # worker tid -> the message thread's wake it last took
back_in = {}    # worker tid -> when it last got a CPU back
msg_out = msg_exit = 0.0  # the message thread's last preemption, last call's end
counts = {"woken": 0, "at once": 0, "timed out": 0, "no system call": 0,
          "unpaired": 0, "message thread preempted": 0,
          "worker preempted on return": 0}


def emit(us):
    print(f"{max(us, 0.0):.3f}")


pending = {}  # worker tid -> (wake, end): a wait's return not yet emitted
held = set()  # ... of which the worker was preempted on its way out


def settle(tid, end=None):
    """Emits tid's pending wake-up, ending at end (its CPU back) when it
    was preempted on its way out of the wait, else at the wait's end."""
    if tid in pending:
        w, t_end = pending.pop(tid)
        emit(((end if tid in held and end else t_end) - w) * 1e6)
        held.discard(tid)


def wake_for(tid):
    """The message thread's newest wake of tid's word, if it is one tid
    has not taken yet; None."""
    w = last_wake.get(word_of.get(tid))
    if w is None or w <= used.get(tid, -1.0):
        return None
    used[tid] = w
    return w


def no_wait_round(tid):
    """The round of worker tid that just ended without a wait: it looked
    at its word after its post returned, or after it got a CPU back when
    it was preempted after that."""
    entered, returned, waited = rnd[tid]
    if waited:
        return
    counts["no system call"] += 1
    w = wake_for(tid)
    looked = max(returned, back_in.get(tid, 0.0))
    emit((looked - w) * 1e6 if w is not None else 0.0)


for line in sys.stdin:
    sw = SWITCH.match(line)
    if sw:
        t, prev, ppid, state, nxt, pid = sw.groups()
        t = float(t)
        if prev == "wakeup-msg" and state.startswith("R"):  # its stamps wait
            counts["message thread preempted"] += 1
            msg_out = t
        if (prev == "wakeup-worker" and state.startswith("R") and ppid in pending
                and t - pending[ppid][1] < RETURN_S):
            held.add(ppid)  # its clock read waits for a CPU
            counts["worker preempted on return"] += 1
        if nxt == "wakeup-worker":
            back_in[pid] = t
            settle(pid, t)
        continue
    m = EVENT.match(line)
    if not m:
        continue
    comm, tid, t, kind, rest = m.groups()
    t = float(t)
    if kind == "enter":
        a = ARGS.match(rest)
        if not a:
            continue
        word, op = a.group(1), int(a.group(2), 16) & 0x7F
        if comm == "wakeup-msg" and op == 1:  # FUTEX_WAKE
            # preempted since its last call: most of that stretch lies
            # between its stamp and this call, so the wake began then
            last_wake[word] = msg_out if msg_out > msg_exit else t
        elif comm == "wakeup-worker" and op == 1:  # a post: a new round
            settle(tid)
            if tid in rnd:
                no_wait_round(tid)
            posting[tid] = t
        elif comm == "wakeup-worker" and op == 0:  # FUTEX_WAIT
            word_of[tid] = word
            waiting[tid] = t
            if tid in rnd:
                rnd[tid] = rnd[tid][:2] + (True,)
        continue
    if comm == "wakeup-msg":
        msg_exit = t
    if comm != "wakeup-worker":
        continue
    if tid in posting:  # the post's return
        rnd[tid] = (posting.pop(tid), t, False)
        continue
    if tid not in waiting:
        continue
    entered = waiting.pop(tid)
    ret = int(rest.split()[0], 16)
    if ret >= 1 << 63:
        ret -= 1 << 64
    if ret == 0:
        w = wake_for(tid)
        if w is None:
            counts["unpaired"] += 1
            continue
        counts["woken"] += 1
        pending[tid] = (w, t)
    elif ret == -11:
        counts["at once"] += 1
        w = wake_for(tid)
        emit((t - w) * 1e6 if w is not None else (t - entered) * 1e6)
    elif ret == -110:
        counts["timed out"] += 1
for tid in list(pending):
    settle(tid)
print(", ".join(f"{k} {v}" for k, v in counts.items()), file=sys.stderr)
