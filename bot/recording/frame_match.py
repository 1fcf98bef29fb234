"""Which movie frame the bot looked at: a look placed by its picture, not by the clock.

The wall clock says roughly which emulated frame a grab showed (Fuse keeps in step with
real time at its speed), but a busy machine runs Fuse late, by 5-10 frames and more.
Fuse's movie holds every frame, and a grabbed picture equals one of them up to the
colours: the window's bright white is (248, 252, 248) where the movie's is (255, 255,
255). So pictures are compared by a ``signature`` of the top three bits of each channel,
and a look goes to the movie frame with its signature nearest to the clock's estimate.
"""

from __future__ import annotations

import bisect
import zlib
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

REACH = 250  # frames around the clock's estimate searched for the picture (5 s)


def signature(picture: np.ndarray, scale: int = 1) -> int:
    """A number that two pictures of the same Spectrum screen share (at 1x; a picture
    grabbed at ``scale`` is read every ``scale`` pixels)."""
    ones = picture[::scale, ::scale] if scale > 1 else picture
    return zlib.crc32(np.ascontiguousarray(ones >> 5).data)


@dataclass(frozen=True)
class Placed:
    """Where the looks went: one frame per look, and how many matched a movie frame."""

    frames: list[int]
    matched: int


def place(looks: Sequence[tuple[int, int]], movie: Sequence[int], reach: int = REACH) -> Placed:
    """The movie frame of each look, given as (estimated frame, signature) in the order
    the bot looked: the frame showing its picture nearest the estimate, never before
    the frame of the look before. A look whose picture is not found within ``reach``
    keeps its estimate (bounded by the movie's length and the look before)."""
    where: dict[int, list[int]] = defaultdict(list)
    for frame, sig in enumerate(movie):
        where[sig].append(frame)
    last_frame = max(len(movie) - 1, 0)
    frames: list[int] = []
    matched = 0
    earliest = 0
    for estimate, sig in looks:
        found = _nearest(where.get(sig, []), estimate, max(earliest, estimate - reach), reach)
        if found is None:
            found = max(earliest, min(estimate, last_frame))
        else:
            matched += 1
        frames.append(found)
        earliest = found
    return Placed(frames, matched)


def _nearest(candidates: list[int], estimate: int, low: int, reach: int) -> int | None:
    """The candidate in [low, estimate + reach] nearest to ``estimate``."""
    start = bisect.bisect_left(candidates, low)
    stop = bisect.bisect_right(candidates, estimate + reach)
    window = candidates[start:stop]
    if not window:
        return None
    return min(window, key=lambda frame: (abs(frame - estimate), frame))
