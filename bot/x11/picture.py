"""Where the Spectrum picture lies inside a Fuse window.

fuse-sdl's window is the picture. fuse-gtk draws a menu bar above it (25 px) and, unless
``--no-statusbar``, a status bar below it (27 px) into the same client window, with the
picture at the window's left edge (../shared/FUSE-FACTS.md, section 7). The picture is
320x240 pixels at 1x, 640x480 at 2x, 960x720 at 3x; its border rows are one Spectrum
colour, which is how its top edge is told from GTK's bars.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

PICTURE_1X = (320, 240)
GTK_MENU_BAR = 25  # measured: the picture starts 25 px below the client's top edge
GTK_STATUS_BAR = 27  # measured: below the picture, unless --no-statusbar
SPECTRUM_LEVELS = (0, 192, 248, 252)  # channel values Fuse draws (16-bit surface)
# X's 32-bit pixels are B G R X in memory: taking the three channels by index copies a
# 320x240 picture in 0.08 ms, where the reversed slice's copy took 0.4-0.7 ms
BGR_TO_RGB = [2, 1, 0]


@dataclass(frozen=True)
class Box:
    """A rectangle inside the window, in window pixels."""

    left: int
    top: int
    width: int
    height: int

    def crop(self, pixels: np.ndarray) -> np.ndarray:
        return pixels[self.top : self.top + self.height, self.left : self.left + self.width]


def scale_for(width: int, height: int | None = None) -> int:
    """1, 2 or 3: the scale of the picture in a ``width`` x ``height`` Fuse window (the
    largest that fits, as fuse-gtk draws in a window a tiler made larger: the picture
    exactly, or with at least the menu bar above it)."""
    for scale in (3, 2, 1):
        w, h = PICTURE_1X[0] * scale, PICTURE_1X[1] * scale
        if w <= width and (height is None or height == h or h + GTK_MENU_BAR <= height):
            return scale
    return 1


def window_size(build: str, scale: int) -> tuple[int, int]:
    """The size of the Fuse window that shows the picture at ``scale`` (fuse-gtk: with its
    menu bar and status bar)."""
    w, h = PICTURE_1X[0] * scale, PICTURE_1X[1] * scale
    return (w, h + GTK_MENU_BAR + GTK_STATUS_BAR) if build == "gtk" else (w, h)


def _border_row(row: np.ndarray) -> bool:
    """One colour across the whole row, and a colour Fuse can draw."""
    first = row[0]
    return bool((row == first).all()) and all(int(v) in SPECTRUM_LEVELS for v in first)


def picture_box(width: int, height: int, pixels: np.ndarray | None = None) -> tuple[Box, bool]:
    """The picture inside a ``width`` x ``height`` Fuse window, and whether it was found by
    its pixels (``pixels``: the whole window, RGB) rather than assumed from the layout."""
    scale = scale_for(width, height)
    w, h = PICTURE_1X[0] * scale, PICTURE_1X[1] * scale
    extra = height - h
    if extra <= 0:
        return Box(0, 0, min(w, width), height), True
    candidates = [GTK_MENU_BAR, 0, *range(1, extra + 1)] if extra >= GTK_MENU_BAR else [0]
    if pixels is not None and pixels.shape[:2] == (height, width):
        strip = 24 * scale  # the top border is this tall at this scale
        for top in dict.fromkeys(c for c in candidates if c <= extra):
            rows = pixels[top : top + strip, :w]
            if not (_border_row(rows[0]) and _border_row(rows[-1])):
                continue
            if top > 0 and _border_row(pixels[top - 1, :w]):
                continue  # the border starts higher up
            if top != GTK_MENU_BAR and top + h < height and _border_row(pixels[top + h, :w]):
                continue  # it goes on lower down (a window not yet drawn is all one colour)
            return Box(0, top, w, h), True
    return Box(0, candidates[0], w, h), False
