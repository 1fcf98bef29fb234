"""The order of moves that needs the fewest key presses.

Among all valid plans (every solution and every order of it), ``fewest_presses``
searches for one whose cursor path costs the fewest presses (see ``solvers.cursor``).

It plays forwards with A* over (stones placed, cursor stone). When the target has few
solutions, each is a fixed orientation of the edges and a stone may be placed once the
neighbours it orients before it are placed; with many, moves follow the forward rule of
``solvers.residual`` and partial plans the planner proves unfinishable are dropped.

The bound on what is left is an assignment relaxation (``solvers.assignment``): every
stone still to place gets a predecessor move (the cursor stone or another stone left)
and pays the cursor steps from it. A pair is allowed only if some solution could place
the two one right after the other: never a stone after one it must precede, never a
step against the orientation of the edge between neighbours, the first move only on a
stone that can go first, the last only on one that can go last. Children are bounded
from their parent's potentials and solved exactly only when taken out of the queue;
each time the bound rises, a short depth-first probe looks for a plan that meets it.

Greedy plans give the first upper bound; when the time budget runs out, the best plan
so far comes back with the lower bound proven so far.
"""

from __future__ import annotations

import heapq
import time
from dataclasses import dataclass
from itertools import count

from solvers.assignment import INFINITE, Assignment
from solvers.board import Board, Cell
from solvers.cursor import DEFAULT_KEYS, GAME_SIZE, keys_for, presses_of
from solvers.numbered import Numbered
from solvers.planner import Unsolvable, count_solutions, solutions, solve, verify
from solvers.residual import Completion
from solvers.stones import stone_graph
from solvers.tour import FAR, Tour

__all__ = ["DEFAULT_KEYS", "GAME_SIZE", "Ordering", "fewest_presses", "keys_for", "presses_of"]

# Up to this many solutions, moves follow each solution's fixed orientation.
MAX_ORIENTATIONS = 64
# Nodes a depth-first probe may visit each time the proven lower bound rises.
PROBE_NODES = 200
# Beyond this many stones the assignment bound costs too much: greedy order only.
MAX_SEARCH_STONES = 80


@dataclass(frozen=True)
class Ordering:
    """A plan, its key presses, a proven lower bound on any plan's presses, and whether
    the plan is proven to need the fewest presses (``presses == lower_bound``)."""

    plan: tuple[Cell, ...]
    presses: int
    lower_bound: int
    optimal: bool


class _Moves:
    """Which stone may be placed next. ``fit`` is a mask of the solutions (orientations)
    the placed stones still agree with; 0 means the move is not allowed."""

    def __init__(self, g: Numbered, plans: list[tuple[Cell, ...]] | None) -> None:
        self.g = g
        self.completion = None if plans is not None else Completion(g)
        self.before: list[list[int]] = []
        self.all_fit = 1
        if plans is not None:
            for plan in plans:
                when = {g.index[cell]: i for i, cell in enumerate(plan)}
                self.before.append(
                    [sum(1 << u for u in g.nbrs[v] if when[u] < when[v]) for v in range(g.n)]
                )
            self.all_fit = (1 << len(plans)) - 1

    def later(self) -> list[int] | None:
        """For each stone, the neighbours some solution places after it (None: unknown)."""
        if self.completion is not None:
            return None
        out = [0] * self.g.n
        for before in self.before:
            for v in range(self.g.n):
                for u in self.g.nbrs[v]:
                    if before[u] >> v & 1:
                        out[v] |= 1 << u
        return out

    def options(self, placed: int, fit: int) -> list[tuple[int, int]]:
        """Every stone that may be placed next, with the solutions that allow it."""
        n = self.g.n
        if len(self.before) == 1:
            before = self.before[0]
            return [(v, 1) for v in range(n) if not placed >> v & 1 and not before[v] & ~placed]
        found = []
        for v in range(n):
            if not placed >> v & 1:
                kept = self.after(placed, fit, v)
                if kept:
                    found.append((v, kept))
        return found

    def after(self, placed: int, fit: int, v: int) -> int:
        if self.completion is not None:
            done = self.completion
            ok = done.placeable(placed, v) and done.ok(placed | 1 << v)
            return fit if ok else 0
        kept = 0
        rest = fit
        while rest:
            low = rest & -rest
            rest ^= low
            if not self.before[low.bit_length() - 1][v] & ~placed:
                kept |= low
        return kept


def _greedy(g: Numbered, tour: Tour, moves: _Moves) -> list[int]:
    """Always the nearest stone that may be placed next."""
    placed, fit, last, order = 0, moves.all_fit, -1, []
    while placed != tour.full:
        options = [(tour.leg(last, v), v, kept) for v, kept in moves.options(placed, fit)]
        _, v, fit = min(options)
        order.append(v)
        placed |= 1 << v
        last = v
    return order


