"""Grabbing the Spectrum picture of a Fuse window as numpy RGB arrays, following the window
when it is moved: mss from the root window on a plain X server, the window itself through
shared memory where the root has no picture (XWayland), python-xlib on 16-bit."""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from typing import ClassVar

import numpy as np
from Xlib import X
from Xlib.error import CatchError, ConnectionClosedError, XError
from Xlib.ext import composite

from logo_bot.bot.errors import DisplayError, DisplayLost, EmulatorError, Unreadable
from logo_bot.bot.x11.display import open_display
from logo_bot.bot.x11.lost import LostDisplay
from logo_bot.bot.x11.pending import has_events
from logo_bot.bot.x11.picture import BGR_TO_RGB, Box
from logo_bot.bot.x11.picture_place import PicturePlace
from logo_bot.bot.x11.pixels import Frame, to_rgb, window_image
from logo_bot.bot.x11.shm import ShmImage, ShmUnavailable
from logo_bot.bot.x11.window import Region, beyond_screen, region_of
from logo_bot.bot.x11.xwayland import is_xwayland, root_readable

log = logging.getLogger(__name__)


class Grabber:
    """Base class: ``grab()`` returns the window's Spectrum picture as an RGB ``Frame``.

    ``region`` is where the window is on the root window and ``box`` where the picture is
    inside it, found by its pixels (``bot.x11.picture_place``). Both are read again at
    the first grab after the window reports a new size or place (``StructureNotify``: a
    tiler or a person resized it, and Fuse is about to draw at another scale), and every
    ``follow_s`` seconds in any case (a window manager that moves its frame need not tell
    the window). A display that goes away meanwhile is ``DisplayLost``, whatever error
    the library gave for it (``bot.x11.lost``).
    """

    name: ClassVar[str] = "base"
    follow_s: ClassVar[float] = 1.0

    def __init__(self, display: str, window_id: int) -> None:
        self.display_name = display
        self.window_id = window_id
        self._dpy = open_display(display)
        self._closed = False
        self._window = self._dpy.create_resource_object("window", window_id)
        self._place = PicturePlace(self._grab_box)
        self._checked = 0.0
        self._picture: tuple[Region, Box, Region] | None = None  # ``picture``, kept
        self._lost = LostDisplay(display, probe=True)  # reused: it keeps no state
        self._window.change_attributes(event_mask=X.StructureNotifyMask, onerror=CatchError())
        self.region = self.refresh_region()

    def refresh_region(self, look: bool = False) -> Region:
        """Re-read where the window is (after a move or a scale change) and, where its
        size changed or the picture is not seen there (or ``look``), the picture's box."""
        try:
            region = region_of(self._dpy, self._window)
        except ConnectionClosedError:
            raise DisplayLost(self.display_name) from None
        except Exception as exc:  # BadWindow and friends: the window is gone
            raise EmulatorError(f"the Fuse window is gone ({exc.__class__.__name__})") from None
        self.region = region
        self._checked = time.monotonic()
        self._place.update(region.width, region.height, look)
        return self.region

    @property
    def box(self) -> Box:
        """Where the picture is inside the window."""
        return self._place.box

    @property
    def found(self) -> bool:
        """Whether ``box`` was seen in the window's pixels (not yet: Fuse has not drawn a
        picture there, and the box is a guess that is looked for again soon)."""
        return self._place.found

    def sees_picture(self) -> bool:
        """Look for the picture again when it was not seen yet; whether it shows."""
        with self._lost:
            if not self._place.found:
                self.refresh_region()
        return self._place.found

    @property
    def picture(self) -> Region:
        """Where the picture is on the root window (the same object while ``region`` and
        ``box`` are: asked a few times a key)."""
        r, b = self.region, self.box
        kept = self._picture
        if kept is None or kept[0] is not r or kept[1] is not b:
            kept = self._picture = (r, b, Region(r.left + b.left, r.top + b.top, b.width, b.height))
        return kept[2]

    def _follow(self) -> None:
        configured = False
        while has_events(self._dpy):  # this connection selects the window's only
            configured |= self._dpy.next_event().type == X.ConfigureNotify
        # a picture never seen yet is looked for often (Fuse is starting); one lost (a
        # tape's stripes on the border, a window being resized) once a second
        every = self.follow_s if self._place.ever_found else self._place.seek_s
        if configured or time.monotonic() - self._checked >= every:
            self.refresh_region()

    def grab(self) -> Frame:
        with self._lost:
            self._follow()
            frame = self._grab_box(self.box)
            if self._place.settling():
                frame = self._place.settled(frame, self._look_again)
            return self.box.as_drawn(frame)

    def _look_again(self) -> None:
        self.refresh_region(look=True)

    def fileno(self) -> int:
        """The connection the window's moves are reported on (``ConfigureNotify``)."""
        return self._dpy.fileno()

    def follow(self) -> Box:
        """Where the picture is inside the window now (read again as ``grab`` does), for
        a reader of the window's pixels of its own (``bot.x11.reading_watch``), which
        calls it inside its own ``LostDisplay`` guard (one guard a look, not two)."""
        self._follow()
        if self._place.settling():
            self._place.settled(self._grab_box(self.box), self._look_again)
        return self.box

    def _grab_box(self, box: Box) -> Frame:
        raise NotImplementedError

    def _off_screen(self, box: Box) -> Unreadable | None:
        return beyond_screen(self._dpy, self.region, box.left, box.top, box.width, box.height)

    def close(self) -> None:
        """Close the display connection; again, or once the display is lost, nothing
        happens (python-xlib would raise ConnectionClosedError: a Fuse restart cut short
        closes it, then the session)."""
        if not self._closed:
            self._closed = True
            with contextlib.suppress(ConnectionClosedError):
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
        if (beyond := self._off_screen(box)) is not None:
            raise beyond
        r = self.region
        area = {"left": r.left + box.left, "top": r.top + box.top}
        raw = self._mss().grab(area | {"width": box.width, "height": box.height})
        bgra = np.frombuffer(raw.raw, dtype=np.uint8).reshape(raw.height, raw.width, 4)
        return bgra[:, :, BGR_TO_RGB]

    def close(self) -> None:
        if self._closed:
            return
        shot = getattr(self._local, "mss", None)
        if shot is not None:
            try:
                shot.close()
            except Exception as exc:  # mss's XError once the display is lost
                log.debug("closing mss: %s: %s", type(exc).__name__, exc)
        super().close()


