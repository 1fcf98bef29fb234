"""The target as a graph: its stones, and the pairs of stones that touch."""

from __future__ import annotations

import heapq

from logo_bot.solvers.board import Board, Cell


def stone_graph(target: Board) -> tuple[list[tuple[Cell, int]], list[tuple[int, int]]]:
    """Stones row-major as ``(cell, value)``, and adjacent pairs ``(a, b)`` of indices, a < b."""
    stones = [(cell, target[cell]) for cell in target.stones()]
    index = {cell: k for k, (cell, _) in enumerate(stones)}
    edges = []
    for k, (cell, _) in enumerate(stones):
        for other in target.neighbours(cell):
            j = index.get(other)
            if j is not None and k < j:
                edges.append((k, j))
    return stones, edges


def topological_order(n: int, before: list[tuple[int, int]]) -> list[int] | None:
    """Nodes 0..n-1 so that every ``(a, b)`` in ``before`` has a first; None on a cycle.

    Among nodes free to go next the smallest goes first, so the order is reproducible.
    """
    succ: list[list[int]] = [[] for _ in range(n)]
    indeg = [0] * n
    for a, b in before:
        succ[a].append(b)
        indeg[b] += 1
    ready = [k for k in range(n) if indeg[k] == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        k = heapq.heappop(ready)
        order.append(k)
        for j in succ[k]:
            indeg[j] -= 1
            if indeg[j] == 0:
                heapq.heappush(ready, j)
    return order if len(order) == n else None
