"""Waiting for the picture to change: the interface (``PictureWatch``) and its polling
form (``PollWatch``), for a display that reports nothing (``bot.x11.damage`` has the form
that X DAMAGE reports wake).

``look(grab)`` grabs the picture and notes that it was seen; ``wait(until)`` returns when
it may have changed since (True), at ``until`` (False), or when one of the caller's own
file descriptors has something to read (False); a stop asked ends it at once
(``interrupts.stop_fds``). Polling sleeps until a poll interval after the last look: it
never spins.
"""

from __future__ import annotations

import select
import time
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from logo_bot.bot import interrupts
from logo_bot.bot.x11.pixels import Frame

Grab = Callable[[], Frame]
POLL_S = 0.005  # polling: the pause between two looks


class PictureWatch:
    """Base class: ``look(grab)`` grabs the picture (and notes that it was seen);
    ``wait(until)`` waits until it may have changed since, or until ``until``
    (``time.monotonic``). ``kind`` and ``record`` say how."""

    kind: ClassVar[str] = "base"

    def __init__(self, safe_point: Callable[[], None] = interrupts.check) -> None:
        self.safe_point = safe_point  # called at least every SLICE_S while waiting
        self.looks = 0
        self.wakeups = 0  # waits that slept and ended because the picture (may have) changed
        self._looked = 0.0  # when the last look began (time.monotonic)

    def look(self, grab: Grab) -> Frame:
        raise NotImplementedError

    def _stop_fds(self) -> tuple[int, ...]:
        """What a wait watches to wake at once for a stop: the run's stop pipe when its
        safe point is the run's (a capture thread's watch ends on its own stop)."""
        return interrupts.stop_fds() if self.safe_point is interrupts.check else ()

    def wait(self, until: float, also: Sequence[int] = ()) -> bool:
        """Wait until the picture may have changed since the last look (True), until
        ``until`` (False), or until one of the file descriptors ``also`` has something to
        read (the caller's own events, such as a key driver's focus events: whether the
        picture changed meanwhile, as far as the watch has heard)."""
        raise NotImplementedError

    def record(self) -> dict[str, Any]:
        """What run.json says: how changes were seen, and how often."""
        return {"seen_by": self.kind, "looks": self.looks, "wakeups": self.wakeups}

    def _noted(self) -> None:
        """A look begins."""
        self.looks += 1
        self._looked = time.monotonic()

    def _poll(self, until: float, poll_s: float, also: Sequence[int]) -> bool:
        """Sleep until ``poll_s`` after the last look (True) or ``until`` (False),
        whichever comes first, or until ``also`` has something to read (False); a safe
        point every ``interrupts.SLICE_S``, and at once for a stop asked."""
        due = self._looked + poll_s
        slept = False
        while (left := min(due, until) - time.monotonic()) > 0:
            self.safe_point()
            slept = True
            ready = _ready([*also, *self._stop_fds()], min(left, interrupts.SLICE_S))
            if any(fd in ready for fd in also):
                return False
        self.safe_point()
        if due <= until:
            self.wakeups += slept
            return True
        return False

    def close(self) -> None:
        """Let go of what the watch holds (again: nothing happens)."""

    def __enter__(self) -> PictureWatch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class PollWatch(PictureWatch):
    """No reports: a wait sleeps until ``poll_s`` after the last look (never spins)."""

    kind = "polling"

    def __init__(
        self,
        poll_s: float = POLL_S,
        why: str = "",
        safe_point: Callable[[], None] = interrupts.check,
    ) -> None:
        super().__init__(safe_point)
        self.poll_s = poll_s
        self.why = why

    def look(self, grab: Grab) -> Frame:
        self._noted()
        return grab()

    def wait(self, until: float, also: Sequence[int] = ()) -> bool:
        return self._poll(until, self.poll_s, also)

    def record(self) -> dict[str, Any]:
        return {**super().record(), "why": self.why or None}


def _ready(fds: list[int], timeout: float) -> list[int]:
    """Sleep up to ``timeout``; those of ``fds`` that have something to read by then."""
    if not fds:
        time.sleep(timeout)
        return []
    ready, _, _ = select.select(fds, [], [], timeout)
    return ready
