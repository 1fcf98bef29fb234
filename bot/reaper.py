"""The reaper: a small program that cleans up after a bot killed outright.

A bot ended by SIGKILL (or a crash of the interpreter) runs no code of its own, so the
files it meant to remove would stay: Fuse's private home, the video half written. The
bot therefore starts this program (at the first thing it registers, by its path, with
the standard library only) with a pipe on its standard input whose write end only the
bot holds, and tells it, one JSON line each, the programs it starts (PID, start time,
the signal each obeys) and the files and folders to remove if it dies, and forgets each
once it has ended or removed it itself. The end of the pipe (the bot has exited, however)
is the reaper's cue: it sends each program still running its signal, SIGKILL after
``GRACE_S``, removes the paths still listed, and exits. A normal end leaves nothing
listed, so the reaper only exits; the bot never waits for it.

A program is known by its PID and its start time, and signalled through a pidfd opened
before the start time is checked: a later process that took a reused PID is never
touched, nor anything the reaper was not told about.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import threading
import time
import weakref
from pathlib import Path
from typing import Any

GRACE_S = 2.0  # for a program to obey its signal, before SIGKILL
KILL_WAIT_S = 1.0  # for a SIGKILLed program to be gone, before its files go anyway


# -- the program ---------------------------------------------------------------------------
def start_time(pid: int) -> int | None:
    """When process ``pid`` started (clock ticks since boot: /proc/PID/stat's 22nd
    field), or None when there is no such process, or it has ended (a zombie)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[-1].split()  # after the name, which may hold spaces
    if len(fields) < 20 or fields[0] in ("Z", "X"):
        return None
    return int(fields[19])


def _open(pid: int, started: int) -> int | None:
    """A pidfd of ``pid`` when it is still the process that started at ``started``."""
    try:
        fd = os.pidfd_open(pid)
    except OSError:  # gone, or no pidfds here: nothing is signalled unproven
        return None
    if start_time(pid) != started:  # checked after the open: the fd holds this process
        os.close(fd)
        return None
    return fd


def _wait(fds: list[int], seconds: float) -> list[int]:
    """Wait up to ``seconds`` for the processes of ``fds`` to end; those still running."""
    left = set(fds)
    poll = select.poll()
    for fd in fds:
        poll.register(fd, select.POLLIN)
    deadline = time.monotonic() + seconds
    while left and (remaining := deadline - time.monotonic()) > 0:
        for fd, _ in poll.poll(remaining * 1000):
            left.discard(fd)
            poll.unregister(fd)
    return [fd for fd in fds if fd in left]


def end_programs(programs: dict[int, tuple[int, int]]) -> None:
    """Send each program ``pid: (start time, signal)`` still running its signal, then
    SIGKILL to those still running after ``GRACE_S``."""
    fds = []
    for pid, (started, signum) in programs.items():
        fd = _open(pid, started)
        if fd is None:
            continue
        try:
            signal.pidfd_send_signal(fd, signum)
            fds.append(fd)
        except OSError:
            os.close(fd)
    try:
        stubborn = _wait(fds, GRACE_S)
        for fd in stubborn:
            with contextlib.suppress(OSError):
                signal.pidfd_send_signal(fd, signal.SIGKILL)
        _wait(stubborn, KILL_WAIT_S)
    finally:
        for fd in fds:
            os.close(fd)


def remove_paths(paths: list[str]) -> None:
    """Remove each file or folder of ``paths`` (quietly: any may be gone)."""
    for path in paths:
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, ignore_errors=True)
        else:
            with contextlib.suppress(OSError):
                os.unlink(path)


def serve(lines: Any) -> tuple[dict[int, tuple[int, int]], list[str]]:
    """Read the bot's messages until the pipe ends; what is still listed then."""
    programs: dict[int, tuple[int, int]] = {}
    paths: dict[str, None] = {}  # in the order given
    for line in lines:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if "program" in message:
            programs[message["program"]] = (message["start"], message["signal"])
        elif "ended" in message:
            programs.pop(message["ended"], None)
        elif "path" in message:
            paths[message["path"]] = None
        elif "removed" in message:
            paths.pop(message["removed"], None)
    return programs, list(paths)


