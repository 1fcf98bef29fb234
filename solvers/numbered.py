"""The stones of a target numbered 0..n-1 in row-major order.

The planner names stones by their positions on a padded grid (``solvers.stones``); the
ordering searches keep sets of stones as masks over small consecutive numbers instead
(bit k for stone k), which this view provides.
"""

from __future__ import annotations

from logo_bot.solvers.board import Cell
from logo_bot.solvers.stones import StoneGraph


class Numbered:
    """``pos[k]``: stone k's position in ``g``; ``cells``, ``index`` (cell -> k) and
    ``nbrs`` (neighbouring stones, up, down, left, right) in stone numbers."""

    def __init__(self, g: StoneGraph) -> None:
        self.g = g
        self.n = g.n
        self.pos = g.stones
        number = {p: k for k, p in enumerate(self.pos)}
        self.number = number
        self.cells: list[Cell] = [g.cell(p) for p in self.pos]
        self.index = {cell: k for k, cell in enumerate(self.cells)}
        self.nbrs = [tuple(number[u] for u in g.nbrs(p)) for p in self.pos]
