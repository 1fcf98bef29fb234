"""A target board seen as a graph of stones, the planner's working model.

The final value of a stone is 1 + (number of its neighbouring stones placed after it)
mod 4, so a target asks, for every stone, how many of its neighbours come later: its
*need*, which is its value - 1. The one exception is a stone showing 1 with four
neighbouring stones: it needs 0 or 4 later neighbours (it comes after all four, a
*sink*, or before all four, a *source*). Such stones are *ambiguous*; neighbouring
ambiguous stones must take opposite choices, so each connected *cluster* of them,
coloured in two alternating colours, has one free bit: the colour whose stones are
sources.

A stone is named by its *position* on a padded grid: a spare row above and below the
board and a spare column after each row, so that position ``p`` has the neighbours
``p - width``, ``p + width``, ``p - 1`` and ``p + 1`` (up, down, left, right) and none
of them is ever out of range. Sets of stones are bit masks over positions (bit ``p``),
so that the search can flood-fill, count and compare whole groups with a handful of
integer operations; per-position tables are ``bytes`` built by the C-level ``bytes``
methods rather than a Python loop over the stones.

A *solution* is an orientation of every edge between neighbouring stones that is
acyclic and gives every stone its need. It is fixed by the cluster bits: with all
needs known, the stones that need 0 are last, and peeling them off determines the rest.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from functools import lru_cache
from itertools import compress

from logo_bot.solvers.board import MAX_VALUE, Board, Cell

# bytes.translate tables over cell values 0..4 (and beyond, for padding).
_IS_STONE = bytes([0] + [1] * 255)
_IS_ONE = bytes([0, 1] + [0] * 254)
_NEED = bytes([0, 0, 1, 2, 3] + [0] * 251)
_DIGITS = b"0" + b"1" * 255


def _value_digits(value: int) -> bytes:
    return bytes(0x31 if k == value else 0x30 for k in range(256))


_VALUE_DIGITS = tuple(_value_digits(k) for k in range(MAX_VALUE + 1))


class Shape:
    """What depends only on the board's size: the padded grid and its neighbour table.

    ``adj[p]`` holds the four grid neighbours of a board position (up, down, left,
    right; padding positions have none), ``cell_of[p]`` its 1-based ``(row, col)``,
    ``parity[p]`` its checkerboard colour and ``bit[p]`` is ``1 << p``;
    ``no_clusters`` is ``cluster_of`` for a board without ambiguous stones;
    ``positions`` is every position in order.
    """

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols = rows, cols
        self.width = w = cols + 1
        self.size = (rows + 2) * w
        # One C call lays a board's cells out on the grid: "x" is a padding byte.
        self.pack = struct.Struct(f"{w}x" + f"{cols}Bx" * rows + f"{w}x").pack
        inside = [w <= p < (rows + 1) * w and p % w < cols for p in range(self.size)]
        self.adj: tuple[tuple[int, ...], ...] = tuple(
            (p - w, p + w, p - 1, p + 1) if inside[p] else () for p in range(self.size)
        )
        self.cell_of: tuple[Cell | None, ...] = tuple(
            (p // w, p % w + 1) if inside[p] else None for p in range(self.size)
        )
        self.parity = bytes((p // w + p % w) & 1 for p in range(self.size))
        self.bit = tuple(1 << p for p in range(self.size))
        self.no_clusters: tuple[int, ...] = (-1,) * self.size
        self.positions = range(self.size)

    def position(self, cell: Cell) -> int:
        return cell[0] * self.width + cell[1] - 1

    def padded(self, board: Board) -> bytes:
        """The board's values laid out on the padded grid (0 outside the board)."""
        return self.pack(*board.cells)


@lru_cache(maxsize=64)
def shape(rows: int, cols: int) -> Shape:
    return Shape(rows, cols)


def mask_of(lanes: bytes | bytearray, digits: bytes = _DIGITS) -> int:
    """The bit mask of the positions whose byte ``digits`` maps to ``'1'``."""
    return int(lanes[::-1].translate(digits), 2) if lanes else 0


