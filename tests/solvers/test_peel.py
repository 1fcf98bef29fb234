from hypothesis import given, settings

from logo_bot.solvers.board import Board
from logo_bot.solvers.peel import Stalled, peel
from logo_bot.solvers.planner import plan_order
from logo_bot.solvers.propagation import BACK, FRONT, UNDECIDED, State, start
from logo_bot.solvers.stones import shape, stone_graph
from tests.solvers.test_planner import TWO_WAYS, changed, played


def check_against_the_model(target: Board) -> bool:
    """Whether ``peel`` decided ``target``; asserts it agrees with the full model."""
    sh = shape(target.rows, target.cols)
    result = peel(sh, sh.padded(target))
    g = stone_graph(target)
    trail: list[int] = []
    st, conflict = start(g, trail)
    if conflict is None and not st.open_mask:
        assert result == plan_order(g, st, trail, {})
    elif conflict is None and UNDECIDED in st.bits:
        assert isinstance(result, Stalled)
        mine = result.state()
        for name in State.__slots__:
            if name != "free":
                assert getattr(mine, name) == getattr(st, name), name
        # Only the stones' free neighbours are ever read.
        assert [mine.free[p] for p in g.stones] == [st.free[p] for p in g.stones]
        where = st.where
        assert [v for v in result.settled if where[v] == FRONT] == [
            v for v in trail if where[v] == FRONT
        ]
        assert [v for v in result.settled if where[v] == BACK] == [
            v for v in trail if where[v] == BACK
        ]
        assert len(result.settled) == len(trail)
        return False
    else:
        assert result is None
    return True


@settings(max_examples=300, deadline=None)
@given(played(max_side=12))
def test_peel_gives_the_full_models_plan(target):
    check_against_the_model(target)


@settings(max_examples=300, deadline=None)
@given(changed(max_side=12))
def test_peel_finds_no_plan_where_the_full_model_finds_none(target):
    check_against_the_model(target)


def test_peel_decides_clusters_and_leaves_stalled_ones_to_the_search():
    plus = Board.from_rows([".2.", "212", ".2."])
    sh = shape(3, 3)
    order = peel(sh, sh.padded(plus))
    assert [sh.cell_of[p] for p in order] == [(3, 2), (1, 2), (2, 1), (2, 3), (2, 2)]
    assert check_against_the_model(plus)
    # Found by the planner: forced moves stall here with a cluster undecided.
    assert not check_against_the_model(TWO_WAYS)


def test_peel_plans_in_the_order_forced_moves_settle_stones():
    corner = Board.from_rows(["12", "2."])
    sh = shape(2, 2)
    order = peel(sh, sh.padded(corner))
    assert [sh.cell_of[p] for p in order] == [(2, 1), (1, 2), (1, 1)]
    assert peel(sh, sh.padded(Board.from_rows(["22", "22"]))) is None
