"""Starting programs that end with the bot, however the bot ends.

Every program the bot starts (Xvfb, Fuse, ffmpeg, fmfconv) runs in a session of its own,
so that a Ctrl-C at the terminal reaches the bot alone and the bot stops them in order.
On Linux each is also told by the kernel to receive ``death_signal`` when the bot's
thread that started it ends (``PR_SET_PDEATHSIG``): if the bot is killed outright
(SIGKILL, a crash), nothing it started is left running. Which signal each program gets
is ``bot.stopping``'s (one it obeys).

The kernel removes no file, so each program is also told to the bot's reaper
(``bot.reaper``), and so is each temporary file or folder the bot makes
(``remove_if_killed``, until ``removed``): if the bot dies first, the reaper ends the
programs and removes the files.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import subprocess
import sys
import time
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

from logo_bot.bot.reaper import Reaper
from logo_bot.bot.stopping import DEATH_SIGNAL, PROGRAMS_WAIT_S, SIGNALS

PR_SET_PDEATHSIG = 1
REAPER = Reaper()  # the bot's one reaper, started at the first program or file it is told


def _libc() -> Any | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None


_LIBC = _libc()
if _LIBC is not None:
    _LIBC.signal.argtypes = [ctypes.c_int, ctypes.c_void_p]
    _LIBC.signal.restype = ctypes.c_void_p

# A signal ignored by the bot (nohup ignores SIGHUP, a shell's background job SIGINT)
# stays ignored across exec: its programs get each back to the default, so that the
# death signal and the bot's own stop signals end them.
DEFAULT_SIGNALS = SIGNALS


def dies_with_parent(death_signal: int) -> Callable[[], None]:
    """A ``preexec_fn`` that asks the kernel for ``death_signal`` when the parent ends
    (with the stop signals at their default: ``DEFAULT_SIGNALS``), and exits at once when
    the parent has already ended (the race the kernel leaves)."""
    parent = os.getpid()

    def arrange() -> None:
        if _LIBC is not None:
            for signum in DEFAULT_SIGNALS:  # libc's: any thread may start a program
                _LIBC.signal(int(signum), None)  # SIG_DFL
            _LIBC.prctl(PR_SET_PDEATHSIG, int(death_signal), 0, 0, 0)
        if os.getppid() != parent:
            os._exit(1)

    return arrange


_started: weakref.WeakSet[subprocess.Popen[bytes]] = weakref.WeakSet()


def start(
    args: list[str], death_signal: int = DEATH_SIGNAL, **popen: Any
) -> subprocess.Popen[bytes]:
    """``subprocess.Popen(args, **popen)`` in a new session, ending with the bot.

    Start long-lived programs from the main thread: the kernel sends the signal when the
    starting thread ends, not only the process."""
    process = subprocess.Popen(
        args, start_new_session=True, preexec_fn=dies_with_parent(death_signal), **popen
    )
    _started.add(process)
    REAPER.program(process, death_signal)
    return process


def remove_if_killed(*paths: Path) -> None:
    """Have the reaper remove each file or folder of ``paths`` if the bot dies (SIGKILL,
    a crash) before it calls ``removed`` with it."""
    for path in paths:
        REAPER.path(path)


def removed(*paths: Path) -> None:
    """``paths`` are removed (or kept on purpose): the reaper no longer touches them."""
    for path in paths:
        REAPER.removed(path)


def run(args: list[str], death_signal: int = DEATH_SIGNAL) -> subprocess.CompletedProcess[str]:
    """``subprocess.run(args, capture_output=True, text=True)`` for a short program
    (ffprobe, an ffmpeg remux), started as ``start`` starts them: it ends with the bot,
    and a forced end kills it (``kill_started``). An interrupt kills it too."""
    process: subprocess.Popen[Any] = start(
        args,
        death_signal,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        out, err = process.communicate()
    except BaseException:
        process.kill()
        process.wait()
        raise
    return subprocess.CompletedProcess(args, process.returncode, out, err)


def kill_started(reason: str = "", wait_s: float = PROGRAMS_WAIT_S) -> None:
    """SIGKILL every program started here that still runs, and wait for them all for at
    most ``wait_s`` (a forced end: no ffmpeg may write a file after the folder is
    marked)."""
    running = [p for p in list(_started) if p.poll() is None]
    for process in running:
        with contextlib.suppress(OSError):
            process.kill()
    deadline = time.monotonic() + wait_s
    for process in running:
        with contextlib.suppress(Exception):
            process.wait(max(0.0, deadline - time.monotonic()))
