"""Reading the game from a frame through a calibration profile.

Every reader either returns what it saw or raises ``Unreadable`` with a reason;
nothing is guessed silently. Coordinates in the profile are 1x window pixels;
``Vision`` scales them to the frame (2x and 3x graphics filters).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from logo_bot.bot.errors import Unreadable
from logo_bot.bot.profile import Point, Profile
from logo_bot.bot.see.cells import CellPixels
from logo_bot.solvers.board import EMPTY, Board, Cell

_PLACES = np.array([1 << 16, 1 << 8, 1])  # a colour's channels as the digits of a number


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

    @property
    def unknown(self) -> int:
        """The index ``nearest`` gives a pixel too far from every colour: one past ``names``."""
        return len(self.names)

    @cached_property
    def _squares(self) -> tuple[np.ndarray, ...]:
        """Per channel, (256, n): each 8-bit value's squared difference from each colour's."""
        levels = np.arange(256, dtype=float)[:, None]
        return tuple((levels - self.rgb[:, k]) ** 2 for k in range(3))

    @cached_property
    def _exact(self) -> tuple[np.ndarray, np.ndarray] | None:
        """Each colour as one number (``_packed``), sorted, and its index in ``names`` (the
        first of equal colours first, as ``argmin`` takes it); None for a palette with a
        colour that is not whole numbers."""
        if not np.array_equal(self.rgb, np.rint(self.rgb)) or not len(self.rgb):
            return None
        keys = self._packed(self.rgb.astype(np.uint8))
        order = np.argsort(keys, kind="stable")
        return keys[order], order

    @staticmethod
    def _packed(pixels: np.ndarray) -> np.ndarray:
        """Each (red, green, blue) of 8 bits as one number."""
        return pixels.dot(_PLACES)

    def nearest(self, pixels: np.ndarray) -> np.ndarray:
        """Index in ``names`` of the colour nearest to each pixel of ``pixels`` (..., 3), or
        ``unknown`` when it is farther than ``max_distance`` from all; shaped (...)."""
        flat = np.asarray(pixels).reshape(-1, 3)
        exact = self._exact
        if flat.dtype == np.uint8 and exact is not None:  # a frame's: palette colours are
            keys, index = exact  # found as numbers, and where one is not, all by distance
            packed = self._packed(flat)
            at = keys.searchsorted(packed)
            if (keys.take(at, mode="clip") == packed).all():
                return index.take(at).reshape(np.shape(pixels)[:-1])
        if flat.dtype == np.uint8:  # the squares are looked up
            red, green, blue = (self._squares[k][flat[:, k]] for k in range(3))
            dist = np.sqrt(red + green + blue)
        else:
            dist = np.linalg.norm(flat.astype(float)[:, None, :] - self.rgb[None, :, :], axis=2)
        best = dist.argmin(axis=1)
        best[dist[np.arange(len(best)), best] > self.max_distance] = self.unknown
        return best.reshape(np.shape(pixels)[:-1])

    def classify(self, pixels: np.ndarray) -> list[str | None]:
        """Palette name of each pixel in ``pixels`` (..., 3); None when too far from all."""
        return [self.name_of(i) for i in self.nearest(pixels).ravel().tolist()]

    def name(self, pixel: np.ndarray) -> str | None:
        return self.classify(pixel)[0]

    def name_of(self, index: int) -> str | None:
        """The name of a ``nearest`` index; None for ``unknown``."""
        return self.names[index] if index < self.unknown else None

    def marks(self, names: Iterable[str]) -> np.ndarray:
        """Per ``nearest`` index: whether its colour is one of ``names`` (False for unknown)."""
        wanted = set(names)
        return np.array([n in wanted for n in self.names] + [False])

    def values(self, values: dict[str, int], other: int) -> np.ndarray:
        """Per ``nearest`` index: its colour's entry in ``values``, ``other`` when it has none."""
        return np.array([values.get(n, other) for n in self.names] + [other])


