"""The picture watch of a Fuse on the bot's own Xvfb: DAMAGE reports wake it, and a look
reads the picture straight from Xvfb's screen file (``bot.x11.framebuffer``), with no
request to the server.

A look that asks nothing of the server cannot clear the damage in order with its read,
so the reports come at the level that sends one for every drawing
(DamageReportRawRectangles) and nothing is ever cleared: a drawing after a read is
always reported after it. A report may still be on its way when the read has already
seen its drawing; so a look with no report that finds another picture than the last one
makes one round trip, which brings in every report of a drawing before it, before it
counts as a change that went unreported. With no report since the last look the picture
is the last one: a look then reads nothing, but for a check against the last picture at
most every ``VERIFY_S`` (that DAMAGE still reports every change).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from Xlib.ext import damage

from logo_bot.bot import interrupts
from logo_bot.bot.x11.damage import VERIFY_S, same_picture
from logo_bot.bot.x11.framebuffer import Framebuffer
from logo_bot.bot.x11.grab import Grabber
from logo_bot.bot.x11.packed import GET_INPUT_FOCUS
from logo_bot.bot.x11.picture import Box
from logo_bot.bot.x11.picture_watch import POLL_S, Frame, Grab
from logo_bot.bot.x11.reading_watch import LinkedWatch


class FramebufferWatch(LinkedWatch):
    """DAMAGE reports on window ``window_id``; its picture read from ``framebuffer`` where
    the grabber (which reads the root window) says it is on the screen."""

    level = damage.DamageReportRawRectangles  # a report for every drawing
    clears = False

    def __init__(
        self,
        display: str,
        window_id: int,
        poll_s: float = POLL_S,
        safe_point: Callable[[], None] = interrupts.check,
        *,
        grabber: Grabber,
        framebuffer: Framebuffer,
    ) -> None:
        self._framebuffer = framebuffer
        self.kept = 0  # looks that kept the last picture (nothing reported since)
        super().__init__(display, window_id, poll_s, safe_point, grabber=grabber)

    def look(self, grab: Grab) -> Frame:
        """The last picture when nothing was reported since it (and it was checked less
        than ``VERIFY_S`` ago), else a read of the screen file."""
        if self._last is not None and not self.polling:
            self._take_reports()
            if not self._drawn and time.monotonic() - self._verified < VERIFY_S:
                self._noted()
                self.kept += 1
                return self._last
        return super().look(grab)

    def _read(self, box: Box) -> Frame | None:
        """The picture from the screen file; None where it is not wholly on the screen."""
        frame = self._framebuffer.read(self._grabber.picture)
        if frame is None:
            self.refused += 1
            return None
        self.reads += 1
        return frame

    def _check_unreported(self, frame: Frame) -> None:
        """A picture other than the last with no report: first a round trip, which brings
        in the reports of drawings before it (one may still have been on its way)."""
        self._verified = time.monotonic()
        if self._last is not None and not self._drawn and not same_picture(frame, self._last):
            self._link.reply(self._link.send(GET_INPUT_FOCUS))
            self._count(self._link.take_events())
        super()._check_unreported(frame)

    def record(self) -> dict[str, Any]:
        record = {**super().record(), "read_by": "framebuffer", "refused": self.refused}
        return record | {"kept": self.kept}
