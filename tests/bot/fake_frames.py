"""Synthetic frames drawn to LOGO-GAME.md section 2 (fakes for vision unit tests only;
the end-to-end tests read the real game in Fuse)."""

from __future__ import annotations

import numpy as np

from logo_bot.solvers.board import EMPTY, Board, Cell

BLACK = (0, 0, 0)
BLUE = (0, 0, 192)
WHITE = (192, 192, 192)
VALUE = {1: (248, 0, 0), 2: (0, 252, 0), 3: (248, 0, 248), 4: (248, 252, 0)}
DIM = (0, 0, 192)


def draw(
    target: Board | None,
    board: Board | None = None,
    cursor: Cell | None = (1, 1),
    flash: bool = False,
    scale: int = 1,
) -> np.ndarray:
    """A 320x240 (times ``scale``) Fuse window with the board, cursor and preview."""
    img = np.zeros((240, 320, 3), dtype=np.uint8)
    board = board or Board.empty(6, 10)
    for r in range(1, 7):
        for c in range(1, 11):
            x, y = 32 + 16 * c, 24 + 16 * r
            value = board[(r, c)]
            ink, paper = (WHITE, VALUE[value]) if value != EMPTY else (BLUE, BLACK)
            if (r, c) == cursor and flash:
                ink, paper = paper, ink
            img[y : y + 16, x : x + 16] = paper
            width = 2 if (r, c) == cursor else 1
            img[y : y + width, x : x + 16] = ink
            img[y + 16 - width : y + 16, x : x + 16] = ink
            img[y : y + 16, x : x + width] = ink
            img[y : y + 16, x + 16 - width : x + 16] = ink
    if target is not None:
        for r in range(1, 7):
            for c in range(1, 11):
                x, y = 40 + 8 * c, 152 + 8 * r
                value = target[(r, c)]
                if value == EMPTY:
                    img[y + 3, x + 3] = DIM
                else:
                    img[y, x : x + 8] = VALUE[value]
                    img[y + 7, x : x + 8] = VALUE[value]
                    img[y : y + 8, x] = VALUE[value]
                    img[y : y + 8, x + 7] = VALUE[value]
    return img.repeat(scale, axis=0).repeat(scale, axis=1)
