"""Waking when Fuse draws: the X DAMAGE extension's reports on Fuse's window, or polling.

A bot that waits to see something (a cursor moved, a stone placed, a menu shown) need
not read the window every few milliseconds: the X server says when Fuse draws in it.
``DamageWatch`` asks for those reports on a connection of its own, at the level that
reports once when the window goes from untouched to drawn in (DamageReportNonEmpty), so
that however many areas a frame redraws, one report wakes the waiter; the next report
comes only once the watch has cleared the damage, which it does in ``look`` right
before the caller's grab, and synchronously, so the grab (on another connection) cannot
run first and nothing drawn after it goes unreported.

``wait(until)`` returns as soon as the picture was drawn in since the last ``look``
(True), or at ``until`` (False); a stop asked ends it at once (``interrupts.stop_fds``).
Where the display has no DAMAGE (or the window refuses it) ``watch_picture`` gives a
``PollWatch``, which sleeps a poll interval between looks; a ``DamageWatch`` that is
seen to miss changes (looks with no report that find a different picture, ``MISSES`` of
them) turns into polling for the rest of its life. ``record`` says which one ran, for
run.json.
"""

from __future__ import annotations

import contextlib
import logging
import select
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from Xlib.error import CatchError, ConnectionClosedError, XError
from Xlib.ext import damage

from logo_bot.bot import interrupts
from logo_bot.bot.x11 import packed
from logo_bot.bot.x11.display import open_display
from logo_bot.bot.x11.packed import Packed
from logo_bot.bot.x11.pending import has_events, heard
from logo_bot.bot.x11.picture_watch import POLL_S, Frame, Grab, PictureWatch, PollWatch

log = logging.getLogger(__name__)

VERIFY_S = 0.25  # a look with no report is checked against the last one at most this often
# unreported changes before the watch gives up on DAMAGE: one may be another window
# popping up over Fuse (read from the root window, its pixels are in the grab; Fuse's
# redraw when it goes away is reported)
MISSES = 2
# a look this soon after a wait took the reports does not take them again (a few system
# calls a key); a tenth of a frame at 200 %
FRESH_S = 0.001


class DamageUnavailable(Exception):
    """The display or the window gives no DAMAGE reports."""


