"""Ctrl-C, SIGTERM, SIGHUP and the abort key: requests to stop, honoured at safe points.

How requests are carried and the end forced; what each one decides (which request
forces the end, the times, the callbacks' order, the exit status) is in ``bot.stopping``,
where the whole stop reads in order.

A signal never raises inside the bot. ``install`` gives SIGINT, SIGTERM and SIGHUP a
handler that does nothing in Python; the interpreter's C handler writes the signal's
number to a pipe (``signal.set_wakeup_fd``), and a thread of ours reads it there and
records the stop (``request``: the abort key's thread calls it directly). The bot looks
at the request at its own safe points, between X calls: ``check`` raises ``Stopped`` (a
``KeyboardInterrupt``, so every ``finally`` releases keys and stops programs on the way
out) before a key is pressed, in every wait (``sleep``), between levels and in the
encoders. The bot's waits sleep in a ``select`` that also watches ``stop_fds``, a pipe
written at the first request, so a stop ends a wait at once. An X connection is never
left half-way through a request.

The stop is bounded (``stopping``'s times). A second request, or the watchdog when the
orderly stop's time is up, forces the end: the callbacks given to ``on_force`` run in
turn, each on a thread of its own, and the process exits at once (``os._exit``; what it
started ends with it). Its line on stderr is written on a thread of its own and waited
for only briefly: a full pipe or a stuck terminal never holds the end.

``settle`` records ``logo-bot``'s exit status, after which requests are dropped, and
the stop signals are ignored at the exit (``_ignore_at_exit``).

The module is one piece: the requests, the two pipes that carry them (signals in, waits
woken) and the forced end share one state and one lock.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import select
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator

from logo_bot.bot import stopping
from logo_bot.bot.stopping import (
    FINISH_S,
    FORCE_AFTER_S,
    HOOK_S,
    HOOKS_S,
    MESSAGES,
    SAY_S,
    SIGNALS,
    SLICE_S,
    Request,
)


class Stopped(KeyboardInterrupt):
    """The run was asked to stop; ``str()`` says how ("stopped by Ctrl-C", ...)."""


class Terminated(Stopped):
    """SIGTERM or SIGHUP."""


ForceHook = Callable[[str], None]


class _State:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.asked = False  # a stop was asked (read at every safe point)
        self.kind: type[Stopped] = Stopped
        self.message = ""
        self.asked_at = 0.0
        self.requests = 0
        self.hooks: list[ForceHook] = []
        self.first: list[ForceHook] = []  # hooks that run before the others
        self.armed = False  # install() ran: a second request or the watchdog ends the process
        self.on_hangup: Callable[[], None] | None = None
        self.forcing = False
        self.settled: int | None = None  # the exit status, once ``settle`` has it


_state = _State()
_finishing = threading.local()


class _Pipe:
    fd: int | None = None  # the read end of the signals' wake-up pipe, once installed
    noted = False  # a signal came since the main thread last read the pipe
    hangup_ignored = False  # SIGHUP was ignored before the first ``install`` (nohup)


_pipe = _Pipe()


class _Wake:
    """A pipe that becomes readable when a stop is first asked (``stop_fds``)."""

    read_fd: int | None = None
    write_fd: int | None = None


_wake = _Wake()


def stop_fds() -> tuple[int, ...]:
    """What a wait adds to its ``select`` to wake the moment a stop is asked: a pipe that
    becomes readable then. Nothing once a stop is asked (the wait's safe point has it;
    the pipe stays readable, and would wake the wait again at once while the folder is
    written)."""
    if _state.asked:
        return ()
    if _wake.read_fd is None:
        with _state.lock:
            if _wake.read_fd is None:
                read_fd, write_fd = os.pipe()
                os.set_blocking(read_fd, False)
                os.set_blocking(write_fd, False)
                _wake.write_fd, _wake.read_fd = write_fd, read_fd
    return (_wake.read_fd,)


def _wake_waits() -> None:
    """The first request: the waits watching ``stop_fds`` wake."""
    if _wake.write_fd is not None:
        with contextlib.suppress(OSError):  # full already: it is readable
            os.write(_wake.write_fd, b"!")


def requested() -> Stopped | None:
    """The stop asked for, if any (a fresh exception; never raises)."""
    _read_noted()
    if not _state.asked:
        return None
    return _state.kind(_state.message)


def request(message: str, kind: type[Stopped] = Stopped, hangup: bool = False) -> None:
    """Ask the run to stop (any thread). A second request while the first is honoured
    forces the end (once ``install`` has run); a ``hangup`` once a stop is asked is
    that stop (a closed terminal hangs up twice), decided under the lock. Once the exit
    status is known (``settle``), nothing."""
    with _state.lock:
        settled = _state.settled is not None
        decision = stopping.decide_request(settled, _state.asked, hangup, _state.armed)
        if decision is not Request.DROP:
            _state.requests += 1
        if decision is Request.FIRST:
            _state.kind, _state.message = kind, message
            _state.asked_at = time.monotonic()
            _state.asked = True
    if decision is Request.FIRST:
        _wake_waits()
        if _state.armed:
            threading.Thread(target=_watchdog, name="stop-watchdog", daemon=True).start()
    elif decision is Request.FORCE:
        force(stopping.second_stop(message))


def check() -> None:
    """A safe point: raise the stop asked for, if any. While the folder is written
    (``finishing``) a stop raises only once ``FINISH_S`` have passed since it was asked."""
    if _pipe.noted:  # a signal came (``_read_noted``)
        _read_noted()
    if not _state.asked:
        return
    if stopping.raises_now(getattr(_finishing, "depth", 0) > 0, time.monotonic(), finish_by()):
        raise _state.kind(_state.message)


def finish_by() -> float:
    """The monotonic time by which writing the folder after a stop must end."""
    return _state.asked_at + FINISH_S if _state.asked else float("inf")


def sleep(seconds: float) -> None:
    """Sleep; a stop asked meanwhile ends it at once (raised)."""
    end = time.monotonic() + seconds
    while True:
        check()
        left = end - time.monotonic()
        if left <= 0:
            return
        select.select(stop_fds(), [], [], min(left, SLICE_S))


@contextlib.contextmanager
def finishing() -> Iterator[None]:
    """Writing the run's folder after play: a stop already asked (or asked now) lets it
    go on until ``finish_by``; ``check`` raises after that."""
    _finishing.depth = getattr(_finishing, "depth", 0) + 1
    try:
        yield
    finally:
        _finishing.depth -= 1


def on_force(hook: ForceHook, first: bool = False) -> Callable[[], None]:
    """Run ``hook(reason)`` if the end is forced; returns a function that removes it.
    Hooks run newest first (those given ``first`` before all others), in turn, each on
    its own thread for at most ``HOOK_S``, all within ``HOOKS_S``."""
    with _state.lock:
        _state.hooks.append(hook)
        if first:
            _state.first.append(hook)

    def remove() -> None:
        with _state.lock, contextlib.suppress(ValueError):
            _state.hooks.remove(hook)
            _state.first.remove(hook)

    return remove


def forcing() -> bool:
    """The end is being forced: the process exits within moments, and nothing else may
    write the run's folder or the terminal meanwhile (``hold_if_forcing``)."""
    return _state.forcing


