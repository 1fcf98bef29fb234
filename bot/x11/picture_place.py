"""Where the picture is inside a Fuse window, kept up to date as the window changes.

The picture is found by its pixels (``bot.x11.picture``): when the window's size
changes, when it was not seen yet, and when the box found no longer holds it (its border
is no longer one colour: Fuse drew another scale in a window of the same size). For a
while after a resize every read is checked, because Fuse draws the new scale a few
frames after the window changed.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

import numpy as np
from Xlib.error import ConnectionClosedError

from logo_bot.bot import interrupts
from logo_bot.bot.errors import DisplayLost
from logo_bot.bot.x11.picture import Box, border_holds, find_picture, guess_box, margin_of

log = logging.getLogger(__name__)


class PicturePlace:
    """``box``: where the picture is in the window; ``found``: whether its pixels showed
    it there (otherwise a guess, looked for again: every ``seek_s`` until the picture
    was first seen, then at each refresh). ``read(box)`` reads a box of the window."""

    seek_s = 0.1  # while the picture was never seen (Fuse is starting)
    settle_s = 1.0  # after a resize, each read checks that the picture shows whole

    def __init__(self, read: Callable[[Box], np.ndarray]) -> None:
        self._read = read
        self.box = Box(0, 0, 0, 0)
        self.found = False
        self.ever_found = False
        self._size: tuple[int, int] | None = None
        self._unseen: np.ndarray | None = None  # the pixels of a window that showed none
        self._settle_until = 0.0

    def update(self, width: int, height: int, look: bool = False) -> None:
        """The window is ``width`` x ``height`` now: find the picture again where its size
        changed, it was not found, it no longer holds, or ``look`` asks."""
        size = (width, height)
        resized = size != self._size
        if resized and self._size is not None:
            self._settle_until = time.monotonic() + self.settle_s
        if not (look or resized or not self.found or not self._holds()):
            return
        self._size = size
        hint = self.box if self.box.width else None
        # a picture not seen stays where it was while the window keeps its size
        unseen = guess_box(width, height) if resized or hint is None else hint
        try:
            window = self._read(Box(0, 0, width, height))
        except (DisplayLost, ConnectionClosedError):
            raise
        except Exception as exc:  # not on the screen yet, or unmapped: soon again
            log.debug("the Fuse window cannot be read yet: %s", exc)
            self.box, self.found = unseen, False
            return
        unchanged = self._unseen is not None and np.array_equal(window, self._unseen)
        if not self.found and not resized and unchanged:
            return  # nothing drawn since it showed no picture: no need to look again
        found = find_picture(window, hint)
        self.box, self.found = (found, True) if found is not None else (unseen, False)
        self._unseen = None if self.found else window.copy()
        self.ever_found |= self.found

    def _holds(self) -> bool:
        try:
            return self.shows(self._read(self.box))
        except (DisplayLost, ConnectionClosedError):
            raise
        except Exception:  # the window cannot be read now: look for the picture again
            return False

    def shows(self, pixels: np.ndarray) -> bool:
        """Whether ``pixels`` (the box read) show a border of one colour all round (a
        filtered picture's, in its blocks' own pixels)."""
        if self.box.filter:
            pixels = self.box.as_drawn(pixels)
        return border_holds(pixels, margin_of(self.box))

    def settling(self) -> bool:
        """Whether the window was resized lately (reads are checked)."""
        return time.monotonic() < self._settle_until

    def settled(self, frame: np.ndarray, refresh: Callable[[], None]) -> np.ndarray:
        """``frame`` (the box read) once the picture shows whole in it: until then, for up
        to ``settle_s`` after the resize, ``refresh()`` looks again and the box is read
        again, rather than a picture read wrong."""
        while not (self.found and self.shows(frame)):
            if not self.settling():
                break
            interrupts.sleep(0.01)
            refresh()
            frame = self._read(self.box)
        return frame
