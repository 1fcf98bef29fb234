"""The picture watch that reads the picture too: DAMAGE reports and the window's pixels on
one connection, which the bot writes and reads itself (``bot.x11.raw_link``).

``DamageWatch`` clears the damage with a round trip before the grabber's grab (on another
connection) may run; here the clear and the read (MIT-SHM's ShmGetImage of the picture's
place in the window, which the session's grabber still follows) go out in one write and
the X server runs them in order: a look is one round trip, with no python-xlib on it.
Reports of drawings before the read arrive before its reply, so a look that came with no
report can be checked against the last one every time.

Used on a plain X server at 24 or 32 bits (where the grabber is mss). A read the server
refuses (the window unmapped, or resized under the read) or a picture larger than the
segment is the grabber's, as in ``DamageWatch``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from Xlib.error import XError

from logo_bot.bot import interrupts
from logo_bot.bot.x11 import packed
from logo_bot.bot.x11.damage import DamageWatch
from logo_bot.bot.x11.grab import Grabber
from logo_bot.bot.x11.lost import LostDisplay
from logo_bot.bot.x11.picture import Box
from logo_bot.bot.x11.picture_watch import POLL_S, Frame, Grab
from logo_bot.bot.x11.pixels import to_rgb
from logo_bot.bot.x11.raw_link import LinkError, RawLink
from logo_bot.bot.x11.shm import ShmImage, ShmUnavailable

log = logging.getLogger(__name__)


class LinkedWatch(DamageWatch):
    """Base class: DAMAGE reports on window ``window_id`` read on a connection the bot
    writes and reads itself, and looks that read the picture (where ``grabber`` says it
    is) by ``_read``, or by the grabber where that gives None."""

    clears = True  # a look clears the damage (the level reports once until it is cleared)

    def __init__(
        self,
        display: str,
        window_id: int,
        poll_s: float = POLL_S,
        safe_point: Callable[[], None] = interrupts.check,
        *,
        grabber: Grabber,
    ) -> None:
        super().__init__(display, window_id, poll_s, safe_point)
        self._grabber = grabber
        self._window_id = window_id
        self.reads = 0
        self.refused = 0  # reads done by the grabber instead
        self._prepare()
        self._link = RawLink(self._dpy)
        self._count(self._link.take_events())

    def _prepare(self) -> None:
        """Set up on python-xlib, before the link takes the connection over (closes the
        watch and raises if that fails)."""

    def _take_reports(self) -> None:
        # nearly always nothing: then nothing more is done (a wait and a look ask often)
        if self._link.poll() or self._link.events:
            self._count(self._link.take_events())

    def _take_ready(self) -> None:
        # the wait's ``select`` found the socket readable: it is read without asking again
        self._link.poll(readable=True)
        self._count(self._link.take_events())

    def _take_waiting(self) -> None:
        # the link reads only when asked: what it has read is all that may be waiting
        # besides the socket, which the wait's ``select`` watches
        if self._link.buffered():
            self._take_reports()

    def _count(self, events: list[int]) -> None:
        for code in events:
            if code == self._event:
                self.reports += 1
                self._drawn = True

    def look(self, grab: Grab) -> Frame:
        """Clear the damage and read the picture (see the module)."""
        self._noted()
        if self.polling:
            return grab()
        with LostDisplay(self._grabber.display_name, probe=True):
            box = self._grabber.follow()
            self._take_fresh()
            kept = self._unchanged()
            if kept is not None:
                return kept
            drawn = self._take_drawn()
            if drawn and self.clears:
                self._link.send(self._subtract)
            # a smoothed or filtered picture is read back to Fuse's own by the grabber
            frame = self._read(box) if box.as_is else None
            if frame is None:
                frame = self._grabbed(grab, drawn)
            self._count(self._link.take_events())
        if not drawn:
            self._check_unreported(frame)
        self._last = frame
        return frame

    def _unchanged(self) -> Frame | None:
        """The last picture, where the look need not read (the reports say it is the
        picture now); None to read."""
        return None

    def _read(self, box: Box) -> Frame | None:
        """The picture in ``box`` of the window; None to have the grabber read it."""
        raise NotImplementedError

    def _grabbed(self, grab: Grab, drawn: bool) -> Frame:
        """The grabber's picture, after the clear when there was one (a round trip orders
        it before the grab), else with the reports of drawings before the grab in."""
        if drawn:
            self._link.sync()
        frame = grab()
        if not drawn:
            self._link.sync()
        return frame

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._link.close(packed.damage_destroy(self._opcode, self._damage))


class ReadingWatch(LinkedWatch):
    """A ``LinkedWatch`` that reads the window through shared memory (MIT-SHM)."""

    def _prepare(self) -> None:
        try:
            screen = self._dpy.screen()  # the picture is never larger than the screen
            self._shm = ShmImage(self._dpy, screen.width_in_pixels * screen.height_in_pixels * 4)
        except (ShmUnavailable, XError) as exc:
            DamageWatch.close(self)
            raise ShmUnavailable(f"no shared memory with the X server ({exc})") from None

    def _read(self, box: Box) -> Frame | None:
        """The picture in ``box`` of the window; None when the server refused the read."""
        if box.width * box.height * 4 > self._shm.size or not box.width or not box.height:
            return None
        request = self._shm.request(self._window_id, box.left, box.top, box.width, box.height)
        try:
            reply = self._link.reply(self._link.send(request))
        except LinkError as exc:
            self.refused += 1
            log.debug("the window's picture was not read (%s): the grabber reads it", exc)
            return None
        self.reads += 1
        return to_rgb(*self._shm.pixels(reply), box.width, box.height)

    def record(self) -> dict[str, Any]:
        return {**super().record(), "read_by": "watch", "refused": self.refused}

    def close(self) -> None:
        if self._closed:
            return
        super().close()
        self._shm.close(tell_server=False)  # the server lets go of it with the connection
