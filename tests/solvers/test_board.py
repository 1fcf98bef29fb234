import pytest

from logo_bot.solvers.board import Board, RuleError, act, bump, play, undo
from logo_bot.solvers.levels import parse_level

LEVEL_1 = """6 10
..........
....2.....
...212....
....2.....
..........
..........
"""


def test_published_level_1_plan_reaches_the_target():
    target = parse_level(LEVEL_1)
    plan = [(4, 5), (3, 6), (3, 4), (2, 5), (3, 5)]
    assert play(Board.empty(6, 10), plan) == target


def test_act_raises_neighbours_and_wraps_four_to_one():
    board = Board.from_rows(["...", ".4.", "..."])
    after = act(board, (1, 2))
    assert str(after) == ".1.\n.1.\n..."


def test_acting_on_a_stone_is_refused():
    board = Board.from_rows(["1"])
    with pytest.raises(RuleError, match="already holds a stone"):
        act(board, (1, 1))


def test_undo_is_the_inverse_of_act():
    board = Board.from_rows(["2.3", "...", "4.."])
    for cell in [(1, 2), (2, 1), (2, 3), (3, 2)]:
        assert undo(act(board, cell), cell) == board


def test_undo_needs_a_stone_showing_one():
    with pytest.raises(RuleError, match="does not show 1"):
        undo(Board.from_rows(["2"]), (1, 1))


def test_bump_cycles_through_one_to_four():
    assert [bump(v) for v in (1, 2, 3, 4)] == [2, 3, 4, 1]
    assert [bump(v, -1) for v in (1, 2, 3, 4)] == [4, 1, 2, 3]


def test_outside_cells_are_refused():
    with pytest.raises(RuleError, match="outside"):
        act(Board.empty(2, 2), (3, 1))


def test_play_agrees_with_repeated_act_on_a_random_plan():
    import random

    rng = random.Random(7)
    board = Board.from_rows(["2.3..", ".....", "4..1.", "....."])
    empty = [c for c in ((r, k) for r in range(1, 5) for k in range(1, 6)) if board[c] == 0]
    rng.shuffle(empty)
    expected = board
    for cell in empty:
        expected = act(expected, cell)
    assert play(board, empty) == expected


def test_play_refuses_a_cell_taken_earlier_in_the_plan():
    with pytest.raises(RuleError, match="cell 1 2 already holds a stone"):
        play(Board.empty(2, 2), [(1, 2), (1, 1), (1, 2)])
