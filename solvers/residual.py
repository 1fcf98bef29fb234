"""Which partial plans can still be finished, by the planner.

A partial plan here fixes a *front* (the stones placed first, in some order) and a
*back* (the stones placed last). Placed by the forward rule (``solvers.precedence``),
every front stone already has all its earlier neighbours and every back stone all its
later ones, so the partial plan can be finished exactly when the stones left can be
ordered between them: the planner answers that, with the front and back stones
settled as its forced moves would settle them. Sets of stones are bit masks over stone
numbers (bit k for stone k, see ``solvers.numbered``).
"""

from __future__ import annotations

from logo_bot.solvers.groups import components
from logo_bot.solvers.numbered import Numbered
from logo_bot.solvers.propagation import BACK, FRONT, OPEN, UNDECIDED, State, decide, propagate
from logo_bot.solvers.search import Search


class Completion:
    """Memoised answers to "can the plan still be finished?" for one target."""

    def __init__(self, stones: Numbered) -> None:
        self.stones = stones
        self.g = stones.g
        self.nbr_masks = [sum(1 << u for u in ns) for ns in stones.nbrs]
        self.search = Search(self.g, limit=1)
        self.known: dict[tuple[int, int], bool] = {}

    def ok(self, front: int, back: int = 0) -> bool:
        """Whether a plan that starts with ``front`` and ends with ``back`` can be finished."""
        key = (front, back)
        known = self.known.get(key)
        if known is None:
            known = self.known[key] = self._solve(front, back)
        return known

    def _solve(self, front: int, back: int) -> bool:
        g, pos, nbr_masks = self.g, self.stones.pos, self.nbr_masks
        st = State.initial(g)
        where, free, rest = st.where, st.free, st.rest
        fronts = [k for k in range(len(pos)) if front >> k & 1]
        backs = [k for k in range(len(pos)) if back >> k & 1]
        for k in fronts:
            where[pos[k]] = FRONT
            st.open_mask ^= g.bit[pos[k]]
        for k in backs:
            where[pos[k]] = BACK
            st.open_mask ^= g.bit[pos[k]]
            st.back_mask |= g.bit[pos[k]]
        queue: list[int] = []
        for k in fronts:
            for u in g.adj[pos[k]]:
                if where[u] == OPEN:
                    free[u] -= 1
                    queue.append(u)
        for k in backs:
            for u in g.adj[pos[k]]:
                if where[u] == OPEN:
                    free[u] -= 1
                    rest[u] -= 1
                    queue.append(u)
        # An ambiguous stone with a neighbour outside its own end of the plan went first
        # (front) or last (back) of its four: that decides its cluster.
        for k, side, mask in [(k, FRONT, front) for k in fronts] + [(k, BACK, back) for k in backs]:
            p = pos[k]
            c = g.cluster_of[p]
            if c < 0 or (mask & nbr_masks[k]) == nbr_masks[k]:
                continue
            bit = g.parity[p] if side == FRONT else 1 - g.parity[p]
            if st.bits[c] == UNDECIDED:
                decide(g, st, c, bit, queue, 0)
            elif st.bits[c] != bit:
                return False
        queue.extend(p for p in g.stones if g.cluster_of[p] < 0 and where[p] == OPEN)
        if propagate(g, st, queue) is not None:
            return False
        return self.search.count_groups(st, components(g, st, g.all_mask))[0] > 0