class XlibGrabber(Grabber):
    """python-xlib ``GetImage`` on the Fuse window itself: slower than mss, but works at
    depth 16 where mss cannot, and under XWayland, where the root has no picture."""

    name = "xlib"

    def _grab_box(self, box: Box) -> Frame:
        try:
            return window_image(self._window, box)
        except XError as exc:  # (none on XWayland, which keeps all of a window)
            raise (self._off_screen(box) or exc) from None


class ShmGrabber(Grabber):
    """The Fuse window itself through shared memory (MIT-SHM), where the root window
    cannot be read (XWayland).

    The server reads a window only where it lies on the screen, and a desktop may place
    a 3x Fuse partly beyond the screen's edge; so each grab reads the window's own
    off-screen pixmap (Composite's NameWindowPixmap: XWayland keeps one for every
    top-level window), named afresh every time because the window gets a new one when it
    is mapped again or resized. Where that fails (a server without Composite, a window
    not redirected), the frame is read with a plain ``GetImage`` on the window."""

    name = "shm"

    def __init__(self, display: str, window_id: int) -> None:
        self._shm: ShmImage | None = None
        self.plain_grabs = 0  # frames read with GetImage
        dpy = open_display(display)  # (the base class opens the grabber's own, and grabs)
        try:
            self._composite = dpy.has_extension("Composite")
            window = dpy.create_resource_object("window", window_id)
            self._border = window.get_geometry().border_width
        except XError as exc:
            raise EmulatorError(f"the Fuse window is gone ({exc.__class__.__name__})") from None
        finally:
            dpy.close()
        super().__init__(display, window_id)

    def _grab_box(self, box: Box) -> Frame:
        size = box.width * box.height * 4
        if self._composite and (self._shm is None or self._shm.size < size):
            if self._shm is not None:
                self._shm.close()
                self._shm = None
            try:
                self._shm = ShmImage(self._dpy, size)
            except ShmUnavailable as exc:  # another machine's server: GetImage from now on
                log.info("reading the Fuse window with GetImage: %s", exc)
                self._composite = False
        if not self._composite or self._shm is None:
            self.plain_grabs += 1
            return window_image(self._window, box)
        named = CatchError()
        pixmap = composite.name_window_pixmap(self._window, onerror=named)
        try:
            depth, data = self._shm.grab(
                pixmap.id, self._border + box.left, self._border + box.top, box.width, box.height
            )
        except XError:  # not redirected, or unmapped: a plain GetImage says which
            self.plain_grabs += 1
            return window_image(self._window, box)
        finally:
            pixmap.free(onerror=CatchError())
        return to_rgb(depth, data, box.width, box.height)

    def close(self) -> None:
        if self._closed:
            return
        if self._shm is not None:
            with contextlib.suppress(Exception):  # the display may be gone
                self._shm.close()
        super().close()


def open_grabber(display: str, window_id: int, backend: str = "auto") -> Grabber:
    """The fastest grabber that works on this display: mss (which reads the root window)
    on a plain X server at depth 24/32; the window itself through shared memory where
    the root has no picture (XWayland: never the root there); else python-xlib."""
    kinds: dict[str, type[Grabber]] = {"xlib": XlibGrabber, "mss": MssGrabber, "shm": ShmGrabber}
    dpy = open_display(display)
    try:
        depth = dpy.screen().root_depth
        on_window = is_xwayland(dpy) or not root_readable(dpy)
    finally:
        dpy.close()
    if backend == "mss" and on_window:
        raise DisplayError(
            f"the root window of {display} has no picture (XWayland), and mss reads only it",
            hint="leave the grabber to the bot: it reads the Fuse window itself there",
        )
    if backend in kinds:
        return kinds[backend](display, window_id)
    if on_window:
        return ShmGrabber(display, window_id)
    return MssGrabber(display, window_id) if depth in (24, 32) else XlibGrabber(display, window_id)
