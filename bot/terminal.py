"""The terminal logo-bot was started from, which may go away while it runs.

A closed terminal window (a pty whose master is closed) hangs up: every write to it
fails with EIO, and a pipe whose reader has gone fails with EPIPE. Neither may fail a
run, whose every line is in run.log anyway:

* ``guard_streams`` wraps ``sys.stdout`` and ``sys.stderr`` so that their writes never
  fail. The first that does sends that stream's file descriptor to /dev/null, so that
  nothing written later, by the bot or by the interpreter at its exit, fails again.
* ``leave_terminal`` (on SIGHUP, from any thread) sends standard input, output and error
  to /dev/null at once where they are a terminal. ``isatty`` cannot tell: on a hung-up
  terminal it fails with EIO and says no, so a terminal is told by that EIO too.

Imports nothing of the bot.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
import termios
from collections.abc import Iterable
from typing import TextIO

STANDARD_FDS = (0, 1, 2)


def is_terminal(fd: int) -> bool:
    """Whether ``fd`` is a terminal, also one that has hung up."""
    try:
        termios.tcgetattr(fd)
    except termios.error as exc:
        return exc.args[0] == errno.EIO  # a hung-up terminal; any other file: ENOTTY
    return True


def to_devnull(fd: int) -> None:
    """Make ``fd`` read and write /dev/null from now on (nothing happens if it cannot)."""
    with contextlib.suppress(OSError):
        null = os.open(os.devnull, os.O_RDWR)
        try:
            os.dup2(null, fd)
        finally:
            os.close(null)


def leave_terminal() -> None:
    """The terminal is gone (SIGHUP): standard input, output and error that are a
    terminal read and write /dev/null from now on. Safe when it has hung up already,
    from any thread, and more than once."""
    for fd in STANDARD_FDS:
        if is_terminal(fd):
            to_devnull(fd)


class GuardedStream:
    """A text stream whose writes and flushes never fail. When one fails (EIO, EPIPE, a
    closed file), the stream is lost: its file descriptor goes to /dev/null and nothing
    is written from then on. Everything else is the wrapped stream's."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.lost = False

    def write(self, text: str) -> int:
        if not self.lost:
            try:
                self.stream.write(text)
            except (BlockingIOError, InterruptedError):
                pass  # a full non-blocking pipe: this much is dropped, the stream stays
            except (OSError, ValueError):
                self._lose()
        return len(text)

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        if not self.lost:
            try:
                self.stream.flush()
            except (BlockingIOError, InterruptedError):
                pass
            except (OSError, ValueError):
                self._lose()

    def isatty(self) -> bool:
        if self.lost:
            return False
        try:
            return self.stream.isatty()
        except (OSError, ValueError):
            return False

    def __getattr__(self, name: str) -> object:
        return getattr(self.stream, name)

    def _lose(self) -> None:
        """Write nowhere from now on; what the wrapped stream still holds goes to
        /dev/null (its file descriptor, when it is still open, points there)."""
        self.lost = True
        try:
            fd = self.stream.fileno()
        except (OSError, ValueError):
            return  # closed: its number may be another file's by now
        to_devnull(fd)
        with contextlib.suppress(OSError, ValueError):
            self.stream.flush()


def guard_streams() -> None:
    """Wrap ``sys.stdout`` and ``sys.stderr`` in ``GuardedStream`` (once; a missing one,
    None, is left so)."""
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is not None and not isinstance(stream, GuardedStream):
            setattr(sys, name, GuardedStream(stream))
