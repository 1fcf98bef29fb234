"""The window sizes a Fuse window gives itself, read from the size hints it gives the
window manager (``WM_NORMAL_HINTS``), never assumed from a toolkit.

fuse-gtk's smallest size is its 1x picture with its bars (the menu bar above, the status
bar below, as tall as the desktop's font makes them), and it grows a whole picture at a
time: so the bars' size is the smallest size less a 320x240 picture. fuse-sdl's smallest
and largest sizes are both its picture: it adds nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from Xlib.error import XError

from logo_bot.bot.x11.picture import PICTURE_1X, SCALES


@dataclass(frozen=True)
class FuseSizes:
    """``extra``: what the window adds to its picture (width, height); ``largest``: the
    largest size it allows, if it says; ``desktop_scale``: 2 where GTK draws everything
    twice as large (``GDK_SCALE=2``), its smallest picture then 640 pixels wide, smoothly
    scaled."""

    extra: tuple[int, int] = (0, 0)
    largest: tuple[int, int] | None = None
    desktop_scale: int = 1  # a HiDPI desktop's factor on a window that grows (fuse-gtk)

    def at(self, scale: int) -> tuple[int, int]:
        """The window's size with its picture at ``scale``."""
        return PICTURE_1X[0] * scale + self.extra[0], PICTURE_1X[1] * scale + self.extra[1]

    def scale_of(self, width: int, height: int) -> int | None:
        """The scale at which Fuse gives itself this size; None where it does not."""
        return next((s for s in SCALES if self.at(s) == (width, height)), None)

    def own(self, width: int, height: int) -> bool:
        """Whether Fuse gives itself this size (at some scale)."""
        return self.scale_of(width, height) is not None

    def beyond(self, width: int, height: int) -> bool:
        """Whether the size is beyond the largest the window allows (fuse-gtk then draws
        no picture: sway tiles it so)."""
        return self.largest is not None and (width > self.largest[0] or height > self.largest[1])


def fuse_sizes(window) -> FuseSizes:
    """The sizes of a Fuse ``window`` (python-xlib), from its size hints; a window that
    gives none is taken as its picture alone."""
    try:
        hints = window.get_wm_normal_hints()
    except XError:
        hints = None
    if hints is None or hints.min_width < PICTURE_1X[0] or hints.min_height < PICTURE_1X[1]:
        return FuseSizes()
    smallest = max(1, min(hints.min_width // PICTURE_1X[0], hints.min_height // PICTURE_1X[1]))
    extra = (
        hints.min_width - PICTURE_1X[0] * smallest,
        hints.min_height - PICTURE_1X[1] * smallest,
    )
    largest = (hints.max_width, hints.max_height) if hints.max_width > 0 else None
    grows = largest is not None and largest[0] > hints.min_width  # fuse-sdl's does not
    return FuseSizes(extra, largest, smallest if grows else 1)