def _dive(g: Numbered, tour: Tour, moves: _Moves, ap: Assignment) -> list[int]:
    """A plan that always takes the move whose assignment bound is lowest."""
    placed, fit, last, order = 0, moves.all_fit, -1, []
    while placed != tour.full:
        row = g.n if last < 0 else last
        options = []
        for v, kept in moves.options(placed, fit):
            leg = tour.leg(last, v)
            options.append((leg + ap.bound_without(row, v), leg, v, kept))
        _, _, v, fit = min(options)
        ap = ap.without(row, v)
        order.append(v)
        placed |= 1 << v
        last = v
    return order


def _ancestors(before: list[int]) -> list[int]:
    """For each stone, every stone a solution places before it (transitively)."""
    n = len(before)
    order = sorted(range(n), key=lambda v: before[v].bit_count())
    done = [0] * n
    finished = [False] * n

    def close(v: int) -> int:
        if finished[v]:
            return done[v]
        mask, todo = before[v], before[v]
        while todo:
            low = todo & -todo
            todo ^= low
            mask |= close(low.bit_length() - 1)
        done[v], finished[v] = mask, True
        return mask

    for v in order:
        close(v)
    return done


def _costs(g: Numbered, tour: Tour, moves: _Moves) -> list[list[int]]:
    """Travel between consecutive moves for the assignment bound, INFINITE where no valid
    plan can have the pair (rows: stones then the start cell; columns: stones then end)."""
    n = g.n
    first_ok = [True] * n
    last_ok = [True] * n
    forbidden = [0] * n
    later = moves.later()
    if later is not None:
        ancestors = [_ancestors(before) for before in moves.before]
        first_ok = [any(before[v] == 0 for before in moves.before) for v in range(n)]
        last_ok = [
            any(not any(b[u] >> v & 1 for u in g.nbrs[v]) for b in moves.before) for v in range(n)
        ]
        for v in range(n):
            common = ancestors[0][v]
            for anc in ancestors[1:]:
                common &= anc[v]
            wrong_way = sum(1 << u for u in g.nbrs[v] if not later[v] >> u & 1)
            forbidden[v] = common | wrong_way | 1 << v
    cost = [[INFINITE] * (n + 1) for _ in range(n + 1)]
    for v in range(n):
        row = cost[v]
        for u in range(n):
            if not forbidden[v] >> u & 1 and u != v:
                row[u] = tour.dist[v][u]
        row[n] = 0 if last_ok[v] else INFINITE
        cost[n][v] = tour.from_start[v] if first_ok[v] else INFINITE
    return cost


def _assigned_path(
    g: Numbered, moves: _Moves, placed: int, last: int, fit: int, ap: Assignment
) -> list[int] | None:
    """The assignment's moves from ``last`` when they form one valid order, else None."""
    n = g.n
    order: list[int] = []
    row = n if last < 0 else last
    while True:
        col = ap.col_of[row]
        if col == n:
            break
        fit = moves.after(placed, fit, col)
        if not fit:
            return None
        order.append(col)
        placed |= 1 << col
        row = col
    return order if placed == (1 << n) - 1 else None


def _probe(
    g: Numbered, tour: Tour, moves: _Moves, root: Assignment, limit: int, budget: int
) -> list[int] | None:
    """Depth first, best child first, for a plan of exactly ``limit`` presses (the
    proven lower bound, so such a plan is optimal); gives up after ``budget`` nodes."""
    n, full = g.n, tour.full
    seen: set[tuple[int, int]] = set()
    path: list[int] = []
    nodes = 0

    def visit(placed: int, last: int, spent: int, fit: int, ap: Assignment) -> list[int] | None:
        nonlocal nodes
        left = full & ~placed
        k = left.bit_count()
        if spent + k + ap.value > limit or (placed, last) in seen or nodes >= budget:
            return None
        if not left:
            return path[:]
        rest = _assigned_path(g, moves, placed, last, fit, ap)
        if rest is not None:
            return path + rest
        seen.add((placed, last))
        nodes += 1
        here = n if last < 0 else last
        legs = tour.from_start if last < 0 else tour.dist[last]
        base = spent + k + ap.value - ap.pot_row[here]
        children = []
        for v, kept in moves.options(placed, fit):
            bound = base + legs[v] - ap.pot_col[v]
            if bound <= limit:
                children.append((bound, legs[v], v, kept))
        children.sort()
        for _, leg, v, kept in children:
            path.append(v)
            found = visit(placed | 1 << v, v, spent + leg + 1, kept, ap.without(here, v))
            if found is not None:
                return found
            path.pop()
        return None

    return visit(0, -1, 0, moves.all_fit, root)


