"""Necessary conditions on a stalled group of open stones, and how it splits.

When forced moves stall, the open stones fall into connected groups that can be solved
independently. A group can only have a solution if its needs add up (``count_ok``) and
if every stone in it could be reached by forced moves at all (``can_all_settle``);
both are checked on bit masks in a few integer operations.
"""

from __future__ import annotations

from logo_bot.solvers.board import MAX_VALUE
from logo_bot.solvers.propagation import State
from logo_bot.solvers.stones import StoneGraph


def components(g: StoneGraph, st: State, within: int) -> list[int]:
    """The connected groups of open stones in the mask ``within``, as masks."""
    left = within & st.open_mask
    groups = []
    while left:
        group = g.flood(left & -left, left)
        groups.append(group)
        left ^= group
    return groups


def open_clusters(g: StoneGraph, st: State, group: int) -> list[int]:
    """The undecided clusters in an open ``group`` of a stalled state.

    A decided cluster's stones leave the open set at once, so in a stalled state the
    open ambiguous stones are exactly the undecided clusters, each wholly in one group.
    """
    return [g.cluster_of[v] for v in g.stones_in(group & g.lead_mask)]


def sums_reachable(g: StoneGraph, clusters: list[int]) -> int:
    """Bit k set when the clusters' sources can number exactly k (one colour per cluster)."""
    reach = 1
    for c in clusters:
        ones = g.cluster_ones[c]
        reach = (reach << ones) | (reach << (len(g.clusters[c]) - ones))
    return reach


def missing_sources(g: StoneGraph, st: State, group: int) -> int:
    """Edges in an open group minus the later-neighbour needs of its stones.

    Every edge raises exactly one of its two stones, so in a solution the needs of a
    stalled group's stones add up to its edges; each source among its undecided
    ambiguous stones adds 4, so this is 4 x the number of such sources.
    """
    edges = g.pairs(group, group) // 2
    needed = sum(k * (group & m).bit_count() for k, m in enumerate(g.need_masks) if k)
    return edges - needed + g.pairs(group, st.back_mask)


def can_all_settle(g: StoneGraph, st: State, group: int) -> bool:
    """Whether every stone of a stalled group could be reached by forced moves at all.

    A stone moves to the back once as many neighbours as it still needs are at the
    back, and to the front once enough are at the front. Grow both sets from the
    undecided ambiguous stones (which may go either way) as if every stone could join
    both: a stone that joins neither can never move, whatever the decisions.
    """
    plain = group & ~g.ambiguous_mask
    back_n = g.exactly(st.back_mask)
    front_n = g.exactly(g.all_mask & ~st.open_mask & ~st.back_mask)
    by_rest = [0] * 4
    by_room = [0] * 4
    for n, need_mask in enumerate(g.need_masks):
        for b in range(n):
            by_rest[n - b] |= need_mask & back_n[b]
    for j, slack_mask in enumerate(g.slack_masks):
        for f in range(min(j, 4)):
            if j - f < 4:
                by_room[j - f] |= slack_mask & front_n[f]
    r1, r2, r3 = by_rest[1] & plain, by_rest[2] & plain, by_rest[3] & plain
    f1, f2, f3 = by_room[1] & plain, by_room[2] & plain, by_room[3] & plain
    back = front = group & g.ambiguous_mask
    while True:
        b1, b2, b3, _ = g.at_least(back)
        f1n, f2n, f3n, _ = g.at_least(front)
        grown_back = back | (r1 & b1) | (r2 & b2) | (r3 & b3)
        grown_front = front | (f1 & f1n) | (f2 & f2n) | (f3 & f3n)
        if grown_back == back and grown_front == front:
            return back | front == group
        back, front = grown_back, grown_front


def count_ok(g: StoneGraph, st: State, group: int, clusters: list[int]) -> bool:
    """The counting condition for a stalled group (see ``missing_sources``)."""
    missing = missing_sources(g, st, group)
    if missing < 0 or missing % MAX_VALUE:
        return False
    return bool(sums_reachable(g, clusters) >> (missing // MAX_VALUE) & 1)
