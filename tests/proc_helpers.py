"""For the tests that press Ctrl-C on a child process: SIGINT back to its default in the child,
and waiting on the child by the CPU time it has used (Linux /proc) rather than a fixed sleep,
which can end while Python is still starting on a loaded machine."""
from __future__ import annotations

import os
import signal
import time


def sigint_default() -> None:
    """Popen's preexec_fn: SIGINT back to its default action in the child.  A shell that runs a
    command in the background without job control (``cmd &`` in a script, under nohup) starts it
    with SIGINT ignored; children inherit that, and Python then leaves Ctrl-C ignored, so these
    tests would see no interruption at all when the test run itself was started that way."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _cpu_and_state(pid: int) -> "tuple[float, str] | None":
    """Seconds of CPU the process has used and its state letter, or None without /proc."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"), fields[0]


def cpu_seconds(pid: int) -> float:
    """Seconds of CPU the process has used (0 once it is gone, or without /proc)."""
    found = _cpu_and_state(pid)
    return 0.0 if found is None else found[0]


def wait_until_idle(pid: int, quiet: float = 0.5, limit: float = 60.0) -> None:
    """Wait until the process sleeps and has used no CPU for ``quiet`` seconds (it is blocked,
    say on stdin); without /proc, sleep 1.5 s."""
    first = _cpu_and_state(pid)
    if first is None:
        time.sleep(1.5)
        return
    end = time.monotonic() + limit
    last, since = first[0], time.monotonic()
    while time.monotonic() < end:
        time.sleep(0.05)
        now = _cpu_and_state(pid)
        if now is None:
            return
        if now[0] != last or now[1] != "S":
            last, since = now[0], time.monotonic()
        elif time.monotonic() - since >= quiet:
            return


def wait_for_cpu(pid: int, seconds: float, limit: float = 60.0) -> None:
    """Wait until the process has used ``seconds`` of CPU (well past Python's start-up, which
    takes a fraction of that); without /proc, sleep that long."""
    if _cpu_and_state(pid) is None:
        time.sleep(seconds)
        return
    end = time.monotonic() + limit
    while time.monotonic() < end:
        now = _cpu_and_state(pid)
        if now is None or now[0] >= seconds:
            return
        time.sleep(0.05)


def ctrl_c_group(proc, ready, timeout: float) -> "tuple[str, str, float]":
    """Press Ctrl-C on a child started with ``start_new_session=True``, as a terminal does (SIGINT
    to its whole process group), once ``ready()`` has returned, and wait for it to end: (stdout,
    stderr, seconds from the signal to its end). A child still running after ``timeout`` seconds,
    or left over by a failure, is killed."""
    try:
        ready()
        os.killpg(proc.pid, signal.SIGINT)
        signalled = time.monotonic()
        out, err = proc.communicate(timeout=timeout)
        return out, err, time.monotonic() - signalled
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)


def session_processes(session: int) -> list[int]:
    """Live processes of a session (Linux /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z" and int(fields[3]) == session:
            found.append(int(entry))
    return found


def no_processes_left(session: int, limit: float = 10.0) -> bool:
    """Whether every process of the session is gone within ``limit`` seconds."""
    deadline = time.monotonic() + limit
    while session_processes(session):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True
