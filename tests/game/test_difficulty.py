"""Counting the "which goes first" decisions a target forces."""

from __future__ import annotations

import math
import random

from game.difficulty import Difficulty, StoneSet, measure, pair_counts
from logo_bot.solvers.board import Board, play


def test_published_level_1_gives_every_order_away():
    # Each arm shows 2 with one neighbour: it went first; so nothing is open.
    target = Board.from_rows(["..........", "....2.....", "...212....", "....2....."])
    assert pair_counts(target) == (4, 0)
    assert measure(target) == Difficulty(stones=5, pairs=4, open=0, solutions=1)


def test_a_pair_is_open_when_neither_value_tells():
    # Round a 2x2 block: the first shows 3 (both neighbours later), the last 1 (none);
    # the two between show 2 with two neighbours, so their shared pair is open.
    board = play(Board.empty(2, 2), [(1, 1), (1, 2), (2, 2), (2, 1)])
    assert str(board) == "32\n12"
    assert pair_counts(board) == (4, 1)
    # A stone with one neighbour always tells (1: went last, 2: went first).
    assert pair_counts(play(Board.empty(1, 3), [(1, 1), (1, 2), (1, 3)])) == (2, 0)


def test_a_one_with_four_neighbours_never_gives_its_order_away():
    first = play(Board.empty(3, 3), [(2, 2), (1, 2), (2, 1), (2, 3), (3, 2)])
    assert first[(2, 2)] == 1
    assert pair_counts(first) == (4, 0)  # the arms (1s with one neighbour) tell
    ring = Board.from_rows(["111", "111", "111"])
    assert pair_counts(ring)[0] == 12


def test_fast_count_by_order_matches_the_board_count():
    rng = random.Random(4)
    for _ in range(300):
        rows, cols = rng.randint(1, 6), rng.randint(1, 10)
        cells = [(r, c) for r in range(1, rows + 1) for c in range(1, cols + 1)]
        chosen = rng.sample(cells, rng.randint(1, len(cells)))
        stones = StoneSet(sorted(chosen))
        order = list(range(len(chosen)))
        rng.shuffle(order)
        target = play(Board.empty(rows, cols), [stones.cells[k] for k in order])
        assert stones.open_pairs(order) == pair_counts(target)[1]
        assert len(stones.pairs) == pair_counts(target)[0]


def test_forced_takes_away_the_free_choices_of_several_solutions():
    assert Difficulty(10, 12, 8, 4).forced == 6
    assert Difficulty(10, 12, 8, 1).forced == 8
    assert math.isclose(Difficulty(10, 12, 8, 3).forced, 8 - math.log2(3))
