"""A display that goes away under the bot: its X server ended (a logout, a crash, a stop).

The libraries do not say it in the bot's words. python-xlib raises
``ConnectionClosedError`` in the next call on any connection to that server; mss 10
raises an ``AssertionError`` from its XCB reply (``ScreenShotError`` on close); and Fuse,
an X client too, dies with its display, so the first error the bot meets may as well be
"Fuse died", or a display that does not open when Fuse is started again.

``LostDisplay`` is the boundary that turns all of them into ``DisplayLost`` (exit 4, one
line), put around a command's session inside its run folder, so that the folder fails
with it too. An error in its chain decides first: a ``DisplayLost`` raised inside (and
followed by other errors on the way out), or a ``ConnectionClosedError``. Any other error
is checked against the X server itself (``XServer.gone``): a private Xvfb that ended
before the bot stopped it, or the person's display that no longer opens. Where no server
is known (the grabber), ``probe`` asks the display.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

from Xlib.error import ConnectionClosedError

from logo_bot.bot.errors import DisplayLost
from logo_bot.bot.x11.display import XServer, display_gone

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


class LostDisplay:
    """A context manager: an error leaving the block because the X display was lost
    leaves it as ``DisplayLost``. ``probe`` checks the display ``display`` on any error;
    ``watch`` names the session's X server once it is known, which is asked on any
    error whether it went away by itself (see the module)."""

    def __init__(self, display: str | None = None, probe: bool = False) -> None:
        self.display = display
        self.probe = probe
        self.server: XServer | None = None

    def watch(self, server: XServer) -> None:
        """The display is ``server``'s (a session picks its own)."""
        self.server, self.display = server, server.display

    def check(self) -> None:
        """Raise ``DisplayLost`` if the watched server went away (where nothing failed:
        a program that simply ended with its display)."""
        if self.server is not None and self.server.gone():
            raise DisplayLost(self.display)

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
        if self.server is not None and self.server.gone():
            return DisplayLost(self.display)
        if self.probe and self.display and display_gone(self.display):
            return DisplayLost(self.display)
        return None
