"""Exhaustive searches that know nothing of the planner's model, for small boards.

They play the game with ``board.act`` and only use two plain facts of the rules: a
plan acts on the target's stones only (a stone never goes away), and a placed stone
is raised once by every neighbour placed after it.
"""

from __future__ import annotations

from collections.abc import Iterator

from logo_bot.solvers.board import Board, Cell, act, bump

Orientation = frozenset[tuple[Cell, Cell]]


def _could_still_match(board: Board, target: Board, placed: set[Cell], cell: Cell) -> bool:
    """After acting on ``cell``: can it and its neighbours still end as in the target?"""
    for c in (cell, *board.neighbours(cell)):
        if c not in placed:
            continue
        later = sum(1 for n in target.neighbours(c) if target[n] and n not in placed)
        if bump(board[c], later) != target[c]:
            return False
    return True


def plans(target: Board, canonical: bool = False) -> Iterator[tuple[Cell, ...]]:
    """Every order of the target's stones that builds it (first move first).

    With ``canonical``, two consecutive moves on non-neighbouring cells are kept in
    row-major order only: that still reaches every orientation, with far fewer orders.
    """
    stones = list(target.stones())
    placed: set[Cell] = set()
    order: list[Cell] = []

    def walk(board: Board) -> Iterator[tuple[Cell, ...]]:
        if len(order) == len(stones):
            if board == target:
                yield tuple(order)
            return
        for cell in stones:
            if cell in placed:
                continue
            if canonical and order:
                last = order[-1]
                if cell < last and cell not in set(board.neighbours(last)):
                    continue
            after = act(board, cell)
            placed.add(cell)
            order.append(cell)
            if _could_still_match(after, target, placed, cell):
                yield from walk(after)
            order.pop()
            placed.remove(cell)

    yield from walk(Board.empty(target.rows, target.cols))


def orientation(target: Board, plan: tuple[Cell, ...]) -> Orientation:
    """For every pair of neighbouring stones, which one the plan places first."""
    when = {cell: i for i, cell in enumerate(plan)}
    return frozenset(
        (a, b) for a in plan for b in target.neighbours(a) if b in when and when[a] < when[b]
    )


def orientations(target: Board) -> set[Orientation]:
    return {orientation(target, plan) for plan in plans(target, canonical=True)}


def presses(plan: tuple[Cell, ...], start: Cell, rows: int, cols: int, wrap: bool) -> int:
    """Key presses for ``plan``: one per cursor step and one per action."""
    total, (r, c) = 0, start
    for nr, nc in plan:
        dr, dc = abs(nr - r), abs(nc - c)
        if wrap:
            dr, dc = min(dr, rows - dr), min(dc, cols - dc)
        total += dr + dc + 1
        r, c = nr, nc
    return total
