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

from logo_bot.solvers.board import MAX_VALUE
from logo_bot.solvers.stones import StoneGraph

OPEN, FRONT, BACK, NONE = 0, 1, 2, 3  # NONE: a position without a stone
UNDECIDED = -1

# bytes.translate table: a stone's position starts OPEN, any other NONE.
_WHERE = bytes([NONE] + [OPEN] * 255)


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

    Lists are indexed by position (see ``StoneGraph``); ``open_mask`` and ``back_mask``
    mirror ``where`` as bit masks.
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
            list(g.value.translate(_WHERE)),
            list(g.need),
            list(g.degree),
            [UNDECIDED] * len(g.clusters),
            [0] * len(g.value),
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
    where = st.where
    for u in g.adj[v]:
        side = where[u]
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
    parity, rest, why = g.parity, st.rest, st.why
    for v in g.clusters[cluster]:
        if parity[v] == bit:
            rest[v] += MAX_VALUE
        why[v] = because
        queue.append(v)


def propagate(
    g: StoneGraph, st: State, queue: list[int], trail: list[int] | None = None
) -> Conflict | None:
    """Apply every forced move reachable from the stones in ``queue``.

    A stone moved to the back owes it to its neighbours at the back (they make its need
    zero), one moved to the front to its neighbours at the front; ``why`` records only
    the decisions behind those. Each settled stone is appended to ``trail`` if given.
    """
    where, rest, free, bits, why = st.where, st.rest, st.free, st.bits, st.why
    adj, cluster_of, parity, bit_of = g.adj, g.cluster_of, g.parity, g.bit
    open_mask, back_mask = st.open_mask, st.back_mask
    conflict = None
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
                conflict = _conflict(g, st, "both-ways", v)
                break
            if back:
                decide(g, st, c, parity[v], queue, _lightest(st, back))
            else:
                decide(g, st, c, 1 - parity[v], queue, _lightest(st, front))
            continue
        r = rest[v]
        f = free[v]
        if r == 0:
            where[v] = BACK
            open_mask ^= bit_of[v]
            back_mask |= bit_of[v]
            mask = why[v]
            for u in adj[v]:
                side = where[u]
                if side == OPEN:
                    free[u] -= 1
                    rest[u] -= 1
                    queue.append(u)
                elif side == BACK:
                    mask |= why[u]
            why[v] = mask
        elif r == f:
            where[v] = FRONT
            open_mask ^= bit_of[v]
            mask = why[v]
            for u in adj[v]:
                side = where[u]
                if side == OPEN:
                    free[u] -= 1
                    queue.append(u)
                elif side == FRONT:
                    mask |= why[u]
            why[v] = mask
        elif r < 0:
            conflict = _conflict(g, st, "too-many-later", v)
            break
        elif r > f:
            conflict = _conflict(g, st, "too-few-left", v)
            break
        else:
            continue
        if trail is not None:
            trail.append(v)
    st.open_mask, st.back_mask = open_mask, back_mask
    return conflict


def start(g: StoneGraph, trail: list[int] | None = None) -> tuple[State, Conflict | None]:
    """The state after every move forced by the target alone."""
    st = State.initial(g)
    cluster_of = g.cluster_of
    queue = [v for v in g.stones if cluster_of[v] < 0] if g.clusters else g.stones[:]
    return st, propagate(g, st, queue, trail)
