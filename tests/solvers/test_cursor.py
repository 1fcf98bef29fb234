"""Cursor steps: the alternating order keeps every step and repeats a key rarely; the
cells a walk passes through."""

from collections import Counter
from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from logo_bot.solvers.cursor import alternating, moves, walk

cells = st.tuples(st.integers(1, 6), st.integers(1, 10))


def repeats(steps):
    return sum(a == b for a, b in pairwise(steps))


def test_alternating_interleaves_the_longer_axis_first():
    assert alternating(["down", "down", "right"]) == ["down", "right", "down"]
    assert alternating(["up", "left", "left", "left"]) == ["left", "up", "left", "left"]
    assert alternating([]) == []


@given(cells, cells)
def test_alternating_keeps_the_steps_and_the_board(a, b):
    steps = moves(a, b)
    out = alternating(steps)
    assert Counter(out) == Counter(steps)
    rows = sum(s in ("up", "down") for s in steps)
    cols = len(steps) - rows
    assert repeats(out) == max(0, abs(rows - cols) - 1)
    r, c = a  # every cell on the way is on the board (the cursor stops at the edges)
    for s in out:
        r += {"up": -1, "down": 1}.get(s, 0)
        c += {"left": -1, "right": 1}.get(s, 0)
        assert 1 <= r <= 6 and 1 <= c <= 10
    assert (r, c) == b


def test_walk_gives_the_cell_after_each_step():
    assert walk((1, 1), ["right", "down", "right"]) == [(1, 2), (2, 2), (2, 3)]
    assert walk((1, 1), ["up", "left"]) == [(1, 1), (1, 1)]  # stops at the edges
    assert walk((1, 1), ["up", "left"], wrap=True) == [(6, 1), (6, 10)]
    start, goal = (2, 3), (5, 9)
    assert walk(start, alternating(moves(start, goal)))[-1] == goal
