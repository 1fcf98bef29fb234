"""Noticing that another window covers Fuse's picture (X stacking order and geometry)."""

from __future__ import annotations

import time
from collections.abc import Callable

from Xlib import X
from Xlib.error import CatchError, XError

from bot.x11.display import open_display
from bot.x11.window import Region, covering, top_level


class CoverWatch:
    """Whether mapped windows stacked above Fuse's top-level window overlap the picture
    (``area()``, root coordinates); the answer is read again at most every ``every_s``
    seconds, so asking before every key press and every grab costs next to nothing."""

    def __init__(
        self, display: str, window_id: int, area: Callable[[], Region], every_s: float = 0.05
    ) -> None:
        self._dpy = open_display(display)
        self._window = self._dpy.create_resource_object("window", window_id)
        self.area = area
        self.every_s = every_s
        self._checked = 0.0
        self._over: list[Region] = []

    def over(self) -> list[Region]:
        """The windows over the picture now (empty when it is uncovered)."""
        if time.monotonic() - self._checked >= self.every_s:
            try:
                self._over = covering(self._dpy, self._window, self.area())
            except XError:
                self._over = []  # the window is gone: that is noticed elsewhere
            self._checked = time.monotonic()
        return self._over

    def covered(self) -> bool:
        return bool(self.over())

    def raise_fuse(self) -> None:
        """Put Fuse's top-level window on top of the stack (its frame under a window manager,
        which then restacks the client with it)."""
        catch = CatchError()
        try:
            top_level(self._dpy, self._window).configure(stack_mode=X.Above, onerror=catch)
            self._window.configure(stack_mode=X.Above, onerror=catch)
            self._dpy.sync()
        except XError:
            pass
        self._checked = 0.0

    def close(self) -> None:
        self._dpy.close()
