"""Measuring the emulation speed from the screen instead of assuming it.

The Spectrum swaps the INK and PAPER of FLASH cells every 16 frames, and the game's
cursor flashes, so while nothing is pressed the board area changes only at those
swaps: the median time between swaps gives the emulated frame rate, and with Fuse's
50.08 frames per second at 100 %, the speed.

Only swaps at a steady pace over a second or more count: a Fuse that was stopped
(SIGSTOP, a suspended machine, a process starved on a busy one) catches up on all the
frames it missed at once, as fast as the host runs them (its timer schedules the whole
wall time since its last look as one stretch of emulation), and FLASH then swaps a few
milliseconds apart until it has caught up (measured: 2-23 ms after a 2 s stop at 200 %,
where the steady period is 160 ms).
"""

from __future__ import annotations

import itertools
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from logo_bot.bot import interrupts
from logo_bot.bot.errors import Unreadable
from logo_bot.bot.frames import FPS
from logo_bot.bot.profile import Profile

FLASH_FRAMES = 16  # the ULA swaps FLASH cells every 16 frames


@dataclass(frozen=True)
class SpeedReading:
    """The measured speed, in percent of a real Spectrum, and how it was measured."""

    percent: float
    swaps: int
    seconds: float

    @property
    def frame_s(self) -> float:
        """Wall seconds per emulated frame at this speed."""
        return 100 / (self.percent * FPS)


def board_area(profile: Profile, scale: int) -> tuple[slice, slice]:
    """The rows and columns of the main board in a frame at ``scale``."""
    grid = profile.geometry.board
    x, y = grid.origin
    return (
        slice(y * scale, (y + grid.rows * grid.cell) * scale),
        slice(x * scale, (x + grid.cols * grid.cell) * scale),
    )


def measure_speed(
    frame: Callable[[], np.ndarray],
    area: tuple[slice, slice],
    swaps: int = 7,
    timeout_s: float = 8.0,
    poll_s: float = 0.001,
    clock: Callable[[], float] = time.monotonic,
    steady: float = 0.25,
    span_s: float = 1.0,
    wait_drawn: Callable[[float], bool] | None = None,
) -> SpeedReading:
    """Watch ``area`` of the frames until its latest changes (FLASH swaps), ``swaps`` of
    them or more over ``span_s`` or more, came at a steady pace: every gap between them
    within ``steady`` of their median. At ``timeout_s`` the last ``swaps`` changes count
    as they are; ``Unreadable`` when fewer than 3 came (no flashing cursor). Each frame
    is timed by ``clock`` when it has been grabbed; the next is grabbed once
    ``wait_drawn(until)`` (a session's) says Fuse has drawn, or else
    after ``poll_s``."""
    last = frame()[area].copy()
    times: list[float] = []
    recent: list[float] | None = None
    deadline = clock() + timeout_s
    while clock() < deadline:
        now = frame()[area]
        seen = clock()
        if not np.array_equal(now, last):
            times.append(seen)
            last = now.copy()
            recent = _latest(times, swaps, span_s)
            if recent is not None and _steady(recent, steady):
                break
            recent = None
        if wait_drawn is not None:
            wait_drawn(deadline)  # in ``clock``'s time, time.monotonic for a session
        else:
            interrupts.sleep(poll_s)
    if len(times) < 3:
        raise Unreadable(
            f"cannot measure the emulation speed: the board flashed {len(times)} times "
            f"in {timeout_s:.0f} s (is a level shown, and is Fuse running?)"
        )
    times = recent or times[-swaps:]
    period = statistics.median(b - a for a, b in itertools.pairwise(times))
    return SpeedReading(
        percent=round(100 * FLASH_FRAMES / (period * FPS), 1),
        swaps=len(times),
        seconds=round(times[-1] - times[0], 3),
    )


def _latest(times: list[float], count: int, span_s: float) -> list[float] | None:
    """The shortest tail of ``times`` with ``count`` of them or more over ``span_s`` or
    more; None while there is none."""
    for start in range(len(times) - count, -1, -1):
        if times[-1] - times[start] >= span_s:
            return times[start:]
    return None


def _steady(times: list[float], within: float) -> bool:
    """Every gap between ``times`` within ``within`` (a fraction) of their median."""
    gaps = [b - a for a, b in itertools.pairwise(times)]
    period = statistics.median(gaps)
    return all(abs(gap - period) <= within * period for gap in gaps)
