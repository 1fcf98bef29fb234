"""A small backward search for test plans (the project's planner lives in solvers/)."""

from __future__ import annotations

from logo_bot.solvers.board import Board, Cell, RuleError, undo


def plan_for(target: Board) -> list[Cell]:
    """Cells to act on, first move first, that turn the empty board into ``target``.

    The last stone placed shows 1, so the target is taken apart by repeatedly taking
    back a stone showing 1; dead ends are remembered.
    """
    dead: set[tuple[int, ...]] = set()

    def search(board: Board) -> list[Cell] | None:
        if board.stone_count == 0:
            return []
        if board.cells in dead:
            return None
        for cell in board.stones():
            if board[cell] != 1:
                continue
            try:
                rest = search(undo(board, cell))
            except RuleError:
                continue
            if rest is not None:
                return [*rest, cell]
        dead.add(board.cells)
        return None

    plan = search(target)
    if plan is None:
        raise ValueError(f"no plan reaches\n{target}")
    return plan
