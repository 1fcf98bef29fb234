"""The level's cells kept from one look to the next, read again only where Fuse drew.

``Vision`` reads every cell of a frame; a ``CellSight`` reads the same pixels by the same
rules (the cursor rule, the board's stone probes, the level marker) but keeps what each
cell showed, and reads a cell again only when a drawing reported since touched one of
its pixels. It reads them straight from a picture held as packed pixels, each one number
(0xRRGGBB in its low 24 bits; a screen's own memory, ``bot.x11.framebuffer``), a few
dozen numbers for a key's move, where a frame for ``Vision`` must first be converted.
Whatever it keeps is only as true as the reports of what was drawn: the caller gives
every area drawn since the last update, or none (``areas`` None) to have every cell
read again.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Protocol

import numpy as np

from logo_bot.bot.see.cells import CellPixels
from logo_bot.bot.see.vision import Vision, no_colour, one_cursor
from logo_bot.solvers.board import EMPTY, Board, Cell

RGB = 0xFFFFFF  # a packed pixel's colour bits
NO_VALUE = -1  # a board cell whose colour is no Spectrum colour
MOST_COLOURS = 4096  # colours remembered before the memory starts again

Area = tuple[int, int, int, int]  # x, y, width, height in the picture's pixels


class PackedPicture(Protocol):
    """A picture as packed pixels: ``pixels[(top + y) * stride + left + x]`` is its pixel
    (x, y), and ``areas`` what was drawn in it since the last update (None: anything)."""

    pixels: Sequence[int]
    stride: int
    left: int
    top: int
    width: int
    height: int
    areas: tuple[Area, ...] | None


@dataclass(frozen=True)
class CellReading:
    """What the cells showed at one update: the cells that pass the cursor rule, the
    board's values (``NO_VALUE`` where a cell is unreadable) and the level marker; and
    the picture they were read from (its pixels are the screen's own: what they show
    now, for other readings of the same moment, such as the screen's marks)."""

    cursor_cells: tuple[int, ...]
    values: tuple[int, ...]
    level_shown: bool
    rows: int
    cols: int
    picture: PackedPicture | None = field(default=None, compare=False, repr=False)

    def cursor(self) -> Cell:
        """The one cursor cell; ``Unreadable`` as ``Vision.cursor`` says it."""
        cells, cols = self.cursor_cells, self.cols
        if len(cells) == 1:  # nearly always (read at every key)
            return cells[0] // cols + 1, cells[0] % cols + 1
        return one_cursor([(i // cols + 1, i % cols + 1) for i in cells])

    def board(self) -> Board:
        """The stones; ``Unreadable`` as ``Vision.board`` says it."""
        if NO_VALUE in self.values:
            row, col = divmod(self.values.index(NO_VALUE), self.cols)
            raise no_colour(row + 1, col + 1)
        return Board(self.rows, self.cols, self.values)


class _Band:
    """Which of a row of equal cells a span of pixels touches, along one axis: the cells
    start at ``start`` every ``period`` pixels, and each reads ``low`` to ``high``
    (inclusive) from its start."""

    def __init__(self, start: int, period: int, low: int, high: int, count: int) -> None:
        self.start, self.period, self.low, self.high, self.count = start, period, low, high, count

    def touched(self, at: int, length: int) -> range:
        first = -((self.start + self.high - at) // self.period)  # ceiling division
        last = (at + length - 1 - self.start - self.low) // self.period
        return range(max(first, 0), min(last, self.count - 1) + 1)


# Takes the packed pixels at some indices, as a tuple, in one call.
Gather = Callable[[Sequence[int]], tuple[int, ...]]


def packed_indices(rows: np.ndarray, cols: np.ndarray, stride: int, left: int, top: int) -> list:
    """The indices in packed pixels (``PackedPicture``) of the picture's pixels at ``rows``
    and ``cols``, as nested lists of the arrays' shape."""
    return ((rows + top) * stride + cols + left).tolist()


def gatherer(indices: list[int]) -> Gather:
    """The pixels at ``indices`` as a tuple, in one call (also for a single index)."""
    if len(indices) == 1:
        return lambda pixels: (pixels[indices[0]],)
    return itemgetter(*indices)


def _one_colour(values: tuple[int, ...]) -> bool:
    """Whether packed pixels all have one colour (their bits above it aside)."""
    if values.count(values[0]) == len(values):
        return True
    if max(values) <= RGB:  # no bits above the colour: they differ in colour
        return False
    return len({value & RGB for value in values}) == 1


class CellSight:
    """The cursor rule, the stone probes and the level marker of one profile at one scale,
    kept per cell of the board (``update``)."""

    def __init__(self, vision: Vision) -> None:
        self.vision = vision
        g, s = vision.geometry, vision.scale
        self.rows, self.cols = g.board.rows, g.board.cols
        rule = [(x, y) for y in g.cursor_rows for x in g.cursor_columns]
        self._cursor = CellPixels.of(g.board, [(0, 0), *rule], s)
        self._probes = CellPixels.of(g.board, g.board_probes, s) if g.board_probes else None
        reads = [self._cursor, *([self._probes] if self._probes else [])]
        ys = np.concatenate([p.rows[0] for p in reads]) - g.board.origin[1] * s
        xs = np.concatenate([p.cols[0] for p in reads]) - g.board.origin[0] * s
        period = g.board.cell * s
        self._band_y = _Band(g.board.origin[1] * s, period, int(ys.min()), int(ys.max()), self.rows)
        self._band_x = _Band(g.board.origin[0] * s, period, int(xs.min()), int(xs.max()), self.cols)
        mx, my = g.preview.cell_origin(*g.level_marker)
        size = g.preview.cell * s
        self._marker: Area = (mx * s, my * s, size, size)
        colours = vision.colours
        self._colours = colours
        self._unknown = colours.unknown
        self._stone = vision.board_stone.tolist()
        self._value = vision.board_value.tolist()
        self._codes: dict[int, int] = {}  # packed colour -> palette index
        self._at: tuple[int, int, int] | None = None  # stride, left, top of the indices
        self._cursor_at: list[Gather] = []
        self._probes_at: list[Gather] = []
        self._marker_at: Gather = gatherer([0])
        self._passing: set[int] = set()  # the cells that pass the cursor rule
        self._values = [EMPTY] * (self.rows * self.cols)
        self._shown = False
        self.cells_read = 0  # cells read again, all updates together

    def update(self, picture: PackedPicture) -> CellReading:
        """Read again the cells ``picture.areas`` touch (all of them when it has none, or
        when the picture moved since the last update); what the cells show now."""
        at = (picture.stride, picture.left, picture.top)
        areas = picture.areas
        if at != self._at:
            self._index(*at)
            areas = None
        pixels = picture.pixels
        if areas is None:
            cells: Collection[int] = range(self.rows * self.cols)
            marker = True
        else:
            cells, marker = self._touched(areas)
        for i in cells:
            self._read_cell(pixels, i)
        if marker:
            self._shown = not _one_colour(self._marker_at(pixels))
        self.cells_read += len(cells)
        passing = tuple(sorted(self._passing))
        values = tuple(self._values)
        return CellReading(passing, values, self._shown, self.rows, self.cols, picture)

    def _touched(self, areas: tuple[Area, ...]) -> tuple[set[int], bool]:
        """The cells, and whether the level marker, that ``areas`` touch."""
        cells: set[int] = set()
        marker = False
        mx, my, size, _ = self._marker
        cols = self.cols
        for x, y, width, height in areas:
            across = self._band_x.touched(x, width)
            if across:
                for row in self._band_y.touched(y, height):
                    cells.update(range(row * cols + across.start, row * cols + across.stop))
            if x < mx + size and mx < x + width and y < my + size and my < y + height:
                marker = True
        return cells, marker

    def _read_cell(self, pixels: Sequence[int], i: int) -> None:
        if _one_colour(self._cursor_at[i](pixels)):
            self._passing.add(i)
        else:
            self._passing.discard(i)
        if not self._probes_at:
            return
        code = first_code = -1
        for pixel in self._probes_at[i](pixels):
            code = self._code(pixel & RGB)
            if first_code < 0:
                first_code = code
            if code == self._unknown or self._stone[code]:
                break
        else:  # no probe shows a value colour: the first decides (no stone, or unknown)
            code = first_code
        self._values[i] = NO_VALUE if code == self._unknown else self._value[code]

    def _code(self, colour: int) -> int:
        """The palette index of a packed colour (``Colours.nearest``), remembered."""
        code = self._codes.get(colour)
        if code is None:
            if len(self._codes) >= MOST_COLOURS:
                self._codes.clear()
            rgb = np.array([[colour >> 16, colour >> 8 & 0xFF, colour & 0xFF]], dtype=np.uint8)
            code = self._codes[colour] = int(self._colours.nearest(rgb)[0])
        return code

    def _index(self, stride: int, left: int, top: int) -> None:
        """Each pixel read, as its index in the packed pixels."""
        self._at = (stride, left, top)

        def gathers(rows: np.ndarray, cols: np.ndarray) -> list[Gather]:
            return [gatherer(at) for at in packed_indices(rows, cols, stride, left, top)]

        self._cursor_at = gathers(self._cursor.rows, self._cursor.cols)
        if self._probes is not None:
            self._probes_at = gathers(self._probes.rows, self._probes.cols)
        mx, my, size, _ = self._marker
        ys, xs = np.mgrid[my : my + size, mx : mx + size]
        self._marker_at = gatherer(packed_indices(ys.ravel(), xs.ravel(), stride, left, top))
