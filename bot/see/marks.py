"""Which screen's mark text is shown, with the marks' first characters compared at once.

A screen is named by the first of the profile's marks whose text is written on it
(``ScreenReader.which``). Between two levels the bot asks that at every look, and most
looks show no mark at all, so reading each mark as text (a few numpy calls a mark, a
dozen marks) cost about half a millisecond a look. ``MarkSet`` takes the ink of the
pixels the first character of every mark is read from in one gather, and compares it
with the font's ink of that character; only a mark whose first character is there is
compared whole. A read from packed pixels keeps the pixels it went by: while they stay
the same (a transition redraws the board, not its "WELL DONE!"), the next read compares
them and nothing else. The answer is the text reading's: the font maps glyphs to characters
one to one (``bot.see.font``), so a text reads as the mark exactly when its ink is the
mark's ink.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from logo_bot.bot.profile import TextSpot
from logo_bot.bot.see.cell_sight import RGB, Gather, PackedPicture, gatherer, packed_indices
from logo_bot.bot.see.text import TextReader, ink_of

CELL = 64  # pixels read of a character cell


@dataclass(frozen=True)
class _Mark:
    """The frame rows and columns a mark's text is read from, and the ink it shows there."""

    rows: np.ndarray
    cols: np.ndarray
    ink: np.ndarray


@dataclass(frozen=True)
class _PackedRead:
    """What a read of packed pixels went by: the pixels under the first characters, each
    mark compared whole with its pixels (in turn), and the answer. The same pixels give
    the same answer."""

    under: tuple[int, ...]
    compared: tuple[tuple[str, tuple[int, ...]], ...]
    found: tuple[str | None]


