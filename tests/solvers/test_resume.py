from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from logo_bot.solvers.board import Board, act, play, undo
from logo_bot.solvers.levels import parse_level
from logo_bot.solvers.planner import Unsolvable
from logo_bot.solvers.resume import blocker, fewest_resets, plan_from, reachable, resume

LEVEL_1 = "6 10\n..........\n....2.....\n...212....\n....2.....\n..........\n..........\n"
LEVEL_1_PLAN = ((4, 5), (3, 6), (3, 4), (2, 5), (3, 5))


@cache
def brute_reachable(target: Board, board: Board) -> bool:
    """Forward play from ``board`` over every order of the target's empty cells."""
    if board == target:
        return True
    return any(
        brute_reachable(target, act(board, cell)) for cell in target.stones() if board[cell] == 0
    )


@st.composite
def game(draw, max_rows=3, max_cols=3):
    """A small board size and a random sequence of distinct moves on it."""
    rows = draw(st.integers(1, max_rows))
    cols = draw(st.integers(1, max_cols))
    cells = [(r, c) for r in range(1, rows + 1) for c in range(1, cols + 1)]
    moves = draw(st.permutations(cells))
    return rows, cols, moves[: draw(st.integers(0, len(cells)))]


def test_level_1_from_a_good_prefix_and_a_wrong_stone():
    target = parse_level(LEVEL_1)
    half = play(Board.empty(6, 10), LEVEL_1_PLAN[:2])
    verdict = plan_from(target, half)
    assert verdict.solved and play(half, verdict.plan) == target
    wrong = play(Board.empty(6, 10), [(1, 1)])
    assert blocker(target, wrong) == "cell 1 1 holds a stone the target leaves empty"
    done = resume(target, wrong, cursor=(1, 1))
    assert done.resets == 1 and done.board == Board.empty(6, 10)
    assert play(done.board, done.ordering.plan) == target


@settings(max_examples=60, deadline=None)
@given(game(4, 5), st.data())
def test_every_prefix_of_a_real_plan_is_finished(g, data):
    rows, cols, moves = g
    target = play(Board.empty(rows, cols), moves)
    k = data.draw(st.integers(0, len(moves)))
    board = play(Board.empty(rows, cols), moves[:k])
    cursor = (data.draw(st.integers(1, rows)), data.draw(st.integers(1, cols)))
    verdict = plan_from(target, board)
    assert verdict.solved and play(board, verdict.plan) == target
    done = resume(target, board, cursor=cursor, history=moves[:k], budget_s=0.05)
    assert done.resets == 0 and play(board, done.ordering.plan) == target


@settings(max_examples=100, deadline=None)
@given(game(), game(), st.booleans())
def test_reachability_matches_brute_force_on_wrong_boards(g, h, inside):
    """Boards from other games; with ``inside``, only on the target's cells, in any order."""
    rows, cols, moves = g
    target = play(Board.empty(rows, cols), moves)
    other = [m for m in h[2] if m[0] <= rows and m[1] <= cols and (not inside or m in moves)]
    board = play(Board.empty(rows, cols), other)
    verdict = plan_from(target, board)
    assert verdict.solved == brute_reachable(target, board) == reachable(target, board)
    if verdict.solved:
        assert play(board, verdict.plan) == target
    else:
        assert verdict.reason


@settings(max_examples=60, deadline=None)
@given(game(), game())
def test_fewest_resets_matches_brute_force(g, h):
    rows, cols, moves = g
    target = play(Board.empty(rows, cols), moves)
    history = [m for m in h[2] if m[0] <= rows and m[1] <= cols]
    board = play(Board.empty(rows, cols), history)
    boards = [board]
    for cell in reversed(history):
        boards.append(undo(boards[-1], cell))
    best = next(k for k, b in enumerate(boards) if brute_reachable(target, b))
    assert fewest_resets(target, board, history) == best
    done = resume(target, board, cursor=(rows, cols), history=history, budget_s=0.05)
    assert done.resets == best and done.board == boards[best]
    assert play(done.board, done.ordering.plan) == target
    blind = resume(target, board, budget_s=0.05)
    assert blind.resets in (0, board.stone_count)
    assert play(blind.board, blind.ordering.plan) == target


def test_unsolvable_target_and_bad_history_are_refused():
    with pytest.raises(Unsolvable):
        fewest_resets(Board.from_rows(["22"]), Board.empty(1, 2))
    with pytest.raises(ValueError, match="history does not build"):
        fewest_resets(Board.from_rows(["1."]), Board.from_rows(["11"]), [(1, 1)])
