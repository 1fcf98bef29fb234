"""The emulation speed Fuse shows in its window title, "Fuse - 87%".

fuse-sdl re-sets its title every emulated second with the speed it reached over that
second (../shared/FUSE-FACTS.md section 6). On a busy machine that is less than the
``--speed`` asked, and waits counted in emulated frames must last longer. fuse-gtk keeps
its title "Fuse" (the speed is in its status bar): then there is no reading.
"""

from __future__ import annotations

import re

from Xlib.error import XError

from logo_bot.bot.x11.display import open_display
from logo_bot.bot.x11.window import window_title

SPEED = re.compile(r"(\d+(?:\.\d+)?)\s*%")


def speed_in(title: str) -> float | None:
    """The percentage in a Fuse window title, or None."""
    found = SPEED.search(title)
    return float(found.group(1)) if found else None


def frames_per_s(shown: float | None, nominal: float, fps: float) -> float:
    """Emulated frames per wall second to count on: the speed Fuse showed (``shown`` %,
    at ``fps`` frames per second at 100 %) when below the ``nominal`` rate asked, never
    above it, and at least 1 % (a Fuse that showed 0 % is still waited for)."""
    if shown is None:
        return nominal
    return max(min(nominal, fps * shown / 100), fps / 100)


class TitleSpeed:
    """Reads the speed in the title of the Fuse window ``window_id`` (one round trip)."""

    def __init__(self, display: str, window_id: int) -> None:
        self.dpy = open_display(display)
        self.window = self.dpy.create_resource_object("window", window_id)
        self._closed = False

    def percent(self) -> float | None:
        """The speed Fuse reached over its last emulated second; None without one."""
        try:
            return speed_in(window_title(self.window))
        except (XError, OSError):
            return None

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self.dpy.close()
