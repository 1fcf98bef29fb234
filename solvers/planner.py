"""The backward planner: a plan for every solvable target, a reason for every other.

``solve`` returns a ``Verdict``: a plan (first move first) verified by forward
simulation, or a sentence saying why no plan exists. ``solutions`` yields one verified
plan per distinct solution (a distinct choice of which neighbour goes first, edge by
edge); ``count_solutions`` counts them. See ``solvers.stones`` for the model.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from solvers.board import Board, Cell, RuleError, play
from solvers.groups import components
from solvers.propagation import UNDECIDED, start
from solvers.reasons import explain
from solvers.search import Bits, Search
from solvers.stones import StoneGraph, stone_graph


class PlanError(ValueError):
    """A plan that does not build the target."""


class Unsolvable(ValueError):
    """A target that no plan builds; ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


@dataclass(frozen=True)
class Verdict:
    """A verified ``plan`` (first move first), or the ``reason`` there is none."""

    plan: tuple[Cell, ...] | None
    reason: str | None = None

    @property
    def solved(self) -> bool:
        return self.plan is not None


def verify(target: Board, plan: Iterable[Cell]) -> None:
    """Raise ``PlanError`` unless ``plan`` played on an empty board gives ``target``."""
    moves = list(plan)
    try:
        board = play(Board.empty(target.rows, target.cols), moves)
    except RuleError as exc:
        raise PlanError(f"the plan breaks the rules: {exc}") from None
    if board != target:
        wrong = [
            (r, c)
            for r in range(1, target.rows + 1)
            for c in range(1, target.cols + 1)
            if board[(r, c)] != target[(r, c)]
        ]
        shown = ", ".join(f"{r} {c}" for r, c in wrong[:5])
        more = f" and {len(wrong) - 5} more" if len(wrong) > 5 else ""
        raise PlanError(
            f"the plan's {len(moves)} moves leave {len(wrong)} cell(s) different from "
            f"the target: {shown}{more}"
        )


def plan_for(g: StoneGraph, bits: tuple[int, ...]) -> tuple[Cell, ...]:
    """The order given by a solution's cluster bits: peel off stones that need nothing."""
    need = g.needs(bits)
    nbrs = g.nbrs
    gone = [False] * g.n
    ready = [v for v in range(g.n) if need[v] == 0]
    backwards: list[int] = []
    while ready:
        v = ready.pop()
        if gone[v] or need[v] != 0:
            continue
        gone[v] = True
        backwards.append(v)
        for u in nbrs[v]:
            if not gone[u]:
                need[u] -= 1
                if need[u] == 0:
                    ready.append(u)
    if len(backwards) != g.n:
        raise AssertionError("cluster bits without a solution reached plan_for")
    return tuple(g.cells[v] for v in reversed(backwards))


def _verified(target: Board, plan: tuple[Cell, ...]) -> tuple[Cell, ...]:
    verify(target, plan)
    return plan


def _all_bits(g: StoneGraph, decided: list[int], more: Bits) -> tuple[int, ...]:
    bits = list(decided)
    for c, b in more.items():
        bits[c] = b
    if UNDECIDED in bits:
        raise AssertionError("a solution left a cluster undecided")
    return tuple(bits)


def solutions(target: Board, limit: int | None = None) -> Iterator[tuple[Cell, ...]]:
    """One verified plan per distinct solution, at most ``limit`` of them."""
    if limit is not None and limit <= 0:
        return
    g = stone_graph(target)
    st, conflict = start(g)
    if conflict is not None:
        return
    search = Search(g, limit=1)
    found = search.enumerate_groups(st, components(g, st, g.all_mask))
    for produced, more in enumerate(found, start=1):
        yield _verified(target, plan_for(g, _all_bits(g, st.bits, more)))
        if produced == limit:
            return


def count_solutions(target: Board, limit: int | None = None) -> int:
    """The number of distinct solutions, or ``limit`` when there are at least that many."""
    g = stone_graph(target)
    st, conflict = start(g)
    if conflict is not None:
        return 0
    search = Search(g, limit=limit)
    return search.count_groups(st, components(g, st, g.all_mask))[0]


def solve(target: Board) -> Verdict:
    """A verified plan for ``target``, or the reason no plan exists."""
    g = stone_graph(target)
    search = Search(g, limit=1)
    st, conflict = start(g)
    if conflict is None:
        found = search.first(st, components(g, st, g.all_mask))
        if found is not None:
            return Verdict(_verified(target, plan_for(g, _all_bits(g, st.bits, found))))
    return Verdict(None, explain(target, search))
