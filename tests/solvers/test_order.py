import gc
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import logo_bot.solvers.order as order
from logo_bot.solvers.assignment import Assignment
from logo_bot.solvers.board import Board, play
from logo_bot.solvers.levels import load_level_list, parse_level
from logo_bot.solvers.numbered import Numbered
from logo_bot.solvers.order import fewest_presses, keys_for, presses_of
from logo_bot.solvers.planner import Unsolvable, solutions, verify
from logo_bot.solvers.precedence import ForwardRule, Orientations
from logo_bot.solvers.sequence import (
    BACKWARD,
    CLOCK_EVERY,
    FORWARD,
    Frontier,
    Incumbent,
    Prober,
    cost_matrix,
)
from logo_bot.solvers.stones import stone_graph
from logo_bot.solvers.tour import Tour
from tests.solvers.solver_brute_force import plans, presses

LEVEL_1 = "6 10\n..........\n....2.....\n...212....\n....2.....\n..........\n..........\n"
LEVEL_2 = "6 10\n..........\n.....1....\n....111...\n...11111..\n....111...\n.....1....\n"
LEVEL_1_PLAN = ((4, 5), (3, 6), (3, 4), (2, 5), (3, 5))
LEVELS_FILE = Path(__file__).resolve().parents[2] / "game" / "levels.txt"


def test_presses_count_steps_and_actions():
    # (1,1) -> (4,5): 3 + 4 steps; then 2, 2, 2 and 1 step; five actions.
    assert presses_of(LEVEL_1_PLAN) == 7 + 2 + 2 + 2 + 1 + 5
    assert presses_of(LEVEL_1_PLAN, start=(4, 5)) == 0 + 2 + 2 + 2 + 1 + 5
    assert presses_of([(6, 10)], wrap=True) == 1 + 1 + 1
    assert presses_of([]) == 0


def test_keys_move_rows_then_columns_then_act():
    assert keys_for([(2, 3), (2, 1)]) == "app oo "
    assert keys_for([(3, 4), (1, 1)], alternate=True) == "papap oqoqo "
    assert keys_for([(1, 2)], start=(1, 1), keys="UDLRX") == "RX"
    assert keys_for([(6, 10)], wrap=True) == "qo "
    assert keys_for([(6, 10)], wrap=False) == "a" * 5 + "p" * 9 + " "
    assert len(keys_for(LEVEL_1_PLAN)) == presses_of(LEVEL_1_PLAN)


def test_keys_must_name_five_keys():
    with pytest.raises(ValueError, match="5 keys"):
        keys_for([(1, 1)], keys="qaop")


@pytest.mark.parametrize("text", [LEVEL_1, LEVEL_2], ids=["level-1", "level-2"])
def test_published_targets_get_a_proven_fewest_press_order(text):
    target = parse_level(text)
    result = fewest_presses(target, budget_s=10)
    verify(target, result.plan)
    assert result.optimal and result.presses == result.lower_bound
    assert presses_of(result.plan) == result.presses


def test_level_1_fewest_presses_matches_brute_force():
    target = parse_level(LEVEL_1)
    best = min(presses(p, (1, 1), 6, 10, False) for p in plans(target))
    assert fewest_presses(target).presses == best


def test_unsolvable_target_raises_with_the_reason():
    with pytest.raises(Unsolvable, match="both show 1") as info:
        fewest_presses(Board.from_rows(["11"]))
    assert "both show 1" in info.value.reason


def test_start_outside_the_board_is_refused():
    with pytest.raises(ValueError, match="outside the 6x10 board"):
        fewest_presses(parse_level(LEVEL_1), start=(7, 1))


def test_no_time_still_gives_a_valid_plan_and_a_true_bound():
    target = parse_level(LEVEL_2)
    result = fewest_presses(target, budget_s=0)
    verify(target, result.plan)
    assert result.lower_bound <= result.presses
    assert result.optimal == (result.lower_bound == result.presses)


def test_empty_target_needs_no_presses():
    result = fewest_presses(Board.empty(6, 10))
    assert result == order.Ordering((), 0, 0, True)


@st.composite
def small_targets(draw):
    rows, cols = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    cells = [(r, c) for r in range(1, rows + 1) for c in range(1, cols + 1)]
    chosen = draw(st.lists(st.sampled_from(cells), min_size=1, max_size=8, unique=True))
    target = play(Board.empty(rows, cols), chosen)
    start = draw(st.sampled_from(cells))
    return target, start


def test_both_move_rules_agree_on_a_target_with_two_solutions():
    two_ways = Board.from_rows(["...22..", "..2132.", ".14213.", "1.2331.", ".1....1"])
    fixed = fewest_presses(two_ways, budget_s=30)
    previous = order.MAX_ORIENTATIONS
    order.MAX_ORIENTATIONS = 0
    try:
        forward = fewest_presses(two_ways, budget_s=30)
    finally:
        order.MAX_ORIENTATIONS = previous
    for result in (fixed, forward):
        verify(two_ways, result.plan)
        assert result.optimal
    assert fixed.presses == forward.presses


