"""The level designs the generator starts from (``game/level_shapes.txt``).

The file is a level list in the usual format with ``X`` marking a stone cell.
Every level has a ``name``; every fifth level from 1 starts a block and gives
its ``theme``; ``values: as drawn`` keeps the digits written instead of
choosing values; ``variant: N`` takes the generator's N+1-th choice of values
(0 by default) when an earlier one is slow to prove its fewest keypresses.
Any break of these rules is a ``DesignError`` naming the line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from logo_bot.solvers.board import Board, Cell
from logo_bot.solvers.levels import Level, parse_level_list, read_text

DESIGNS_FILE = Path(__file__).resolve().parent / "level_shapes.txt"
STONE = "X"
BLOCK = 5
ROWS, COLS = 6, 10
AS_DRAWN = "as drawn"
KEYS = {"theme", "name", "values", "variant"}
_GRID_ROW = re.compile(rf"^[.{STONE}1-4]+$")


class DesignError(ValueError):
    """A design file that breaks the rules above."""


@dataclass(frozen=True)
class Design:
    """One level's design: its stone cells (row-major), or fixed values."""

    number: int
    theme: str
    name: str
    cells: tuple[Cell, ...]
    fixed: Board | None
    variant: int = 0


def parse_designs(text: str, source: str = "<designs>") -> list[Design]:
    # Grid rows use X for a stone; the level parser knows only .1234, so X becomes 1
    # (same width, so its line and column numbers stay right).
    rows = [ln.replace(STONE, "1") if _GRID_ROW.match(ln) else ln for ln in text.splitlines()]
    levels = parse_level_list("\n".join(rows), source)
    designs = []
    theme = ""
    for level in levels:
        theme = _theme(level, theme, source)
        designs.append(_design(level, theme, text.splitlines(), source))
    return designs


def load_designs(path: str | Path) -> list[Design]:
    return parse_designs(read_text(path), str(path))


def _where(level: Level, source: str) -> str:
    return f"{source}:{level.line}: level {level.number}"


def _theme(level: Level, current: str, source: str) -> str:
    starts_block = (level.number - 1) % BLOCK == 0
    given = level.meta.get("theme")
    if starts_block and not given:
        raise DesignError(
            f"{_where(level, source)} starts a block of {BLOCK}: give it a 'theme: ...' line"
        )
    if given and not starts_block:
        raise DesignError(
            f"{_where(level, source)} is inside a block: a theme belongs on levels 1, 6, 11, ..."
        )
    return given or current


def _design(level: Level, theme: str, lines: list[str], source: str) -> Design:
    where = _where(level, source)
    unknown = set(level.meta) - KEYS
    if unknown:
        raise DesignError(f"{where}: unknown metadata {sorted(unknown)}; known: {sorted(KEYS)}")
    name = level.meta.get("name")
    if not name:
        raise DesignError(f"{where}: give it a 'name: ...' line")
    board = level.board
    if (board.rows, board.cols) != (ROWS, COLS):
        raise DesignError(f"{where}: is {board.rows}x{board.cols}; every level is {ROWS}x{COLS}")
    values = level.meta.get("values")
    if values is not None and values != AS_DRAWN:
        raise DesignError(f"{where}: 'values' can only be '{AS_DRAWN}', not {values!r}")
    fixed = board if values == AS_DRAWN else None
    if fixed is None and _has_digits(level, lines):
        raise DesignError(
            f"{where}: draws stone values but has no 'values: {AS_DRAWN}' line "
            f"(mark stones with {STONE} and let the generator choose values)"
        )
    variant = level.meta.get("variant", "0")
    if not variant.isdigit():
        raise DesignError(
            f"{where}: 'variant' must be a whole number 0, 1, 2, ..., not {variant!r}"
        )
    if fixed is not None and variant != "0":
        raise DesignError(f"{where}: a level with values as drawn has no variants")
    return Design(level.number, theme, name, tuple(board.stones()), fixed, int(variant))


def _has_digits(level: Level, lines: list[str]) -> bool:
    """Whether the level's grid rows, as written, hold digits rather than X."""
    start = level.line - 1
    block: list[str] = []
    for line in lines[start:]:
        if not line.strip():
            break
        block.append(line)
    grid = [ln for ln in block if _GRID_ROW.match(ln)]
    return any(ch in "1234" for ln in grid for ch in ln)
