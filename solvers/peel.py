"""Forced moves on bare bytes: most targets are decided before any model is built.

Each stone needs a fixed number of later neighbours (its value - 1), except an
*ambiguous* stone (showing 1 among four stones), whose cluster takes one of two ways
(see ``solvers.stones``). Forced moves (``solvers.propagation``) lose no solution, so
when they run into a contradiction the target has no plan, and when they settle every
stone, deciding each cluster on the way, the plan follows. Only when they stall with a
cluster still undecided is the search needed, with its full model: the
``StoneGraph`` and a ``State`` whose stones remember the decisions behind them.

Building that model costs more than solving for most targets, so this module makes the
same moves on the padded grid's bytes and plain lists, in the same order as
``propagation.start`` (a last-in first-out queue seeded with the unambiguous stones in
row-major order; a decided cluster queues its stones in order), so its plan is the one
the full model gives. When they stall, what they leave becomes the search's start
state: no decision has been made yet, so no stone has a reason to remember.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress

from logo_bot.solvers.board import MAX_VALUE
from logo_bot.solvers.propagation import BACK, FRONT, NONE, OPEN, State
from logo_bot.solvers.stones import Shape, mask_of

# bytes.translate tables over cell values 0..4: stone or not; need (value - 1).
_IS_STONE = bytes([0] + [1] * 255)
_NEED = bytes([0, 0, 1, 2, 3] + [0] * 251)
_WHERE = bytes([NONE] + [OPEN] * 255)  # OPEN is 0: ``if where[v]`` asks "not open"
# mask_of tables: the positions open, the positions at the back.
_OPEN_DIGITS = bytes(0x31 if k == OPEN else 0x30 for k in range(256))
_BACK_DIGITS = bytes(0x31 if k == BACK else 0x30 for k in range(256))
_UNDECIDED = -1  # a cluster's bit before it is decided
_NO_CLUSTER, _AMBIGUOUS = -1, -2  # a position's cluster: none, or not numbered yet


class Stalled:
    """Forced moves stalled with a cluster undecided: per position ``where`` each stone
    stands and what it still needs (``rest`` of ``free`` open neighbours), per cluster
    its ``bits``, and the stones ``settled``: those moved to the front in the order they
    moved, then those moved to the back likewise (all ``planner.plan_order`` reads)."""

    __slots__ = ("bits", "free", "rest", "settled", "where")

    def __init__(
        self,
        where: bytearray,
        rest: list[int],
        free: list[int],
        bits: list[int],
        settled: list[int],
    ) -> None:
        self.where, self.rest, self.free, self.bits, self.settled = where, rest, free, bits, settled

    def state(self) -> State:
        """The same stones as the full model's ``State`` (on the same padded grid)."""
        where = self.where
        return State(
            list(where),
            self.rest,
            self.free,
            self.bits,
            [0] * len(where),
            mask_of(where, _OPEN_DIGITS),
            mask_of(where, _BACK_DIGITS),
        )


def peel(sh: Shape, value: bytes) -> list[int] | Stalled | None:
    """The plan of the target whose padded-grid values are ``value`` (positions, first
    move first), None when it has none, or ``Stalled`` when the search must decide."""
    adj = sh.adj
    stones = list(compress(sh.positions, value))
    count = len(stones)
    is_stone = value.translate(_IS_STONE)
    where = bytearray(value.translate(_WHERE))
    rest = list(value.translate(_NEED))
    free = rest[:]
    ambiguous = []
    for p in stones:
        up, down, left, right = adj[p]
        n = is_stone[up] + is_stone[down] + is_stone[left] + is_stone[right]
        if n == MAX_VALUE and value[p] == 1:
            ambiguous.append(p)
        free[p] = n
    cluster: Sequence[int]
    if ambiguous:
        cluster, members = _clusters(sh, ambiguous)
        bits = [_UNDECIDED] * len(members)
        queue = [p for p in stones if cluster[p] < 0]
    else:
        cluster, members, bits = sh.no_clusters, [], []
        queue = stones
    parity = sh.parity
    front: list[int] = []
    back: list[int] = []
    while queue:
        v = queue.pop()
        if where[v]:
            continue
        c = cluster[v]
        if c >= 0 and bits[c] == _UNDECIDED:
            if free[v] == MAX_VALUE:
                continue
            sides = 0
            for u in adj[v]:
                sides |= 1 << where[u]
            if sides >> BACK & 1:
                if sides >> FRONT & 1:
                    return None
                bit = parity[v]
            else:
                bit = 1 - parity[v]
            bits[c] = bit
            for u in members[c]:
                if parity[u] == bit:
                    rest[u] += MAX_VALUE
                queue.append(u)
            continue
        r = rest[v]
        if r == 0:
            where[v] = BACK
            back.append(v)
            for u in adj[v]:
                if not where[u]:
                    free[u] -= 1
                    rest[u] -= 1
                    queue.append(u)
        elif r == free[v]:
            where[v] = FRONT
            front.append(v)
            for u in adj[v]:
                if not where[u]:
                    free[u] -= 1
                    queue.append(u)
        elif r < 0 or r > free[v]:
            return None
    if len(front) + len(back) < count:
        return Stalled(where, rest, free, bits, front + back) if _UNDECIDED in bits else None
    back.reverse()
    return front + back


def _clusters(sh: Shape, ambiguous: list[int]) -> tuple[list[int], list[list[int]]]:
    """Per position its cluster (-1 for none), and each cluster's stones in order,
    numbered as ``StoneGraph`` numbers them (by their first stone)."""
    adj = sh.adj
    cluster = [_NO_CLUSTER] * sh.size
    for p in ambiguous:
        cluster[p] = _AMBIGUOUS
    members: list[list[int]] = []
    for seed in ambiguous:
        if cluster[seed] >= 0:
            continue
        c = len(members)
        cluster[seed] = c
        group = [seed]
        for v in group:
            for u in adj[v]:
                if cluster[u] == _AMBIGUOUS:
                    cluster[u] = c
                    group.append(u)
        group.sort()
        members.append(group)
    return cluster, members
