"""Grabbing the Fuse window's pixels as numpy RGB arrays (mss, or python-xlib on 16-bit)."""

from __future__ import annotations

import threading
from typing import ClassVar

import numpy as np
from Xlib import X

from bot.errors import EmulatorError
from bot.x11.display import open_display
from bot.x11.window import Region, region_of

Frame = np.ndarray  # (height, width, 3) uint8, RGB


class Grabber:
    """Base class: ``grab()`` returns the window's current pixels as an RGB ``Frame``."""

    name: ClassVar[str] = "base"

    def __init__(self, display: str, window_id: int) -> None:
        self.display_name = display
        self.window_id = window_id
        self._dpy = open_display(display)
        self._window = self._dpy.create_resource_object("window", window_id)
        self.region = self.refresh_region()

    def refresh_region(self) -> Region:
        """Re-read where the window is (after a move or a scale change)."""
        try:
            self.region = region_of(self._dpy, self._window)
        except Exception as exc:  # BadWindow and friends: the window is gone
            raise EmulatorError(f"the Fuse window is gone ({exc.__class__.__name__})") from None
        return self.region

    def grab(self) -> Frame:
        raise NotImplementedError

    def close(self) -> None:
        self._dpy.close()

    def __enter__(self) -> Grabber:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class MssGrabber(Grabber):
    """mss with one persistent instance per thread (about 0.1 ms a grab)."""

    name = "mss"

    def __init__(self, display: str, window_id: int) -> None:
        super().__init__(display, window_id)
        self._local = threading.local()

    def _mss(self):
        shot = getattr(self._local, "mss", None)
        if shot is None:
            import mss

            shot = self._local.mss = mss.MSS(display=self.display_name)
        return shot

    def grab(self) -> Frame:
        r = self.region
        raw = self._mss().grab({"left": r.left, "top": r.top, "width": r.width, "height": r.height})
        bgra = np.frombuffer(raw.raw, dtype=np.uint8).reshape(raw.height, raw.width, 4)
        return bgra[:, :, 2::-1].copy()

    def close(self) -> None:
        shot = getattr(self._local, "mss", None)
        if shot is not None:
            shot.close()
        super().close()


class XlibGrabber(Grabber):
    """python-xlib ``GetImage``: slower, but works at depth 16 where mss cannot."""

    name = "xlib"

    def grab(self) -> Frame:
        r = self.region
        try:
            image = self._window.get_image(0, 0, r.width, r.height, X.ZPixmap, 0xFFFFFFFF)
        except Exception as exc:
            raise EmulatorError(f"cannot read the Fuse window ({exc.__class__.__name__})") from None
        depth = image.depth
        data = image.data if isinstance(image.data, bytes) else bytes(image.data)
        if depth in (24, 32):
            bgrx = np.frombuffer(data, dtype=np.uint8).reshape(r.height, -1, 4)[:, : r.width]
            return bgrx[:, :, 2::-1].copy()
        if depth == 16:
            px = np.frombuffer(data, dtype="<u2").reshape(r.height, -1)[:, : r.width]
            red = ((px >> 11) & 0x1F) << 3
            green = ((px >> 5) & 0x3F) << 2
            blue = (px & 0x1F) << 3
            return np.stack([red, green, blue], axis=-1).astype(np.uint8)
        raise EmulatorError(f"X depth {depth} is not supported; use a 24-bit display")


def open_grabber(display: str, window_id: int, backend: str = "auto") -> Grabber:
    """The fastest grabber that works on this display: mss at depth 24/32, else xlib."""
    if backend == "xlib":
        return XlibGrabber(display, window_id)
    if backend == "mss":
        return MssGrabber(display, window_id)
    dpy = open_display(display)
    try:
        depth = dpy.screen().root_depth
    finally:
        dpy.close()
    return MssGrabber(display, window_id) if depth in (24, 32) else XlibGrabber(display, window_id)
