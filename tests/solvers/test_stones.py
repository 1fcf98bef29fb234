from hypothesis import given, settings
from hypothesis import strategies as st

from logo_bot.solvers.board import Board
from logo_bot.solvers.stones import stone_graph


@st.composite
def boards(draw, max_side: int = 12) -> Board:
    rows = draw(st.integers(1, max_side))
    cols = draw(st.integers(1, max_side))
    weights = draw(st.sampled_from([(1, 1, 1, 1, 1), (1, 4, 1, 1, 1), (0, 1, 1, 1, 1)]))
    values = st.sampled_from([v for v, w in enumerate(weights) for _ in range(w)])
    return Board(
        rows, cols, tuple(draw(st.lists(values, min_size=rows * cols, max_size=rows * cols)))
    )


def mask(g, stones) -> int:
    return sum(1 << p for p in stones)


@settings(max_examples=200, deadline=None)
@given(boards())
def test_masks_match_their_definitions(board):
    g = stone_graph(board)
    degree = {p: sum(1 for _ in g.nbrs(p)) for p in g.stones}
    ambiguous = [p for p in g.stones if g.value[p] == 1 and degree[p] == 4]
    assert g.ambiguous_mask == mask(g, ambiguous)
    assert all(g.degree[p] == degree[p] for p in g.stones)
    assert [g.cluster_of[p] >= 0 for p in g.stones] == [p in ambiguous for p in g.stones]
    assert sorted(p for c in g.clusters for p in c) == sorted(ambiguous)
    assert g.lead_mask.bit_count() == len(g.clusters)
    for k, need_mask in enumerate(g.need_masks):
        assert need_mask == mask(g, [p for p in g.stones if g.value[p] == k + 1])
    for j, slack_mask in enumerate(g.slack_masks):
        plain = [p for p in g.stones if p not in ambiguous]
        assert slack_mask == mask(g, [p for p in plain if degree[p] - g.need[p] == j])
