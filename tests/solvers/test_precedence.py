import random

from hypothesis import given, settings
from hypothesis import strategies as st

from logo_bot.solvers.levels import parse_level
from logo_bot.solvers.numbered import Numbered
from logo_bot.solvers.planner import solutions
from logo_bot.solvers.precedence import ForwardRule, Orientations, ReadySets
from logo_bot.solvers.stones import stone_graph

LEVEL_1 = "6 10\n..........\n....2.....\n...212....\n....2.....\n..........\n..........\n"


def _dag(seed, n):
    """Random parents masks of an order 0..n-1 (each stone's parents come before it)
    and the children masks that go with them."""
    rng = random.Random(seed)
    parents = [sum(1 << u for u in range(v) if rng.random() < 0.3) for v in range(n)]
    children = [sum(1 << v for v in range(n) if parents[v] >> u & 1) for u in range(n)]
    return parents, children


def _brute(sides, done):
    return [
        (v, 1)
        for v in range(len(sides))
        if not done >> v & 1 and all(done >> u & 1 for u in range(len(sides)) if sides[v] >> u & 1)
    ]


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 12), st.data())
def test_ready_sets_agree_with_brute_force_when_derived_from_the_set_before(seed, n, data):
    parents, children = _dag(seed, n)
    ready = ReadySets(parents, children)
    done = 0
    assert ready.moves(done) == _brute(parents, done)
    while True:
        moves = ready.moves(done)
        if not moves:
            break
        v = data.draw(st.sampled_from(moves))[0]
        done |= 1 << v
        # Derived from the set before ``v``, remembered: the same as from scratch.
        assert ready.moves(done, v) == _brute(parents, done)
        assert ReadySets(parents, children).moves(done) == _brute(parents, done)
    assert done == (1 << n) - 1


def test_ready_sets_ignore_a_last_stone_that_is_not_done():
    parents, children = [0, 1, 1], [6, 0, 0]  # stone 0 before stones 1 and 2
    ready = ReadySets(parents, children)
    assert ready.moves(0, last=2) == [(0, 1)]
    assert ready.moves(1, last=2) == [(1, 1), (2, 1)]
    # Kept stones, for plans grown from their end: children must be kept first.
    back = ReadySets(children, parents)
    assert back.moves(0) == [(1, 1), (2, 1)]
    assert back.moves(2, last=1) == [(2, 1)]
    assert back.moves(6, last=2) == [(0, 1)]


def test_fixed_parents_answer_front_for_a_single_orientation():
    # Level 1 of the practice game has one solution: ``fixed_parents`` then says what
    # ``front`` says, for every stone and many partial plans; with two orientations, or
    # the forward rule, there are none.
    target = parse_level(LEVEL_1)
    stones = Numbered(stone_graph(target))
    plans = list(solutions(target))
    rules = Orientations(stones, plans)
    parents = rules.fixed_parents
    assert parents is not None
    rng = random.Random(3)
    for _ in range(200):
        placed = rng.getrandbits(stones.n)
        kept = rng.getrandbits(stones.n) & ~placed
        for v in range(stones.n):
            fits = not parents[v] & ~placed and not (placed | kept) >> v & 1
            assert rules.front(placed, kept, 1, v) == int(fits)
    assert Orientations(stones, plans * 2).fixed_parents is None
    assert ForwardRule(stones).fixed_parents is None