@pytest.mark.parametrize("orientations", [64, 0], ids=["fixed-orientations", "forward-rule"])
@settings(max_examples=150, deadline=None)
@given(case=small_targets(), wrap=st.booleans())
def test_fewest_presses_agrees_with_brute_force_over_all_orders(case, wrap, orientations):
    target, start = case
    size = (target.rows, target.cols)
    every = list(plans(target))
    assume(every)
    best = min(presses(p, start, *size, wrap) for p in every)
    previous = order.MAX_ORIENTATIONS
    order.MAX_ORIENTATIONS = orientations
    try:
        result = fewest_presses(target, start=start, wrap=wrap, budget_s=30)
    finally:
        order.MAX_ORIENTATIONS = previous
    verify(target, result.plan)
    assert result.presses == presses_of(result.plan, start, wrap, size)
    assert result.lower_bound <= best
    assert result.optimal and result.presses == best


@pytest.mark.parametrize("direction", [FORWARD, BACKWARD])
@pytest.mark.parametrize("orientations", [True, False], ids=["fixed-orientations", "forward-rule"])
@settings(max_examples=100, deadline=None)
@given(case=small_targets())
def test_one_search_alone_proves_the_fewest_presses_from_the_worst_plan(
    case, direction, orientations
):
    # Started from the dearest plan, the search must repair, raise and take back
    # many partial plans; its bound must never pass the true fewest presses.
    target, start = case
    size = (target.rows, target.cols)
    every = list(plans(target))
    assume(every)
    fewest = min(presses(p, start, *size, False) for p in every)
    worst = max(every, key=lambda p: presses(p, start, *size, False))
    stones = Numbered(stone_graph(target))
    rules = Orientations(stones, list(solutions(target))) if orientations else ForwardRule(stones)
    tour = Tour(stones, start, False)
    matrix = cost_matrix(rules, tour.dist, tour.from_start)
    n = stones.n
    root = Assignment(matrix, [n, *range(n)], [*range(n), n])
    best = Incumbent([stones.index[c] for c in worst], presses(worst, start, *size, False))
    search = Frontier(rules, matrix, root, direction, best)
    while not search.done:
        search.run(1)
        assert search.lower <= fewest
    plan = tuple(stones.cells[v] for v in best.plan)
    verify(target, plan)
    assert best.presses == presses_of(plan, start, False, size) == fewest


def _prober(target, start=(1, 1)):
    stones = Numbered(stone_graph(target))
    rules = Orientations(stones, list(solutions(target)))
    tour = Tour(stones, start, False)
    matrix = cost_matrix(rules, tour.dist, tour.from_start)
    n = stones.n
    root = Assignment(matrix, [n, *range(n)], [*range(n), n])
    return stones, Prober(rules, matrix, root)


@settings(max_examples=150, deadline=None)
@given(case=small_targets())
def test_dives_find_a_plan_at_the_fewest_presses_and_none_below(case):
    target, start = case
    size = (target.rows, target.cols)
    every = list(plans(target))
    assume(every)
    best = min(presses(p, start, *size, False) for p in every)
    stones, below = _prober(target, start)
    assert below.run(best - 1, 2000) is None
    found = _prober(target, start)[1].run(best, 20000)
    assert found is not None
    plan = tuple(stones.cells[v] for v in found)
    verify(target, plan)
    assert presses_of(plan, start, False, size) == best


@pytest.mark.parametrize("level", load_level_list(LEVELS_FILE)[:20], ids=lambda lv: str(lv.number))
def test_dives_reach_the_proven_fewest_presses_of_the_first_game_levels(level):
    # Dives give up on a child as soon as its repaired bound passes the limit; giving
    # up too early would miss these plans.
    presses = int(level.meta["presses"])
    stones, prober = _prober(level.board)
    found = prober.run(presses, 5000)
    assert found is not None
    plan = tuple(stones.cells[v] for v in found)
    verify(level.board, plan)
    assert presses_of(plan) == presses


def _level(number):
    return load_level_list(LEVELS_FILE)[number - 1]


def _search_setup(number):
    """Level ``number``'s target, stones, rules, cost matrix and root assignment, from (1,1)."""
    target = _level(number).board
    stones = Numbered(stone_graph(target))
    rules = Orientations(stones, list(solutions(target)))
    tour = Tour(stones, (1, 1), False)
    matrix = cost_matrix(rules, tour.dist, tour.from_start)
    n = stones.n
    return target, stones, rules, matrix, Assignment(matrix, [n, *range(n)], [*range(n), n])


