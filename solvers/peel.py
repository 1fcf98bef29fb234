"""Targets without ambiguous stones, decided by forced moves alone and no model.

Without a stone showing 1 among four neighbouring stones, every stone's need is fixed
by its value, so the forced moves of ``solvers.propagation`` either settle every stone,
which gives the target's only solution, or stop short, which proves it has none. Most
sparse targets are like this, and for them building the full model
(``solvers.stones.StoneGraph``, its ``State``, the bit masks for the search) costs more
than the solving: here the same forced moves run on the padded grid's bytes and plain
lists. Stones settle in the same order as in ``propagation.start`` (a last-in first-out
queue seeded with the stones in row-major order), so the plan is the one the full
model gives.
"""

from __future__ import annotations

from itertools import compress

from solvers.stones import Shape

# bytes.translate tables over cell values 0..4: stone or not; need (value - 1).
_IS_STONE = bytes([0] + [1] * 255)
_NEED = bytes([0, 0, 1, 2, 3] + [0] * 251)


def peel(sh: Shape, value: bytes) -> tuple[bool, list[int] | None]:
    """``(decided, order)`` for the target whose padded-grid values are ``value``.

    ``decided`` is False when the target has an ambiguous stone (``order`` is then
    None and the full planner must decide). Otherwise ``order`` is the positions of
    the target's only plan, first move first, or None when it has no plan.
    """
    adj = sh.adj
    stones = list(compress(sh.positions, value))
    count = len(stones)
    # 1 for a stone still open (in the middle of the order), 0 for a settled one or none.
    open_ = bytearray(value.translate(_IS_STONE))
    rest = list(value.translate(_NEED))
    free = rest[:]
    for p in stones:
        up, down, left, right = adj[p]
        n = open_[up] + open_[down] + open_[left] + open_[right]
        if n == 4 and value[p] == 1:
            return False, None
        free[p] = n
    queue = stones
    front: list[int] = []
    back: list[int] = []
    while queue:
        v = queue.pop()
        if not open_[v]:
            continue
        r = rest[v]
        if r == 0:
            open_[v] = 0
            back.append(v)
            for u in adj[v]:
                if open_[u]:
                    free[u] -= 1
                    rest[u] -= 1
                    queue.append(u)
        elif r == free[v]:
            open_[v] = 0
            front.append(v)
            for u in adj[v]:
                if open_[u]:
                    free[u] -= 1
                    queue.append(u)
        elif r < 0 or r > free[v]:
            return True, None
    if len(front) + len(back) < count:
        return True, None
    back.reverse()
    return True, front + back
