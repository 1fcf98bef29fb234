"""A minimum-cost assignment that can drop one row and one column cheaply.

The Hungarian method by shortest augmenting paths with row and column potentials: a
full solve costs O(m^3); dropping a matched row and a column afterwards frees at most
one row and one column, which one augmenting path repairs in O(m^2). The potentials are
a feasible dual, so ``value - row_potential[r] - col_potential[c]`` is a lower bound on
the assignment left after dropping row ``r`` and column ``c``, without repairing it.

An assignment is never changed once made: a repair looks for its augmenting path in
the original, and only when one is found below the cap copies it and applies the path.
A copy shares the potentials of its original when the path leaves them as they are,
and with them each row's columns by reduced cost as bit masks, found once when first
needed: a capped repair follows those, many columns at a time. Its cap is usually 1:
then only the *tight* columns count (reduced cost 0).
"""

from __future__ import annotations

from heapq import heappop, heappush

INFINITE = 10**6
# Repairs capped at most this much look for their path with one bucket per distance
# instead of a heap (the costs are whole numbers, and most caps are 1 or 2).
MAX_BUCKETS = 16

# An augmenting path: (its length, its columns from the last to the first, the columns
# reached for good before its end with their distances).
AugmentingPath = tuple[int, list[int], list[tuple[int, int]]]
# The columns a search labels from each row: (the column matched to the row, -1 for
# the start row; the bit mask of the columns that got their label from it).
Gave = list[tuple[int, int]]


