"""The published algorithm, ported as the reference the benchmark measures against.

Backwards depth-first search: the last stone placed always shows 1, so take
back a stone showing 1 and recurse on what is left; try the candidates in
row-major order and remember every position (set of stones still on the
board) already found to be a dead end. The plan is the reverse of the
take-backs. It has no other reasoning, so an unsolvable target is only
proven by exhausting every reachable position, which the caps bound.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from logo_bot.solvers.board import Board, Cell

_CHECK_EVERY = 1024


@dataclass(frozen=True)
class Outcome:
    """What one search ended with: a plan, a proof of none, or a cap reached."""

    plan: tuple[Cell, ...] | None
    timed_out: bool
    nodes: int

    @property
    def solved(self) -> bool:
        return self.plan is not None


class _Capped(Exception):
    pass


def solve(target: Board, time_cap_s: float | None = None, node_cap: int | None = None) -> Outcome:
    """Search for a plan reaching ``target``; give up after the time or node cap."""
    stones = [i for i, v in enumerate(target.cells) if v]
    vals = list(target.cells)
    cols = target.cols
    nbrs: list[tuple[int, ...]] = [() for _ in vals]
    for i in stones:
        r, c = divmod(i, cols)
        around = []
        if r > 0:
            around.append(i - cols)
        if r < target.rows - 1:
            around.append(i + cols)
        if c > 0:
            around.append(i - 1)
        if c < cols - 1:
            around.append(i + 1)
        nbrs[i] = tuple(j for j in around if vals[j])
    deadline = None if time_cap_s is None else time.perf_counter() + time_cap_s
    try:
        undone, nodes = _search(vals, nbrs, stones, deadline, node_cap)
    except _Capped as capped:
        return Outcome(None, True, capped.args[0])
    if undone is None:
        return Outcome(None, False, nodes)
    plan = tuple((i // cols + 1, i % cols + 1) for i in reversed(undone))
    return Outcome(plan, False, nodes)


def _search(
    vals: list[int],
    nbrs: list[tuple[int, ...]],
    order: list[int],
    deadline: float | None,
    node_cap: int | None,
) -> tuple[list[int] | None, int]:
    """Iterative form of the recursion (boards up to 32x32 exceed Python's stack)."""
    mask = 0
    for i in order:
        mask |= 1 << i
    dead: set[int] = set()
    path: list[int] = []
    resume = [0]
    nodes = 0
    size = len(order)
    while mask:
        k = resume[-1]
        while k < size and vals[order[k]] != 1:
            k += 1
        if k == size:
            dead.add(mask)
            if not path:
                return None, nodes
            i = path.pop()
            resume.pop()
            _redo(vals, nbrs, i)
            mask |= 1 << i
            continue
        resume[-1] = k + 1
        i = order[k]
        _undo(vals, nbrs, i)
        mask ^= 1 << i
        nodes += 1
        if (node_cap is not None and nodes >= node_cap) or (
            deadline is not None and nodes % _CHECK_EVERY == 0 and time.perf_counter() > deadline
        ):
            raise _Capped(nodes)
        if mask in dead:
            _redo(vals, nbrs, i)
            mask |= 1 << i
            continue
        path.append(i)
        resume.append(0)
    return path, nodes


def _undo(vals: list[int], nbrs: list[tuple[int, ...]], i: int) -> None:
    vals[i] = 0
    for j in nbrs[i]:
        v = vals[j]
        if v:
            vals[j] = v - 1 if v > 1 else 4


def _redo(vals: list[int], nbrs: list[tuple[int, ...]], i: int) -> None:
    vals[i] = 1
    for j in nbrs[i]:
        v = vals[j]
        if v:
            vals[j] = v + 1 if v < 4 else 1
