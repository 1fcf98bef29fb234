"""Keypresses of different orders of the same targets.

- reading order: the stones in row-major order as far as the solution allows
  (each stone waits only for the touching stones that must go before it);
- the published search's plan, where it found one within its cap;
- ``fewest_presses``: the order needing fewest key presses (cursor moves and
  actions), with a lower bound proving how close it is.
"""

from __future__ import annotations

import heapq
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from benchmarks.measure import plan_reaches
from logo_bot.solvers import order
from logo_bot.solvers.board import Board, Cell

START: Cell = (1, 1)


def reading_order(plan: tuple[Cell, ...]) -> tuple[Cell, ...]:
    """The same solution as ``plan`` (every touching pair in the same order), taking at
    each step the first stone in row-major order that nothing still to come must precede."""
    position = {cell: k for k, cell in enumerate(plan)}
    waits = {cell: 0 for cell in plan}
    for cell in plan:
        r, c = cell
        for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if n in position and position[n] < position[cell]:
                waits[cell] += 1
    ready = [cell for cell in plan if waits[cell] == 0]
    heapq.heapify(ready)
    out: list[Cell] = []
    while ready:
        cell = heapq.heappop(ready)
        out.append(cell)
        r, c = cell
        for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if n in position and position[n] > position[cell]:
                waits[n] -= 1
                if waits[n] == 0:
                    heapq.heappush(ready, n)
    return tuple(out)


@dataclass
class PressTotals:
    boards: int = 0
    reading: int = 0
    fewest: int = 0
    lower_bound: int = 0
    optimal: int = 0
    wrong: int = 0
    published_boards: int = 0
    published: int = 0
    fewest_where_published: int = 0
    seconds: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.seconds) if self.seconds else float("nan")

    @property
    def worst(self) -> float:
        return max(self.seconds) if self.seconds else float("nan")


def compare(
    targets: list[Board],
    published_plans: list[tuple[Cell, ...] | None],
    our_plans: list[tuple[Cell, ...] | None],
    budget_s: float,
    tick: Callable[[], None],
) -> PressTotals:
    """Totals over the targets; the published search's only over those it solved."""
    totals = PressTotals()
    for target, theirs, mine in zip(targets, published_plans, our_plans, strict=True):
        tick()
        if mine is None:
            totals.wrong += 1
            continue
        begin = time.perf_counter()
        best = order.fewest_presses(target, start=START, wrap=False, budget_s=budget_s)
        totals.seconds.append(time.perf_counter() - begin)
        reading = reading_order(mine)
        totals.boards += 1
        totals.reading += order.presses_of(reading, START, False)
        totals.fewest += best.presses
        totals.lower_bound += best.lower_bound
        totals.optimal += bool(best.optimal)
        if theirs is not None:
            totals.published_boards += 1
            totals.published += order.presses_of(theirs, START, False)
            totals.fewest_where_published += best.presses
        if (
            not plan_reaches(target, best.plan)
            or not plan_reaches(target, reading)
            or order.presses_of(best.plan, START, False) != best.presses
            or best.lower_bound > best.presses
        ):
            totals.wrong += 1
    return totals