class Vision:
    """The readers for one profile and one graphics scale."""

    def __init__(self, profile: Profile, scale: int = 1) -> None:
        self.profile = profile
        self.geometry = profile.geometry
        self.scale = scale
        self.colours = Colours.of(profile)
        preview_values = {c: v for v, c in profile.palette.preview_values.items()}
        board_values = {c: v for v, c in profile.palette.board_values.items()}
        self._preview_stone = self.colours.marks(preview_values)
        self._preview_value = self.colours.values(preview_values, EMPTY)
        # per ``nearest`` index: whether it is a stone's colour, and the stone's value
        self.board_stone = self.colours.marks(board_values)
        self.board_value = self.colours.values(board_values, EMPTY)

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

    @cached_property
    def _preview_pixels(self) -> CellPixels:
        """Each preview cell's stone pixel, then its background pixel."""
        g = self.geometry
        return CellPixels.of(g.preview, (g.preview_stone, g.preview_background), self.scale)

    @cached_property
    def _board_pixels(self) -> CellPixels:
        """Each board cell's stone probes, in the profile's order."""
        return CellPixels.of(self.geometry.board, self.geometry.board_probes, self.scale)

    @cached_property
    def _cursor_pixels(self) -> CellPixels:
        """Each board cell's top-left pixel, then the pixels the cursor rule compares with it."""
        g = self.geometry
        rule = [(x, y) for y in g.cursor_rows for x in g.cursor_columns]
        return CellPixels.of(g.board, [(0, 0), *rule], self.scale)

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
        stone, background = self._preview_pixels.read(frame).swapaxes(0, 1)
        codes = self.colours.nearest(stone)
        empty = (stone == background).all(axis=-1)
        unreadable = ~empty & ~self._preview_stone[codes]
        if unreadable.any():
            index = int(unreadable.argmax())
            row, col = self._preview_pixels.cell(index)
            name = self.colours.name_of(int(codes[index]))
            raise Unreadable(
                f"preview cell {row} {col} shows colour {tuple(int(v) for v in stone[index])}"
                f" ({name or 'not a Spectrum colour'}), which is no stone value",
                (row, col),
            )
        values = np.where(empty, EMPTY, self._preview_value[codes])
        return Board(grid.rows, grid.cols, tuple(values.tolist()))

    def board(self, frame: np.ndarray) -> Board:
        """The stones on the main board: in each cell, the first probe pixel (in the
        profile's order) that shows a value colour gives the stone; none means empty."""
        self.check(frame)
        grid = self.geometry.board
        if not self.geometry.board_probes:
            return Board.empty(grid.rows, grid.cols)
        codes = self.colours.nearest(self._board_pixels.read(frame))  # (cells, probes)
        unknown = codes == self.colours.unknown
        decides = unknown | self.board_stone[codes]
        # the probe that decides each cell; where none does, the first (no value colour)
        first = codes[np.arange(len(codes)), decides.argmax(axis=1)]
        unreadable = first == self.colours.unknown
        if unreadable.any():
            raise no_colour(*self._board_pixels.cell(int(unreadable.argmax())))
        return Board(grid.rows, grid.cols, tuple(self.board_value[first].tolist()))

    def cursor_candidates(self, frame: np.ndarray) -> list[Cell]:
        """Every board cell that passes the cursor rule (LOGO-GAME.md section 2)."""
        self.check(frame)
        pixels = self._cursor_pixels.read(frame)  # (cells, 1 + rule pixels, channels)
        passes = (pixels == pixels[:, :1]).all(axis=(1, 2))
        return [self._cursor_pixels.cell(i) for i in np.flatnonzero(passes).tolist()]

    def cursor(self, frame: np.ndarray) -> Cell:
        """The one cursor cell; ``Unreadable`` when there is none or more than one."""
        return one_cursor(self.cursor_candidates(frame))


def one_cursor(found: list[Cell]) -> Cell:
    """The one cell of ``found`` (the cells that pass the cursor rule); ``Unreadable``
    when there is none or more than one."""
    if len(found) != 1:
        where = ", ".join(f"{r} {c}" for r, c in found[:4]) or "no cell"
        if len(found) > 4:
            where = f"{len(found)} cells ({where}, ...)"
        raise Unreadable(f"the cursor rule matches {where}, expected exactly one cell")
    return found[0]


def no_colour(row: int, col: int) -> Unreadable:
    """The error for board cell ``row`` ``col`` showing no Spectrum colour."""
    return Unreadable(
        f"board cell {row} {col} has a colour that is not a Spectrum colour", (row, col)
    )


def detect_scale(profile: Profile, frame: np.ndarray) -> int:
    """1, 2, 3 or 4 (fuse-gtk's largest) from the frame size; ``Unreadable`` for any
    other size."""
    w, h = profile.geometry.window
    height, width = frame.shape[:2]
    for scale in (1, 2, 3, 4):
        if (width, height) == (w * scale, h * scale):
            return scale
    raise Unreadable(
        f"a {width}x{height} frame is not the Fuse window at 1x, 2x, 3x or 4x ({w}x{h} at 1x)"
    )
