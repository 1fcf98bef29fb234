"""Which stone may be placed next, or last, once some stones are placed.

A search for the order with the fewest key presses grows a plan from both ends: a
*front* placed first (``placed``) and a *back* placed last (``kept``), both bit masks
over stone numbers (``solvers.numbered``). Two rule sets answer what may come next:

* ``Orientations``: the target's solutions, each a fixed orientation of the edges
  between neighbouring stones (a stone's *parents* go before it, its *children* after).
  A plan follows a solution when every stone comes after its parents; ``fit`` is the
  mask of the solutions the plan still follows.
* ``ForwardRule``: for targets with too many solutions to list. A stone may go next
  when as many of its neighbours are placed as will not come after it (its value says
  how many come after), last when as many are kept as will; the planner then checks
  that the plan can still be finished (``solvers.residual``).

Both also say which pairs of stones can never be placed one right after the other, for
the assignment bound of ``solvers.sequence``.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Sequence

from logo_bot.solvers.board import MAX_VALUE, Cell
from logo_bot.solvers.numbered import Numbered
from logo_bot.solvers.residual import Completion
from logo_bot.solvers.stones import bits

Move = tuple[int, int]  # (stone, the solutions still followed)


class Rules:
    """The interface of the two rule sets (see the module docstring)."""

    n: int
    all_fit: int
    # With a single fixed orientation, each stone's parents (``front`` is then 1 while
    # they are all placed and the stone is not placed nor kept, else 0); None otherwise.
    fixed_parents: list[int] | None = None

    def fronts(self, placed: int, kept: int, fit: int, last: int = -1) -> list[Move]:
        """Every stone that may be placed next (the list may be shared: not to change).
        ``last``, if known, is the stone placed last, which may save work."""
        raise NotImplementedError

    def backs(self, placed: int, kept: int, fit: int, last: int = -1) -> list[Move]:
        """Every stone that may be placed last of those still open (not to change).
        ``last``, if known, is the stone kept last."""
        raise NotImplementedError

    def front(self, placed: int, kept: int, fit: int, v: int) -> int:
        """The solutions still followed once ``v`` is placed next (0: not allowed)."""
        raise NotImplementedError

    def first_ok(self, v: int) -> bool:
        """Whether some plan can start with ``v``."""
        raise NotImplementedError

    def last_ok(self, v: int) -> bool:
        """Whether some plan can end with ``v``."""
        raise NotImplementedError

    def never_after(self, u: int) -> int:
        """The stones no plan places right after ``u``."""
        raise NotImplementedError

    def parents_of(self, order: Sequence[int]) -> list[int]:
        """For each stone, the neighbours ``order`` (a valid plan) places before it."""
        raise NotImplementedError


class Orientations(Rules):
    """Plans that follow one of the listed solutions (each a plan, first move first)."""

    def __init__(self, stones: Numbered, plans: Sequence[Sequence[Cell]]) -> None:
        n = self.n = stones.n
        self.nbrs = stones.nbrs
        self.parents: list[list[int]] = []
        self.children: list[list[int]] = []
        self.orders: list[list[int]] = []
        for plan in plans:
            order = [stones.index[cell] for cell in plan]
            self.orders.append(order)
            when = [0] * n
            for i, v in enumerate(order):
                when[v] = i
            up = [0] * n
            down = [0] * n
            for v in range(n):
                for u in stones.nbrs[v]:
                    if when[u] < when[v]:
                        up[v] |= 1 << u
                    else:
                        down[v] |= 1 << u
            self.parents.append(up)
            self.children.append(down)
        self.all_fit = (1 << len(plans)) - 1
        self.single = len(plans) == 1
        self._never: list[int] | None = None
        if self.single:
            self.fixed_parents = self.parents[0]
            self._fronts = ReadySets(self.parents[0], self.children[0])
            self._backs = ReadySets(self.children[0], self.parents[0])

    def fronts(self, placed: int, kept: int, fit: int, last: int = -1) -> list[Move]:
        if self.single:
            out = self._fronts.moves(placed, last)
            return [move for move in out if not kept >> move[0] & 1] if kept else out
        n = self.n
        left = ((1 << n) - 1) & ~placed & ~kept
        out = []
        for v in range(n):
            if left >> v & 1:
                still = self._up(placed, fit, v)
                if still:
                    out.append((v, still))
        return out

    def backs(self, placed: int, kept: int, fit: int, last: int = -1) -> list[Move]:
        if self.single:
            out = self._backs.moves(kept, last)
            return [move for move in out if not placed >> move[0] & 1] if placed else out
        n = self.n
        left = ((1 << n) - 1) & ~placed & ~kept
        out = []
        for v in range(n):
            if left >> v & 1:
                still = self._down(kept, fit, v)
                if still:
                    out.append((v, still))
        return out

    def _up(self, placed: int, fit: int, v: int) -> int:
        """The solutions of ``fit`` in which every parent of ``v`` is ``placed``."""
        return _following(self.parents, placed, fit, v)

    def _down(self, kept: int, fit: int, v: int) -> int:
        """The solutions of ``fit`` in which every child of ``v`` is ``kept``."""
        return _following(self.children, kept, fit, v)

    def front(self, placed: int, kept: int, fit: int, v: int) -> int:
        if (placed | kept) >> v & 1:
            return 0
        if self.single:
            return 0 if self.parents[0][v] & ~placed else 1
        return self._up(placed, fit, v)

    def first_ok(self, v: int) -> bool:
        return any(up[v] == 0 for up in self.parents)

    def last_ok(self, v: int) -> bool:
        return any(down[v] == 0 for down in self.children)

    def never_after(self, u: int) -> int:
        if self._never is None:
            self._never = self._never_after()
        return self._never[u]

    def _never_after(self) -> list[int]:
        """Per stone u, the stones v that no listed solution can place right after u: v
        must come before u, or some stone must come between them."""
        n = self.n
        never = [(1 << n) - 1] * n
        for up, down, order in zip(self.parents, self.children, self.orders, strict=True):
            ancestors = _closure(up, order)
            descendants = _closure(down, order[::-1])
            for u in range(n):
                between = 0
                kids = down[u]
                while kids:
                    low = kids & -kids
                    kids ^= low
                    between |= descendants[low.bit_length() - 1]
                never[u] &= ancestors[u] | between | 1 << u
        return never

    def parents_of(self, order: Sequence[int]) -> list[int]:
        when = [0] * self.n
        for i, v in enumerate(order):
            when[v] = i
        return [sum(1 << u for u in self.nbrs[v] if when[u] < when[v]) for v in range(self.n)]


class ReadySets:
    """For one orientation, the stones that may come next once the stones ``done`` are
    (placed, or kept at the plan's end): those not done whose ``sides`` (parents, or
    children) all are. Remembered per done set, which the searches meet again and
    again, and derived from the set without ``last`` when that one is remembered: only
    the stones whose sides hold ``last`` may join."""

    def __init__(self, sides: list[int], others: list[int]) -> None:
        """``others[v]``: the stones whose sides hold v."""
        self.sides = sides
        self.others = [bits(mask) for mask in others]
        self.table = [(side | 1 << v, 1 << v) for v, side in enumerate(sides)]
        self.move = [(v, 1) for v in range(len(sides))]
        self.memo: dict[int, tuple[int, list[Move]]] = {}

    def moves(self, done: int, last: int = -1) -> list[Move]:
        """The stones that may come next, lowest first, each with the one solution."""
        known = self.memo.get(done)
        if known is not None:
            return known[1]
        before = None
        if last >= 0 and done >> last & 1:
            before = self.memo.get(done ^ 1 << last)
        if before is None:
            undone = ~done
            ready = sum(bit for need, bit in self.table if need & undone == bit)
            out, move, rest = [], self.move, ready
            while rest:
                low = rest & -rest
                out.append(move[low.bit_length() - 1])
                rest ^= low
        else:
            ready, out = self._derived(done, last, *before)
        self.memo[done] = (ready, out)
        return out

    def _derived(self, done: int, last: int, ready: int, out: list[Move]) -> tuple[int, list[Move]]:
        """The ready set and moves for ``done`` from those for ``done`` without ``last``
        (``ready``, ``out``): ``last`` leaves, and stones whose sides it completes join
        (none of them was ready before, as ``last`` was not done)."""
        move, sides = self.move, self.sides
        out = out[:]
        if ready >> last & 1:
            ready ^= 1 << last
            out.remove(move[last])
        for u in self.others[last]:
            if not sides[u] & ~done and not done >> u & 1:
                ready |= 1 << u
                insort(out, move[u])
        return ready, out


class ForwardRule(Rules):
    """Plans placed by the forward rule, checked by the planner as they grow."""

    def __init__(self, stones: Numbered) -> None:
        g = stones.g
        self.n = stones.n
        self.nbrs = stones.nbrs
        self.all_fit = 1
        self.completion = Completion(stones)
        self.nbr_masks = self.completion.nbr_masks
        self.need = [g.need[p] for p in stones.pos]
        self.degree = [g.degree[p] for p in stones.pos]
        self.ambiguous = [g.ambiguous(p) for p in stones.pos]

    def _count_ok(self, v: int, count: int, wanted: int) -> bool:
        if self.ambiguous[v]:
            return count in (0, MAX_VALUE)
        return count == wanted

    def front(self, placed: int, kept: int, fit: int, v: int) -> int:
        if placed >> v & 1 or kept >> v & 1:
            return 0
        earlier = (placed & self.nbr_masks[v]).bit_count()
        if not self._count_ok(v, earlier, self.degree[v] - self.need[v]):
            return 0
        return fit if self.completion.ok(placed | 1 << v, kept) else 0

    def fronts(self, placed: int, kept: int, fit: int, last: int = -1) -> list[Move]:
        return [(v, fit) for v in range(self.n) if self.front(placed, kept, fit, v)]

    def backs(self, placed: int, kept: int, fit: int, last: int = -1) -> list[Move]:
        out = []
        for v in range(self.n):
            if placed >> v & 1 or kept >> v & 1:
                continue
            later = (kept & self.nbr_masks[v]).bit_count()
            if self._count_ok(v, later, self.need[v]) and self.completion.ok(placed, kept | 1 << v):
                out.append((v, fit))
        return out

    def first_ok(self, v: int) -> bool:
        return self.ambiguous[v] or self.need[v] == self.degree[v]

    def last_ok(self, v: int) -> bool:
        return self.need[v] == 0

    def never_after(self, u: int) -> int:
        """A neighbour cannot follow a stone that needs no later neighbour, nor precede
        one that needs all its neighbours later."""
        out = 1 << u
        for v in self.nbrs[u]:
            if not self.ambiguous[u] and self.need[u] == 0:
                out |= 1 << v
            if not self.ambiguous[v] and self.need[v] == self.degree[v]:
                out |= 1 << v
        return out

    def parents_of(self, order: Sequence[int]) -> list[int]:
        when = [0] * self.n
        for i, v in enumerate(order):
            when[v] = i
        return [sum(1 << u for u in self.nbrs[v] if when[u] < when[v]) for v in range(self.n)]


def _following(sides: list[list[int]], done: int, fit: int, v: int) -> int:
    """The solutions of ``fit`` whose ``sides`` mask of ``v`` lies within ``done``."""
    still = 0
    for s in bits(fit):
        if not sides[s][v] & ~done:
            still |= 1 << s
    return still


def _closure(step: list[int], order: list[int]) -> list[int]:
    """For each stone, every stone reached by following ``step`` masks (not itself);
    ``order`` lists the stones so that each comes after every stone its mask names."""
    reach = [0] * len(step)
    for v in order:
        mask = todo = step[v]
        while todo:
            low = todo & -todo
            todo ^= low
            mask |= reach[low.bit_length() - 1]
        reach[v] = mask
    return reach
