"""Branching over cluster bits where forced moves stall: decide, count, enumerate.

A stalled state splits into independent groups of open stones. Each group is solved on
its own: check the necessary conditions (``solvers.groups``), probe the undecided
clusters both ways and pick one to branch on, and recurse into the groups that are left
after its forced moves. Groups are memoised by their stones and what those stones still
need, so the same sub-problem is never solved twice, and the solutions of a state are
the products of its groups' solutions.

A failure comes back with the mask of decisions it follows from; when the decision just
tried is not among them, its other value would fail the same way and is skipped.
"""

from __future__ import annotations

from collections.abc import Iterator

from logo_bot.solvers.groups import can_all_settle, components, count_ok, open_clusters
from logo_bot.solvers.propagation import State, decide, propagate
from logo_bot.solvers.stones import StoneGraph

Bits = dict[int, int]
Branch = tuple[State, int | None]
# Per cluster: (open stones when probed, cells the probes looked at, weaker branch's
# number of stones settled).
Probes = dict[int, tuple[int, int, int]]
Key = tuple[int, int]


class Search:
    """Solution counting (capped at ``limit``) and enumeration below one start state."""

    def __init__(self, g: StoneGraph, limit: int | None = None) -> None:
        self.g = g
        self.limit = limit
        self.memo: dict[Key, int] = {}
        self.witness: dict[Key, Bits] = {}
        self.branches = 0

    def _cap(self, count: int) -> int:
        return count if self.limit is None else min(count, self.limit)

    def _key(self, st: State, group: int) -> Key:
        """A group's stones and which of their neighbours are at the back fix its needs."""
        return group, st.back_mask & self.g.spread(group)

    def _choose(
        self, st: State, clusters: list[int], known: Probes
    ) -> tuple[int, list[Branch], Probes]:
        """The cluster to branch on, with both of its branches already propagated.

        Every undecided cluster is probed both ways: one with a value that fails at once
        is taken (its other value is then forced); otherwise the one whose weaker branch
        still settles the most stones, so that both branches make progress. A probe made
        higher up is reused when nothing it looked at has moved since (forced moves are
        local), which saves most probes; the probes come back for the node's children.
        """
        g = self.g
        probes: Probes = {}
        best_c, best_score = -1, -1
        for c in sorted(clusters, key=lambda c: -len(g.clusters[c])):
            old = known.get(c)
            if old is not None and not (old[0] & ~st.open_mask) & old[1]:
                probes[c] = old
                score = old[2]
            else:
                tries = [self._branch(st, c, bit) for bit in (0, 1)]
                if tries[0][1] is not None or tries[1][1] is not None:
                    return c, self._prefer(tries), probes
                settled = [st.open_mask & ~child.open_mask for child, _ in tries]
                score = min(m.bit_count() for m in settled)
                probes[c] = (st.open_mask, g.spread(g.spread(settled[0] | settled[1])), score)
            if score > best_score:
                best_c, best_score = c, score
        tries = [self._branch(st, best_c, bit) for bit in (0, 1)]
        return best_c, self._prefer(tries), probes

    @staticmethod
    def _prefer(tries: list[Branch]) -> list[Branch]:
        """The branch whose forced moves settle more first: it is more often right."""
        return sorted(tries, key=lambda t: t[0].open_mask.bit_count() if t[1] is None else 1 << 30)

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

    def count_groups(
        self, st: State, groups: list[int], probes: Probes | None = None
    ) -> tuple[int, int]:
        """The number of solutions of all ``groups`` together, and if none, why."""
        total = 1
        for group in sorted(groups, key=int.bit_count):
            count, because = self.count_group(st, group, probes or {})
            if count == 0:
                return 0, because
            total = self._cap(total * count)
        return total, 0

    def count_group(self, st: State, group: int, probes: Probes | None = None) -> tuple[int, int]:
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
        cluster, tries, probes = self._choose(st, clusters, probes or {})
        mine = 1 << cluster
        total, because = 0, 0
        for child, failed in tries:
            if failed is None:
                below = components(self.g, child, group)
                count, failed = self.count_groups(child, below, probes)
                if count:
                    if key not in self.witness:
                        self.witness[key] = self._witness(child, clusters, below)
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

    def _witness(self, child: State, clusters: list[int], below: list[int]) -> Bits:
        bits = {c: child.bits[c] for c in clusters if child.bits[c] >= 0}
        for sub in below:
            bits.update(self.witness[self._key(child, sub)])
        return bits

    def first(self, st: State, groups: list[int]) -> Bits | None:
        """The cluster bits of one solution below ``st``, or None when there is none."""
        if self.count_groups(st, groups)[0] == 0:
            return None
        return self._witness(st, [], groups)

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
        # The same choice as counting made, so the groups below are found in the memo.
        _, tries, _ = self._choose(st, clusters, {})
        for child, failed in tries:
            if failed is not None:
                continue
            here = {c: child.bits[c] for c in clusters if child.bits[c] >= 0}
            for more in self.enumerate_groups(child, components(self.g, child, group)):
                yield {**here, **more}
