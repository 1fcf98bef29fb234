"""A target board seen as a graph of stones, the planner's working model.

The final value of a stone is 1 + (number of its neighbouring stones placed after it)
mod 4, so a target asks, for every stone, how many of its neighbours come later: its
*need*, which is its value - 1. The one exception is a stone showing 1 with four
neighbouring stones: it needs 0 or 4 later neighbours (it comes after all four, a
*sink*, or before all four, a *source*). Such stones are *ambiguous*; neighbouring
ambiguous stones must take opposite choices, so each connected *cluster* of them,
coloured in two alternating colours, has one free bit: the colour whose stones are
sources.

Sets of stones are also kept as bit masks over the board (bit ``(row-1)*(cols+1) +
col-1``; the spare bit per row stops shifts from wrapping round), so that the search can
flood-fill, count and compare whole groups with a handful of integer operations.

A *solution* is an orientation of every edge between neighbouring stones that is
acyclic and gives every stone its need. It is fixed by the cluster bits: with all
needs known, the stones that need 0 are last, and peeling them off determines the rest.
"""

from __future__ import annotations

from dataclasses import dataclass

from solvers.board import EMPTY, MAX_VALUE, Board, Cell


@dataclass(frozen=True)
class StoneGraph:
    """The stones of ``board`` numbered 0..n-1 in row-major order.

    Per stone: ``cells``, ``nbrs`` (neighbouring stones), ``need``, ``ambiguous``,
    ``cluster_of`` (-1 if none) and ``colour``; ``clusters`` lists each cluster's
    stones. Grid masks: ``bit[v]`` is stone v's bit and ``at`` maps it back;
    ``need_masks[k]`` holds the stones needing k, ``slack_masks[j]`` the unambiguous
    stones with j neighbours more than they need, ``lead_mask`` one stone per cluster.
    """

    board: Board
    cells: tuple[Cell, ...]
    index: dict[Cell, int]
    nbrs: tuple[tuple[int, ...], ...]
    need: tuple[int, ...]
    ambiguous: tuple[bool, ...]
    cluster_of: tuple[int, ...]
    colour: tuple[int, ...]
    clusters: tuple[tuple[int, ...], ...]
    width: int
    bit: tuple[int, ...]
    at: dict[int, int]
    need_masks: tuple[int, ...]
    all_mask: int
    lead_mask: int
    ambiguous_mask: int
    slack_masks: tuple[int, ...]

    @property
    def n(self) -> int:
        return len(self.cells)

    def value(self, v: int) -> int:
        return self.board.cells[self.board.index(self.cells[v])]

    def stones_in(self, mask: int) -> list[int]:
        """The stones of ``mask``, lowest bit first."""
        out = []
        at = self.at
        while mask:
            low = mask & -mask
            out.append(at[low])
            mask ^= low
        return out

    def spread(self, mask: int) -> int:
        """``mask`` and every grid neighbour of it (within the padded grid)."""
        w = self.width
        return mask | mask << 1 | mask >> 1 | mask << w | mask >> w

    def flood(self, seed: int, within: int) -> int:
        """The cells of ``within`` connected to ``seed`` through neighbours in ``within``."""
        reach = seed & within
        while True:
            grown = self.spread(reach) & within
            if grown == reach:
                return reach
            reach = grown

    def at_least(self, mask: int) -> tuple[int, int, int, int]:
        """Masks of the cells with at least 1, 2, 3 and 4 neighbours in ``mask``."""
        w = self.width
        a, b, c, d = mask << 1, mask >> 1, mask << w, mask >> w
        ab_or, ab_and, cd_or, cd_and = a | b, a & b, c | d, c & d
        return (
            ab_or | cd_or,
            ab_and | cd_and | (ab_or & cd_or),
            (ab_and & cd_or) | (cd_and & ab_or),
            ab_and & cd_and,
        )

    def exactly(self, mask: int) -> tuple[int, int, int, int, int]:
        """Masks of the cells with exactly 0..4 neighbours in ``mask``."""
        one, two, three, four = self.at_least(mask)
        return ~one, one & ~two, two & ~three, three & ~four, four

    def pairs(self, a: int, b: int) -> int:
        """The number of neighbouring (cell of ``a``, cell of ``b``) pairs."""
        w = self.width
        return (
            (a & b << 1).bit_count()
            + (a & b >> 1).bit_count()
            + (a & b << w).bit_count()
            + (a & b >> w).bit_count()
        )

    def needs(self, bits: tuple[int, ...]) -> list[int]:
        """Every stone's need once each cluster's source colour is ``bits[cluster]``."""
        need = list(self.need)
        for c, members in enumerate(self.clusters):
            for v in members:
                need[v] = MAX_VALUE if self.colour[v] == bits[c] else 0
        return need


def stone_graph(board: Board) -> StoneGraph:
    cells = tuple(board.stones())
    index = {cell: i for i, cell in enumerate(cells)}
    nbrs = tuple(
        tuple(index[n] for n in board.neighbours(cell) if board[n] != EMPTY) for cell in cells
    )
    values = [board[cell] for cell in cells]
    ambiguous = tuple(values[v] == 1 and len(nbrs[v]) == MAX_VALUE for v in range(len(cells)))
    need = tuple(0 if ambiguous[v] else values[v] - 1 for v in range(len(cells)))
    cluster_of = [-1] * len(cells)
    colour = [0] * len(cells)
    clusters: list[tuple[int, ...]] = []
    for seed in range(len(cells)):
        if not ambiguous[seed] or cluster_of[seed] >= 0:
            continue
        c = len(clusters)
        cluster_of[seed] = c
        members = [seed]
        for v in members:
            for u in nbrs[v]:
                if ambiguous[u] and cluster_of[u] < 0:
                    cluster_of[u] = c
                    colour[u] = 1 - colour[v]
                    members.append(u)
        clusters.append(tuple(sorted(members)))
    width = board.cols + 1
    bit = tuple(1 << ((r - 1) * width + c - 1) for r, c in cells)
    need_masks = [0] * MAX_VALUE
    slack_masks = [0] * (MAX_VALUE + 1)
    for v in range(len(cells)):
        need_masks[need[v]] |= bit[v]
        if not ambiguous[v]:
            slack_masks[len(nbrs[v]) - need[v]] |= bit[v]
    return StoneGraph(
        board,
        cells,
        index,
        nbrs,
        need,
        ambiguous,
        tuple(cluster_of),
        tuple(colour),
        tuple(clusters),
        width,
        bit,
        {b: v for v, b in enumerate(bit)},
        tuple(need_masks),
        sum(bit),
        sum(bit[members[0]] for members in clusters),
        sum(bit[v] for v in range(len(cells)) if ambiguous[v]),
        tuple(slack_masks),
    )
