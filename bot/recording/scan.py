"""Finding the levels in a movie: the exact emulated frames where each one was shown.

A level is on screen while the profile's level marker is not uniform (a cheap test run
on every frame). A stretch of such frames counts as a level once its target can be read;
its end is the first frame without the marker, where the finished board still shows.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from logo_bot.bot.errors import Unreadable
from logo_bot.bot.see.vision import Vision
from logo_bot.solvers.board import Board


@dataclass
class LevelSpan:
    """One appearance of a level in one segment's movie (frame numbers in that segment)."""

    segment: int
    start: int
    end: int | None = None  # first frame without the level; None: the movie ended first
    target: Board | None = None
    end_board: Board | None = None


class LevelScanner:
    """Feed it a segment's frames in order; ``spans`` collects the levels seen."""

    def __init__(self, vision: Vision, segment: int, confirm_frames: int = 25) -> None:
        self.vision = vision
        self.segment = segment
        self.confirm_frames = confirm_frames
        self.spans: list[LevelSpan] = []
        self._open: LevelSpan | None = None
        self._last: np.ndarray | None = None
        self.frames = 0
        self.final_board: Board | None = None  # read on the last frame

    def feed(self, frame: np.ndarray) -> None:
        index = self.frames
        self.frames += 1
        self._last = frame
        try:
            shown = self.vision.level_shown(frame)
        except Unreadable:
            shown = False
        span = self._open
        if shown:
            if span is None:
                span = self._open = LevelSpan(self.segment, index)
            if span.target is None and index - span.start < self.confirm_frames:
                span.target = _read(self.vision.preview, frame)
            return
        if span is not None:
            self._open = None
            if span.target is not None:
                span.end = index
                span.end_board = _read(self.vision.board, frame)
                self.spans.append(span)

    def finish(self) -> list[LevelSpan]:
        """The spans, including one still open when the movie ended."""
        span, self._open = self._open, None
        if self._last is not None:
            self.final_board = _read(self.vision.board, self._last)
        if span is not None and span.target is not None and self._last is not None:
            span.end_board = _read(self.vision.board, self._last)
            self.spans.append(span)
        return self.spans


def _read(reader, frame: np.ndarray) -> Board | None:
    try:
        return reader(frame)
    except Unreadable:
        return None


def span_of(
    spans: list[LevelSpan],
    segment: int,
    frame: int,
    target: Board | None = None,
    slack: int = 50,
) -> LevelSpan | None:
    """The span of a level shown at about ``frame`` of ``segment`` (a wall-clock estimate).

    With the level's ``target`` known, the span showing that target nearest the estimate:
    the estimate's origin (when the bot saw Fuse's window) can run a second late on a busy
    machine, which puts it nearer the level before. Without it, the last span that began
    by ``frame + slack``."""
    mine = [s for s in spans if s.segment == segment]
    if target is not None:
        shown = [s for s in mine if s.target == target]
        if shown:
            return min(shown, key=lambda s: (abs(s.start - frame), -s.start))
    before = [s for s in mine if s.start <= frame + slack]
    return max(before, key=lambda s: s.start, default=None)
