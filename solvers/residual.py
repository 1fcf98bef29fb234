"""Forward play: which stones may be placed next, and which partial plans can finish.

Going forwards, a stone may be placed exactly when as many of its neighbouring stones
are already placed as will not come after it: its neighbour count minus its need (for
a 1 with four neighbouring stones, none or all four). Any order built that way gives
the target, provided it can be finished; ``Completion`` answers that with the planner,
treating the placed stones as the front of the order. Sets of placed stones are bit
masks over stone numbers (bit v for stone v).
"""

from __future__ import annotations

from solvers.board import MAX_VALUE
from solvers.groups import components
from solvers.numbered import Numbered
from solvers.propagation import FRONT, OPEN, State, decide, propagate
from solvers.search import Search


class Completion:
    """Memoised answers to "can the plan still be finished?" for one target."""

    def __init__(self, stones: Numbered) -> None:
        self.stones = stones
        self.g = stones.g
        self.nbr_masks = [sum(1 << u for u in ns) for ns in stones.nbrs]
        g = self.g
        self.wanted = [g.degree[p] - g.need[p] for p in stones.pos]
        self.ambiguous = [g.ambiguous(p) for p in stones.pos]
        self.search = Search(g, limit=1)
        self.known: dict[int, bool] = {}

    def placeable(self, placed: int, v: int) -> bool:
        """Whether stone ``v`` (not yet placed) may be placed now."""
        count = (placed & self.nbr_masks[v]).bit_count()
        if self.ambiguous[v]:
            return count in (0, MAX_VALUE)
        return count == self.wanted[v]

    def ok(self, placed: int) -> bool:
        """Whether the stones of ``placed``, placed by the rule above, can be completed."""
        known = self.known.get(placed)
        if known is None:
            known = self.known[placed] = self._solve(placed)
        return known

    def _solve(self, placed: int) -> bool:
        g, pos = self.g, self.stones.pos
        st = State.initial(g)
        where = st.where
        ones = [k for k in range(len(pos)) if placed >> k & 1]
        for k in ones:
            where[pos[k]] = FRONT
            st.open_mask ^= g.bit[pos[k]]
        queue: list[int] = []
        for k in ones:
            for u in g.adj[pos[k]]:
                if where[u] == OPEN:
                    st.free[u] -= 1
                    queue.append(u)
        for k in ones:
            p = pos[k]
            c = g.cluster_of[p]
            # A placed 1 with an unplaced neighbour went first: its cluster's bit is known.
            went_first = (placed & self.nbr_masks[k]) != self.nbr_masks[k]
            if c >= 0 and went_first and st.bits[c] < 0:
                decide(g, st, c, g.parity[p], queue, 0)
        queue.extend(p for p in g.stones if g.cluster_of[p] < 0 and where[p] == OPEN)
        if propagate(g, st, queue) is not None:
            return False
        return self.search.count_groups(st, components(g, st, g.all_mask))[0] > 0