def main() -> int:
    programs, paths = serve(sys.stdin.buffer)
    end_programs(programs)
    remove_paths(paths)
    return 0


# -- the bot's end of the pipe -------------------------------------------------------------
class Reaper:
    """The bot's side: starts the program at the first registration (and again, told
    everything still listed, if it was ended), and writes it what to clean up."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self._programs: dict[int, tuple[weakref.ref[subprocess.Popen[bytes]], int, int]] = {}
        self._paths: dict[str, None] = {}

    @property
    def pid(self) -> int | None:
        """The reaper program's PID, once started."""
        return self._process.pid if self._process is not None else None

    def program(self, process: subprocess.Popen[bytes], signum: int) -> None:
        """End ``process`` (a child of the bot, not yet waited for) with ``signum`` if
        the bot dies first."""
        started = start_time(process.pid)
        if started is None:  # ended already, or no /proc: nothing to end unproven
            return
        with self._lock:
            self._forget_ended()
            self._programs[process.pid] = (weakref.ref(process), started, int(signum))
            self._send({"program": process.pid, "start": started, "signal": int(signum)})

    def path(self, path: Path | str) -> None:
        """Remove the file or folder ``path`` if the bot dies before ``removed(path)``."""
        name = os.path.abspath(path)
        with self._lock:
            self._paths[name] = None
            self._send({"path": name})

    def removed(self, path: Path | str) -> None:
        """``path`` is the bot's own again (removed, or kept on purpose)."""
        name = os.path.abspath(path)
        with self._lock:
            if self._paths.pop(name, 0) is None and self._process is not None:
                self._send({"removed": name})

    def close(self, wait_s: float = 5.0) -> int | None:
        """Close the pipe, as the bot's exit does, and wait for the program to do its
        work and end; its exit status (None if it had not started, or still runs)."""
        with self._lock:
            process, self._process = self._process, None
            self._programs.clear()
            self._paths.clear()
        if process is None:
            return None
        assert process.stdin is not None
        with contextlib.suppress(OSError):
            process.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(wait_s)
        return process.returncode

    def _forget_ended(self) -> None:
        """Programs the bot has waited for are no longer the reaper's (their PIDs are free)."""
        for pid, (ref, _, _) in list(self._programs.items()):
            process = ref()
            if process is None or process.returncode is not None:
                del self._programs[pid]
                if self._process is not None:
                    self._send({"ended": pid})

    def _send(self, message: dict[str, Any]) -> None:
        line = json.dumps(message).encode() + b"\n"
        if self._process is not None:
            assert self._process.stdin is not None
            try:
                self._process.stdin.write(line)
                self._process.stdin.flush()
                return
            except OSError:  # it was ended: a new one is told everything still listed
                self._process.wait()
        try:
            self._process = self._start()
        except OSError:  # no reaper: the kernel's death signal still ends the programs
            self._process = None
            return
        assert self._process.stdin is not None
        with contextlib.suppress(OSError):
            self._process.stdin.write(self._listed())
            self._process.stdin.flush()

    def _listed(self) -> bytes:
        messages: list[dict[str, Any]] = [
            {"program": pid, "start": started, "signal": signum}
            for pid, (_, started, signum) in self._programs.items()
        ]
        messages += [{"path": path} for path in self._paths]
        return b"".join(json.dumps(m).encode() + b"\n" for m in messages)

    @staticmethod
    def _start() -> subprocess.Popen[bytes]:
        """This file as a program of its own: in a session of its own (a Ctrl-C or a
        closed terminal reaches the bot, never its reaper), with no site packages to
        load (``-S``) and nothing of the caller's environment (``-I``)."""
        return subprocess.Popen(
            [sys.executable, "-I", "-S", os.path.abspath(__file__)],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            cwd="/",
        )


if __name__ == "__main__":
    sys.exit(main())
