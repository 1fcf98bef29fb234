"""Forced moves: peel stones off both ends of the order until nothing is forced.

A stone still *open* (in the middle of the order) with ``rest`` later neighbours still
needed among ``free`` open neighbours is forced

* to the *back* (after every open stone) when ``rest == 0``: it is a sink of what is
  left in every solution, so it may as well come last;
* to the *front* when ``rest == free``: it is a source of what is left.

Moving a stone to the back gives each open neighbour one later neighbour; moving it to
the front gives none; both take one open neighbour away. An undecided ambiguous stone
that loses a neighbour is decided by it: a neighbour at the back makes it a source, one
at the front a sink, and the choice settles its whole cluster.

These moves lose no solution, so when they run into a contradiction the state has no
solution, and when they stall, the open stones split into independent components.

Every settled stone remembers *why*: a bit mask of the branching decisions (one bit per
cluster) its move follows from. A contradiction is explained by the masks around it, so
the search can jump back over decisions that played no part (conflict-directed
backjumping).
"""

from __future__ import annotations

from dataclasses import dataclass

from solvers.board import MAX_VALUE
from solvers.stones import StoneGraph

OPEN, FRONT, BACK = 0, 1, 2
UNDECIDED = -1


@dataclass(frozen=True)
class Conflict:
    """Why propagation failed: stone ``v`` (see ``kind``) with its ``front``/``back`` nbrs.

    ``because`` is the mask of the branching decisions the contradiction follows from.
    """

    kind: str  # "too-many-later", "too-few-left" or "both-ways"
    v: int
    front: tuple[int, ...]
    back: tuple[int, ...]
    because: int


class State:
    """Where every stone stands and what open stones still need (mutable; copy to branch).

    ``open_mask`` and ``back_mask`` mirror ``where`` as bit masks (see ``StoneGraph``).
    """

    __slots__ = ("back_mask", "bits", "free", "open_mask", "rest", "where", "why")

    def __init__(
        self,
        where: list[int],
        rest: list[int],
        free: list[int],
        bits: list[int],
        why: list[int],
        open_mask: int,
        back_mask: int,
    ):
        self.where, self.rest, self.free, self.bits, self.why = where, rest, free, bits, why
        self.open_mask, self.back_mask = open_mask, back_mask

    @classmethod
    def initial(cls, g: StoneGraph) -> State:
        return cls(
            [OPEN] * g.n,
            list(g.need),
            [len(ns) for ns in g.nbrs],
            [UNDECIDED] * len(g.clusters),
            [0] * g.n,
            g.all_mask,
            0,
        )

    def copy(self) -> State:
        return State(
            self.where[:],
            self.rest[:],
            self.free[:],
            self.bits[:],
            self.why[:],
            self.open_mask,
            self.back_mask,
        )

    def boundary(self, g: StoneGraph, group: int) -> int:
        """The decisions that shaped an open group: those behind its settled neighbours."""
        mask = 0
        for u in g.stones_in(g.spread(group) & g.all_mask & ~self.open_mask):
            mask |= self.why[u]
        return mask


def _sides(g: StoneGraph, st: State, v: int) -> tuple[list[int], list[int]]:
    """The settled neighbours of ``v``: (those at the front, those at the back)."""
    front: list[int] = []
    back: list[int] = []
    for u in g.nbrs[v]:
        side = st.where[u]
        if side == FRONT:
            front.append(u)
        elif side == BACK:
            back.append(u)
    return front, back


def _why(st: State, stones: list[int]) -> int:
    mask = 0
    for u in stones:
        mask |= st.why[u]
    return mask


def _lightest(st: State, stones: list[int]) -> int:
    return min((st.why[u] for u in stones), key=int.bit_count)


def _conflict(g: StoneGraph, st: State, kind: str, v: int) -> Conflict:
    """The contradiction at ``v``, explained by the neighbours that cause it."""
    front, back = _sides(g, st, v)
    if kind == "too-many-later":
        because = st.why[v] | _why(st, back)
    elif kind == "too-few-left":
        because = st.why[v] | _why(st, front)
    else:
        because = _lightest(st, front) | _lightest(st, back)
    return Conflict(kind, v, tuple(front), tuple(back), because)


def decide(
    g: StoneGraph, st: State, cluster: int, bit: int, queue: list[int], because: int
) -> None:
    """Make the cluster's stones of colour ``bit`` sources and the others sinks."""
    st.bits[cluster] = bit
    for v in g.clusters[cluster]:
        if g.colour[v] == bit:
            st.rest[v] += MAX_VALUE
        st.why[v] = because
        queue.append(v)


def propagate(g: StoneGraph, st: State, queue: list[int]) -> Conflict | None:
    """Apply every forced move reachable from the stones in ``queue``.

    A stone moved to the back owes it to its neighbours at the back (they make its need
    zero), one moved to the front to its neighbours at the front; ``why`` records only
    the decisions behind those.
    """
    where, rest, free, bits, why = st.where, st.rest, st.free, st.bits, st.why
    nbrs, cluster_of, colour, bit_of = g.nbrs, g.cluster_of, g.colour, g.bit
    while queue:
        v = queue.pop()
        if where[v] != OPEN:
            continue
        c = cluster_of[v]
        if c >= 0 and bits[c] == UNDECIDED:
            if free[v] == MAX_VALUE:
                continue
            front, back = _sides(g, st, v)
            if front and back:
                return _conflict(g, st, "both-ways", v)
            if back:
                decide(g, st, c, colour[v], queue, _lightest(st, back))
            else:
                decide(g, st, c, 1 - colour[v], queue, _lightest(st, front))
            continue
        r = rest[v]
        f = free[v]
        if r < 0:
            return _conflict(g, st, "too-many-later", v)
        if r > f:
            return _conflict(g, st, "too-few-left", v)
        if r == 0 or r == f:
            back = r == 0
            where[v] = BACK if back else FRONT
            st.open_mask ^= bit_of[v]
            if back:
                st.back_mask |= bit_of[v]
            mask = why[v]
            for u in nbrs[v]:
                side = where[u]
                if side == OPEN:
                    free[u] -= 1
                    if back:
                        rest[u] -= 1
                    queue.append(u)
                elif (side == BACK) == back:
                    mask |= why[u]
            why[v] = mask
    return None


def start(g: StoneGraph) -> tuple[State, Conflict | None]:
    """The state after every move forced by the target alone."""
    st = State.initial(g)
    return st, propagate(g, st, [v for v in range(g.n) if g.cluster_of[v] < 0])