def _best_first(
    g: Numbered, tour: Tour, moves: _Moves, root: Assignment, upper: int, deadline: float
) -> tuple[list[int] | None, int]:
    """A* over (placed, cursor stone); returns (a plan cheaper than ``upper`` or None, and
    the lower bound proven on every plan). Children are queued with the cheap bound from
    their parent's potentials and get their exact assignment only when taken out."""
    n, full = g.n, tour.full
    lower = n + root.value
    tie = count()
    # Entries: (f, -spent, tie, placed, last, fit, assignment, parent row or None); with
    # a parent row the assignment is the parent's, still to drop that row and ``last``.
    heap: list = [(lower, 0, next(tie), 0, -1, moves.all_fit, root, None)]
    best: dict[tuple[int, int], int] = {(0, -1): 0}
    came: dict[tuple[int, int], tuple[int, int]] = {}
    probe = True
    while heap:
        f, neg, _, placed, last, fit, ap, row = heapq.heappop(heap)
        spent = -neg
        if best.get((placed, last), FAR) < spent:
            continue
        if f >= upper:
            return None, upper
        if f > lower or probe:
            probe = False
            found = _probe(g, tour, moves, root, f, PROBE_NODES)
            if found is not None:
                return found, f
        lower = max(lower, f)
        if time.perf_counter() > deadline:
            return None, lower
        left = full & ~placed
        k = left.bit_count()
        if row is not None:
            ap = ap.without(row, last)
            exact = spent + k + ap.value
            if exact > f:
                heapq.heappush(heap, (exact, neg, next(tie), placed, last, fit, ap, None))
                continue
        if not left:
            return _path(came, placed, last), f
        rest = _assigned_path(g, moves, placed, last, fit, ap)
        if rest is not None:
            return _path(came, placed, last) + rest, f
        here = n if last < 0 else last
        legs = tour.from_start if last < 0 else tour.dist[last]
        # bound_without(here, v), spelt out: this loop is the search's inner loop.
        base = spent + k + ap.value - ap.pot_row[here]
        pot_col = ap.pot_col
        for v, kept in moves.options(placed, fit):
            bound = base + legs[v] - pot_col[v]
            if bound >= upper:
                continue
            moved = spent + legs[v] + 1
            key = (placed | 1 << v, v)
            if best.get(key, FAR) <= moved:
                continue
            best[key] = moved
            came[key] = (placed, last)
            heapq.heappush(heap, (bound, -moved, next(tie), key[0], v, kept, ap, here))
    return None, upper


def fewest_presses(
    target: Board, start: Cell = (1, 1), wrap: bool = False, budget_s: float = 1.0
) -> Ordering:
    """The valid plan with the fewest key presses found within ``budget_s`` seconds,
    verified by forward simulation.

    Raises ``Unsolvable`` when the target has no plan at all.
    """
    deadline = time.perf_counter() + budget_s
    if not (1 <= start[0] <= target.rows and 1 <= start[1] <= target.cols):
        raise ValueError(
            f"the cursor start {start[0]},{start[1]} is outside the "
            f"{target.rows}x{target.cols} board"
        )
    verdict = solve(target)
    if verdict.plan is None:
        raise Unsolvable(verdict.reason or "the target has no plan")
    g = Numbered(stone_graph(target))
    if g.n == 0:
        return Ordering((), 0, 0, True)
    few = count_solutions(target, limit=MAX_ORIENTATIONS + 1) <= MAX_ORIENTATIONS
    moves = _Moves(g, list(solutions(target)) if few else None)
    tour = Tour(g, start, wrap)
    size = (target.rows, target.cols)

    def cost(order: list[int]) -> int:
        return presses_of([g.cells[v] for v in order], start, wrap, size)

    planned = [g.index[c] for c in verdict.plan]
    best = min((_greedy(g, tour, moves), planned), key=cost)
    upper = cost(best)
    # Every stone needs its action, and every one after the first at least one step.
    lower = 2 * g.n - 1 + min(tour.from_start)
    if g.n <= MAX_SEARCH_STONES and lower < upper:
        stones = list(range(g.n))
        root = Assignment(_costs(g, tour, moves), [g.n, *stones], [*stones, g.n])
        best = min((best, _dive(g, tour, moves, root)), key=cost)
        upper = cost(best)
        found, lower = _best_first(g, tour, moves, root, upper, deadline)
        if found is not None:
            best, upper = found, cost(found)
    lower = min(lower, upper)
    plan = tuple(g.cells[v] for v in best)
    verify(target, plan)
    return Ordering(plan, upper, lower, lower == upper)


def _path(came: dict[tuple[int, int], tuple[int, int]], placed: int, last: int) -> list[int]:
    order = []
    state = (placed, last)
    while state[1] >= 0:
        order.append(state[1])
        state = came[state]
    return order[::-1]
