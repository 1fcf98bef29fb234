"""Which movie frame the bot looked at: a look placed by its picture, not by the clock.

The wall clock says roughly which emulated frame a grab showed (Fuse keeps in step with
real time at its speed), but a busy machine runs Fuse late, by 5-10 frames and more.
Fuse's movie holds every frame, and a grabbed picture equals one of them up to the
colours: the window's bright white is (248, 252, 248) where the movie's is (255, 255,
255). So pictures are compared by a ``signature`` of the top three bits of each channel,
and a look goes to the movie frame with its signature nearest to the clock's estimate,
once that is moved by how far the clock was off. The clock starts when Fuse's window
shows (its first frame follows within moments), but a starved Fuse falls behind it.
"""

from __future__ import annotations

import bisect
import statistics
import zlib
from collections import defaultdict, deque
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

REACH = 250  # frames around the clock's estimate searched for the picture (5 s)
PIN = 25  # a picture the movie shows once, this many frames at most, pins the clock
RECENT = 5  # the clock's shift at a look: the median of this many pins before it
MIN_PINS = 3  # fewer pins in all, and the clock is taken as it is


def signature(picture: np.ndarray, scale: int = 1) -> int:
    """A number that two pictures of the same Spectrum screen share (at 1x; a picture
    grabbed at ``scale`` is read every ``scale`` pixels)."""
    ones = picture[::scale, ::scale] if scale > 1 else picture
    return zlib.crc32(np.ascontiguousarray(ones >> 5).data)


@dataclass(frozen=True)
class Placed:
    """Where the looks went: one frame per look, how many matched a movie frame, and
    how far the clock was off."""

    frames: list[int]
    matched: int
    shift: int = 0  # frames the movie ran after (+) the clock at the last look


def place(looks: Sequence[tuple[int, int]], movie: Sequence[int], reach: int = REACH) -> Placed:
    """The movie frame of each look, given as (estimated frame, signature) in the order
    the bot looked: the frame showing its picture nearest the estimate, never before
    the frame of the look before. A look whose picture is not found within ``reach``
    keeps its estimate (bounded by the movie's length and the look before). Where
    enough looks pin the clock to the movie (``clock_shifts``), each estimate is first
    moved by how far the clock was off at the looks before it."""
    where: dict[int, list[int]] = defaultdict(list)
    for frame, sig in enumerate(movie):
        where[sig].append(frame)
    last_frame = max(len(movie) - 1, 0)
    frames: list[int] = []
    matched = 0
    earliest = 0
    shifts = clock_shifts(looks, where)
    for (estimate, sig), shift in zip(looks, shifts, strict=True):
        guess = estimate + shift
        found = _nearest(where.get(sig, []), guess, max(earliest, guess - reach), reach)
        if found is None:
            found = max(earliest, min(guess, last_frame))
        else:
            matched += 1
        frames.append(found)
        earliest = found
    return Placed(frames, matched, shifts[-1] if shifts else 0)


def clock_shifts(looks: Sequence[tuple[int, int]], where: dict[int, list[int]]) -> list[int]:
    """For each look, how many frames the movie ran after (+) or before (-) the clock.

    The clock counts from the moment Fuse's window showed, about its first frame, but a
    starved Fuse falls behind it as it runs (and a clock started early, as one started
    at Fuse's launch was, is off from the start). A look whose picture the movie shows
    once, for at most ``PIN`` frames, says where the clock was: the shift is the median
    of the last ``RECENT`` such pins (of the first ones, before them), or 0 while fewer
    than ``MIN_PINS`` looks pin it in all."""
    pins: list[int | None] = []
    for estimate, sig in looks:
        shown = where.get(sig, [])
        brief = bool(shown) and shown[-1] - shown[0] <= PIN
        pins.append(min(shown, key=lambda f: abs(f - estimate)) - estimate if brief else None)
    known = [pin for pin in pins if pin is not None]
    if len(known) < MIN_PINS:
        return [0] * len(looks)
    recent: deque[int] = deque(known[:RECENT], maxlen=RECENT)
    shifts, seen = [], 0
    for pin in pins:
        if pin is not None:
            seen += 1
            if seen > RECENT:  # the first ones are in already
                recent.append(pin)
        shifts.append(round(statistics.median(recent)))
    return shifts


def _nearest(candidates: list[int], estimate: int, low: int, reach: int) -> int | None:
    """The candidate in [low, estimate + reach] nearest to ``estimate``."""
    start = bisect.bisect_left(candidates, low)
    stop = bisect.bisect_right(candidates, estimate + reach)
    window = candidates[start:stop]
    if not window:
        return None
    return min(window, key=lambda frame: (abs(frame - estimate), frame))
