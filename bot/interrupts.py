"""Ctrl-C, SIGTERM and SIGHUP taken alike, and never in the middle of a key event.

``logo-bot`` installs ``on_signal`` for all three as the first thing it does, so that a
signal arriving during start-up is not lost (a program started in the background by a
shell inherits SIGINT ignored) and every one ends the run the same way: a
``KeyboardInterrupt`` (``Terminated`` for SIGTERM and SIGHUP) that finishes the run
folder as "aborted" and stops what the bot started, exit 130. Inside a ``critical``
stretch (a server grab, a press and its bookkeeping) the interrupt waits for its end.
Only a SIGHUP ignored from the start is left ignored: ``nohup logo-bot ...`` asks the run
to outlive its terminal.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator

SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP, taken like Ctrl-C so that the run folder is finished all the same."""


class _Critical(threading.local):
    depth = 0
    pending: KeyboardInterrupt | None = None


_critical = _Critical()


@contextlib.contextmanager
def critical() -> Iterator[None]:
    """A stretch that an interrupt must not cut in two. With ``on_signal`` (or
    ``interrupt_or_defer``) handling the signal, an interrupt that arrives inside is
    raised when the outermost stretch ends."""
    _critical.depth += 1
    try:
        yield
    finally:
        _critical.depth -= 1
    if _critical.depth == 0 and _critical.pending is not None:
        pending, _critical.pending = _critical.pending, None
        raise pending


def interrupt_or_defer(interrupt: KeyboardInterrupt | None = None) -> None:
    """Raise ``interrupt`` (a ``KeyboardInterrupt``) now, or at the end of the critical
    stretch the main thread is in. The first interrupt deferred is the one raised."""
    interrupt = interrupt or KeyboardInterrupt()
    if _critical.depth:
        _critical.pending = _critical.pending or interrupt
        return
    raise interrupt


def on_signal(signum: int, frame: object = None) -> None:
    """The handler for SIGINT, SIGTERM and SIGHUP."""
    if signum == signal.SIGINT:
        interrupt_or_defer(KeyboardInterrupt())
        return
    if signum == signal.SIGHUP:
        _leave_terminal()
    interrupt_or_defer(Terminated(f"stopped by {signal.Signals(signum).name}"))


def install() -> None:
    """Take SIGINT, SIGTERM and SIGHUP with ``on_signal`` (main thread only); a SIGHUP
    ignored already (nohup) stays ignored."""
    for signum in SIGNALS:
        if signum == signal.SIGHUP and signal.getsignal(signum) == signal.SIG_IGN:
            continue
        signal.signal(signum, on_signal)


def _leave_terminal() -> None:
    """The terminal is gone (SIGHUP): further writes to it would fail, so standard output
    and error go nowhere from now on (run.log still gets every line)."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
    except OSError:
        return
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError, AttributeError):
            if os.isatty(stream.fileno()):
                os.dup2(null, stream.fileno())
    os.close(null)
