"""Branching over cluster bits where forced moves stall: decide, count, enumerate.

A stalled state splits into independent groups of open stones. Each group is solved on
its own: check the counting condition, pick an undecided cluster, try both bits with
forced moves, and recurse into the groups that are left. Groups are memoised by their
stones and what those stones still need, so the same sub-problem is never solved twice,
and the solutions of a state are the products of its groups' solutions.

A failure comes back with the mask of decisions it follows from; when the decision just
tried is not among them, its other value would fail the same way and is skipped.
"""

from __future__ import annotations

from collections.abc import Iterator

from solvers.groups import can_all_settle, components, count_ok, open_clusters
from solvers.propagation import State, decide, propagate
from solvers.stones import StoneGraph

Bits = dict[int, int]
Key = tuple[int, int]


class Search:
    """Solution counting (capped at ``limit``) and enumeration below one start state."""

    def __init__(self, g: StoneGraph, limit: int | None = None) -> None:
        self.g = g
        self.limit = limit
        self.memo: dict[Key, int] = {}
        self.branches = 0

    def _cap(self, count: int) -> int:
        return count if self.limit is None else min(count, self.limit)

    def _key(self, st: State, group: int) -> Key:
        """A group's stones and which of their neighbours are at the back fix its needs."""
        return group, st.back_mask & self.g.spread(group)

    def _pick(self, clusters: list[int]) -> int:
        """The largest undecided cluster: its bit settles the most stones either way."""
        return max(clusters, key=lambda c: len(self.g.clusters[c]))

    def _branch(self, st: State, cluster: int, bit: int) -> tuple[State, int | None]:
        """A copy of ``st`` with ``cluster`` set to ``bit`` and its forced moves.

        The second item is None, or the mask explaining the contradiction they hit.
        """
        self.branches += 1
        child = st.copy()
        queue: list[int] = []
        decide(self.g, child, cluster, bit, queue, 1 << cluster)
        conflict = propagate(self.g, child, queue)
        return child, None if conflict is None else conflict.because

    def count_groups(self, st: State, groups: list[int]) -> tuple[int, int]:
        """The number of solutions of all ``groups`` together, and if none, why."""
        total = 1
        for group in sorted(groups, key=int.bit_count):
            count, because = self.count_group(st, group)
            if count == 0:
                return 0, because
            total = self._cap(total * count)
        return total, 0

    def count_group(self, st: State, group: int) -> tuple[int, int]:
        """The number of solutions of one open group, and if none, why."""
        key = self._key(st, group)
        known = self.memo.get(key)
        if known is not None:
            return known, 0 if known else st.boundary(self.g, group)
        clusters = open_clusters(self.g, st, group)
        if not clusters:
            self.memo[key] = 0
            return 0, st.boundary(self.g, group)
        if not count_ok(self.g, st, group, clusters) or not can_all_settle(self.g, st, group):
            self.memo[key] = 0
            return 0, st.boundary(self.g, group)
        cluster = self._pick(clusters)
        mine = 1 << cluster
        total, because = 0, 0
        tries = [self._branch(st, cluster, bit) for bit in (0, 1)]
        # Try first the value whose forced moves settle more: it is more often right.
        tries.sort(key=lambda t: t[0].open_mask.bit_count() if t[1] is None else 1 << 30)
        for child, failed in tries:
            if failed is None:
                count, failed = self.count_groups(child, components(self.g, child, group))
                if count:
                    total = self._cap(total + count)
                    if total == self.limit:
                        break
                    continue
            if total == 0 and not failed & mine:
                # The failure does not depend on this cluster: the other bit fails too.
                self.memo[key] = 0
                return 0, failed
            because |= failed & ~mine
        self.memo[key] = total
        return total, because

    def enumerate_groups(self, st: State, groups: list[int]) -> Iterator[Bits]:
        """Every solution's cluster bits decided below ``st``; ``st`` is left unchanged."""
        if not groups:
            yield {}
            return
        if self.count_groups(st, groups)[0] == 0:
            return
        first, rest = groups[0], groups[1:]
        for bits in self.enumerate_group(st, first):
            for more in self.enumerate_groups(st, rest):
                yield {**bits, **more}

    def enumerate_group(self, st: State, group: int) -> Iterator[Bits]:
        clusters = open_clusters(self.g, st, group)
        cluster = self._pick(clusters)
        for bit in (0, 1):
            child, failed = self._branch(st, cluster, bit)
            if failed is not None:
                continue
            here = {c: child.bits[c] for c in clusters if child.bits[c] >= 0}
            for more in self.enumerate_groups(child, components(self.g, child, group)):
                yield {**here, **more}
