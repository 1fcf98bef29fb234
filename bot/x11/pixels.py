"""A window's pixels as numpy RGB arrays: a ZPixmap's bytes at depth 24/32 or 16, and a
plain ``GetImage`` of a box of a window."""

from __future__ import annotations

import numpy as np
from Xlib import X

from logo_bot.bot.errors import EmulatorError
from logo_bot.bot.x11.picture import BGR_TO_RGB, Box

Frame = np.ndarray  # (height, width, 3) uint8, RGB


def window_image(window, box: Box) -> Frame:
    """``box`` of ``window`` with a plain ``GetImage`` request."""
    try:
        image = window.get_image(box.left, box.top, box.width, box.height, X.ZPixmap, 0xFFFFFFFF)
    except Exception as exc:
        raise EmulatorError(f"cannot read the Fuse window ({exc.__class__.__name__})") from None
    data = image.data if isinstance(image.data, bytes) else bytes(image.data)
    return to_rgb(image.depth, data, box.width, box.height)


def to_rgb(depth: int, data: bytes | np.ndarray, width: int, height: int) -> Frame:
    """A ZPixmap's bytes (rows padded to 32 bits) as an RGB ``Frame``."""
    if depth in (24, 32):
        bgrx = np.frombuffer(data, dtype=np.uint8).reshape(height, -1, 4)[:, :width]
        return bgrx[:, :, BGR_TO_RGB]
    if depth == 16:
        px = np.frombuffer(data, dtype="<u2").reshape(height, -1)[:, :width]
        red = ((px >> 11) & 0x1F) << 3
        green = ((px >> 5) & 0x3F) << 2
        blue = (px & 0x1F) << 3
        return np.stack([red, green, blue], axis=-1).astype(np.uint8)
    raise EmulatorError(f"X depth {depth} is not supported; use a 24-bit display")
