"""The benchmark corpora: right shape, right label, reproducible."""

from __future__ import annotations

import random

import pytest

from benchmarks import corpus
from benchmarks.peers import reference
from logo_bot.solvers.board import Board, play

SMALL = corpus.Family("3x4", 3, 4, (6, 9))


def decide(board: Board) -> bool:
    return reference.solve(board).solved


def test_forward_play_follows_the_board_rules():
    rng = random.Random(7)
    for rows, cols in [(1, 1), (3, 4), (6, 10), (5, 2)]:
        order = rng.sample(range(rows * cols), rng.randint(1, rows * cols))
        cells = [(i // cols + 1, i % cols + 1) for i in order]
        assert corpus.forward_play(rows, cols, order) == play(Board.empty(rows, cols), cells)


def test_random_targets_have_the_family_stone_count_and_are_solvable():
    rng = random.Random(3)
    for _ in range(30):
        target = corpus.random_target(SMALL, rng)
        assert 6 <= target.stone_count <= 9
        assert decide(target)
    full = corpus.random_target(corpus.FAMILIES[2], rng)
    assert full.stone_count == 60


def test_every_forward_played_target_meets_the_counting_conditions():
    rng = random.Random(11)
    for _ in range(200):
        rows, cols = rng.randint(1, 6), rng.randint(1, 6)
        order = rng.sample(range(rows * cols), rng.randint(0, rows * cols))
        assert corpus.counts_hold(corpus.forward_play(rows, cols, order))


@pytest.mark.parametrize(
    ("rows", "holds"),
    [
        (["2"], False),  # a lone stone has no later neighbour
        (["11"], False),  # one touching pair must add 1 to some count
        (["12"], True),
        (["3.", "2."], False),  # 3 needs two later neighbours, it has one
        ([".1.", "111", ".1."], True),  # the centre wraps 4 -> 1
        ([".1.", "121", ".1."], False),
        (["22", "22"], True),  # the counts fit; only a cycle would realise them
        (["12", "..", "11"], False),  # each group must fit on its own
    ],
)
def test_counting_conditions(rows, holds):
    assert corpus.counts_hold(Board.from_rows(rows)) is holds


def test_variants_keep_the_counts_and_change_little():
    rng = random.Random(5)
    target = corpus.random_target(SMALL, rng)
    gen = corpus.variants(target, rng)
    for _ in range(40):
        changed = next(gen)
        assert changed != target
        assert corpus.counts_hold(changed)
        assert sum(a != b for a, b in zip(changed.cells, target.cells, strict=True)) <= 2


def test_generate_is_reproducible_and_labels_hold():
    for kind in corpus.KINDS:
        board_class = corpus.BoardClass(SMALL, kind)
        first = corpus.generate(board_class, 4, seed=9, solvable=decide)
        assert first == corpus.generate(board_class, 4, seed=9, solvable=decide)
        assert first != corpus.generate(board_class, 4, seed=10, solvable=decide)
        assert len(first) == 4
        assert all(decide(b) is board_class.solvable for b in first)
        assert all(corpus.counts_hold(b) for b in first)


def test_hardest_keeps_the_boards_the_reference_wanders_on_longest():
    rng = random.Random(2)
    pool = [corpus.unsolvable_target(corpus.FAMILIES[0], rng, decide) for _ in range(8)]
    chosen = corpus.hardest(pool, 3, node_cap=10**9)
    effort = {b: reference.solve(b).nodes for b in pool}
    assert len(chosen) == 3
    assert min(effort[b] for b in chosen) >= max(effort[b] for b in pool if b not in chosen)
    assert chosen == [b for b in pool if b in chosen]


def test_class_names_are_unique_and_looked_up():
    names = [c.name for c in corpus.CLASSES]
    assert len(names) == len(set(names)) == 21
    assert corpus.class_named("32x32 full adversarial").family.rows == 32
    with pytest.raises(ValueError, match="known classes: '6x10 sparse'"):
        corpus.class_named("7x7")
