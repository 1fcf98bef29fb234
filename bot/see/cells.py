"""Where the readers look: the same few pixels of every cell of a grid, as index arrays.

A reader takes all its pixels of all cells from a frame in one numpy step instead of
looping over the cells in Python. The arrays are worked out once per grid, offsets and
graphics scale; cells are in row-major order, the order the readers report in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from logo_bot.bot.profile import Grid, Point
from logo_bot.solvers.board import Cell


@dataclass(frozen=True)
class CellPixels:
    """The frame pixels at ``offsets`` (1x pixels from each cell's top-left) of every cell
    of ``grid`` at one scale: the centre of each offset's scaled block, as ``Vision.pixel``
    takes it."""

    grid: Grid
    offsets: tuple[Point, ...]
    rows: np.ndarray  # (cells, offsets) frame row of each pixel
    cols: np.ndarray  # (cells, offsets) frame column of each pixel
    # per frame width: each pixel's index in the frame's pixels taken as one row
    _flat: dict[int, np.ndarray] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(cls, grid: Grid, offsets: Sequence[Point], scale: int) -> CellPixels:
        dx = np.array([x for x, _ in offsets])
        dy = np.array([y for _, y in offsets])
        cell_x, cell_y = np.meshgrid(
            grid.origin[0] + grid.cell * np.arange(grid.cols),
            grid.origin[1] + grid.cell * np.arange(grid.rows),
        )
        xs = cell_x.reshape(-1, 1) + dx
        ys = cell_y.reshape(-1, 1) + dy
        centre = scale // 2
        return cls(grid, tuple(offsets), ys * scale + centre, xs * scale + centre)

    def read(self, frame: np.ndarray) -> np.ndarray:
        """The pixels, shaped (cells, offsets, channels), of a frame of the grid's size (the
        readers check it first). Taken by their index in a plane of the frame with
        ``take`` where the frame's memory allows it without a copy (a fifth of what
        indexing by row and column arrays costs): one plane a channel, as the grabbers'
        frames are (``bot.x11.grab.to_rgb``), or the pixels one after another."""
        height, width = frame.shape[:2]
        flat = self._flat.get(width)
        if flat is None:
            flat = self._flat[width] = self.rows * width + self.cols
        planes = frame.transpose(2, 0, 1)
        if planes.flags.c_contiguous:
            return planes.reshape(len(planes), -1).take(flat, axis=1).transpose(1, 2, 0)
        if frame.flags.c_contiguous:
            return frame.reshape(height * width, -1).take(flat, axis=0)
        return frame[self.rows, self.cols]

    def cell(self, index: int) -> Cell:
        """The (row, col) of the ``index``-th cell, 1-based."""
        row, col = divmod(int(index), self.grid.cols)
        return row + 1, col + 1
