"""A minimum-cost assignment that can drop one row and one column cheaply.

The Hungarian method by shortest augmenting paths with row and column potentials: a
full solve costs O(m^3); dropping a matched row and a column afterwards frees at most
one row and one column, which one augmenting path repairs in O(m^2). The potentials are
a feasible dual, so ``value - row_potential[r] - col_potential[c]`` is a lower bound on
the assignment left after dropping row ``r`` and column ``c``, without repairing it.
"""

from __future__ import annotations

from heapq import heappop, heappush

INFINITE = 10**6


class Assignment:
    """Rows and columns are ids into ``cost`` (a square list of lists)."""

    __slots__ = ("col_of", "cols", "cost", "nearest", "pot_col", "pot_row", "row_of", "value")

    def __init__(self, cost: list[list[int]], rows: list[int], cols: list[int]) -> None:
        if len(rows) != len(cols):
            raise ValueError("an assignment needs as many rows as columns")
        self.cost = cost
        self.cols = list(cols)
        size = len(cost)
        # Per row, every column, cheapest first.
        self.nearest = [sorted(range(size), key=line.__getitem__) for line in cost]
        self.pot_row = [0] * size
        self.pot_col = [0] * size
        self.row_of = [-1] * size  # column -> row
        self.col_of = [-1] * size  # row -> column
        self.value = 0
        for r in rows:
            self.value += self._augment(r)

    def copy(self) -> Assignment:
        twin = object.__new__(Assignment)
        twin.cost, twin.nearest = self.cost, self.nearest
        twin.cols = self.cols[:]
        twin.pot_row, twin.pot_col = self.pot_row[:], self.pot_col[:]
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
        twin = self.copy()
        twin.cols.remove(col)
        partner, other = twin.col_of[row], twin.row_of[col]
        twin.col_of[row] = twin.row_of[col] = -1
        twin.value -= twin.cost[row][partner]
        if partner != col:
            twin.row_of[partner] = twin.col_of[other] = -1
            twin.value -= twin.cost[other][col]
            grown = twin._augment(other, partner, cap)
            if grown is None:
                return None
            twin.value += grown
        return twin

    def _augment(self, start: int, goal: int = -1, cap: int | None = None) -> int | None:
        """Match the free row ``start`` along a shortest augmenting path (Hungarian step,
        Dijkstra on reduced costs); returns how much the matched cost grew. ``goal``, if
        given, is the only free column: among columns equally near it is reached first,
        which ends the search sooner when many reduced costs tie. With ``cap``, gives up
        (None, potentials unchanged) once the path is known to cost at least ``cap``.

        The potentials are updated once, at the end: a column reached at distance ``d``
        (and the row matched to it) moves by the path's length less ``d``. Each row's
        columns are scanned cheapest first, and only while they can still be reached
        below ``cap``; the nearest column comes from a heap.
        """
        cost, pot_row, pot_col = self.cost, self.pot_row, self.pot_col
        row_of, col_of = self.row_of, self.col_of
        size = len(cost)
        far = INFINITE * 8
        reach = [far] * size
        via = [-1] * size
        unused = [False] * size
        for c in self.cols:
            unused[c] = True
        # No column's reduced cost from any row is below its cost less ``lift``.
        lift = max(map(pot_col.__getitem__, self.cols), default=0)
        limit = far if cap is None or cap <= 0 else cap
        heap: list[tuple[int, bool, int]] = []
        used: list[int] = []
        col = -1  # the virtual column that holds ``start``
        near = 0  # the distance of the last column reached
        while True:
            row = start if col < 0 else row_of[col]
            line, base = cost[row], near - pot_row[row]
            top = limit - base + lift
            for c in self.nearest[row]:
                x = line[c]
                if x >= top:
                    break
                if unused[c]:
                    d = x + base - pot_col[c]
                    if d < reach[c]:
                        reach[c] = d
                        via[c] = col
                        heappush(heap, (d, c != goal, c))
            while heap and not unused[heap[0][2]]:
                heappop(heap)
            if not heap:
                return None  # every free column is at least ``cap`` away
            best, _, col = heappop(heap)
            if cap is not None and best > near and best >= cap:
                return None
            near = best
            unused[col] = False
            used.append(col)
            if row_of[col] < 0:
                break
        pot_row[start] += near
        for c in used:
            lag = near - reach[c]
            pot_col[c] -= lag
            if c != col:
                pot_row[row_of[c]] += lag
        grown = 0
        while col >= 0:
            prev = via[col]
            row = start if prev < 0 else row_of[prev]
            old = row_of[col]
            if old >= 0:
                grown -= cost[old][col]
            grown += cost[row][col]
            row_of[col] = row
            col_of[row] = col
            col = prev
        return grown