def hold_if_forcing() -> None:
    """Wait here for the forced end, if one is under way (the main thread's error would
    otherwise be printed, or written into the folder, while the hooks run)."""
    while _state.forcing:
        time.sleep(1)


def force(reason: str) -> None:
    """End the process now: the ``on_force`` hooks in turn (``stopping.hook_order``),
    within ``HOOKS_S`` (a hook not reached by then does not run), then exit
    (``stopping.forced_exit``). Once the status is known (``settle``), exit with it at
    once instead."""
    with _state.lock:
        if _state.forcing:
            return
        _state.forcing = True
        settled = _state.settled
        hooks = stopping.hook_order(_state.hooks, _state.first)
    if settled is not None:
        os._exit(stopping.forced_exit(settled))
    deadline = time.monotonic() + HOOKS_S
    _say(stopping.ending_line(reason))
    for hook in hooks:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        worker = threading.Thread(target=_run_hook, args=(hook, reason), daemon=True)
        worker.start()
        worker.join(min(HOOK_S, left))
    os._exit(stopping.forced_exit(None))


def settle(status: int) -> int:
    """``logo-bot`` has its exit status: from now on a stop signal or request does
    nothing (it is read and dropped), and a forced end exits with this status; at the
    process's exit, before Python's shutdown puts the signals back to their default (to
    die by them), they are ignored (``_ignore_at_exit``). The first status settled
    stands; returns it."""
    with _state.lock:
        if _state.settled is None:
            _state.settled = status
        return _state.settled


