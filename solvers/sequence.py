"""Exact search for the plan with the fewest key presses: A* over partial plans.

A partial plan fixes a *front* (the stones placed first, the cursor on the last of them,
``at``) and a *back* (the stones placed last, the first of them ``end``); the stones
in between are *open*. A search grows either the front by one stone (``FORWARD``) or
the back by one stone (``BACKWARD``): some targets are hard at the start of the order,
others at its end, so ``fewest_presses`` runs one search each way side by side.

Presses of a plan: one per stone, plus the cursor steps from the start cell to the first
stone and between consecutive stones. The bound on a partial plan is an assignment
relaxation (``solvers.assignment``) of what is open: the cursor stone and every open
stone get a successor (an open stone, or ``end``), at the cost of the steps to it; the
matrix rows are stones and the start cell (id ``n``), its columns stones and the end of
the plan (id ``n``). A pair is allowed only if some plan could have the two stones one
right after the other (``solvers.precedence``). Children are bounded from their parent's
potentials; one taken out of the queue is repaired only as far as needed to see whether
its bound rises past its place in the queue, and if it does it goes back one press
later, still unrepaired: many never come out again. Among partial plans of equal bound
and presses, one whose last stone is the one the assignment already put there comes
first: it needs no repair, and following the assignment finds plans that meet the bound
far sooner (level 50 of the practice game: 70 partial plans forward instead of 5190).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from heapq import heappop, heappush
from itertools import count

from logo_bot.solvers.assignment import INFINITE, Assignment
from logo_bot.solvers.precedence import Rules

FORWARD, BACKWARD = "forward", "backward"
# A search with a deadline looks at the clock after this many partial plans leave the
# queue (expanded, repaired or skipped): a repair that pushes a plan back costs no pop.
CLOCK_EVERY = 32
Chain = tuple | None  # a linked list of stones: (stone, rest) or None


def cost_matrix(rules: Rules, dist: list[list[int]], from_start: list[int]) -> list[list[int]]:
    """Steps between consecutive moves, INFINITE where no plan can have the pair."""
    n = rules.n
    cost = [[INFINITE] * (n + 1) for _ in range(n + 1)]
    for u in range(n):
        row, steps, never = cost[u], dist[u], rules.never_after(u)
        for v in range(n):
            if not never >> v & 1:
                row[v] = steps[v]
        row[n] = 0 if rules.last_ok(u) else INFINITE
        cost[n][u] = from_start[u] if rules.first_ok(u) else INFINITE
    return cost


def chain_list(chain: Chain) -> list[int]:
    out = []
    while chain is not None:
        out.append(chain[0])
        chain = chain[1]
    return out


@dataclass
class Incumbent:
    """The best plan found so far (stone numbers) and its presses, shared by searches."""

    plan: list[int]
    presses: int
    found: Callable[[list[int], int], None] | None = field(default=None, repr=False)

    def offer(self, plan: list[int], presses: int) -> None:
        if presses < self.presses:
            self.plan, self.presses = plan, presses


class Frontier:
    """One A* search that grows partial plans in one ``direction``.

    ``lower`` is the bound proven on every plan so far; ``done`` says whether the search
    has finished (then ``lower`` is the incumbent's presses, proven fewest).
    """

    def __init__(
        self,
        rules: Rules,
        cost: list[list[int]],
        root: Assignment,
        direction: str,
        best: Incumbent,
    ) -> None:
        self.rules, self.cost, self.direction, self.best = rules, cost, direction, best
        n = self.n = rules.n
        self.full = (1 << n) - 1
        self.tie = count()
        self.lower = n + root.value
        # Entries: (f, -g, strayed, tie, state, g, assignment, pending, front, back),
        # where ``strayed`` says the last stone is not the one the parent's assignment
        # put there, ``state`` is (placed, at, kept, end, fit), the key of ``seen``, and
        # ``pending`` the parent's ``at`` (forward) or ``end`` (backward), None at the
        # root: with the entry's own, the row and the column the assignment has still
        # to drop.
        start = (0, n, 0, n, rules.all_fit)
        self.heap: list = [(self.lower, 0, False, 0, start, 0, root, None, None, None)]
        self.seen: dict[tuple[int, int, int, int, int], int] = {}
        self.done = False
        self.nodes = 0

    def run(self, pops: int, deadline: float | None = None) -> None:
        """Take up to ``pops`` partial plans out of the queue (fewer if it finishes or
        the clock passes ``deadline``, a ``time.perf_counter()`` reading)."""
        heap, full, best, seen, tie = self.heap, self.full, self.best, self.seen, self.tie
        forward = self.direction == FORWARD
        clock = CLOCK_EVERY
        while pops > 0:
            if deadline is not None:
                clock -= 1
                if not clock:
                    if time.perf_counter() > deadline:
                        return
                    clock = CLOCK_EVERY
            if not heap:
                self._finish()
                return
            f, _, strayed, _, state, g, ap, pending, front, back = heappop(heap)
            if f >= best.presses:
                self._finish()
                return
            if seen.get(state, g) < g:
                continue  # reached more cheaply since
            if f > self.lower:
                self.lower = f
            placed, at, kept, end, fit = state
            left = full & ~placed & ~kept
            k = left.bit_count()
            if pending is not None:
                # Repair only as far as needed to see whether the bound rises past f.
                if forward:
                    row, col = pending, at
                else:
                    row, col = end, pending
                floor = g + k + ap.bound_without(row, col)
                below = ap.without_below(row, col, f + 1 - floor)
                if below is None:
                    if f + 1 < best.presses:
                        entry = (f + 1, -g, strayed, next(tie), state, g, ap, pending, front, back)
                        heappush(heap, entry)
                    continue
                ap = below
            pops -= 1
            self.nodes += 1
            if not left:
                best.offer(chain_list(front)[::-1] + chain_list(back), f)
                continue
            path = self._assigned_path(placed, at, kept, end, fit, ap)
            if path is not None:
                best.offer(chain_list(front)[::-1] + path + chain_list(back), f)
                continue
            self._expand(state, g + k + ap.value, g, ap, front, back)

    def _expand(
        self,
        state: tuple[int, int, int, int, int],
        base: int,
        g: int,
        ap: Assignment,
        front: Chain,
        back: Chain,
    ) -> None:
        """Queue the children of a partial plan whose bound less the potentials of its
        cursor row (or end column) is ``base``: those the incumbent does not rule out
        and that no cheaper partial plan has reached."""
        heap, seen, tie, upper = self.heap, self.seen, self.tie, self.best.presses
        placed, at, kept, end, fit = state
        pot_row, pot_col = ap.pot_row, ap.pot_col
        step = g + 1  # the presses of a child: its leg and its action
        entry: tuple  # a heap entry; which of front and back grew differs by direction
        if self.direction == FORWARD:
            line = self.cost[at]
            base -= pot_row[at]
            partner = ap.col_of[at]
            for v, kept_fit in self.rules.fronts(placed, kept, fit, at):
                leg = line[v]
                bound = base + leg - pot_col[v]
                if bound >= upper:
                    continue
                moved = step + leg
                key = (placed | 1 << v, v, kept, end, kept_fit)
                if seen.get(key, INFINITE) <= moved:
                    continue
                seen[key] = moved
                strayed = v != partner
                entry = (bound, -moved, strayed, next(tie), key, moved, ap, at, (v, front), back)
                heappush(heap, entry)
        else:
            cost = self.cost
            base -= pot_col[end]
            partner = ap.row_of[end]
            for v, kept_fit in self.rules.backs(placed, kept, fit, end):
                leg = cost[v][end]
                bound = base + leg - pot_row[v]
                if bound >= upper:
                    continue
                moved = step + leg
                key = (placed, at, kept | 1 << v, v, kept_fit)
                if seen.get(key, INFINITE) <= moved:
                    continue
                seen[key] = moved
                strayed = v != partner
                entry = (bound, -moved, strayed, next(tie), key, moved, ap, end, front, (v, back))
                heappush(heap, entry)

    def _finish(self) -> None:
        self.done = True
        self.lower = self.best.presses
        self.heap.clear()

    def _assigned_path(
        self, placed: int, at: int, kept: int, end: int, fit: int, ap: Assignment
    ) -> list[int] | None:
        """The assignment's successors from ``at`` to ``end`` when they are one valid
        order of every open stone (then no plan below this one is cheaper), else None."""
        n, front, col_of = self.n, self.rules.front, ap.col_of
        order = []
        row = at
        goal = self.full & ~kept
        parents = self.rules.fixed_parents  # one fixed orientation: ``front`` inlined
        while True:
            col = col_of[row]
            if col == end:
                break
            if col == n:
                return None
            if parents is not None:
                if parents[col] & ~placed or (placed | kept) >> col & 1:
                    return None
            else:
                fit = front(placed, kept, fit, col)
                if not fit:
                    return None
            order.append(col)
            placed |= 1 << col
            row = col
        return order if placed == goal else None


class Prober:
    """Depth-first dives for a plan of at most ``limit`` presses, restarted often.

    A dive takes the children of a partial plan in the order of their bound, among equals
    first the one the assignment already puts next (its assignment needs no repair: on
    the hardest targets this finds plans many times sooner than chance), then at random;
    it gives up after ``DIVE_NODES`` nodes (assignments solved) and the next one starts
    afresh with the next seed, alternating between growing plans from their start and
    from their end. Short randomised restarts avoid spending the whole budget below one
    bad early choice. Seeds count from 0, so the dives depend only on the target.
    """

    DIVE_NODES = 300

    def __init__(self, rules: Rules, cost: list[list[int]], root: Assignment) -> None:
        self.rules, self.cost, self.root = rules, cost, root
        self.dives = 0
        self.nodes = 0

    def run(self, limit: int, budget: int, deadline: float | None = None) -> list[int] | None:
        """Dive until a plan of at most ``limit`` presses turns up, ``budget`` nodes are
        spent or, between dives, the clock has passed ``deadline``; the plan (stone
        numbers, first move first) or None."""
        if self.rules.n + self.root.value > limit:
            return None  # below the root's own bound: no plan at all
        spent = 0
        while spent < budget:
            if deadline is not None and spent and time.perf_counter() > deadline:
                return None
            rng = random.Random(self.dives)
            backward = self.dives % 2 == 1
            self.dives += 1
            found, nodes = self._dive(limit, rng, backward)
            spent += max(nodes, 1)
            self.nodes += nodes
            if found is not None:
                return found
        return None

    def _dive(self, limit: int, rng: random.Random, backward: bool) -> tuple[list[int] | None, int]:
        rules, cost = self.rules, self.cost
        n, full = rules.n, (1 << rules.n) - 1
        seen: set[tuple[int, int, int]] = set()
        path: list[int] = []
        nodes = 0
        most, rnd = self.DIVE_NODES, rng.random

        def visit(done: int, at: int, g: int, fit: int, ap: Assignment) -> bool:
            nonlocal nodes
            left = full & ~done
            base = g + left.bit_count() + ap.value
            state = (done, at, fit)
            if base > limit or nodes >= most or state in seen:
                return False
            if not left:
                return True
            seen.add(state)
            children = []
            if backward:
                base -= ap.pot_col[at]
                partner, pot_row = ap.row_of[at], ap.pot_row
                for v, kept_fit in rules.backs(0, done, fit, at):
                    leg = cost[v][at]
                    bound = base + leg - pot_row[v]
                    if bound <= limit:
                        children.append((bound, v != partner, rnd(), v, leg, kept_fit))
            else:
                base -= ap.pot_row[at]
                partner, pot_col, line = ap.col_of[at], ap.pot_col, cost[at]
                for v, kept_fit in rules.fronts(done, 0, fit, at):
                    leg = line[v]
                    bound = base + leg - pot_col[v]
                    if bound <= limit:
                        children.append((bound, v != partner, rnd(), v, leg, kept_fit))
            children.sort()
            for bound, _, _, v, leg, kept_fit in children:
                if nodes >= most:
                    return False
                nodes += 1
                cap = limit - bound + 1  # the repair may add this much less
                below = ap.without_below(v, at, cap) if backward else ap.without_below(at, v, cap)
                if below is None:
                    continue
                path.append(v)
                if visit(done | 1 << v, v, g + leg + 1, kept_fit, below):
                    return True
                path.pop()
            return False

        if visit(0, n, 0, rules.all_fit, self.root):
            return (path[::-1] if backward else path[:]), nodes
        return None, nodes
