"""The picture watch of a Fuse on the bot's own Xvfb: DAMAGE reports wake it, and a look
reads the picture straight from Xvfb's screen file (``bot.x11.framebuffer``), with no
request to the server.

A look that asks nothing of the server cannot clear the damage in order with its read,
so the reports come at the level that sends one for every drawing, with its rectangle
(DamageReportRawRectangles), and nothing is ever cleared: a drawing after a read is
always reported after it. So a look need not read the whole picture: the last one, with
the rectangles reported since read again, is the picture now (a few small reads cost a
fraction of converting all of Xvfb's freshly drawn pixels). They are read into the last
picture itself when no one but the watch still holds it (the bot lets go of a look
before the next), else into a copy, so that a picture once given out never changes
under its holder. The whole picture is read at the first look, when the picture moved
or changed size, when many rectangles came, and at least every ``VERIFY_S``.

A report may still be on its way when a read has already seen its drawing: its rectangle
is then read again at the next look, which is no harm. A look with no report that finds
another picture than the last one first makes one round trip, which brings in every
report of a drawing before it, before it counts as a change that went unreported. With
no report since the last look the picture is the last one: a look then reads nothing,
but for a check of the whole picture at most every ``VERIFY_S`` (that DAMAGE still
reports every change).
"""

from __future__ import annotations

import struct
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from Xlib.ext import damage

from logo_bot.bot import interrupts
from logo_bot.bot.x11.damage import VERIFY_S, same_picture
from logo_bot.bot.x11.framebuffer import Framebuffer
from logo_bot.bot.x11.grab import Grabber
from logo_bot.bot.x11.lost import LostDisplay
from logo_bot.bot.x11.picture import Box
from logo_bot.bot.x11.picture_watch import POLL_S, Frame
from logo_bot.bot.x11.reading_watch import LinkedWatch
from logo_bot.bot.x11.window import Region

# DamageNotify: the drawn rectangle (x, y: INT16; width, height: CARD16) at byte 16
_AREA = struct.Struct("=hhHH")
MOST_AREAS = 32  # more rectangles than this since the last look: the whole picture is read
# A sighting has every cell read again at least this often (a look, every ``VERIFY_S``).
SIGHT_ALL_S = 1.0

Area = tuple[int, int, int, int]  # x, y, width, height in the window


@dataclass(frozen=True)
class Sighting:
    """The picture as the screen file's own packed pixels (``Framebuffer.packed``): its
    pixel (x, y) is ``pixels[(top + y) * stride + left + x]``; ``areas`` were drawn in
    it since the last sighting (picture pixels; None: anything may have changed)."""

    pixels: memoryview
    stride: int
    left: int
    top: int
    width: int
    height: int
    areas: tuple[Area, ...] | None


class _Holder:
    item: object = None


def _held_once() -> int:
    """What ``sys.getrefcount`` says of an object that only an attribute and a local name
    hold, as ``_patched`` holds the last picture (whether it counts its own argument
    differs between Python versions, so it is measured, once)."""
    holder = _Holder()
    holder.item = object()
    item = holder.item
    return sys.getrefcount(item)


_UNSHARED = _held_once()  # more references than this: someone else holds the picture