def install(on_hangup: Callable[[], None] | None = None) -> None:
    """Take SIGINT, SIGTERM and SIGHUP as requests (main thread only). ``on_hangup`` runs
    when SIGHUP comes (the terminal is gone). A SIGHUP ignored already (nohup) stays
    ignored."""
    _state.on_hangup = on_hangup
    _state.armed = True
    _state.settled = None  # a command begins (``logo-bot`` run again in one process)
    if _pipe.fd is None:
        _pipe.hangup_ignored = signal.getsignal(signal.SIGHUP) == signal.SIG_IGN
        read_fd, write_fd = os.pipe()
        os.set_blocking(read_fd, False)
        os.set_blocking(write_fd, False)
        signal.set_wakeup_fd(write_fd, warn_on_full_buffer=False)
        _pipe.fd = read_fd
        reader = threading.Thread(target=_read_signals, args=(read_fd,), name="signals")
        reader.daemon = True
        reader.start()
        atexit.register(_ignore_at_exit)
    # again when installed already (logo-bot run twice in one process)
    for signum in SIGNALS:
        if stopping.takes_signal(signum, _pipe.hangup_ignored):
            signal.signal(signum, _noted)


def reset() -> None:
    """Forget any request and hook, and disarm: no forced end, no hang-up action (tests
    that ask for stops in-process, perhaps after a ``logo-bot`` run in the same process
    installed the handlers)."""
    global _state
    _state = _State()
    if _wake.read_fd is not None:  # the waits' pipe readable no more
        with contextlib.suppress(OSError):
            while os.read(_wake.read_fd, 64):
                pass


def _ignore_at_exit() -> None:
    """The process exits: its status is decided. Python's shutdown, which comes after
    this, would put the stop signals back to their default, and one coming then would
    kill the process instead; ignored, it changes nothing (a parent sees the status)."""
    for signum in SIGNALS:
        with contextlib.suppress(OSError, ValueError):
            signal.signal(signum, signal.SIG_IGN)


def _noted(signum: int, frame: object) -> None:
    """The Python side of a signal (run in the main thread between two of its steps):
    the next safe point reads the pipe. ``_read_signals`` has the signal from it too."""
    _pipe.noted = True


def _read_signals(fd: int) -> None:
    """The signal thread: waits on the pipe, so that a stop is recorded (and the waits
    woken) while the main thread is busy elsewhere."""
    while True:
        try:
            select.select([fd], [], [])
        except InterruptedError:
            continue
        except OSError:
            return
        _read_pipe()


def _read_noted() -> None:
    """At a safe point: the pipe read when a signal came since the last (nearly never; a
    read of the empty pipe at each of the many safe points a key costs a system call)."""
    if _pipe.noted:
        _pipe.noted = False
        _read_pipe()


def _read_pipe() -> None:
    """Take the signals written to the pipe so far (here or on the signal thread: each
    byte is read once), so that a safe point sees a signal sent a moment before it."""
    if _pipe.fd is None:
        return
    try:
        data = os.read(_pipe.fd, 64)
    except (BlockingIOError, InterruptedError):
        return
    except OSError:
        return
    for signum in data:
        take_signal(signum)


def take_signal(signum: int) -> None:
    """One stop signal, as the reading thread sees it."""
    if signum not in MESSAGES:
        return
    hangup = signum == signal.SIGHUP
    if hangup and _state.on_hangup is not None:
        with contextlib.suppress(Exception):
            _state.on_hangup()
    kind = Terminated if stopping.terminates(signum) else Stopped
    # a closed terminal hangs up twice (the shell, then the kernel), perhaps read on two
    # threads at once: ``request`` makes it one stop
    request(MESSAGES[signal.Signals(signum)], kind, hangup=hangup)


def _watchdog() -> None:
    time.sleep(FORCE_AFTER_S)
    force(stopping.took_too_long(FORCE_AFTER_S))


def _run_hook(hook: ForceHook, reason: str) -> None:
    try:
        hook(reason)
    except BaseException as exc:
        _say(stopping.callback_failed_line(exc))


def _say(line: str) -> None:
    """``line`` on stderr, waited for at most ``SAY_S`` (a full pipe blocks the write:
    its thread is left to the exit)."""
    writer = threading.Thread(target=_write_stderr, args=(line,), daemon=True)
    writer.start()
    writer.join(SAY_S)


def _write_stderr(line: str) -> None:
    with contextlib.suppress(Exception):
        os.write(sys.stderr.fileno(), (line + "\n").encode())
