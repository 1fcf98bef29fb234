"""Reading text on the Spectrum screen with a known 8x8 font (the practice game's own).

A character cell reads as a glyph by taking every pixel that is not the paper
colour as ink; cells that match no glyph read as ``?``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np

SCREEN = (32, 24)  # Spectrum screen offset in the Fuse window at 1x
COLS, ROWS = 32, 24
UNKNOWN = "?"


class GlyphFont(Protocol):
    def match(self, rows: tuple[int, ...]) -> str | None: ...


def load_font(path: Path) -> GlyphFont:
    """A font in the bitmap text format of ``game/font.txt``."""
    from game.font import load_font as load

    return load(path)


@dataclass(frozen=True)
class TextReader:
    font: GlyphFont
    scale: int = 1
    paper: tuple[int, int, int] = (0, 0, 0)

    def cells(self, frame: np.ndarray) -> np.ndarray:
        """(24, 32, 8) uint8: each character cell's 8 row bytes (bit 7 = leftmost)."""
        s = self.scale
        x0, y0 = SCREEN[0] * s, SCREEN[1] * s
        screen = frame[y0 + s // 2 : y0 + 192 * s : s, x0 + s // 2 : x0 + 256 * s : s]
        ink = (screen != np.array(self.paper, dtype=screen.dtype)).any(axis=2)
        bits = ink.reshape(ROWS, 8, COLS, 8).transpose(0, 2, 1, 3)
        return np.packbits(bits, axis=3)[..., 0]

    def lines(self, frame: np.ndarray) -> list[str]:
        """The whole screen as 24 lines of 32 characters."""
        cells = self.cells(frame)
        out = []
        for row in range(ROWS):
            chars = []
            for col in range(COLS):
                pattern = tuple(int(b) for b in cells[row, col])
                chars.append(self.font.match(pattern) or UNKNOWN)
            out.append("".join(chars))
        return out

    def field(self, frame: np.ndarray, row: int, col: int, width: int) -> str:
        """The text in ``width`` cells from (``col``, ``row``)."""
        cells = self.cells(frame)
        return "".join(
            self.font.match(tuple(int(b) for b in cells[row, c])) or UNKNOWN
            for c in range(col, col + width)
        )
