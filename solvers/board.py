"""The board and the game's one rule, forwards and backwards.

Cells are addressed 1-based as ``(row, col)`` like the published plans.
A cell holds ``EMPTY`` (0) or a stone of value 1..4.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

EMPTY = 0
MAX_VALUE = 4
SYMBOLS = ".1234"

Cell = tuple[int, int]


class RuleError(ValueError):
    """An action or an undo that the rules do not allow."""


@dataclass(frozen=True)
class Board:
    """An immutable ``rows`` x ``cols`` board; ``cells`` is row-major."""

    rows: int
    cols: int
    cells: tuple[int, ...]

    def __post_init__(self) -> None:
        if self.rows < 1 or self.cols < 1:
            raise ValueError(f"board size must be positive, not {self.rows}x{self.cols}")
        if len(self.cells) != self.rows * self.cols:
            raise ValueError(
                f"{self.rows}x{self.cols} board needs {self.rows * self.cols} cells, "
                f"got {len(self.cells)}"
            )
        for value in self.cells:
            if not EMPTY <= value <= MAX_VALUE:
                raise ValueError(f"cell value must be 0..{MAX_VALUE}, not {value}")

    @classmethod
    def empty(cls, rows: int, cols: int) -> Board:
        return cls(rows, cols, (EMPTY,) * (rows * cols))

    @classmethod
    def from_rows(cls, rows: Iterable[str]) -> Board:
        """Build from strings of ``.1234`` (no validation messages: see ``levels``)."""
        lines = list(rows)
        return cls(len(lines), len(lines[0]), tuple(SYMBOLS.index(ch) for ln in lines for ch in ln))

    def index(self, cell: Cell) -> int:
        row, col = cell
        if not (1 <= row <= self.rows and 1 <= col <= self.cols):
            raise RuleError(f"cell {row} {col} is outside the {self.rows}x{self.cols} board")
        return (row - 1) * self.cols + (col - 1)

    def __getitem__(self, cell: Cell) -> int:
        return self.cells[self.index(cell)]

    def neighbours(self, cell: Cell) -> Iterator[Cell]:
        """Orthogonal neighbours inside the board, in the order up, down, left, right."""
        row, col = cell
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            r, c = row + dr, col + dc
            if 1 <= r <= self.rows and 1 <= c <= self.cols:
                yield (r, c)

    def stones(self) -> Iterator[Cell]:
        """Every cell holding a stone, row-major."""
        for i, value in enumerate(self.cells):
            if value != EMPTY:
                yield (i // self.cols + 1, i % self.cols + 1)

    @property
    def stone_count(self) -> int:
        return sum(1 for v in self.cells if v != EMPTY)

    def rows_text(self) -> list[str]:
        return [
            "".join(SYMBOLS[v] for v in self.cells[r * self.cols : (r + 1) * self.cols])
            for r in range(self.rows)
        ]

    def __str__(self) -> str:
        return "\n".join(self.rows_text())


def bump(value: int, step: int = 1) -> int:
    """A stone value moved ``step`` places round the cycle 1 -> 2 -> 3 -> 4 -> 1."""
    return (value - 1 + step) % MAX_VALUE + 1


def act(board: Board, cell: Cell) -> Board:
    """Place a stone on the empty ``cell``: it shows 1, stone neighbours go up by one."""
    cells = list(board.cells)
    i = board.index(cell)
    if cells[i] != EMPTY:
        raise RuleError(f"cell {cell[0]} {cell[1]} already holds a stone")
    cells[i] = 1
    for n in board.neighbours(cell):
        j = board.index(n)
        if cells[j] != EMPTY:
            cells[j] = bump(cells[j])
    return Board(board.rows, board.cols, tuple(cells))


def undo(board: Board, cell: Cell) -> Board:
    """Take back a stone showing 1 (the last one placed): stone neighbours go down by one."""
    cells = list(board.cells)
    i = board.index(cell)
    if cells[i] != 1:
        raise RuleError(f"cell {cell[0]} {cell[1]} does not show 1, so it cannot be taken back")
    cells[i] = EMPTY
    for n in board.neighbours(cell):
        j = board.index(n)
        if cells[j] != EMPTY:
            cells[j] = bump(cells[j], -1)
    return Board(board.rows, board.cols, tuple(cells))


def play(board: Board, plan: Iterable[Cell]) -> Board:
    """The board after acting on every cell of ``plan`` in order.

    Same rules and errors as repeated ``act``, but simulated on one mutable list so a
    whole plan costs time linear in its length rather than in length x board size.
    """
    rows, cols = board.rows, board.cols
    cells = list(board.cells)
    for cell in plan:
        i = board.index(cell)
        if cells[i] != EMPTY:
            raise RuleError(f"cell {cell[0]} {cell[1]} already holds a stone")
        cells[i] = 1
        row, col = cell
        for j, inside in (
            (i - cols, row > 1),
            (i + cols, row < rows),
            (i - 1, col > 1),
            (i + 1, col < cols),
        ):
            if inside and cells[j] != EMPTY:
                cells[j] = cells[j] % MAX_VALUE + 1
    return Board(rows, cols, tuple(cells))
