"""Cursor distances between the stones of one target, and from the start cell.

Stones are numbered as in ``StoneGraph``; sets of them are bit masks (bit v for v).
"""

from __future__ import annotations

from logo_bot.solvers.board import Cell
from logo_bot.solvers.cursor import steps
from logo_bot.solvers.numbered import Numbered

FAR = 1 << 30


class Tour:
    """``dist[a][b]``: cursor steps from stone a to stone b; ``from_start[b]``: from the
    start cell to stone b."""

    def __init__(self, g: Numbered, start: Cell, wrap: bool) -> None:
        size = (g.g.board.rows, g.g.board.cols)
        self.n = g.n
        self.full = (1 << g.n) - 1
        self.dist = [[steps(a, b, wrap, size) for b in g.cells] for a in g.cells]
        self.from_start = [steps(start, b, wrap, size) for b in g.cells]

    def leg(self, last: int, v: int) -> int:
        """Presses to move from stone ``last`` (-1: the start cell) to ``v`` and act."""
        return (self.from_start[v] if last < 0 else self.dist[last][v]) + 1
