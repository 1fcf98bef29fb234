from hypothesis import given, settings

from solvers.board import Board
from solvers.peel import peel
from solvers.planner import plan_order
from solvers.propagation import start
from solvers.stones import shape, stone_graph
from tests.solvers.test_planner import changed, played


def check_against_the_model(target: Board) -> bool:
    """Whether ``peel`` decided ``target``; asserts it agrees with the full model."""
    sh = shape(target.rows, target.cols)
    decided, order = peel(sh, sh.padded(target))
    g = stone_graph(target)
    assert decided == (not g.clusters)
    if not decided:
        assert order is None
        return False
    trail: list[int] = []
    st, conflict = start(g, trail)
    if conflict is not None or st.open_mask:
        assert order is None
    else:
        assert order == plan_order(g, st, trail, {})
    return True


@settings(max_examples=300, deadline=None)
@given(played(max_side=12))
def test_peel_gives_the_full_models_plan(target):
    check_against_the_model(target)


@settings(max_examples=300, deadline=None)
@given(changed(max_side=12))
def test_peel_finds_no_plan_where_the_full_model_finds_none(target):
    check_against_the_model(target)


def test_peel_leaves_ambiguous_stones_to_the_full_model():
    plus = Board.from_rows([".2.", "212", ".2."])
    assert check_against_the_model(Board.from_rows([".2.", "2.2", ".2."]))
    assert not check_against_the_model(plus)
    sh = shape(3, 3)
    assert peel(sh, sh.padded(plus)) == (False, None)


def test_peel_plans_in_the_order_forced_moves_settle_stones():
    corner = Board.from_rows(["12", "2."])
    sh = shape(2, 2)
    decided, order = peel(sh, sh.padded(corner))
    assert decided and [sh.cell_of[p] for p in order] == [(2, 1), (1, 2), (1, 1)]
    assert peel(sh, sh.padded(Board.from_rows(["22", "22"]))) == (True, None)
    level_1 = Board.from_rows(["....2.....", "...212....", "....2....."])
    assert not check_against_the_model(level_1)