class Assignment:
    """Rows and columns are ids into ``cost`` (a square list of lists)."""

    __slots__ = (
        "col_of",
        "cost",
        "live",
        "nearest",
        "pot_col",
        "pot_row",
        "rings",
        "row_of",
        "value",
    )

    def __init__(self, cost: list[list[int]], rows: list[int], cols: list[int]) -> None:
        if len(rows) != len(cols):
            raise ValueError("an assignment needs as many rows as columns")
        self.cost = cost
        size = len(cost)
        # Per row, every column, cheapest first.
        self.nearest = [sorted(range(size), key=line.__getitem__) for line in cost]
        self.live = 0  # the columns still to be assigned, a bit mask
        for c in cols:
            self.live |= 1 << c
        self.pot_row = [0] * size
        self.pot_col = [0] * size  # never above 0: ``_apply`` only lowers them
        self.row_of = [-1] * size  # column -> row
        self.col_of = [-1] * size  # row -> column
        # row -> ``_ring_row``, or ``_tight_row`` (one mask) while only that was needed
        self.rings: list[tuple[int, ...] | None] = [None] * size
        self.value = 0
        for r in rows:
            self.value += self._apply(r, self._dense_path(r))
        self.rings = [None] * size  # the potentials have moved

    @property
    def cols(self) -> list[int]:
        """The columns still to be assigned."""
        return [c for c in range(len(self.cost)) if self.live >> c & 1]

    def copy(self) -> Assignment:
        """An independent copy (its own potentials)."""
        return self._twin(True)

    def _twin(self, own_potentials: bool) -> Assignment:
        """A copy; it shares the potentials unless ``own_potentials``."""
        twin = object.__new__(Assignment)
        twin.cost, twin.nearest, twin.live = self.cost, self.nearest, self.live
        if own_potentials:
            twin.pot_row, twin.pot_col = self.pot_row[:], self.pot_col[:]
            twin.rings = [None] * len(self.cost)
        else:
            twin.pot_row, twin.pot_col = self.pot_row, self.pot_col
            twin.rings = self.rings
        twin.row_of, twin.col_of = self.row_of[:], self.col_of[:]
        twin.value = self.value
        return twin

    def bound_without(self, row: int, col: int) -> int:
        """A lower bound on ``without(row, col).value`` from the potentials alone."""
        return self.value - self.pot_row[row] - self.pot_col[col]

    def without(self, row: int, col: int) -> Assignment:
        """The optimal assignment once ``row`` and ``col`` are gone."""
        twin = self.without_below(row, col, None)
        assert twin is not None
        return twin

    def without_below(self, row: int, col: int, cap: int | None) -> Assignment | None:
        """``without(row, col)``, or None as soon as it is known to cost at least
        ``bound_without(row, col) + cap`` (no cap: None)."""
        partner, other = self.col_of[row], self.row_of[col]
        found = None
        if partner != col:
            # Row ``other`` and column ``partner`` are left free: join them.
            if cap == 1:
                found = self._tight_path(other, partner, col)
            elif cap == 2:
                found = self._pair_path(other, partner, col)
            elif cap is not None and 2 < cap <= MAX_BUCKETS:
                found = self._bucket_path(other, partner, col, cap)
            else:
                found = self._heap_path(other, partner, col, cap)
            if found is None:
                return None
        twin = self._twin(found is not None and found[0] > 0)
        twin.live &= ~(1 << col)
        twin.col_of[row] = twin.row_of[col] = -1
        twin.value -= self.cost[row][partner]
        if found is not None:
            twin.row_of[partner] = twin.col_of[other] = -1
            twin.value += twin._apply(other, found) - self.cost[other][col]
        return twin

    def _heap_path(
        self, start: int, goal: int, banned: int, cap: int | None
    ) -> AugmentingPath | None:
        """A shortest augmenting path (Dijkstra on reduced costs, with a heap) from row
        ``start`` to a free column, or to ``goal`` (a matched column taken as free),
        avoiding column ``banned``; with ``cap``, None (potentials unchanged) once the
        path is known to cost at least ``cap``. ``goal`` is reached first among columns
        equally near, which ends the search sooner when many reduced costs tie.

        Each row's columns are scanned cheapest first, and only while they can still be
        reached below ``cap``: no column potential is above 0, so no reduced cost from
        a row is below its cost less the row's potential. The nearest column comes from
        a heap.
        """
        cost, pot_row, pot_col, row_of = self.cost, self.pot_row, self.pot_col, self.row_of
        nearest = self.nearest
        size = len(cost)
        far = INFINITE * 8
        reach = [far] * size
        via = [-1] * size
        free = self.live & ~(1 << banned) if banned >= 0 else self.live
        limit = cap if cap is not None and cap > 0 else far
        heap: list[tuple[int, bool, int]] = []
        passed: list[int] = []
        col = -1  # the virtual column that holds ``start``
        near = 0  # the distance of the last column reached
        while True:
            row = start if col < 0 else row_of[col]
            line, base = cost[row], near - pot_row[row]
            top = limit - base
            for c in nearest[row]:
                x = line[c]
                if x >= top:
                    break
                if free >> c & 1:
                    d = x + base - pot_col[c]
                    if d < reach[c]:
                        reach[c] = d
                        via[c] = col
                        heappush(heap, (d, c != goal, c))
            while heap and not free >> heap[0][2] & 1:
                heappop(heap)
            if not heap:
                return None  # every free column is at least ``cap`` away
            best, _, col = heappop(heap)
            if cap is not None and best > near and best >= cap:
                return None
            near = best
            free ^= 1 << col
            if col == goal or row_of[col] < 0:
                return _labelled_path(near, col, via, reach, passed)
            passed.append(col)

    def _dense_path(self, start: int) -> AugmentingPath:
        """``_heap_path`` to any free column, without a cap: every open column is
        labelled from the first row on, so the nearest is simply the least label (the
        lowest column among equals, as from the heap)."""
        cost, pot_row, pot_col, row_of = self.cost, self.pot_row, self.pot_col, self.row_of
        far = INFINITE * 8
        reach = [far] * len(cost)
        via = [-1] * len(cost)
        todo = self.cols  # the columns not reached for good, lowest first
        passed: list[int] = []
        row, col, near = start, -1, 0
        while True:
            line, base = cost[row], near - pot_row[row]
            came = col
            near = 2 * far  # above every label
            for c in todo:
                d = line[c] + base - pot_col[c]
                if d < reach[c]:
                    reach[c] = d
                    via[c] = came
                else:
                    d = reach[c]
                if d < near:
                    near, col = d, c
            todo.remove(col)
            if row_of[col] < 0:
                return _labelled_path(near, col, via, reach, passed)
            passed.append(col)
            row = row_of[col]

    def _bucket_path(self, start: int, goal: int, banned: int, cap: int) -> AugmentingPath | None:
        """``_heap_path`` for a cap from 2 (``_pair_path`` takes a cap of 2 in
        ``without_below``) to ``MAX_BUCKETS`` when every open column but
        ``goal`` is matched: the distances below ``cap`` are few whole numbers, each
        with a bit mask of the columns labelled with it, taken lowest first as from the
        heap (so the path is the same)."""
        rings, row_of = self.rings, self.row_of
        free = self.live & ~(1 << banned)  # the columns not reached for good
        buckets = [0] * cap  # distance -> the free columns labelled with it
        labelled = 0
        gave: Gave = []
        passed: list[tuple[int, int]] = []
        row, col, near = start, -1, 0
        while True:
            ring = rings[row]
            if ring is None or len(ring) == 1:
                ring = self._ring_row(row)
            # A free column labelled before is in one bucket; it is relabelled only from
            # a farther one. Each column is in one ring mask, so ``closer`` need not
            # see what this row labels.
            closer = 0
            for d, mask in zip(range(near, cap), ring, strict=False):
                closer |= buckets[d]
                hits = mask & free
                if not hits:
                    continue
                better = hits & ~closer
                if better:
                    if better & labelled:
                        for e in range(d + 1, cap):
                            buckets[e] &= ~better
                    buckets[d] |= better
                    labelled |= better
                    gave.append((col, better))
            # The next column: the goal if none is nearer, else the lowest of the nearest.
            while True:
                left = buckets[near]
                if left >> goal & 1:
                    return near, _chain(gave, goal), passed
                if left:
                    low = left & -left
                    buckets[near] = left ^ low
                    col = low.bit_length() - 1
                    break
                near += 1
                if near == cap:
                    return None
            free ^= 1 << col
            passed.append((col, near))
            row = row_of[col]

    def _pair_path(self, start: int, goal: int, banned: int) -> AugmentingPath | None:
        """``_bucket_path`` for a cap of 2 (the most common after 1), its two buckets
        held as two masks."""
        rings, row_of = self.rings, self.row_of
        free = self.live & ~(1 << banned)  # the columns not reached for good
        zero = one = 0  # the free columns labelled with distance 0, and with 1
        gave: Gave = []
        passed: list[tuple[int, int]] = []
        row, col, near = start, -1, 0
        while True:
            ring = rings[row]
            if ring is None or len(ring) == 1:
                ring = self._ring_row(row)
            if near:
                better = ring[0] & free & ~one
                if better:
                    one |= better
                    gave.append((col, better))
            else:
                better = ring[0] & free & ~zero
                if better:
                    one &= ~better
                    zero |= better
                    gave.append((col, better))
                better = ring[1] & free & ~(zero | one)
                if better:
                    one |= better
                    gave.append((col, better))
            # The next column: the goal if none is nearer, else the lowest of the nearest.
            if not zero:
                near = 1
            if near:
                if one >> goal & 1:
                    return 1, _chain(gave, goal), passed
                if not one:
                    return None
                low = one & -one
                one ^= low
            else:
                if zero >> goal & 1:
                    return 0, _chain(gave, goal), passed
                low = zero & -zero
                zero ^= low
            col = low.bit_length() - 1
            free ^= 1 << col
            passed.append((col, near))
            row = row_of[col]

    def _tight_path(self, start: int, goal: int, banned: int) -> AugmentingPath | None:
        """``_bucket_path`` for a cap of 1: a path of length 0, over tight columns only,
        a row's at a time."""
        rings, row_of = self.rings, self.row_of
        free = self.live & ~(1 << banned)  # the columns not reached yet
        reached = 0  # the columns reached but not yet looked from
        gave: Gave = []
        row, col = start, -1
        while True:
            ring = rings[row]
            if ring is None:
                ring = self._tight_row(row)
            hits = ring[0] & free  # the tight columns
            if hits:
                gave.append((col, hits))
                if hits >> goal & 1:
                    return 0, _chain(gave, goal), []
                free ^= hits
                reached |= hits
            if not reached:
                return None
            low = reached & -reached
            reached ^= low
            col = low.bit_length() - 1
            row = row_of[col]

    def _ring_row(self, row: int) -> tuple[int, ...]:
        """The columns of each reduced cost from ``row`` below ``MAX_BUCKETS``, as bit
        masks, cheapest first (found once per potentials)."""
        line, least, pot_col = self.cost[row], self.pot_row[row], self.pot_col
        masks = [0] * MAX_BUCKETS
        for c in self.nearest[row]:
            x = line[c] - least
            if x >= MAX_BUCKETS:
                break  # no column potential is above 0
            x -= pot_col[c]
            if 0 <= x < MAX_BUCKETS:  # (below 0 only for a column already gone)
                masks[x] |= 1 << c
        ring = self.rings[row] = tuple(masks)
        return ring

    def _tight_row(self, row: int) -> tuple[int]:
        """The first mask of ``_ring_row`` alone, the tight columns: as no column
        potential is above 0, only columns that cost at most the row's potential can be
        tight, which ends the scan much sooner."""
        line, least, pot_col = self.cost[row], self.pot_row[row], self.pot_col
        mask = 0
        for c in self.nearest[row]:
            x = line[c] - least
            if x > 0:
                break
            if x == pot_col[c]:
                mask |= 1 << c
        ring = self.rings[row] = (mask,)
        return ring

    def _apply(self, start: int, found: AugmentingPath) -> int:
        """Match the free row ``start`` along ``found``; returns how much the matched
        cost grew. The potentials move once, at the end: a column reached at distance
        ``d`` (and the row matched to it) by the path's length less ``d``."""
        near, chain, passed = found
        cost, pot_row, pot_col = self.cost, self.pot_row, self.pot_col
        row_of, col_of = self.row_of, self.col_of
        if near:
            pot_row[start] += near
            for c, d in passed:
                lag = near - d
                pot_col[c] -= lag
                pot_row[row_of[c]] += lag
        grown = 0
        for i, col in enumerate(chain, 1):
            row = row_of[chain[i]] if i < len(chain) else start
            old = row_of[col]
            if old >= 0:
                grown -= cost[old][col]
            grown += cost[row][col]
            row_of[col] = row
            col_of[row] = col
        return grown


def _chain(gave: Gave, col: int) -> list[int]:
    """The path's columns from ``col`` back to the first: each got its label from the
    row of the one before it, the last time a row gave it one."""
    chain = []
    i = len(gave) - 1
    while col >= 0:
        chain.append(col)
        bit = 1 << col
        while not gave[i][1] & bit:
            i -= 1
        col = gave[i][0]
    return chain


def _labelled_path(
    near: int, col: int, via: list[int], reach: list[int], passed: list[int]
) -> AugmentingPath:
    """The path that ends at free column ``col`` at distance ``near``, followed back
    through ``via`` to the start row, and the columns ``passed`` with their labels."""
    chain = []
    while col >= 0:
        chain.append(col)
        col = via[col]
    return near, chain, [(c, reach[c]) for c in passed]
