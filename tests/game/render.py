"""The practice game's play screen drawn in Python from the game's own data files
(tiles, layout colours) and Fuse's palette from the practice calibration profile.

A model of what game/src/board.asm draws, for fast unit tests of the section 2 pixel
rules at every cursor position, value and FLASH phase; the end-to-end tests check the
real game in Fuse.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from game.bitmaps import Bitmap
from game.layout import COLOURS, Layout
from logo_bot.bot.profile import Profile
from logo_bot.solvers.board import EMPTY, Board, Cell

BORDER_X, BORDER_Y = 32, 24


def rgb(profile: Profile, colour: int, bright: bool) -> tuple[int, int, int]:
    name = COLOURS[colour]
    if bright and name != "black":
        name = "bright_" + name
    return profile.palette.colours[name]


def put_cell(
    img: np.ndarray,
    profile: Profile,
    tile: Bitmap,
    cell_col: int,
    cell_row: int,
    attr: int,
    col: int,
    row: int,
    flash_phase: bool,
) -> None:
    """Draw one 8x8 character cell of ``tile`` at screen character (col, row)."""
    bright = bool(attr & 0x40)
    ink, paper = rgb(profile, attr & 7, bright), rgb(profile, (attr >> 3) & 7, bright)
    if attr & 0x80 and flash_phase:
        ink, paper = paper, ink
    on = _mask(tile, cell_col, cell_row)[:, :, None]
    y, x = BORDER_Y + 8 * row, BORDER_X + 8 * col
    img[y : y + 8, x : x + 8] = np.where(on, np.array(ink), np.array(paper))


@cache
def _mask(tile: Bitmap, cell_col: int, cell_row: int) -> np.ndarray:
    return np.array(
        [[tile.ink(8 * cell_col + x, 8 * cell_row + y) for x in range(8)] for y in range(8)]
    )


def render(
    layout: Layout,
    tiles: dict[str, Bitmap],
    profile: Profile,
    target: Board | None,
    board: Board,
    cursor: Cell,
    flash_phase: bool,
) -> np.ndarray:
    """A 320x240 Fuse window frame of the board and preview (None target: cleared preview)."""
    img = np.zeros((240, 320, 3), dtype=np.uint8)
    geo = layout.geometry
    colours = layout.value_colours
    for r in range(1, geo["rows"] + 1):
        for c in range(1, geo["cols"] + 1):
            value = board[(r, c)]
            paper = colours[value - 1] if value != EMPTY else None
            if (r, c) == cursor:
                tile = tiles["cursor"]
                attr = layout.attr("cursor", paper=paper or layout.styles["empty_cell"].paper)
            else:
                tile = tiles["cell"]
                attr = layout.attr("stone", paper=paper) if paper else layout.attr("empty_cell")
            col = geo["board_col"] + 2 * (c - 1)
            row = geo["board_row"] + 2 * (r - 1)
            for dx in (0, 1):
                for dy in (0, 1):
                    put_cell(img, profile, tile, dx, dy, attr, col + dx, row + dy, flash_phase)
            if target is None:
                continue
            value = target[(r, c)]
            if value == EMPTY:
                tile, attr = tiles["preview_empty"], layout.attr("preview_empty")
            else:
                tile = tiles["preview_stone"]
                attr = layout.attr("preview_stone", ink=colours[value - 1])
            put_cell(
                img,
                profile,
                tile,
                0,
                0,
                attr,
                geo["preview_col"] + c - 1,
                geo["preview_row"] + r - 1,
                flash_phase,
            )
    return img
