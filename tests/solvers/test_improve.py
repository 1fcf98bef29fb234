import random

import pytest

from logo_bot.solvers.improve import MAX_RUN, Path, improve


def _case(seed, n):
    """A random order of n stones, parents among the stones before each (neighbours in
    some orientation), and random steps between stones and from the start."""
    rng = random.Random(seed)
    order = list(range(n))
    rng.shuffle(order)
    when = {v: i for i, v in enumerate(order)}
    parents = [0] * n
    for v in range(n):
        for u in range(n):
            if when[u] < when[v] and rng.random() < 0.25:
                parents[v] |= 1 << u
    children = [sum(1 << v for v in range(n) if parents[v] >> u & 1) for u in range(n)]
    # Symmetric, as cursor steps are: a reversed run costs the same inside.
    dist = [[0] * n for _ in range(n)]
    for a in range(n):
        for b in range(a):
            dist[a][b] = dist[b][a] = rng.randint(1, 9)
    first = [rng.randint(0, 9) for _ in range(n)]
    return order, dist, first, parents, children


def _valid(order, parents):
    done = 0
    for v in order:
        if parents[v] & ~done:
            return False
        done |= 1 << v
    return True


def _shifted(order, i, size):
    """Every order made by moving the run at ``i`` elsewhere, as it is or reversed (not
    reversed where it is)."""
    run, rest = order[i : i + size], order[:i] + order[i + size :]
    for j in range(len(rest) + 1):
        for piece in (run, run[::-1]) if j != i else (run,):
            yield rest[:j] + piece + rest[j:]


@pytest.mark.parametrize("seed", range(40))
def test_a_shift_finds_the_cheapest_valid_place_for_its_run(seed):
    order, dist, first, parents, children = _case(seed, 3 + seed % 8)
    for size in range(1, MAX_RUN + 1):
        for i in range(len(order) - size + 1):
            path = Path(order, dist, first, parents, children)
            now = path.cost()
            cheapest = min(
                Path(o, dist, first, parents, children).cost()
                for o in _shifted(order, i, size)
                if _valid(o, parents)
            )
            moved = path._best_shift(i, size)
            assert _valid(path.order, parents)
            assert moved == (cheapest < now)
            assert path.cost() == min(now, cheapest)


@pytest.mark.parametrize("seed", range(10))
def test_improve_keeps_a_valid_order_and_never_costs_more(seed):
    order, dist, first, parents, children = _case(seed, 12)
    before = Path(order, dist, first, parents, children).cost()
    better = improve(order, dist, first, parents, children, rounds=5, seed=seed)
    assert sorted(better) == sorted(order) and _valid(better, parents)
    assert Path(better, dist, first, parents, children).cost() <= before