class DamageWatch(PictureWatch):
    """DAMAGE reports on window ``window_id`` of ``display``, on a connection of its own;
    ``DamageUnavailable`` when there are none to have."""

    kind = "damage"
    # one report until the damage is cleared (``look`` clears it), however much is drawn
    level = damage.DamageReportNonEmpty

    def __init__(
        self,
        display: str,
        window_id: int,
        poll_s: float = POLL_S,
        safe_point: Callable[[], None] = interrupts.check,
    ) -> None:
        super().__init__(safe_point)
        self.poll_s = poll_s
        self.reports = 0
        self.missed: str | None = None  # why the watch turned into polling
        self.unreported = 0  # changes seen with no report
        self._drawn = True  # nothing seen yet: the first look reads the window
        self._last: Frame | None = None  # the last look's picture
        self._verified = 0.0
        self._taken_at = -1.0  # when a wait last took the reports (``_take_fresh``)
        # other connections a wait watches too, without waking for them: what it finds
        # there spares the checks after it a system call (``pending.heard``)
        self.listen: list[int] = []
        self._closed = False
        self._dpy = open_display(display)
        try:
            self._fd = self._dpy.fileno()  # the connection the reports come in on
            self._damage, self._event = self._create(window_id)
        except BaseException:
            self._dpy.close()
            raise

    def _create(self, window_id: int) -> tuple[int, int]:
        """Ask for reports on the window: (the damage's id, its event code)."""
        info = self._dpy.query_extension(damage.extname)
        if info is None or not info.present:
            raise DamageUnavailable("the X display has no DAMAGE extension")
        # the server answers nothing else before the client has said its version (and
        # python-xlib cannot parse the BadRequest it would send instead)
        self._dpy.damage_query_version()
        damage_id = self._dpy.display.allocate_resource_id()
        caught = CatchError()
        damage.DamageCreate(
            display=self._dpy.display,
            opcode=info.major_opcode,
            damage=damage_id,
            drawable=window_id,
            level=self.level,
            onerror=caught,
        )
        self._dpy.sync()
        if caught.get_error() is not None:
            raise DamageUnavailable(f"the window refused DAMAGE ({caught.get_error()})")
        self._opcode = info.major_opcode
        self._subtract = packed.damage_subtract(info.major_opcode, damage_id)
        return damage_id, info.first_event + damage.DamageNotifyCode

    @property
    def polling(self) -> bool:
        return self.missed is not None

    def _take_drawn(self) -> bool:
        """Whether Fuse drew since the last look (the reports taken); the next wait waits
        for a drawing after this."""
        drawn, self._drawn = self._drawn, False
        return drawn

    def _take_reports(self) -> None:
        """Read the reports received so far (each marks the picture drawn)."""
        while has_events(self._dpy):
            event = self._dpy.next_event()
            if event.type & 0x7F == self._event:
                self.reports += 1
                self._drawn = True

    def look(self, grab: Grab) -> Frame:
        """Clear the damage (a round trip, so the server has cleared it before the grab
        runs), then grab. A look with no report since the last one is checked, at most
        every ``VERIFY_S``: a different picture means a change went unreported."""
        self._noted()
        if self.polling:
            return grab()
        self._take_fresh()
        drawn = self._take_drawn()
        if drawn:
            # all of the damage; a window gone (Fuse ended) takes its damage along
            Packed(self._dpy.display, self._subtract, onerror=_ignored)
            self._dpy.sync()
            self._take_reports()  # drawn again since: the next wait returns at once
            self._last = frame = grab()
            return frame
        frame = grab()
        now = time.monotonic()
        if self._last is not None and now - self._verified >= VERIFY_S:
            self._verified = now
            self._dpy.sync()  # a report of a drawing before the grab is in by now
            self._take_reports()
            self._check_unreported(frame)
        self._last = frame
        return frame

    def _check_unreported(self, frame: Frame) -> None:
        """``frame`` was grabbed with no report before it (all of them read): a picture
        other than the last look's is a change that went unreported."""
        if self._drawn or self._last is None or same_picture(frame, self._last):
            return
        self.unreported += 1
        log.debug("a change with no DAMAGE report (%d)", self.unreported)
        if self.unreported >= MISSES:
            self._give_up(f"{self.unreported} changes came with no DAMAGE report")

    def _give_up(self, why: str) -> None:
        """Poll from now on (DAMAGE proved unreliable)."""
        self.missed = why
        log.warning("the picture is polled from now on: %s", why)

    def wait(self, until: float, also: Sequence[int] = ()) -> bool:
        if self.polling:
            return self._poll(until, self.poll_s, also)
        fds: list[int] | None = None  # made only for a wait that sleeps (most do not)
        self._take_waiting()
        while not self._drawn:
            self.safe_point()
            left = until - time.monotonic()
            if left <= 0:
                return False
            if fds is None:
                fds = [self._fd, *also, *self.listen, *self._stop_fds()]
            # a report already on the connection ends it at once, as one sent meanwhile
            ready, _, _ = select.select(fds, [], [], min(left, interrupts.SLICE_S))
            heard(fds, ready)  # the checks right after this need not ask the others
            if self._fd in ready:
                self._take_ready()
                self.wakeups += self._drawn
            if also and not set(ready).isdisjoint(also):
                break
            if ready and not self._drawn:
                # another's events (read by its owner), a stop: not waited on again
                fds = [fd for fd in fds if fd not in ready or fd == self._fd]
        if self._drawn:
            self._taken_at = time.perf_counter()
        return self._drawn

    def _take_ready(self) -> None:
        """After a ``select`` found the reports' connection readable: take them."""
        self._take_reports()

    def _take_waiting(self) -> None:
        """Before a wait: the reports already read in (here: python-xlib's queue, and
        its socket, which it may have read from)."""
        self._take_reports()

    def _take_fresh(self) -> None:
        """Before a look: the reports received so far, unless a wait has just taken them
        (less than ``FRESH_S`` ago: then the look goes on as if it came a moment earlier,
        and a report meanwhile is taken after it, for the next look)."""
        taken, self._taken_at = self._taken_at, -1.0
        if time.perf_counter() - taken >= FRESH_S:
            self._take_reports()

    def record(self) -> dict[str, Any]:
        seen_by = "polling" if self.polling else self.kind
        return {**super().record(), "seen_by": seen_by, "reports": self.reports,
                "unreported": self.unreported, "why": self.missed}  # fmt: skip

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        with contextlib.suppress(XError, ConnectionClosedError, OSError):  # the display gone
            damage.DamageDestroy(
                display=self._dpy.display,
                opcode=self._opcode,
                damage=self._damage,
                onerror=CatchError(),
            )
        with contextlib.suppress(ConnectionClosedError, OSError):
            self._dpy.close()


def _ignored(error: object, request: object) -> bool:
    return True  # handled: python-xlib would print it otherwise


def same_picture(a: Frame, b: Frame) -> bool:
    return a.shape == b.shape and bool(np.array_equal(a, b))


def watch_picture(
    display: str,
    window_id: int,
    poll_s: float = POLL_S,
    safe_point: Callable[[], None] = interrupts.check,
    watch: Callable[..., DamageWatch] | None = None,
) -> PictureWatch:
    """DAMAGE reports on the window where the display gives them (by a ``DamageWatch``,
    or the kind of it that ``watch`` makes), else polling."""
    try:
        return (watch or DamageWatch)(display, window_id, poll_s, safe_point)
    except DamageUnavailable as exc:
        log.info("the picture is polled every %.0f ms: %s", poll_s * 1000, exc)
        return PollWatch(poll_s, str(exc), safe_point)