class MarkSet:
    """The marks ``marks`` (name -> spot, in the order they are tried) as read by
    ``reader``; a mark the font cannot write (or a text spot wider than its text) is
    read as text."""

    def __init__(self, reader: TextReader, marks: dict[str, TextSpot]) -> None:
        self.reader = reader
        self.marks = marks
        self._inks: dict[str, _Mark] = {}
        for name, spot in marks.items():
            ink = ink_of(reader.font, spot.text)
            if ink is not None and (not spot.width or spot.width == len(spot.text)):
                ys, xs = reader.spots(spot.row, spot.col, len(spot.text))
                self._inks[name] = _Mark(ys.ravel(), xs.ravel(), ink.ravel())
        firsts = [_first(mark) for mark in self._inks.values()]
        self._first = _Mark(
            np.concatenate([m.rows for m in firsts]) if firsts else np.zeros(0, np.intp),
            np.concatenate([m.cols for m in firsts]) if firsts else np.zeros(0, np.intp),
            np.concatenate([m.ink for m in firsts]) if firsts else np.zeros(0, bool),
        )
        self._order = {name: i for i, name in enumerate(self._inks)}
        self._paper = np.array(reader.paper, dtype=np.uint8)
        red, green, blue = reader.paper
        self._packed_paper = red << 16 | green << 8 | blue
        # the packed pixels' indices, for one (stride, left, top): first characters, marks
        self._packed_at: tuple[tuple[int, int, int], Gather, dict[str, Gather]] | None = None
        self._last: _PackedRead | None = None  # the last ``which_packed`` read
        every = [*self._inks.values()]
        self._reach = (
            max((int(m.rows.max()) for m in every), default=-1),
            max((int(m.cols.max()) for m in every), default=-1),
        )

    def which(self, frame: np.ndarray) -> str | None:
        """The name of the first mark shown on ``frame``, or None."""
        fits = self._fits(frame)
        starts = self._starts(self._ink_at(frame, self._first)) if fits and self._inks else None
        for name, spot in self.marks.items():
            mark = self._inks.get(name) if fits else None
            if mark is None:
                if self._read(frame, spot):
                    return name
            elif starts is not None and not starts[self._order[name]] and self._whole(frame, mark):
                return name
        return None

    def which_packed(self, picture: PackedPicture) -> tuple[str | None] | None:
        """``which``, read from a picture held as packed pixels (``bot.see.cell_sight``):
        (the name,) or (None,); None where it cannot be read so (a mark to read as text,
        or a picture too small), and a frame must be read."""
        if not self.marks:
            return (None,)
        if len(self._inks) != len(self.marks) or not self._within(picture.height, picture.width):
            return None
        first, whole = self._gathers(picture.stride, picture.left, picture.top)
        pixels = picture.pixels
        under = first(pixels)
        if self._went_by(under, whole, pixels):
            return self._last.found  # type: ignore[union-attr]
        starts = self._starts(self._packed_ink(under))
        compared: list[tuple[str, tuple[int, ...]]] = []
        found: tuple[str | None] = (None,)
        for name, mark in self._inks.items():
            if starts[self._order[name]]:
                continue
            values = whole[name](pixels)
            compared.append((name, values))
            if np.array_equal(self._packed_ink(values), mark.ink):
                found = (name,)
                break
        self._last = _PackedRead(under, tuple(compared), found)
        return found

    def _went_by(
        self, under: tuple[int, ...], whole: dict[str, Gather], pixels: Sequence[int]
    ) -> bool:
        """Whether the pixels the last packed read went by are the same now."""
        last = self._last
        if last is None or last.under != under:
            return False
        return all(whole[name](pixels) == values for name, values in last.compared)

    def _starts(self, ink: np.ndarray) -> np.ndarray:
        """For each mark compared at once, whether the ink under its first character
        (``ink``, all marks' in turn) differs from the font's."""
        return (ink != self._first.ink).reshape(-1, CELL).any(axis=1)

    def _packed_ink(self, values: Sequence[int]) -> np.ndarray:
        """Whether each of the packed pixels ``values`` is ink (its colour is not paper)."""
        return np.array(values, dtype=np.uint32) & RGB != self._packed_paper

    def _gathers(self, stride: int, left: int, top: int) -> tuple[Gather, dict[str, Gather]]:
        """What ``which_packed`` reads, as index gatherers into packed pixels."""
        at = (stride, left, top)
        if self._packed_at is None or self._packed_at[0] != at:

            def gather(mark: _Mark) -> Gather:
                return gatherer(packed_indices(mark.rows, mark.cols, stride, left, top))

            whole = {name: gather(mark) for name, mark in self._inks.items()}
            self._packed_at = (at, gather(self._first), whole)
            self._last = None
        return self._packed_at[1], self._packed_at[2]

    def shows(self, frame: np.ndarray, name: str) -> bool:
        """Whether mark ``name`` is shown on ``frame``."""
        mark = self._inks.get(name)
        if mark is None or not self._fits(frame):
            return self._read(frame, self.marks[name])
        return self._whole(frame, mark)

    def _whole(self, frame: np.ndarray, mark: _Mark) -> bool:
        return bool(np.array_equal(self._ink_at(frame, mark), mark.ink))

    def _fits(self, frame: np.ndarray) -> bool:
        """Every pixel read lies in ``frame`` (else each mark is read as text, which fails
        as a text reading does)."""
        return frame.ndim == 3 and self._within(frame.shape[0], frame.shape[1])

    def _within(self, height: int, width: int) -> bool:
        """Every pixel read lies in a picture of ``height`` by ``width``."""
        bottom, right = self._reach
        return bottom < height and right < width

    def _ink_at(self, frame: np.ndarray, mark: _Mark) -> np.ndarray:
        """Whether each of ``mark``'s pixels is ink (not paper), a colour channel at a time."""
        ink = frame[mark.rows, mark.cols, 0] != self._paper[0]
        for channel in (1, 2):
            ink |= frame[mark.rows, mark.cols, channel] != self._paper[channel]
        return ink

    def _read(self, frame: np.ndarray, spot: TextSpot) -> bool:
        return self.reader.text_at(frame, spot) == spot.text


def _first(mark: _Mark) -> _Mark:
    """The part of ``mark`` that its first character is read from."""
    shape = (8, -1)
    return _Mark(*(part.reshape(shape)[:, :8].ravel() for part in (mark.rows, mark.cols, mark.ink)))
