"""Finishing a level already in progress: RESETs to take back, then a plan from there.

A stone never moves once placed: each later move next to it adds one (4 wraps to 1).
So from a board ``B`` the target ``T`` can be built exactly when (1) every stone of ``B``
is a stone of ``T``, (2) each of them, bumped once per neighbour still to be placed,
shows its target value, and (3) the cells still to fill, taken alone as a target, have a
plan. Stones already on the board never change the order the new ones need, so that
plan (from ``solve``) played on ``B`` builds ``T``, and no other plan exists when it
has none.

RESET (the game's ``take_back``) pops the undo stack: the last placed stone empties and
its stone neighbours go down by one, i.e. ``board.undo``. The stack holds one entry per
stone on the board, so when only the board is known, ``stone_count`` RESETs always empty
it; with the ``history`` (moves in order) the fewest RESETs are found by popping. A bot
that sees the board can also reach that fewest without the history: press RESET once,
re-read the board, and stop as soon as ``reachable`` says yes. RESET leaves the cursor
where it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from logo_bot.solvers.board import EMPTY, Board, Cell, RuleError, bump, play, undo
from logo_bot.solvers.order import Ordering, fewest_presses
from logo_bot.solvers.planner import Unsolvable, Verdict, solve


def _still_to_place(target: Board, board: Board) -> Board:
    """The target's cells that the board leaves empty, as a target of their own."""
    cells = tuple(
        t if b == EMPTY else EMPTY for t, b in zip(target.cells, board.cells, strict=True)
    )
    return Board(target.rows, target.cols, cells)


def blocker(target: Board, board: Board) -> str | None:
    """Why the stones already on ``board`` rule the target out, or None if they do not."""
    if (target.rows, target.cols) != (board.rows, board.cols):
        raise ValueError(
            f"the board is {board.rows}x{board.cols} but the target {target.rows}x{target.cols}"
        )
    rest = _still_to_place(target, board)
    for cell in board.stones():
        if target[cell] == EMPTY:
            return f"cell {cell[0]} {cell[1]} holds a stone the target leaves empty"
        later = sum(1 for n in board.neighbours(cell) if rest[n] != EMPTY)
        if bump(board[cell], later) != target[cell]:
            return (
                f"cell {cell[0]} {cell[1]} shows {board[cell]} and gets {later} more "
                f"neighbour(s), so it ends at {bump(board[cell], later)}, not {target[cell]}"
            )
    return None


def plan_from(target: Board, board: Board) -> Verdict:
    """A plan that builds ``target`` from ``board``, verified by forward play, or why none."""
    reason = blocker(target, board)
    if reason is not None:
        return Verdict(None, reason)
    verdict = solve(_still_to_place(target, board))
    if verdict.plan is None:
        return Verdict(None, f"the cells still empty cannot be filled: {verdict.reason}")
    if play(board, verdict.plan) != target:
        raise RuleError("internal error: the plan from the board does not build the target")
    return verdict


def reachable(target: Board, board: Board) -> bool:
    """Whether some sequence of moves builds ``target`` from ``board``."""
    return blocker(target, board) is None and solve(_still_to_place(target, board)).solved


def fewest_resets(target: Board, board: Board, history: Sequence[Cell] | None = None) -> int:
    """The fewest RESET presses after which ``target`` is reachable.

    ``history`` is every move since the level began, oldest first (it must build
    ``board``). Without it only the board is known: 0 if the target is reachable now,
    else every stone is taken back (``board.stone_count`` presses), which always works.
    Raises ``Unsolvable`` if the target has no plan even from an empty board.
    """
    whole = solve(target)
    if not whole.solved:
        raise Unsolvable(whole.reason or "the target has no plan")
    if reachable(target, board):
        return 0
    if history is None:
        return board.stone_count
    moves = list(history)
    if play(Board.empty(board.rows, board.cols), moves) != board:
        raise ValueError("the history does not build the board as it stands")
    now = board
    for k in range(1, len(moves) + 1):
        now = undo(now, moves[-k])
        if reachable(target, now):
            return k
    raise AssertionError("unreachable: the empty board always reaches a solvable target")


def reset(board: Board, history: Sequence[Cell] | None, presses: int) -> Board:
    """The board after ``presses`` RESETs (without history, only all of them is known)."""
    if presses == 0:
        return board
    if history is None:
        if presses < board.stone_count:
            raise ValueError("without the history only a full RESET has a known result")
        return Board.empty(board.rows, board.cols)
    now = board
    for cell in list(history)[::-1][:presses]:
        now = undo(now, cell)
    return now if presses <= len(history) else Board.empty(board.rows, board.cols)


@dataclass(frozen=True)
class Resumed:
    """RESET ``resets`` times (leaving ``board``), then play ``ordering.plan`` from ``cursor``."""

    resets: int
    board: Board
    ordering: Ordering


def resume(
    target: Board,
    board: Board,
    cursor: Cell = (1, 1),
    history: Sequence[Cell] | None = None,
    wrap: bool = False,
    budget_s: float | None = 1.0,
) -> Resumed:
    """How to finish a level from ``board`` with the cursor at ``cursor``: fewest RESETs,
    then the remaining moves ordered for fewest key presses (RESET does not move the
    cursor). Raises ``Unsolvable`` if the target has no plan at all."""
    k = fewest_resets(target, board, history)
    after = reset(board, history, k)
    rest = _still_to_place(target, after)
    ordering = fewest_presses(rest, start=cursor, wrap=wrap, budget_s=budget_s)
    if play(after, ordering.plan) != target:
        raise RuleError("internal error: the ordered plan does not build the target")
    return Resumed(k, after, ordering)
