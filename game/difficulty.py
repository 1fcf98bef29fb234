"""How hard a target is: the "which goes first" decisions it forces.

Every pair of touching stones is a decision: which of the two was placed
first (the earlier one counts the later one, so it shows one more). A
stone's value gives some decisions away: a stone showing 1 with fewer than
four stone neighbours went after all of them, a stone showing 1 + its number
of stone neighbours went before all of them (a 1 with four neighbours went
first or last: the value does not say which). A pair is *open* when neither
of its stones gives its order away. The level's *forced* decisions are the
open pairs less log2 of its number of solutions: the bits a player must work
out, since each solution leaves that many open choices free.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from logo_bot.solvers import planner
from logo_bot.solvers.board import Board, Cell

SOLUTION_LIMIT = 1 << 20


@dataclass(frozen=True)
class Difficulty:
    stones: int
    pairs: int
    open: int
    solutions: int

    @property
    def forced(self) -> float:
        return self.open - math.log2(self.solutions) if self.solutions else float(self.open)


class StoneSet:
    """A fixed set of stone cells: its touching pairs, for fast open-pair counts by order."""

    def __init__(self, cells: Sequence[Cell]) -> None:
        self.cells = tuple(cells)
        index = {cell: k for k, cell in enumerate(self.cells)}
        self.nbrs: list[list[int]] = []
        for r, c in self.cells:
            around = ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
            self.nbrs.append([index[n] for n in around if n in index])
        self.pairs = [(a, b) for a, ns in enumerate(self.nbrs) for b in ns if a < b]

    def open_pairs(self, order: Sequence[int]) -> int:
        """Open pairs of the target reached by placing stones (indices) in ``order``."""
        position = [0] * len(self.cells)
        for p, k in enumerate(order):
            position[k] = p
        tells = []
        for k, ns in enumerate(self.nbrs):
            later = sum(1 for n in ns if position[n] > position[k])
            tells.append(len(ns) < 4 and (later == 0 or later == len(ns)))
        return sum(1 for a, b in self.pairs if not tells[a] and not tells[b])


def pair_counts(target: Board) -> tuple[int, int]:
    """``(pairs, open)``: touching pairs of stones, and those no value gives away."""
    tells: dict[Cell, bool] = {}
    degree: dict[Cell, int] = {}
    for cell in target.stones():
        degree[cell] = sum(1 for n in target.neighbours(cell) if target[n])
        later = target[cell] - 1
        tells[cell] = degree[cell] < 4 and (later == 0 or later == degree[cell])
    pairs = opened = 0
    for cell in target.stones():
        for n in target.neighbours(cell):
            if target[n] and cell < n:
                pairs += 1
                opened += not tells[cell] and not tells[n]
    return pairs, opened


def measure(target: Board) -> Difficulty:
    pairs, opened = pair_counts(target)
    solutions = planner.count_solutions(target, limit=SOLUTION_LIMIT)
    return Difficulty(target.stone_count, pairs, opened, solutions)
