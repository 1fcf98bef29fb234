"""A display that goes away under the bot: its X server ended (a logout, a crash, a stop).

The libraries do not say it in the bot's words. python-xlib raises
``ConnectionClosedError`` in the next call on any connection to that server; mss 10
raises an ``AssertionError`` from its XCB reply (``ScreenShotError`` on close); and Fuse,
an X client too, dies with its display, so the first error the bot meets may as well be
"Fuse died", or a display that does not open when Fuse is started again.

``LostDisplay`` is the boundary that turns all of them into ``DisplayLost`` (exit 4, one
line). With ``probe`` (inside the session, while the display should still be there) any
error leaving the block is checked against the display itself: when it no longer opens,
the error was its loss. Without (around the session, whose own end may stop a private
Xvfb) only the errors' chain decides: a ``ConnectionClosedError`` in it, or a
``DisplayLost`` already raised inside and followed by errors on the way out.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator

from Xlib.error import ConnectionClosedError

from bot.errors import DisplayLost
from bot.x11.display import open_display

PROBE_S = 2.0  # a server that has not answered by then is frozen, not gone

log = logging.getLogger(__name__)


def chain(exc: BaseException) -> Iterator[BaseException]:
    """``exc`` and the errors it was raised from or while handling, each once."""
    seen: set[int] = set()
    todo: list[BaseException] = [exc]
    while todo:
        error = todo.pop()
        if id(error) in seen:
            continue
        seen.add(id(error))
        yield error
        todo += [e for e in (error.__cause__, error.__context__) if e is not None]


def display_gone(display: str, timeout: float = PROBE_S) -> bool:
    """Whether ``display`` no longer opens. The attempt runs on a thread of its own, so a
    frozen server (which counts as there) costs ``timeout`` at most."""
    verdict: list[bool] = []

    def attempt() -> None:
        try:
            open_display(display).close()
        except Exception:  # DisplayError, or ConnectionClosedError while closing
            verdict.append(True)
        else:
            verdict.append(False)

    worker = threading.Thread(target=attempt, name="display-probe", daemon=True)
    worker.start()
    worker.join(timeout)
    return bool(verdict and verdict[0])


class LostDisplay:
    """A context manager: an error leaving the block because the X display was lost
    leaves it as ``DisplayLost``. ``display`` may be set once it is known (a session
    picks its own); ``probe`` checks the display on any error (see the module)."""

    def __init__(self, display: str | None = None, probe: bool = False) -> None:
        self.display = display
        self.probe = probe

    def __enter__(self) -> LostDisplay:
        return self

    def __exit__(self, kind: type | None, exc: BaseException | None, tb: object) -> None:
        if not isinstance(exc, Exception) or isinstance(exc, DisplayLost):
            return  # a stop (KeyboardInterrupt) stays a stop
        lost = self.lost(exc)
        if lost is None:
            return
        if lost.__traceback__ is not None:  # raised inside already: errors followed it
            raise lost from None
        log.info("the display was lost: %s: %s", type(exc).__name__, exc)
        raise lost from exc

    def lost(self, exc: Exception) -> DisplayLost | None:
        """The ``DisplayLost`` that ``exc`` stands for, or None when the display is fine."""
        errors = list(chain(exc))
        for error in errors:
            if isinstance(error, DisplayLost):
                return error
        if any(isinstance(error, ConnectionClosedError) for error in errors):
            return DisplayLost(self.display)
        if self.probe and self.display and display_gone(self.display):
            return DisplayLost(self.display)
        return None
