"""Finishing a partly built board: property tests against forward play and against a
brute-force search of every placement order on small boards."""

from __future__ import annotations

from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.board import EMPTY, Board, act, play
from solvers.partial import fewest_resets, finish, reason_unreachable
from solvers.planner import solve


@st.composite
def built(draw, rows=3, cols=4):
    """A target made by placing some cells in some order, and that order."""
    cells = [(r, c) for r in range(1, rows + 1) for c in range(1, cols + 1)]
    order = draw(st.permutations(cells))
    count = draw(st.integers(1, len(cells)))
    plan = list(order[:count])
    return play(Board.empty(rows, cols), plan), plan


@given(built(), st.data())
@settings(max_examples=150, deadline=None)
def test_from_any_prefix_of_a_real_plan_the_target_is_finished(made, data):
    target, plan = made
    k = data.draw(st.integers(0, len(plan)))
    board = play(Board.empty(target.rows, target.cols), plan[:k])
    cursor = data.draw(st.tuples(st.integers(1, target.rows), st.integers(1, target.cols)))
    result = finish(target, board, cursor, budget_s=0.05)
    assert result.reachable, result.reason
    assert play(board, result.plan) == target
    assert len(result.plan) == len(plan) - k


@cache
def reachable_by_search(target: Board, board: Board) -> bool:
    """Every placement, in every order, from ``board`` (small boards only)."""
    if board == target:
        return True
    return any(
        reachable_by_search(target, act(board, cell))
        for cell in target.stones()
        if board[cell] == EMPTY
    )


@st.composite
def any_board(draw, rows=2, cols=3):
    cells = draw(st.lists(st.integers(0, 4), min_size=rows * cols, max_size=rows * cols))
    return Board(rows, cols, tuple(cells))


@given(built(2, 3), any_board())
@settings(max_examples=300, deadline=None)
def test_reachable_exactly_when_some_placement_order_gets_there(made, board):
    target, _ = made
    result = finish(target, board, budget_s=0.05)
    assert result.reachable == reachable_by_search(target, board), result.reason
    if result.reachable:
        assert play(board, result.plan) == target
    else:
        assert result.reason


@given(built(2, 3), st.lists(st.tuples(st.integers(1, 2), st.integers(1, 3)), unique=True))
@settings(max_examples=200, deadline=None)
def test_fewest_resets_is_the_first_reachable_board_on_the_way_back(made, history):
    target, _ = made
    taken = fewest_resets(target, history)
    empty = Board.empty(2, 3)
    for k in range(taken):  # fewer resets leave it unreachable
        assert not reachable_by_search(target, play(empty, history[: len(history) - k]))
    assert reachable_by_search(target, play(empty, history[: len(history) - taken]))


def test_reasons_name_the_cell():
    target = Board.from_rows(["..2.", ".212", "..2."])
    wrong = Board.from_rows(["1...", "....", "...."])
    assert "holds a stone where the target has none" in reason_unreachable(target, wrong)
    low = Board.from_rows(["....", ".1..", "...."])  # (2,2) gets one more neighbour: 2 ok
    assert reason_unreachable(target, low) is None
    high = Board.from_rows(["....", ".2..", "...."])
    assert "would make it 3, not 2" in reason_unreachable(target, high)
    assert solve(target).solved
