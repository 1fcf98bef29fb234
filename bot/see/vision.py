"""Reading the game from a frame through a calibration profile.

Every reader either returns what it saw or raises ``Unreadable`` with a reason;
nothing is guessed silently. Coordinates in the profile are 1x window pixels;
``Vision`` scales them to the frame (2x and 3x graphics filters).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bot.errors import Unreadable
from bot.profile import Grid, Point, Profile
from solvers.board import EMPTY, Board, Cell


@dataclass(frozen=True)
class Colours:
    """Nearest-palette classification of RGB pixels."""

    names: tuple[str, ...]
    rgb: np.ndarray  # (n, 3) float
    max_distance: float

    @classmethod
    def of(cls, profile: Profile) -> Colours:
        names = tuple(profile.palette.colours)
        rgb = np.array([profile.palette.colours[n] for n in names], dtype=float)
        return cls(names, rgb, profile.palette.max_distance)

    def classify(self, pixels: np.ndarray) -> list[str | None]:
        """Palette name of each pixel in ``pixels`` (..., 3); None when too far from all."""
        flat = np.asarray(pixels, dtype=float).reshape(-1, 3)
        dist = np.linalg.norm(flat[:, None, :] - self.rgb[None, :, :], axis=2)
        best = dist.argmin(axis=1)
        return [
            self.names[b] if dist[i, b] <= self.max_distance else None for i, b in enumerate(best)
        ]

    def name(self, pixel: np.ndarray) -> str | None:
        return self.classify(pixel)[0]


class Vision:
    """The readers for one profile and one graphics scale."""

    def __init__(self, profile: Profile, scale: int = 1) -> None:
        self.profile = profile
        self.geometry = profile.geometry
        self.scale = scale
        self.colours = Colours.of(profile)
        self._preview_values = {c: v for v, c in profile.palette.preview_values.items()}
        self._board_values = {c: v for v, c in profile.palette.board_values.items()}

    @classmethod
    def for_frame(cls, profile: Profile, frame: np.ndarray) -> Vision:
        """A ``Vision`` whose scale fits ``frame``'s size (1x, 2x or 3x of the window)."""
        return cls(profile, detect_scale(profile, frame))

    # -- pixels -----------------------------------------------------------------------------
    def check(self, frame: np.ndarray) -> None:
        w, h = self.geometry.window
        if frame.shape[:2] != (h * self.scale, w * self.scale):
            raise Unreadable(
                f"frame is {frame.shape[1]}x{frame.shape[0]}, expected "
                f"{w * self.scale}x{h * self.scale} for scale {self.scale}"
            )

    def pixel(self, frame: np.ndarray, x: int, y: int) -> np.ndarray:
        """The 1x window pixel (x, y): the centre of its scaled block."""
        s = self.scale
        return frame[y * s + s // 2, x * s + s // 2]

    def block(self, frame: np.ndarray, origin: Point, size: int) -> np.ndarray:
        s = self.scale
        x, y = origin
        return frame[y * s : (y + size) * s, x * s : (x + size) * s]

    @staticmethod
    def _cells(grid: Grid):
        for row in range(1, grid.rows + 1):
            for col in range(1, grid.cols + 1):
                yield row, col, grid.cell_origin(row, col)

    # -- readers ----------------------------------------------------------------------------
    def level_shown(self, frame: np.ndarray) -> bool:
        """True while a level is on screen: the marker preview cell is not uniform."""
        self.check(frame)
        row, col = self.geometry.level_marker
        block = self.block(
            frame, self.geometry.preview.cell_origin(row, col), self.geometry.preview.cell
        )
        return bool((block != block[0, 0]).any())

    def preview(self, frame: np.ndarray) -> Board:
        """The target shown in the preview."""
        self.check(frame)
        grid = self.geometry.preview
        sx, sy = self.geometry.preview_stone
        bx, by = self.geometry.preview_background
        cells: list[int] = []
        for row, col, (x, y) in self._cells(grid):
            stone = self.pixel(frame, x + sx, y + sy)
            if np.array_equal(stone, self.pixel(frame, x + bx, y + by)):
                cells.append(EMPTY)
                continue
            name = self.colours.name(stone)
            value = self._preview_values.get(name) if name else None
            if value is None:
                raise Unreadable(
                    f"preview cell {row} {col} shows colour {tuple(int(v) for v in stone)}"
                    f" ({name or 'not a Spectrum colour'}), which is no stone value",
                    (row, col),
                )
            cells.append(value)
        return Board(grid.rows, grid.cols, tuple(cells))

    def board(self, frame: np.ndarray) -> Board:
        """The stones on the main board (value colours at the profile's probe pixels)."""
        self.check(frame)
        grid = self.geometry.board
        cells: list[int] = []
        for row, col, (x, y) in self._cells(grid):
            value = EMPTY
            for px, py in self.geometry.board_probes:
                name = self.colours.name(self.pixel(frame, x + px, y + py))
                if name is None:
                    raise Unreadable(
                        f"board cell {row} {col} has a colour that is not a Spectrum colour",
                        (row, col),
                    )
                if name in self._board_values:
                    value = self._board_values[name]
                    break
            cells.append(value)
        return Board(grid.rows, grid.cols, tuple(cells))

    def cursor_candidates(self, frame: np.ndarray) -> list[Cell]:
        """Every board cell that passes the cursor rule (LOGO-GAME.md section 2)."""
        self.check(frame)
        s = self.scale
        ys = [r * s + s // 2 for r in self.geometry.cursor_rows]
        xs = [c * s + s // 2 for c in self.geometry.cursor_columns]
        found = []
        for row, col, (x, y) in self._cells(self.geometry.board):
            x0, y0 = x * s, y * s
            corner = frame[y0 + s // 2, x0 + s // 2]
            probe = frame[np.ix_([y0 + v for v in ys], [x0 + v for v in xs])]
            if (probe == corner).all():
                found.append((row, col))
        return found

    def cursor(self, frame: np.ndarray) -> Cell:
        """The one cursor cell; ``Unreadable`` when there is none or more than one."""
        found = self.cursor_candidates(frame)
        if len(found) != 1:
            where = ", ".join(f"{r} {c}" for r, c in found[:4]) or "no cell"
            if len(found) > 4:
                where = f"{len(found)} cells ({where}, ...)"
            raise Unreadable(f"the cursor rule matches {where}, expected exactly one cell")
        return found[0]


def detect_scale(profile: Profile, frame: np.ndarray) -> int:
    """1, 2 or 3 from the frame size; ``Unreadable`` for any other size."""
    w, h = profile.geometry.window
    height, width = frame.shape[:2]
    for scale in (1, 2, 3):
        if (width, height) == (w * scale, h * scale):
            return scale
    raise Unreadable(
        f"a {width}x{height} frame is not the Fuse window at 1x, 2x or 3x ({w}x{h} at 1x)"
    )
