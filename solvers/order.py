"""The order of moves that needs the fewest key presses.

Among all valid plans (every solution and every order of it), ``fewest_presses``
searches for one whose cursor path costs the fewest presses (see ``solvers.cursor``).

The moves allowed at each point come from ``solvers.precedence``: each listed solution's
fixed orientation when the target has few solutions, the forward rule checked by the
planner when it has many. The first plans come from a greedy walk, a walk guided by the
assignment bound, and local search (``solvers.improve``). Then two A* searches
(``solvers.sequence``), one growing plans from their start and one from their end, run
side by side until one of them proves the best plan found so far needs the fewest
presses; the one whose bound is higher takes more turns. Each time the proven bound
rises, short depth-first probes look for a plan that meets it; between rises they take
a small share of the work, half of it looking for any plan better than the best.

A bound proven beforehand (``proven``: a level file's fewest presses, which its
generator proved) ends the search as soon as a plan meets it, with no proof of its own.

The work is bounded by ``budget_s`` seconds and, independently of the machine's speed,
by ``max_nodes`` search nodes; when either runs out, the best plan so far, after more
rounds of local search, comes back with the lower bound proven so far.
"""

from __future__ import annotations

import gc
import time
from dataclasses import dataclass

from logo_bot.solvers.assignment import Assignment
from logo_bot.solvers.board import Board, Cell
from logo_bot.solvers.cursor import DEFAULT_KEYS, GAME_SIZE, keys_for, presses_of
from logo_bot.solvers.improve import improve
from logo_bot.solvers.numbered import Numbered
from logo_bot.solvers.planner import Unsolvable, count_solutions, solutions, solve, verify
from logo_bot.solvers.precedence import ForwardRule, Orientations, Rules
from logo_bot.solvers.sequence import BACKWARD, FORWARD, Frontier, Incumbent, Prober, cost_matrix
from logo_bot.solvers.stones import stone_graph
from logo_bot.solvers.tour import Tour

__all__ = ["DEFAULT_KEYS", "GAME_SIZE", "Ordering", "fewest_presses", "keys_for", "presses_of"]

# Up to this many solutions, moves follow each solution's fixed orientation.
MAX_ORIENTATIONS = 64
# Nodes the probing dives take in each turn, and when the proven bound has just risen.
PROBE_NODES = 100
NEW_BOUND_PROBE_NODES = 1000
# Beyond this many stones the assignment bound costs too much: greedy order only.
MAX_SEARCH_STONES = 80
# Rounds of kicks and descents after the local search's first descent: none on the
# first plans, as the searches find better plans sooner than more rounds do (the 100
# practice levels: 12 % less CPU than with 5 rounds, the same presses and bounds);
# these on the best plan of a search that ran out of budget.
IMPROVE_ROUNDS = 5
# Nodes each A* search takes in turn.
TURN = 32
# Besides a first try at each new bound, the dives may take this many nodes for each
# node the A* searches take.
PROBE_SHARE = 0.25
# The search whose bound is higher takes this many turns for each of the other's.
LEAD_TURNS = 4
# Seconds it takes to free one queued partial plan when the search ends (measured at
# about 0.6 to 1.1 microseconds): kept back from the time budget.
FREE_S = 1.0e-6


@dataclass(frozen=True)
class Ordering:
    """A plan, its key presses, a proven lower bound on any plan's presses, and whether
    the plan is proven to need the fewest presses (``presses == lower_bound``)."""

    plan: tuple[Cell, ...]
    presses: int
    lower_bound: int
    optimal: bool


def _greedy(rules: Rules, tour: Tour) -> list[int]:
    """Always the nearest stone that may be placed next."""
    placed, fit, last, order = 0, rules.all_fit, -1, []
    while placed != tour.full:
        _, v, fit = min((tour.leg(last, v), v, kept) for v, kept in rules.fronts(placed, 0, fit))
        order.append(v)
        placed |= 1 << v
        last = v
    return order


def _dive(rules: Rules, tour: Tour, root: Assignment) -> list[int]:
    """A plan that always takes the move whose assignment bound is lowest."""
    n = rules.n
    placed, fit, last, order, ap = 0, rules.all_fit, -1, [], root
    while placed != tour.full:
        row = n if last < 0 else last
        options = []
        for v, kept in rules.fronts(placed, 0, fit):
            leg = tour.leg(last, v)
            options.append((leg + ap.bound_without(row, v), leg, v, kept))
        _, _, v, fit = min(options)
        ap = ap.without(row, v)
        order.append(v)
        placed |= 1 << v
        last = v
    return order


def _polished(rules: Rules, tour: Tour, order: list[int], rounds: int) -> list[int]:
    """``order`` after local search within its own solution (a descent, then ``rounds``
    rounds of kicks and descents)."""
    parents = rules.parents_of(order)
    children = [0] * rules.n
    for v, up in enumerate(parents):
        for u in range(rules.n):
            if up >> u & 1:
                children[u] |= 1 << v
    return improve(order, tour.dist, tour.from_start, parents, children, rounds)


