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
from solvers.propagation import FRONT, State, decide, propagate
from solvers.search import Search
from solvers.stones import StoneGraph


class Completion:
    """Memoised answers to "can the plan still be finished?" for one target."""

    def __init__(self, g: StoneGraph) -> None:
        self.g = g
        self.nbr_masks = [sum(1 << u for u in ns) for ns in g.nbrs]
        self.wanted = [len(ns) - need for ns, need in zip(g.nbrs, g.need, strict=True)]
        self.search = Search(g, limit=1)
        self.known: dict[int, bool] = {}

    def placeable(self, placed: int, v: int) -> bool:
        """Whether stone ``v`` (not yet placed) may be placed now."""
        count = (placed & self.nbr_masks[v]).bit_count()
        if self.g.ambiguous[v]:
            return count in (0, MAX_VALUE)
        return count == self.wanted[v]

    def ok(self, placed: int) -> bool:
        """Whether the stones of ``placed``, placed by the rule above, can be completed."""
        known = self.known.get(placed)
        if known is None:
            known = self.known[placed] = self._solve(placed)
        return known

    def _solve(self, placed: int) -> bool:
        g = self.g
        st = State.initial(g)
        queue: list[int] = []
        for v in range(g.n):
            if not placed >> v & 1:
                continue
            st.where[v] = FRONT
            st.open_mask ^= g.bit[v]
            for u in g.nbrs[v]:
                if not placed >> u & 1:
                    st.free[u] -= 1
                    queue.append(u)
        for v in range(g.n):
            c = g.cluster_of[v]
            # A placed 1 with an unplaced neighbour went first: its cluster's bit is known.
            went_first = placed >> v & 1 and (placed & self.nbr_masks[v]) != self.nbr_masks[v]
            if c >= 0 and went_first and st.bits[c] < 0:
                decide(g, st, c, g.colour[v], queue, 0)
        queue.extend(v for v in range(g.n) if g.cluster_of[v] < 0 and not placed >> v & 1)
        if propagate(g, st, queue) is not None:
            return False
        return self.search.count_groups(st, components(g, st, g.all_mask))[0] > 0
