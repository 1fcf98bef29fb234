"""Local search for short cursor paths: better orders of the same solution.

A plan is a linear extension of one orientation of the stone graph: every stone after
the neighbours the orientation puts before it (its *parents*). Moving a run of stones
past others keeps it valid as long as it passes none of its parents (moving earlier)
or children (moving later), because only neighbouring stones constrain each other. So
the moves tried here, on stone numbers with a distance table, are:

* *shift*: take a run of 1 to ``MAX_RUN`` consecutive stones and put it elsewhere,
  in the same order or reversed (reversed only when no two of them are neighbours);
* *kick*: a random valid shift, whatever it costs, to leave a local optimum.

``improve`` alternates full descents with kicks from a seeded generator, so the result
depends only on its input; ``rounds`` bounds the work.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

MAX_RUN = 3


class Path:
    """An order of stones with its cost: the cursor steps from the start through every
    stone (``dist[a][b]`` between stones, ``first[b]`` from the start)."""

    def __init__(
        self,
        order: Sequence[int],
        dist: Sequence[Sequence[int]],
        first: Sequence[int],
        parents: Sequence[int],
        children: Sequence[int],
    ) -> None:
        self.order = list(order)
        self.dist, self.first = dist, first
        self.parents, self.children = parents, children

    def cost(self) -> int:
        order, dist = self.order, self.dist
        if not order:
            return 0
        return self.first[order[0]] + sum(dist[a][b] for a, b in itertools.pairwise(order))

    def _leg(self, a: int, b: int) -> int:
        """Steps from the stone at position ``a`` (-1: the start) to the one at ``b``."""
        if b < 0 or b >= len(self.order):
            return 0
        if a < 0:
            return self.first[self.order[b]]
        return self.dist[self.order[a]][self.order[b]]

    def _run_ok_reversed(self, i: int, size: int) -> bool:
        run = 0
        for v in self.order[i : i + size]:
            run |= 1 << v
        return not any(self.parents[v] & run for v in self.order[i : i + size])

    def descend(self) -> bool:
        """Apply improving shifts until none is left; whether anything improved."""
        improved = False
        while self._one_pass():
            improved = True
        return improved

    def _one_pass(self) -> bool:
        order = self.order
        n = len(order)
        changed = False
        for size in range(1, MAX_RUN + 1):
            i = 0
            while i + size <= n:
                if self._best_shift(i, size):
                    changed = True
                i += 1
        return changed

    def _best_shift(self, i: int, size: int) -> bool:
        """Move the run at ``i`` to its best place if that saves steps."""
        order, dist, first = self.order, self.dist, self.first
        n = len(order)
        run = order[i : i + size]
        head, tail = run[0], run[-1]
        mask = 0
        up = down = 0
        for v in run:
            mask |= 1 << v
        for v in run:
            up |= self.parents[v]
            down |= self.children[v]
        up &= ~mask
        down &= ~mask
        # What taking the run out saves.
        before = order[i - 1] if i > 0 else -1
        after = order[i + size] if i + size < n else -1
        out = (first[head] if before < 0 else dist[before][head]) + (
            dist[tail][after] if after >= 0 else 0
        )
        if after >= 0:
            out -= first[after] if before < 0 else dist[before][after]
        flip = size > 1 and self._run_ok_reversed(i, size)
        best, where, backwards = 0, -1, False
        # Earlier places: between order[j-1] and order[j] for j = i-1 down to 0.
        passed = 0
        j = i - 1
        while j >= 0 and not (passed | 1 << order[j]) & up:
            passed |= 1 << order[j]
            x = order[j - 1] if j > 0 else -1
            y = order[j]
            base = first[y] if x < 0 else dist[x][y]
            gain = self._insert_gain(out, base, x, y, head, tail)
            if gain > best:
                best, where, backwards = gain, j, False
            if flip:
                gain = self._insert_gain(out, base, x, y, tail, head)
                if gain > best:
                    best, where, backwards = gain, j, True
            j -= 1
        # Later places: between order[j] and order[j+1] for j = i+size onwards.
        passed = 0
        j = i + size
        while j < n and not (passed | 1 << order[j]) & down:
            passed |= 1 << order[j]
            x = order[j]
            y = order[j + 1] if j + 1 < n else -1
            base = dist[x][y] if y >= 0 else 0
            gain = self._insert_gain(out, base, x, y, head, tail)
            if gain > best:
                best, where, backwards = gain, j + 1, False
            if flip:
                gain = self._insert_gain(out, base, x, y, tail, head)
                if gain > best:
                    best, where, backwards = gain, j + 1, True
            j += 1
        if best <= 0:
            return False
        self._move(i, size, where, backwards)
        return True

    def _insert_gain(self, out: int, base: int, x: int, y: int, head: int, tail: int) -> int:
        """Steps saved by moving a run (saving ``out``) between ``x`` (-1: the start)
        and ``y`` (-1: the end), where the leg ``x -> y`` costs ``base``."""
        into = (self.first[head] if x < 0 else self.dist[x][head]) + (
            self.dist[tail][y] if y >= 0 else 0
        )
        return out - (into - base)

    def _move(self, i: int, size: int, where: int, backwards: bool) -> None:
        """Move the run at ``i`` so that it starts at old position ``where``."""
        order = self.order
        run = order[i : i + size]
        if backwards:
            run.reverse()
        if where < i:
            order[where : i + size] = run + order[where:i]
        else:
            order[i:where] = order[i + size : where] + run

    def kick(self, rng: random.Random) -> None:
        """Move one random stone to a random place it may go, whatever the cost."""
        order = self.order
        n = len(order)
        if n < 3:
            return
        i = rng.randrange(n)
        v = order[i]
        lo = i
        while lo > 0 and not self.parents[v] >> order[lo - 1] & 1:
            lo -= 1
        hi = i
        while hi + 1 < n and not self.children[v] >> order[hi + 1] & 1:
            hi += 1
        if hi == lo:
            return
        j = rng.randrange(lo, hi + 1)
        order.pop(i)
        order.insert(j, v)


def improve(
    order: Sequence[int],
    dist: Sequence[Sequence[int]],
    first: Sequence[int],
    parents: Sequence[int],
    children: Sequence[int],
    rounds: int,
    seed: int = 0,
) -> list[int]:
    """The cheapest order found by ``rounds`` rounds of kicks and descents from ``order``
    (a linear extension of ``parents``/``children``)."""
    path = Path(order, dist, first, parents, children)
    path.descend()
    best, best_cost = path.order[:], path.cost()
    rng = random.Random(seed)
    for _ in range(rounds):
        for _ in range(1 + rng.randrange(3)):
            path.kick(rng)
        path.descend()
        cost = path.cost()
        if cost <= best_cost:
            best, best_cost = path.order[:], cost
        else:
            path.order = best[:]
    return best
