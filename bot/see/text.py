"""Reading text on the Spectrum screen with a known 8x8 font (named by the profile).

A character cell reads as a glyph by taking every pixel that is not the paper
colour as ink; cells that match no glyph read as ``?``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np

from logo_bot.bot.profile import TextSpot
from logo_bot.bot.see.font import read_font

SCREEN = (32, 24)  # Spectrum screen offset in the Fuse window at 1x
COLS, ROWS = 32, 24
UNKNOWN = "?"


class GlyphFont(Protocol):
    def match(self, rows: tuple[int, ...]) -> str | None: ...


def load_font(path: Path) -> GlyphFont:
    """The font file ``path`` (see ``bot.see.font``)."""
    return read_font(path)


@dataclass(frozen=True)
class TextReader:
    font: GlyphFont
    scale: int = 1
    paper: tuple[int, int, int] = (0, 0, 0)

    def cells(
        self, frame: np.ndarray, row: int = 0, col: int = 0, rows: int = ROWS, cols: int = COLS
    ) -> np.ndarray:
        """(rows, cols, 8) uint8: the 8 row bytes (bit 7 = leftmost) of each character
        cell of the block whose top-left cell is (``col``, ``row``)."""
        s = self.scale
        x0, y0 = self._origin(row, col)
        block = frame[y0 + s // 2 : y0 + 8 * rows * s : s, x0 + s // 2 : x0 + 8 * cols * s : s]
        ink = (block != np.array(self.paper, dtype=block.dtype)).any(axis=2)
        bits = ink.reshape(rows, 8, cols, 8).transpose(0, 2, 1, 3)
        return np.packbits(bits, axis=3)[..., 0]

    def lines(self, frame: np.ndarray) -> list[str]:
        """The whole screen as 24 lines of 32 characters."""
        cells = self.cells(frame)
        out = []
        for row in cells.tolist():  # lists of ints: far cheaper to look up than numpy's
            out.append("".join(self.font.match(tuple(cell)) or UNKNOWN for cell in row))
        return out

    def _origin(self, row: int, col: int) -> tuple[int, int]:
        """The frame x and y of character cell (``col``, ``row``)'s top-left pixel."""
        return (SCREEN[0] + 8 * col) * self.scale, (SCREEN[1] + 8 * row) * self.scale

    def text_at(self, frame: np.ndarray, spot: TextSpot) -> str:
        """The text at ``spot``: its ``width`` cells, or as many as its text has."""
        return self.field(frame, spot.row, spot.col, spot.width or len(spot.text))

    def field(self, frame: np.ndarray, row: int, col: int, width: int) -> str:
        """The text in ``width`` cells from (``col``, ``row``)."""
        cells = self.cells(frame, row, col, 1, width)[0].tolist()
        return "".join(self.font.match(tuple(cell)) or UNKNOWN for cell in cells)

    def spots(self, row: int, col: int, width: int) -> tuple[np.ndarray, np.ndarray]:
        """The frame rows and columns of the pixels that ``field`` reads, as two arrays of
        (8, 8 * width): ``frame[rows, cols]`` is what it makes its ink of."""
        s = self.scale
        x0, y0 = self._origin(row, col)
        ys = y0 + s // 2 + s * np.arange(8)
        xs = x0 + s // 2 + s * np.arange(8 * width)
        return np.broadcast_to(ys[:, None], (8, 8 * width)), np.broadcast_to(xs, (8, 8 * width))


def ink_of(font: GlyphFont, text: str) -> np.ndarray | None:
    """(8, 8 * len(text)) bools: ``text``'s ink in ``font``, as ``TextReader`` reads it;
    None where the font has no glyph for a character (or for ``?``, which reads any
    unknown cell)."""
    glyphs = getattr(font, "glyphs", {})
    rows = [glyphs.get(ch) for ch in text]
    if UNKNOWN in text or not rows or any(glyph is None for glyph in rows):
        return None
    return np.unpackbits(np.array(rows, dtype=np.uint8).T, axis=1).astype(bool)
