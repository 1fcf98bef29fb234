"""A plain X window that a test draws into, standing for Fuse's (no Fuse needed)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
from Xlib import X

from logo_bot.bot.x11.display import open_display
from logo_bot.bot.x11.grab import window_image
from logo_bot.bot.x11.picture import Box

WIDTH, HEIGHT = 64, 48
RED, BLUE = 0xFF0000, 0x0000FF
LONG_S = 30.0  # a bound no passing test comes near: the waits end on reports


def later() -> float:
    """A deadline for a wait that a report ends long before."""
    return time.monotonic() + LONG_S


def not_called() -> np.ndarray:
    """A grab for a watch that reads the picture itself."""
    raise AssertionError("the grabber read the picture: the watch should have")


def colour(frame: np.ndarray, x: int, y: int) -> tuple[int, ...]:
    return tuple(int(c) for c in frame[y, x])


@dataclass
class Canvas:
    """A mapped window that the test paints on its own connection."""

    dpy: object
    window: object

    @property
    def id(self) -> int:
        return self.window.id

    def paint(self, colour: int, x: int = 0, y: int = 0, w: int = WIDTH, h: int = HEIGHT) -> None:
        gc = self.window.create_gc(foreground=colour)
        self.window.fill_rectangle(gc, x, y, w, h)
        gc.free()
        self.dpy.sync()

    def grab(self) -> np.ndarray:
        return window_image(self.window, Box(0, 0, WIDTH, HEIGHT))


@contextlib.contextmanager
def canvas_on(display: str) -> Iterator[Canvas]:
    """A canvas on ``display``, its connection closed (the window with it) at the end."""
    dpy = open_display(display)
    window = dpy.screen().root.create_window(
        0, 0, WIDTH, HEIGHT, 0, X.CopyFromParent, background_pixel=0
    )
    window.map()
    dpy.sync()
    canvas = Canvas(dpy, window)
    try:
        canvas.paint(0)
        yield canvas
    finally:
        dpy.close()
