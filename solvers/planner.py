"""The backward planner: a plan for every solvable target, a reason for every other.

``solve`` returns a ``Verdict``: a plan (first move first) verified by forward
simulation, or a sentence saying why no plan exists. ``solutions`` yields one verified
plan per distinct solution (a distinct choice of which neighbour goes first, edge by
edge); ``count_solutions`` counts them. See ``solvers.stones`` for the model, and
``solvers.peel`` for the forced moves that decide most targets before it is built.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import cast

from logo_bot.solvers.board import MAX_VALUE, Board, Cell, RuleError, play
from logo_bot.solvers.groups import components
from logo_bot.solvers.peel import Stalled, peel
from logo_bot.solvers.propagation import BACK, FRONT, UNDECIDED, State, decide, propagate, start
from logo_bot.solvers.reasons import explain
from logo_bot.solvers.search import Bits, Search
from logo_bot.solvers.stones import Shape, StoneGraph, shape, stone_graph


class PlanError(ValueError):
    """A plan that does not build the target."""


class Unsolvable(ValueError):
    """A target that no plan builds; ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


class Verdict:
    """A verified ``plan`` (first move first), or the ``reason`` there is none.

    The reason may be given as ``explain``, a function that writes it: the sentence is
    then written the first time ``reason`` is read, so deciding costs no words.
    """

    __slots__ = ("_explain", "_reason", "plan")

    def __init__(
        self,
        plan: tuple[Cell, ...] | None,
        reason: str | None = None,
        explain: Callable[[], str] | None = None,
    ) -> None:
        self.plan = plan
        self._reason = reason
        self._explain = explain

    @property
    def reason(self) -> str | None:
        if self._reason is None and self._explain is not None:
            self._reason = self._explain()
            self._explain = None
        return self._reason

    @property
    def solved(self) -> bool:
        return self.plan is not None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Verdict):
            return NotImplemented
        return (self.plan, self.reason) == (other.plan, other.reason)

    def __hash__(self) -> int:
        return hash((self.plan, self.reason))

    def __repr__(self) -> str:
        return f"Verdict(plan={self.plan!r}, reason={self.reason!r})"


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


def builds(adj: Sequence[tuple[int, ...]], value: bytes, order: list[int]) -> bool:
    """Whether acting on the positions of ``order`` in turn, by the game's rule, gives the
    padded-grid ``value``: a forward simulation with the grid's neighbour table ``adj``,
    independent of how the plan was found."""
    cells = bytearray(len(value))
    for p in order:
        if cells[p]:
            return False
        cells[p] = 1
        for q in adj[p]:
            x = cells[q]
            if x:
                cells[q] = x % MAX_VALUE + 1
    return cells == value


def _checked(target: Board, sh: Shape, value: bytes, order: list[int]) -> tuple[Cell, ...]:
    """The plan of ``order`` once forward simulation confirms it builds the target."""
    # a stone's position is never padding: each has its cell
    plan = cast("tuple[Cell, ...]", tuple(map(sh.cell_of.__getitem__, order)))
    if not builds(sh.adj, value, order):
        verify(target, plan)
        raise PlanError("the plan does not build the target")
    return plan


def plan_order(g: StoneGraph, st: State, trail: list[int], more: Bits) -> list[int]:
    """The order of a solution: ``st`` is a propagated state whose settled stones are
    ``trail`` (those on each side in the order they settled), ``more`` the bits of its
    undecided clusters.

    With every cluster decided, forced moves settle every stone (the last stone of any
    solution of what is open always has nothing left to need), so the plan is the
    stones moved to the front in turn, then those moved to the back, last one first.
    """
    if st.open_mask:
        st = st.copy()
        trail = trail[:]
        queue: list[int] = []
        for c, b in more.items():
            if st.bits[c] == UNDECIDED:
                decide(g, st, c, b, queue, 0)
        if propagate(g, st, queue, trail) is not None or st.open_mask:
            raise AssertionError("cluster bits without a solution reached plan_order")
    where = st.where
    front = [v for v in trail if where[v] == FRONT]
    back = [v for v in trail if where[v] == BACK]
    back.reverse()
    return front + back


def solutions(target: Board, limit: int | None = None) -> Iterator[tuple[Cell, ...]]:
    """One verified plan per distinct solution, at most ``limit`` of them."""
    if limit is not None and limit <= 0:
        return
    g = stone_graph(target)
    trail: list[int] = []
    st, conflict = start(g, trail)
    if conflict is not None:
        return
    search = Search(g, limit=1)
    found = search.enumerate_groups(st, components(g, st, g.all_mask))
    for produced, more in enumerate(found, start=1):
        yield _checked(target, g.shape, g.value, plan_order(g, st, trail, more))
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
    sh = shape(target.rows, target.cols)
    value = sh.padded(target)
    peeled = peel(sh, value)
    if peeled is None:
        return Verdict(None, explain=lambda: explain(target))
    if isinstance(peeled, Stalled):
        return _search(target, peeled)
    return Verdict(_checked(target, sh, value, peeled))


def _search(target: Board, stalled: Stalled) -> Verdict:
    """``solve`` once forced moves have stalled: the search over cluster bits."""
    g = stone_graph(target)
    st = stalled.state()
    search = Search(g, limit=1)
    found = search.first(st, components(g, st, st.open_mask))
    if found is None:
        return Verdict(None, explain=lambda: explain(target, search))
    return Verdict(_checked(target, g.shape, g.value, plan_order(g, st, stalled.settled, found)))
