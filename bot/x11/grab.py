"""Grabbing the Spectrum picture of a Fuse window as numpy RGB arrays (mss, or python-xlib
on 16-bit), following the window when it is moved."""

from __future__ import annotations

import threading
import time
from typing import ClassVar

import numpy as np
from Xlib import X

from bot.errors import EmulatorError
from bot.x11.display import open_display
from bot.x11.picture import Box, picture_box
from bot.x11.window import Region, region_of

Frame = np.ndarray  # (height, width, 3) uint8, RGB


class Grabber:
    """Base class: ``grab()`` returns the window's Spectrum picture as an RGB ``Frame``.

    ``region`` is where the window is on the root window and ``box`` where the picture is
    inside it (below fuse-gtk's menu bar); both are read again every ``follow_s`` seconds,
    so a window moved during a run is followed.
    """

    name: ClassVar[str] = "base"
    follow_s: ClassVar[float] = 0.25

    def __init__(self, display: str, window_id: int) -> None:
        self.display_name = display
        self.window_id = window_id
        self._dpy = open_display(display)
        self._closed = False
        self._window = self._dpy.create_resource_object("window", window_id)
        self.box = Box(0, 0, 0, 0)
        self._box_found = False
        self._size: tuple[int, int] | None = None
        self._checked = 0.0
        self.region = self.refresh_region()

    def refresh_region(self) -> Region:
        """Re-read where the window is (after a move or a scale change) and, when its size
        changed or the picture was not yet found by its pixels, where the picture is."""
        try:
            region = region_of(self._dpy, self._window)
        except Exception as exc:  # BadWindow and friends: the window is gone
            raise EmulatorError(f"the Fuse window is gone ({exc.__class__.__name__})") from None
        self.region = region
        self._checked = time.monotonic()
        if (region.width, region.height) != self._size or not self._box_found:
            self._size = (region.width, region.height)
            self.box, self._box_found = picture_box(region.width, region.height)
            if self.box.height != region.height:  # GTK's bars: find the picture's top edge
                self.box, self._box_found = picture_box(
                    region.width, region.height, self._grab_window()
                )
        return self.region

    @property
    def picture(self) -> Region:
        """Where the picture is on the root window."""
        r, b = self.region, self.box
        return Region(r.left + b.left, r.top + b.top, b.width, b.height)

    def _follow(self) -> None:
        if time.monotonic() - self._checked >= self.follow_s:
            self.refresh_region()

    def _grab_window(self) -> Frame:
        """The whole window (bars included)."""
        r = self.region
        return self._grab_box(Box(0, 0, r.width, r.height))

    def grab(self) -> Frame:
        self._follow()
        return self._grab_box(self.box)

    def _grab_box(self, box: Box) -> Frame:
        raise NotImplementedError

    def close(self) -> None:
        """Close the display connection; again, nothing happens (python-xlib would raise
        ConnectionClosedError: a Fuse restart cut short closes it, then the session)."""
        if not self._closed:
            self._closed = True
            self._dpy.close()

    def __enter__(self) -> Grabber:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class MssGrabber(Grabber):
    """mss with one persistent instance per thread (about 0.1 ms a grab)."""

    name = "mss"

    def __init__(self, display: str, window_id: int) -> None:
        self._local = threading.local()
        super().__init__(display, window_id)

    def _mss(self):
        shot = getattr(self._local, "mss", None)
        if shot is None:
            import mss

            shot = self._local.mss = mss.MSS(display=self.display_name)
        return shot

    def _grab_box(self, box: Box) -> Frame:
        r = self.region
        area = {"left": r.left + box.left, "top": r.top + box.top}
        raw = self._mss().grab(area | {"width": box.width, "height": box.height})
        bgra = np.frombuffer(raw.raw, dtype=np.uint8).reshape(raw.height, raw.width, 4)
        return bgra[:, :, 2::-1].copy()

    def close(self) -> None:
        if self._closed:
            return
        shot = getattr(self._local, "mss", None)
        if shot is not None:
            shot.close()
        super().close()


class XlibGrabber(Grabber):
    """python-xlib ``GetImage``: slower, but works at depth 16 where mss cannot."""

    name = "xlib"

    def _grab_box(self, box: Box) -> Frame:
        r = box
        try:
            image = self._window.get_image(
                box.left, box.top, box.width, box.height, X.ZPixmap, 0xFFFFFFFF
            )
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