def bits(mask: int) -> list[int]:
    """The numbers of the bits set in ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class StoneGraph:
    """The stones of ``board``, named by their positions on the padded grid.

    Per position: ``value``, ``need`` and ``degree`` (stone neighbours) as bytes,
    ``cluster_of`` (-1 if none); ``clusters`` lists each cluster's stones and
    ``cluster_ones`` how many of them have colour 1 (a stone's colour is its
    ``parity``). ``stones`` lists the stones in row-major order. Grid masks:
    ``ambiguous_mask``, ``lead_mask`` (one stone per cluster), and, built on first use
    since only the search needs them, ``need_masks`` and ``slack_masks``.
    """

    __slots__ = (
        "_need_masks",
        "_slack_masks",
        "adj",
        "all_mask",
        "ambiguous_mask",
        "bit",
        "board",
        "cell_of",
        "cluster_of",
        "cluster_ones",
        "clusters",
        "degree",
        "lead_mask",
        "n",
        "need",
        "parity",
        "shape",
        "stones",
        "value",
        "width",
    )

    def __init__(self, board: Board) -> None:
        sh = shape(board.rows, board.cols)
        self.board, self.shape = board, sh
        self.width, self.adj, self.cell_of = sh.width, sh.adj, sh.cell_of
        self.parity, self.bit = sh.parity, sh.bit
        self.value = value = sh.padded(board)
        self.need = value.translate(_NEED)
        stones = self.stones = list(compress(sh.positions, value))
        self.n = len(stones)
        w = sh.width
        lanes = int.from_bytes(value.translate(_IS_STONE), "little")
        shifted = (lanes << 8) + (lanes >> 8) + (lanes << 8 * w) + (lanes >> 8 * w)
        self.degree = shifted.to_bytes(sh.size + w + 1, "little")[: sh.size]
        self.all_mask = mask_of(value)
        # A lane of ``shifted`` is a degree 0..4, so its bit 2 is set exactly for 4.
        ones = int.from_bytes(value.translate(_IS_ONE), "little")
        self._need_masks: tuple[int, ...] | None = None
        self._slack_masks: tuple[int, ...] | None = None
        if ones & shifted >> 2:
            self.ambiguous_mask = mask_of(value, _VALUE_DIGITS[1]) & self.exactly(self.all_mask)[4]
            self._find_clusters()
        else:
            self.ambiguous_mask = self.lead_mask = 0
            self.clusters: tuple[tuple[int, ...], ...] = ()
            self.cluster_ones: tuple[int, ...] = ()
            self.cluster_of: Sequence[int] = sh.no_clusters

    @property
    def need_masks(self) -> tuple[int, ...]:
        """``need_masks[k]``: the stones needing k (ambiguous ones count as needing 0)."""
        if self._need_masks is None:
            self._need_masks = tuple(
                mask_of(self.value, _VALUE_DIGITS[k + 1]) for k in range(MAX_VALUE)
            )
        return self._need_masks

    @property
    def slack_masks(self) -> tuple[int, ...]:
        """``slack_masks[j]``: the unambiguous stones with j neighbours more than they need."""
        if self._slack_masks is None:
            exact = self.exactly(self.all_mask)
            slack = [0] * (MAX_VALUE + 1)
            for k, need_mask in enumerate(self.need_masks):
                plain = need_mask & ~self.ambiguous_mask
                for d in range(k, MAX_VALUE + 1):
                    slack[d - k] |= plain & exact[d]
            self._slack_masks = tuple(slack)
        return self._slack_masks

    def _find_clusters(self) -> None:
        """Number the clusters of neighbouring ambiguous stones (by their first stone)."""
        cluster_of = self.cluster_of = [-1] * len(self.value)
        clusters: list[tuple[int, ...]] = []
        ones: list[int] = []
        lead = 0
        ambiguous = self.ambiguous_mask
        if ambiguous:
            adj, parity = self.adj, self.parity
            for seed in self.stones_in(ambiguous):
                if cluster_of[seed] >= 0:
                    continue
                c = len(clusters)
                cluster_of[seed] = c
                members = [seed]
                for v in members:
                    for u in adj[v]:
                        if cluster_of[u] < 0 and ambiguous >> u & 1:
                            cluster_of[u] = c
                            members.append(u)
                members.sort()
                clusters.append(tuple(members))
                ones.append(sum(parity[v] for v in members))
                lead |= 1 << seed
        self.clusters = tuple(clusters)
        self.cluster_ones = tuple(ones)
        self.lead_mask = lead

    def cell(self, v: int) -> Cell:
        """The 1-based ``(row, col)`` of the stone at position ``v``."""
        cell = self.cell_of[v]
        assert cell is not None
        return cell

    def position(self, cell: Cell) -> int:
        return self.shape.position(cell)

    def nbrs(self, v: int) -> tuple[int, ...]:
        """The neighbouring stones of ``v`` (up, down, left, right)."""
        value = self.value
        return tuple(u for u in self.adj[v] if value[u])

    def ambiguous(self, v: int) -> bool:
        return self.cluster_of[v] >= 0

    # The stones of a mask, lowest position first.
    stones_in = staticmethod(bits)

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

    def needs(self, bits: list[int] | tuple[int, ...]) -> list[int]:
        """Every position's need once each cluster's source colour is ``bits[cluster]``."""
        need = list(self.need)
        parity = self.parity
        for c, members in enumerate(self.clusters):
            for v in members:
                need[v] = MAX_VALUE if parity[v] == bits[c] else 0
        return need


def stone_graph(board: Board) -> StoneGraph:
    return StoneGraph(board)
