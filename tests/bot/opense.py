"""OpenSE BASIC's boot screen in Fuse, for end-to-end tests that type into BASIC."""

from __future__ import annotations

import time

import numpy as np

from logo_bot.bot.fuse.session import basic_ready
from logo_bot.bot.x11.grab import Grabber

# OpenSE draws its copyright line ("(c) 1981 Nine Tiles Networks Ltd", bottom line) over
# two frames; the whole line has this many black pixels at 1x (measured, Fuse 1.6 with
# Debian's opense.rom; scale**2 times as many at 2x and 3x)
COPYRIGHT_INK = 318


def booted(frame: np.ndarray, scale: int = 1) -> bool:
    """OpenSE has cleared the screen to white paper and drawn all its copyright line: the
    boot screen is complete and stays as it is until a key is pressed (no cursor flashes)."""
    if not basic_ready(frame, scale):
        return False
    bottom = frame[208 * scale : 216 * scale, 32 * scale : 288 * scale]
    return int((bottom == 0).all(axis=-1).sum()) == COPYRIGHT_INK * scale * scale


def wait_booted(grabber: Grabber, scale: int = 1, timeout_s: float = 30) -> np.ndarray:
    """The first grab of the complete boot screen (the picture before any key)."""
    deadline = time.monotonic() + timeout_s
    while not booted(frame := grabber.grab(), scale):
        assert time.monotonic() < deadline, f"OpenSE BASIC never came up in {timeout_s} s"
        time.sleep(0.005)
    return frame
