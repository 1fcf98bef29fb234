"""The reference port and the peer models agree with brute force on small boards."""

from __future__ import annotations

import itertools
import random

import pytest

from benchmarks.peers import clingo_model, cpsat, reference
from logo_bot.solvers.board import Board, Cell, play


def brute_force(target: Board) -> tuple[Cell, ...] | None:
    """The first order of the target's stones (in permutation order) that reaches it."""
    empty = Board.empty(target.rows, target.cols)
    for order in itertools.permutations(target.stones()):
        if play(empty, order) == target:
            return order
    return None


def small_boards() -> list[Board]:
    """Solvable boards by forward play and arbitrary (mostly unsolvable) ones, seeded."""
    rng = random.Random(20240611)
    boards = [
        Board.from_rows([".1.", "111", ".1."]),  # centre first: it wraps 4 -> 1
        Board.from_rows([".2.", "212", ".2."]),  # published level 1, cut down
        Board.from_rows(["11"]),  # two touching stones can never both show 1
        Board.from_rows(["22", "22"]),  # counts fit only if the order went round in a cycle
        Board.from_rows(["2"]),
        Board.from_rows(["..."]),
    ]
    for _ in range(60):
        rows, cols = rng.choice([(2, 3), (3, 3), (2, 4), (1, 6), (3, 2)])
        cells = [(r, c) for r in range(1, rows + 1) for c in range(1, cols + 1)]
        chosen = rng.sample(cells, rng.randint(1, min(7, len(cells))))
        boards.append(play(Board.empty(rows, cols), chosen))
        values = [0] * (rows * cols)
        for r, c in chosen:
            values[(r - 1) * cols + c - 1] = rng.randint(1, 4)
        boards.append(Board(rows, cols, tuple(values)))
    return boards


BOARDS = small_boards()
EXPECTED = [brute_force(b) is not None for b in BOARDS]
CASES = list(zip(BOARDS, EXPECTED, strict=True))


def test_the_corpus_has_both_kinds():
    assert 30 <= sum(EXPECTED) <= len(BOARDS) - 30


def check(target: Board, plan: tuple[Cell, ...] | None, solvable: bool) -> None:
    assert (plan is not None) == solvable, str(target)
    if plan is not None:
        assert sorted(plan) == sorted(target.stones())
        assert play(Board.empty(target.rows, target.cols), plan) == target


@pytest.mark.parametrize(("target", "solvable"), CASES)
def test_reference_agrees_with_brute_force(target, solvable):
    outcome = reference.solve(target)
    assert not outcome.timed_out
    check(target, outcome.plan, solvable)


@pytest.mark.parametrize(("target", "solvable"), CASES)
def test_cpsat_agrees_with_brute_force(target, solvable):
    check(target, cpsat.solve(target), solvable)


@pytest.mark.parametrize(("target", "solvable"), CASES)
def test_clingo_agrees_with_brute_force(target, solvable):
    check(target, clingo_model.solve(target), solvable)


def test_reference_takes_back_in_row_major_order():
    # Two lone stones: the first candidate in row-major order is taken back first,
    # so it is the last one placed.
    outcome = reference.solve(Board.from_rows(["1.1"]))
    assert outcome.plan == ((1, 3), (1, 1))


def test_reference_gives_up_at_the_node_cap():
    # Twelve lone 1s and one lone 2: the search must visit every subset of the 1s.
    target = Board.from_rows(["1.1.1.1.1.1.", "............", "1.1.1.1.1.1.", ".2.........."])
    capped = reference.solve(target, node_cap=500)
    assert capped.timed_out and capped.plan is None and capped.nodes == 500
    full = reference.solve(target)
    assert not full.timed_out and full.plan is None and full.nodes > 4000


def test_reference_gives_up_at_the_time_cap():
    row = "1." * 12
    target = Board.from_rows([row, "." * 24, row, ".2" + "." * 22])
    outcome = reference.solve(target, time_cap_s=0.05)
    assert outcome.timed_out and outcome.plan is None