class _Budget:
    """Seconds and search nodes left; None means no limit. ``reserve`` seconds are kept
    back for what follows the search (freeing its queues)."""

    def __init__(self, seconds: float | None, nodes: int | None) -> None:
        self.end = None if seconds is None else time.perf_counter() + seconds
        self.nodes = nodes
        self.reserve = 0.0

    @property
    def deadline(self) -> float | None:
        return None if self.end is None else self.end - self.reserve

    def spent(self, nodes: int) -> bool:
        if self.nodes is not None and nodes >= self.nodes:
            return True
        deadline = self.deadline
        return deadline is not None and time.perf_counter() > deadline


def _search(
    rules: Rules,
    tour: Tour,
    root: Assignment,
    cost: list[list[int]],
    best: Incumbent,
    budget: _Budget,
    proven: int = 0,
) -> int:
    """Run the searches and the dives in turns until the incumbent is proven (or meets
    ``proven``) or the budget is spent; returns the lower bound proven on every plan."""
    searches = [Frontier(rules, cost, root, d, best) for d in (FORWARD, BACKWARD)]
    prober = Prober(rules, cost, root)
    probed, rounds = -1, 0
    while True:
        own = max(s.lower for s in searches)  # the searches' own bound
        lower = max(proven, own)
        if lower >= best.presses:
            return best.presses
        searched = sum(s.nodes for s in searches)
        budget.reserve = FREE_S * sum(len(s.heap) for s in searches)
        if budget.spent(prober.nodes + searched):
            return lower
        rounds += 1
        if own > probed or prober.nodes < PROBE_SHARE * searched:
            # A plan that meets a new bound ends the search; between bounds, every
            # other dive looks for any better plan, which prunes the searches. (With a
            # bound proven beforehand, each rise of their own starts a longer dive.)
            risen = own > probed
            limit = lower if risen or rounds % 2 else best.presses - 1
            probed = own
            found = prober.run(
                limit, NEW_BOUND_PROBE_NODES if risen else PROBE_NODES, budget.deadline
            )
            if found is not None:
                best.offer(found, rules.n + _steps(tour, found))
                continue
        for s in searches:
            s.run(TURN * (LEAD_TURNS if s.lower == own else 1), budget.deadline)


def _steps(tour: Tour, order: list[int]) -> int:
    steps, last = 0, -1
    for v in order:
        steps += tour.leg(last, v) - 1
        last = v
    return steps


def fewest_presses(
    target: Board,
    start: Cell = (1, 1),
    wrap: bool = False,
    budget_s: float | None = 1.0,
    max_nodes: int | None = None,
    proven: int = 0,
) -> Ordering:
    """The valid plan with the fewest key presses found within ``budget_s`` seconds and
    ``max_nodes`` search nodes (None: no limit), verified by forward simulation.
    ``proven``: a lower bound on the presses proven beforehand for this target and
    start (0: none); a plan that meets it ends the search.

    Raises ``Unsolvable`` when the target has no plan at all. The cyclic garbage
    collector is paused meanwhile: the search makes no reference cycles, and its
    collections of the queued plans would take about a third of the time.
    """
    paused = gc.isenabled()
    gc.disable()
    try:
        return _fewest_presses(target, start, wrap, budget_s, max_nodes, proven)
    finally:
        if paused:
            gc.enable()


def _fewest_presses(
    target: Board,
    start: Cell,
    wrap: bool,
    budget_s: float | None,
    max_nodes: int | None,
    proven: int = 0,
) -> Ordering:
    budget = _Budget(budget_s, max_nodes)
    if not (1 <= start[0] <= target.rows and 1 <= start[1] <= target.cols):
        raise ValueError(
            f"the cursor start {start[0]},{start[1]} is outside the "
            f"{target.rows}x{target.cols} board"
        )
    verdict = solve(target)
    if verdict.plan is None:
        raise Unsolvable(verdict.reason or "the target has no plan")
    stones = Numbered(stone_graph(target))
    n = stones.n
    if n == 0:
        return Ordering((), 0, 0, True)
    few = count_solutions(target, limit=MAX_ORIENTATIONS + 1) <= MAX_ORIENTATIONS
    rules: Rules = Orientations(stones, list(solutions(target))) if few else ForwardRule(stones)
    tour = Tour(stones, start, wrap)

    def cost(order: list[int]) -> int:
        return n + _steps(tour, order)

    planned = [stones.index[c] for c in verdict.plan]
    best = min((_greedy(rules, tour), planned), key=cost)
    # Every stone needs its action, and every one after the first at least one step.
    lower = max(2 * n - 1 + min(tour.from_start), proven)
    if n <= MAX_SEARCH_STONES and lower < cost(best):
        matrix = cost_matrix(rules, tour.dist, tour.from_start)
        everything = list(range(n))
        root = Assignment(matrix, [n, *everything], [*everything, n])
        lower = max(n + root.value, proven)
        best = min((best, _dive(rules, tour, root)), key=cost)
        if lower < cost(best):
            best = min((best, _polished(rules, tour, best, 0)), key=cost)
        incumbent = Incumbent(best, cost(best))
        if lower < incumbent.presses:
            lower = _search(rules, tour, root, matrix, incumbent, budget, proven)
        best = incumbent.plan
        if lower < cost(best):
            best = min((best, _polished(rules, tour, best, IMPROVE_ROUNDS)), key=cost)
    upper = cost(best)
    lower = min(lower, upper)
    plan = tuple(stones.cells[v] for v in best)
    verify(target, plan)
    return Ordering(plan, upper, lower, lower == upper)
