"""Finishing a level from a board that is already partly built (a game taken over).

Stones are never removed but by RESET, and a stone's value changes only when a
neighbour is placed after it. So from ``board`` the target can be reached exactly
when: every stone of the board is a stone of the target; each of them, raised once
for every target neighbour still to be placed, shows its target value; and the
cells still to be placed can be ordered among themselves, which is the plain
planning problem of the target restricted to those cells (the board's stones,
all placed before them, do not change their values). ``finish`` decides it and
returns the plan from the board, ordered for the fewest key presses from the cursor.
"""

from __future__ import annotations

from dataclasses import dataclass

from solvers.board import EMPTY, Board, Cell, bump, play
from solvers.order import Ordering, fewest_presses
from solvers.planner import solve


@dataclass(frozen=True)
class Finish:
    """The plan from the board (first move first), or why there is none."""

    plan: tuple[Cell, ...] | None
    reason: str | None = None
    ordering: Ordering | None = None

    @property
    def reachable(self) -> bool:
        return self.plan is not None


def rest_of(target: Board, board: Board) -> Board:
    """The target without the board's stones: what is still to be placed."""
    cells = tuple(
        EMPTY if b != EMPTY else t for t, b in zip(target.cells, board.cells, strict=True)
    )
    return Board(target.rows, target.cols, cells)


def reason_unreachable(target: Board, board: Board) -> str | None:
    """Why no placing of stones takes ``board`` to ``target`` (None: the stones agree;
    the rest must still be solvable)."""
    if (target.rows, target.cols) != (board.rows, board.cols):
        return f"the board is {board.rows}x{board.cols}, the target {target.rows}x{target.cols}"
    rest = rest_of(target, board)
    for cell in board.stones():
        if target[cell] == EMPTY:
            return f"cell {cell[0]} {cell[1]} holds a stone where the target has none"
        later = sum(1 for n in target.neighbours(cell) if rest[n] != EMPTY)
        if bump(board[cell], later) != target[cell]:
            return (
                f"cell {cell[0]} {cell[1]} shows {board[cell]}; the {later} target stones "
                f"still to be placed next to it would make it {bump(board[cell], later)}, "
                f"not {target[cell]}"
            )
    return None


def finish(
    target: Board, board: Board, cursor: Cell = (1, 1), wrap: bool = False, budget_s: float = 1.0
) -> Finish:
    """The fewest-keypress plan that builds ``target`` from ``board``, or the reason none
    exists (then stones must be taken back first). Verified by forward simulation."""
    reason = reason_unreachable(target, board)
    if reason is not None:
        return Finish(None, reason)
    rest = rest_of(target, board)
    if rest.stone_count == 0:
        return Finish(())
    verdict = solve(rest)
    if not verdict.solved:
        return Finish(None, f"the stones still to be placed cannot be ordered: {verdict.reason}")
    ordering = fewest_presses(rest, start=cursor, wrap=wrap, budget_s=budget_s)
    plan = tuple(ordering.plan)
    if play(board, plan) != target:  # the reasoning above, checked on the real rules
        raise AssertionError(f"plan {plan} does not build the target from\n{board}")
    return Finish(plan, None, ordering)


def fewest_resets(target: Board, history: list[Cell] | tuple[Cell, ...]) -> int:
    """How many stones RESET must take back (the last placed first) before ``target`` is
    reachable, when the placements that made the board are known, first first. RESET's
    order is the game's, so the first reachable board on the way back is the closest."""
    rows, cols = target.rows, target.cols
    for taken in range(len(history) + 1):
        board = play(Board.empty(rows, cols), history[: len(history) - taken])
        if finish(target, board, budget_s=0.05).reachable:
            return taken
    raise ValueError("the target cannot be built even from an empty board")