@pytest.mark.parametrize("direction", [FORWARD, BACKWARD])
def test_a_search_stops_soon_after_its_deadline(direction):
    # Level 79 needs thousands of partial plans; past its deadline a search takes out
    # at most CLOCK_EVERY of them, however many it was told to take.
    target, stones, rules, matrix, root = _search_setup(79)
    first = fewest_presses(target, budget_s=0)
    searches = []
    for deadline in (0.0, None):
        best = Incumbent([stones.index[c] for c in first.plan], first.presses)
        search = Frontier(rules, matrix, root, direction, best)
        search.run(4 * CLOCK_EVERY, deadline)
        searches.append(search)
    late, free = searches
    assert late.nodes <= CLOCK_EVERY and not late.done
    assert free.nodes == 4 * CLOCK_EVERY


def test_a_search_that_follows_the_assignment_first_meets_its_first_bound_soon():
    # Level 50's root bound, 124 presses, is its fewest. Among partial plans of equal
    # bound and presses, those whose last stone is the one the assignment put there
    # come out first: the forward search finds a plan of 124 within a few dozen partial
    # plans (taken in the order they were made it needed 5190).
    target, stones, rules, matrix, root = _search_setup(50)
    assert stones.n + root.value == 124
    first = fewest_presses(target, budget_s=0)
    best = Incumbent([stones.index[c] for c in first.plan], first.presses)
    assert best.presses > 124
    search = Frontier(rules, matrix, root, FORWARD, best)
    search.run(500)
    assert search.done and best.presses == 124
    verify(target, [stones.cells[v] for v in best.plan])


@pytest.mark.parametrize("max_nodes", [None, 1], ids=["proven", "out-of-nodes"])
def test_only_a_plan_left_unproven_gets_rounds_of_local_search(monkeypatch, max_nodes):
    # The first plans get one descent; the searches prove level 79's best plan, and
    # only a search that ran out of nodes has its best plan kicked and descended again.
    calls = []
    polished = order._polished

    def spy(rules, tour, plan, rounds):
        calls.append(rounds)
        return polished(rules, tour, plan, rounds)

    monkeypatch.setattr(order, "_polished", spy)
    result = fewest_presses(_level(79).board, budget_s=None, max_nodes=max_nodes)
    assert result.optimal == (max_nodes is None)
    assert calls == ([0] if max_nodes is None else [0, order.IMPROVE_ROUNDS])


def test_dives_stop_after_one_once_the_deadline_has_passed():
    # Level 68 needs 113 presses: its root bound (111) lets the dives look for a plan
    # of 112, which they never find.
    presses = int(_level(68).meta["presses"]) - 1
    _, free = _prober(_level(68).board)
    assert free.run(presses, 3000) is None and free.dives > 1
    _, late = _prober(_level(68).board)
    assert late.run(presses, 3000, deadline=0.0) is None and late.dives == 1


def test_time_kept_back_for_after_the_search_moves_the_deadline():
    budget = order._Budget(60.0, None)
    assert not budget.spent(0)
    budget.reserve = 61.0
    assert budget.spent(0)
    assert order._Budget(None, 5).deadline is None


@pytest.mark.parametrize("enabled", [True, False])
def test_the_garbage_collector_is_paused_for_the_search_and_then_restored(monkeypatch, enabled):
    during = []
    search = order._fewest_presses

    def watched(*args):
        during.append(gc.isenabled())
        return search(*args)

    monkeypatch.setattr(order, "_fewest_presses", watched)
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        fewest_presses(parse_level(LEVEL_2))
        assert gc.isenabled() == enabled
        with pytest.raises(Unsolvable):
            fewest_presses(Board.from_rows(["11"]))
        assert gc.isenabled() == enabled
    finally:
        (gc.enable if was else gc.disable)()
    assert during == [False, False]


def test_a_bound_proven_beforehand_ends_the_search_at_a_plan_that_meets_it():
    # level 79 needs thousands of search nodes to prove its fewest presses: with 200
    # the search proves less, unless the level file's figure is given
    level = _level(79)
    fewest = int(level.meta["presses"])
    alone = fewest_presses(level.board, max_nodes=200)
    told = fewest_presses(level.board, max_nodes=200, proven=fewest)
    assert alone.lower_bound < fewest and not alone.optimal
    verify(level.board, told.plan)
    assert (told.presses, told.lower_bound, told.optimal) == (fewest, fewest, True)


def test_a_bound_below_the_fewest_changes_nothing():
    level = _level(3)
    fewest = int(level.meta["presses"])
    for proven in (0, 1, fewest - 3):
        result = fewest_presses(level.board, proven=proven)
        assert (result.presses, result.lower_bound, result.optimal) == (fewest, fewest, True)