class FramebufferWatch(LinkedWatch):
    """DAMAGE reports on window ``window_id``; its picture read from ``framebuffer`` where
    the grabber (which reads the root window) says it is on the screen."""

    level = damage.DamageReportRawRectangles  # a report, with its rectangle, a drawing
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
        self.patched = 0  # looks that read only the rectangles drawn since the last
        self.in_place = 0  # of them, those that patched the last picture itself
        self._areas: list[Area] = []  # reported since the last read
        self._whole_at = 0.0  # when the whole picture was last read (time.monotonic)
        self._place: Region | None = None  # where on the screen the last read was
        self.sightings = 0
        self._unsighted: list[Area] = []  # reported since the last sighting
        self._sighted: Region | None = None  # where the last sighting was (None: none)
        self._sighted_at = 0.0  # when a sighting last had every cell read (None areas)
        super().__init__(display, window_id, poll_s, safe_point, grabber=grabber)
        self._link.keep_code = self._event
        self._lost = LostDisplay(grabber.display_name, probe=True)  # reused: no state

    def _count(self, events: list[int]) -> None:
        super()._count(events)
        areas = [_AREA.unpack_from(packet, 16) for packet in self._link.take_packets()]
        self._areas.extend(areas)
        self._unsighted.extend(areas)
        if len(self._unsighted) > MOST_AREAS:  # no sighting for a while: the next reads all
            self._unsighted.clear()
            self._sighted = None

    def _take_drawn(self) -> bool:
        # a sighting takes the reports that end a wait, not those of the picture
        return super()._take_drawn() or bool(self._areas)

    def sighting(self) -> Sighting | None:
        """The picture's pixels in the screen file, with the areas drawn since the last
        sighting (a look for ``bot.see.cell_sight``, which reads a few pixels, with no
        copy; every area also stays for the next ``look``'s picture). The areas are None
        at the first sighting, after one that gave None, when the picture moved, when
        many came, and at least every ``SIGHT_ALL_S``. None where the picture is not wholly
        on the screen, is smoothed (a HiDPI desktop's) or filtered, or the watch polls:
        then look."""
        self._noted()
        if self.polling:
            return None
        with self._lost:
            self._grabber.follow()
            self._take_fresh()
        self._drawn = False  # the next wait waits for a drawing after this
        place, pixels = self._grabber.picture, self._framebuffer.packed
        drawn, self._unsighted = self._unsighted, []
        if pixels is None or not self._grabber.box.as_is or not self._framebuffer.holds(place):
            self._sighted = None
            return None
        now = time.monotonic()
        areas: tuple[Area, ...] | None = ()
        if drawn:
            box = self._grabber.box
            dx, dy = box.left, box.top
            areas = tuple([(x - dx, y - dy, width, height) for x, y, width, height in drawn])
        moved = place is not self._sighted and place != self._sighted  # the same object: no
        if moved or now - self._sighted_at >= SIGHT_ALL_S:
            areas, self._sighted_at = None, now
        self._sighted = place
        self.sightings += 1
        stride = self._framebuffer.stride
        return Sighting(pixels, stride, place.left, place.top, place.width, place.height, areas)

    def _unchanged(self) -> Frame | None:
        """The last picture when nothing was reported since it and the whole picture was
        read less than ``VERIFY_S`` ago."""
        if self._last is None or self._drawn or self._areas:
            return None
        if time.monotonic() - self._whole_at >= VERIFY_S:
            return None
        self.kept += 1
        return self._last

    def _read(self, box: Box) -> Frame | None:
        """The picture from the screen file; None where it is not wholly on the screen."""
        place = self._grabber.picture
        areas, self._areas = self._areas, []
        frame = self._patched(place, areas) if self._may_patch(place, areas) else None
        if frame is None:
            frame = self._framebuffer.read(place)
            if frame is None:
                self.refused += 1
                self._place = None
                return None
            self._whole_at = time.monotonic()
        self._place = place
        self.reads += 1
        return frame

    def _may_patch(self, place: Region, areas: list[Area]) -> bool:
        """Whether the last picture and ``areas`` make the picture now."""
        return (
            self._place == place
            and self._last is not None
            and self._last.shape[:2] == (place.height, place.width)
            and 0 < len(areas) <= MOST_AREAS
            and time.monotonic() - self._whole_at < VERIFY_S
        )

    def _patched(self, place: Region, areas: list[Area]) -> Frame | None:
        """The last picture with ``areas`` read again (None if one cannot be read)."""
        last = self._last
        assert last is not None
        box = self._grabber.box
        if sys.getrefcount(last) > _UNSHARED:  # another holds it: its picture must stay
            frame = last.copy(order="K")  # the grabbers' layout: one plane a channel
        else:
            frame = last
            self.in_place += 1
        for x, y, width, height in areas:
            left, top = max(x - box.left, 0), max(y - box.top, 0)
            right = min(x + width - box.left, place.width)
            bottom = min(y + height - box.top, place.height)
            if right <= left or bottom <= top:
                continue  # outside the picture (fuse-gtk's bars)
            area = Region(place.left + left, place.top + top, right - left, bottom - top)
            pixels = self._framebuffer.view(area)
            if pixels is None:
                return None
            frame[top:bottom, left:right] = pixels
        self.patched += 1
        return frame

    def _check_unreported(self, frame: Frame) -> None:
        """A picture other than the last with no report: first a round trip, which brings
        in the reports of drawings before it (one may still have been on its way)."""
        if self._last is not None and not self._drawn and not same_picture(frame, self._last):
            self._link.sync()
            self._count(self._link.take_events())
        super()._check_unreported(frame)

    def record(self) -> dict[str, Any]:
        record = {**super().record(), "read_by": "framebuffer", "refused": self.refused}
        looks = {"kept": self.kept, "patched": self.patched, "in_place": self.in_place}
        return record | looks | {"sightings": self.sightings}
