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
        # ``legs[a][b]``: steps from a to b, where a = -1 is the start and b = -1 the end
        # (nothing to walk); ``into[b][a]`` is the same.
        self.legs = [[*row, 0] for row in dist]
        self.legs.append([*first, 0])
        self.into = [list(col) for col in zip(*self.legs, strict=True)]

    def cost(self) -> int:
        order, dist = self.order, self.dist
        if not order:
            return 0
        return self.first[order[0]] + sum(dist[a][b] for a, b in itertools.pairwise(order))

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
            for i in range(n - size + 1):
                if self._best_shift(i, size):
                    changed = True
        return changed

    def _best_shift(self, i: int, size: int) -> bool:
        """Move the run at ``i`` to its best place if that saves steps."""
        order, legs, parents, children = self.order, self.legs, self.parents, self.children
        n = len(order)
        run = order[i : i + size]
        head, tail = run[0], run[-1]
        mask = up = down = 0
        for v in run:
            mask |= 1 << v
            up |= parents[v]
            down |= children[v]
        # Reversed only when no two of them are neighbours.
        flip = size > 1 and not (up & mask)
        up &= ~mask
        down &= ~mask
        # What taking the run out saves.
        before = order[i - 1] if i > 0 else -1
        after = order[i + size] if i + size < n else -1
        out = legs[before][head] + legs[tail][after] - legs[before][after]
        to_head, from_tail = self.into[head], legs[tail]
        to_tail, from_head = self.into[tail], legs[head]
        best, where, backwards = 0, -1, False
        # Earlier places: between order[j-1] and order[j] for j = i-1 down to 0, while
        # the run passes none of its parents.
        for j in range(i - 1, -1, -1):
            y = order[j]
            if up >> y & 1:
                break
            x = order[j - 1] if j else -1
            kept = out + legs[x][y]
            gain = kept - to_head[x] - from_tail[y]
            if gain > best:
                best, where, backwards = gain, j, False
            if flip:
                gain = kept - to_tail[x] - from_head[y]
                if gain > best:
                    best, where, backwards = gain, j, True
        # Later places: between order[j] and order[j+1] for j = i+size onwards, while
        # the run passes none of its children.
        for j in range(i + size, n):
            x = order[j]
            if down >> x & 1:
                break
            y = order[j + 1] if j + 1 < n else -1
            kept = out + legs[x][y]
            gain = kept - to_head[x] - from_tail[y]
            if gain > best:
                best, where, backwards = gain, j + 1, False
            if flip:
                gain = kept - to_tail[x] - from_head[y]
                if gain > best:
                    best, where, backwards = gain, j + 1, True
        if best <= 0:
            return False
        self._move(i, size, where, backwards)
        return True

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
