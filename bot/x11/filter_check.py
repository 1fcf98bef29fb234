"""A person's Fuse drawing through a graphics filter the bot cannot read: said at once.

Fuse sizes its own window to its picture at the filter's scale (fuse-sdl: the window is
the picture; fuse-gtk adds its bars), so a window of Fuse's own size at scale 2 or more
holds a picture of that size. Where the bot finds none of that size (``bot.x11.picture``
reads the plain, TV and Dot matrix filters), yet the window shows a picture there, a
border of one colour round a screen that shows something, the filter reshapes the blocks
(2xSaI, Super 2xSaI, SuperEagle, HQ and PAL TV blend neighbours, AdvMAME takes their
colours at the edges), and what the bot finds inside is a piece of the screen, not the
picture. PAL TV at 1x keeps Fuse's window size and border: the game is then not seen
(``bot.play.take_over`` says so, with the same fix).
"""

from __future__ import annotations

import numpy as np

from logo_bot.bot.errors import EmulatorError, Unreadable
from logo_bot.bot.x11.display import open_display
from logo_bot.bot.x11.fuse_sizes import FuseSizes, fuse_sizes
from logo_bot.bot.x11.picture import BORDER_1X, PICTURE_1X, Box, border_holds
from logo_bot.bot.x11.pixels import window_image

FIX = (
    "in Fuse: F1 (fuse-gtk: its menu bar), Options, Filter..., choose Normal, Double size "
    "or Triple size (TV 2x, TV 3x and Dot matrix also work), or start Fuse with "
    "--graphics-filter 2x"
)


def window_scale(sizes: FuseSizes, width: int, height: int) -> int | None:
    """The scale at which Fuse sized its window to ``width`` x ``height`` itself; None
    where it did not (a tiler's, a maximised one) or a HiDPI desktop draws it."""
    return None if sizes.desktop_scale > 1 else sizes.scale_of(width, height)


def smoothed_filter(pixels: np.ndarray, sizes: FuseSizes, box: Box | None) -> int | None:
    """The scale of a picture a smoothing filter drew in a Fuse window's ``pixels`` (RGB)
    whose picture was found as ``box`` (None: none), or None where there is none."""
    height, width = pixels.shape[:2]
    scale = window_scale(sizes, width, height)
    if scale is None or scale == 1 or (box is not None and box.size == scale):
        return None
    w, h = PICTURE_1X[0] * scale, PICTURE_1X[1] * scale
    bx, by = (b * scale for b in BORDER_1X)
    for top in range(height - h + 1):  # fuse-gtk: the menu bar above, the status bar below
        picture = pixels[top : top + h, :w]
        if border_holds(picture) and (picture[by:-by, bx:-bx] != picture[0, 0]).any():
            return scale
    return None


def check_filter(
    display: str, window_id: int, box: Box | None, again: str = "attach again"
) -> None:
    """``Unreadable`` (exit 7) naming the fix where the person's Fuse window shows its
    picture through a filter that reshapes its blocks; ``box``: the picture the grabber
    found, if any; ``again``: what the person does once they have chosen another."""
    dpy = open_display(display)
    try:
        window = dpy.create_resource_object("window", window_id)
        geometry = window.get_geometry()
        sizes = fuse_sizes(window)
        if window_scale(sizes, geometry.width, geometry.height) in (None, 1):
            return
        try:
            pixels = window_image(window, Box(0, 0, geometry.width, geometry.height))
        except EmulatorError:  # partly off the screen: the grab that follows says so
            return
    finally:
        dpy.close()
    scale = smoothed_filter(pixels, sizes, box)
    if scale is not None:
        raise Unreadable(
            f"your Fuse draws its picture at {scale}x through a graphics filter that reshapes "
            "or blends its blocks (2xSaI, SuperEagle, AdvMAME, HQ or PAL TV): its pixels are "
            "not the game's own, and the bot would misread the game",
            hint=f"{FIX}, then {again}",
        )
