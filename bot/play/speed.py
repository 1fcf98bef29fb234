"""Measuring the emulation speed from the screen instead of assuming it.

The Spectrum swaps the INK and PAPER of FLASH cells every 16 frames, and the game's
cursor flashes, so while nothing is pressed the board area changes only at those
swaps: the median time between swaps gives the emulated frame rate, and with Fuse's
50.08 frames per second at 100 %, the speed.
"""

from __future__ import annotations

import itertools
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from bot.errors import Unreadable
from bot.frames import FPS
from bot.profile import Profile

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
) -> SpeedReading:
    """Watch ``area`` of the frames until it has changed ``swaps`` times (FLASH swaps);
    ``Unreadable`` when fewer than 3 came within ``timeout_s`` (no flashing cursor).
    Each frame is timed by ``clock`` when it has been grabbed."""
    last = frame()[area].copy()
    times: list[float] = []
    deadline = clock() + timeout_s
    while len(times) < swaps and clock() < deadline:
        now = frame()[area]
        seen = clock()
        if not np.array_equal(now, last):
            times.append(seen)
            last = now.copy()
        time.sleep(poll_s)
    if len(times) < 3:
        raise Unreadable(
            f"cannot measure the emulation speed: the board flashed {len(times)} times "
            f"in {timeout_s:.0f} s (is a level shown, and is Fuse running?)"
        )
    gaps = [b - a for a, b in itertools.pairwise(times)]
    period = statistics.median(gaps)
    return SpeedReading(
        percent=round(100 * FLASH_FRAMES / (period * FPS), 1),
        swaps=len(times),
        seconds=round(times[-1] - times[0], 3),
    )
