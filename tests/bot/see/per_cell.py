"""The readers of ``bot.see.vision`` written the plain way: one cell at a time, one pixel
at a time, straight from the profile's words. The reference the vectorized readers must
agree with (tests/bot/see/test_vision_per_cell.py) and are timed against
(benchmarks/reading.py)."""

from __future__ import annotations

import numpy as np

from logo_bot.bot.errors import Unreadable
from logo_bot.bot.profile import Grid
from logo_bot.bot.see.vision import Vision
from logo_bot.solvers.board import EMPTY, Board, Cell


class Palette:
    """The profile's colours, each pixel named on its own (the first of equals nearest)."""

    def __init__(self, vision: Vision) -> None:
        palette = vision.profile.palette
        self.names = list(palette.colours)
        self.rgb = np.array([palette.colours[n] for n in self.names], dtype=float)
        self.max_distance = palette.max_distance

    def name(self, pixel: np.ndarray) -> str | None:
        distances = np.linalg.norm(self.rgb - pixel.astype(float), axis=1)
        best = int(distances.argmin())
        return self.names[best] if distances[best] <= self.max_distance else None


def pixel(vision: Vision, frame: np.ndarray, x: int, y: int) -> np.ndarray:
    s = vision.scale
    return frame[y * s + s // 2, x * s + s // 2]


def cells(grid: Grid):
    for row in range(1, grid.rows + 1):
        for col in range(1, grid.cols + 1):
            yield row, col, grid.cell_origin(row, col)


def preview(vision: Vision, frame: np.ndarray) -> Board:
    vision.check(frame)
    g = vision.geometry
    values = {c: v for v, c in vision.profile.palette.preview_values.items()}
    palette = Palette(vision)
    read = []
    for row, col, (x, y) in cells(g.preview):
        stone = pixel(vision, frame, x + g.preview_stone[0], y + g.preview_stone[1])
        background = pixel(vision, frame, x + g.preview_background[0], y + g.preview_background[1])
        if np.array_equal(stone, background):
            read.append(EMPTY)
            continue
        name = palette.name(stone)
        if name not in values:
            raise Unreadable(
                f"preview cell {row} {col} shows colour {tuple(int(v) for v in stone)}"
                f" ({name or 'not a Spectrum colour'}), which is no stone value",
                (row, col),
            )
        read.append(values[name])
    return Board(g.preview.rows, g.preview.cols, tuple(read))


def board(vision: Vision, frame: np.ndarray) -> Board:
    vision.check(frame)
    g = vision.geometry
    values = {c: v for v, c in vision.profile.palette.board_values.items()}
    palette = Palette(vision)
    read = []
    for row, col, (x, y) in cells(g.board):
        value = EMPTY
        for px, py in g.board_probes:
            name = palette.name(pixel(vision, frame, x + px, y + py))
            if name is None:
                raise Unreadable(
                    f"board cell {row} {col} has a colour that is not a Spectrum colour",
                    (row, col),
                )
            if name in values:
                value = values[name]
                break
        read.append(value)
    return Board(g.board.rows, g.board.cols, tuple(read))


def cursor_candidates(vision: Vision, frame: np.ndarray) -> list[Cell]:
    vision.check(frame)
    g = vision.geometry
    found = []
    for row, col, (x, y) in cells(g.board):
        corner = pixel(vision, frame, x, y)
        rule = [
            pixel(vision, frame, x + dx, y + dy) for dy in g.cursor_rows for dx in g.cursor_columns
        ]
        if all(np.array_equal(p, corner) for p in rule):
            found.append((row, col))
    return found


def cursor(vision: Vision, frame: np.ndarray) -> Cell:
    found = cursor_candidates(vision, frame)
    if len(found) == 1:
        return found[0]
    where = ", ".join(f"{r} {c}" for r, c in found[:4]) or "no cell"
    if len(found) > 4:
        where = f"{len(found)} cells ({where}, ...)"
    raise Unreadable(f"the cursor rule matches {where}, expected exactly one cell")
