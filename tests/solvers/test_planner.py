import math
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from logo_bot.solvers.board import Board, play
from logo_bot.solvers.levels import parse_level
from logo_bot.solvers.planner import PlanError, count_solutions, solutions, solve, verify
from tests.solvers.solver_brute_force import orientation, orientations, plans

LEVEL_1 = "6 10\n..........\n....2.....\n...212....\n....2.....\n..........\n..........\n"
LEVEL_2 = "6 10\n..........\n.....1....\n....111...\n...11111..\n....111...\n.....1....\n"
LEVEL_1_PLAN = ((4, 5), (3, 6), (3, 4), (2, 5), (3, 5))

# Two distinct solutions (found by the planner, confirmed by the brute force below).
TWO_WAYS = Board.from_rows(["...22..", "..2132.", ".14213.", "1.2331.", ".1....1"])


@pytest.mark.parametrize("text", [LEVEL_1, LEVEL_2], ids=["level-1", "level-2"])
def test_published_targets_are_solved_with_a_plan_that_builds_them(text):
    target = parse_level(text)
    verdict = solve(target)
    assert verdict.solved and verdict.reason is None
    assert len(verdict.plan) == target.stone_count
    assert play(Board.empty(6, 10), verdict.plan) == target


def test_level_1_published_plan_verifies():
    verify(parse_level(LEVEL_1), LEVEL_1_PLAN)


def test_verify_names_what_is_wrong():
    target = parse_level(LEVEL_1)
    wrong = r"5 moves leave 4 cell\(s\) different from the target: 2 5, 3 4, 3 6, 4 5"
    with pytest.raises(PlanError, match=wrong):
        verify(target, LEVEL_1_PLAN[::-1])
    with pytest.raises(PlanError, match="breaks the rules: cell 4 5 already holds a stone"):
        verify(target, (*LEVEL_1_PLAN[:2], (4, 5)))
    with pytest.raises(PlanError, match="outside the 6x10 board"):
        verify(target, [(7, 1)])


def test_empty_target_needs_no_moves():
    assert solve(Board.empty(3, 4)).plan == ()
    assert count_solutions(Board.empty(3, 4)) == 1


@pytest.mark.parametrize(
    ("rows", "words"),
    [
        (["1.", "4."], "cell 2 1 shows 4 but has only 1 neighbouring stone, so it can never"),
        (["3.", ".."], "cell 1 1 shows 3 but has no neighbouring stones, so it always shows 1"),
        (["11", ".."], "cells 1 1 and 1 2 are neighbours and both show 1"),
        (["2", "2"], "must each be placed before all their neighbours, but they are neighbours"),
        (["222."], "no stone of the 3 stones can be the last of them to be placed"),
        ([".121"], "no stone of the 3 stones can be the first of them to be placed"),
        (["1", "2", "1", "2", "."], "have 3 pairs of neighbours, .* but they add up to 2"),
        (["23", "41", "12"], "cell 2 2 shows 1, so it must be placed after all its neighbours"),
        (["31", "34", "12", "31"], "3 1 and 4 2 must both come after it"),
        (["31", "12", "34", "31"], "cell 3 2 shows 4 with 3 neighbouring stones, so it must"),
        (["212", "142", "313", "213"], "3 2 and 4 3 must both come before it, which leaves"),
        (["223", "341", "414", "221", "242"], "must come before all four or after all four"),
        (["32", "22", "32", "13"], "the 4 stones left around cell 2 1 are deadlocked"),
    ],
)
def test_unsolvable_targets_say_why(rows, words):
    target = Board.from_rows(rows)
    verdict = solve(target)
    assert not verdict.solved
    assert count_solutions(target) == 0
    if target.stone_count <= 10:
        assert not list(plans(target))
    assert verdict.reason is not None
    assert re.search(words, verdict.reason), verdict.reason


def test_a_target_with_two_solutions_yields_both():
    found = list(solutions(TWO_WAYS))
    assert len(found) == 2 == count_solutions(TWO_WAYS)
    assert {orientation(TWO_WAYS, p) for p in found} == orientations(TWO_WAYS)
    assert count_solutions(TWO_WAYS, limit=1) == 1
    assert len(list(solutions(TWO_WAYS, limit=1))) == 1
    assert list(solutions(TWO_WAYS, limit=0)) == []


def forward_play(draw, max_side: int) -> Board:
    rows = draw(st.sampled_from(range(1, max_side + 1)))
    cols = draw(st.sampled_from(range(1, max_side + 1)))
    cells = [(r, c) for r in range(1, rows + 1) for c in range(1, cols + 1)]
    density = draw(st.sampled_from([0.2, 0.5, 0.8, 1.0]))
    order = draw(st.permutations(cells))
    return play(Board.empty(rows, cols), order[: math.ceil(density * len(cells))])


@st.composite
def played(draw, max_side: int = 32) -> Board:
    return forward_play(draw, max_side)


@st.composite
def changed(draw, max_side: int) -> Board:
    """A played target with one cell's value changed, or a stone added or removed."""
    board = forward_play(draw, max_side)
    cells = list(board.cells)
    i = draw(st.integers(0, len(cells) - 1))
    cells[i] = draw(st.integers(0, 4).filter(lambda v: v != cells[i]))
    return Board(board.rows, board.cols, tuple(cells))


@settings(max_examples=100, deadline=None)
@given(played())
def test_played_targets_up_to_32x32_are_solved_and_verified(target):
    verdict = solve(target)
    assert verdict.solved, verdict.reason
    assert play(Board.empty(target.rows, target.cols), verdict.plan) == target


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_full_32x32_boards_are_solved_and_verified(seed):
    cells = [(r, c) for r in range(1, 33) for c in range(1, 33)]
    random.Random(seed).shuffle(cells)
    target = play(Board.empty(32, 32), cells)
    verify(target, solve(target).plan)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(changed(max_side=4))
def test_changed_small_targets_agree_with_brute_force(target):
    truth = orientations(target)
    verdict = solve(target)
    assert verdict.solved == bool(truth), verdict.reason
    if verdict.solved:
        verify(target, verdict.plan)
    else:
        assert verdict.reason
    assert count_solutions(target) == len(truth)
    assert {orientation(target, p) for p in solutions(target)} == truth


@settings(max_examples=100, deadline=None)
@given(played(max_side=9))
def test_solutions_are_distinct_and_as_many_as_counted(target):
    found = list(solutions(target, limit=50))
    assert len(found) == count_solutions(target, limit=50)
    assert len({orientation(target, p) for p in found}) == len(found)


@settings(max_examples=150, deadline=None)
@given(changed(max_side=16))
def test_changed_targets_are_solved_or_explained(target):
    verdict = solve(target)
    if verdict.solved:
        verify(target, verdict.plan)
        assert count_solutions(target, limit=1) == 1
    else:
        assert verdict.reason and verdict.reason[0].islower()
        assert count_solutions(target) == 0
