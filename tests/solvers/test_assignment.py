import itertools

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from logo_bot.solvers.assignment import INFINITE, Assignment


def cheapest(cost, rows, cols):
    return min(
        sum(cost[r][c] for r, c in zip(rows, perm, strict=True))
        for perm in itertools.permutations(cols)
    )


@st.composite
def square(draw, sizes, highest):
    """A square cost matrix of one of ``sizes``, entries 0-``highest`` or INFINITE."""
    size = draw(sizes)
    entry = st.one_of(st.integers(0, highest), st.just(INFINITE))
    return [[draw(entry) for _ in range(size)] for _ in range(size)]


def matrices():
    return square(st.integers(1, 6), 9)


def dropped(size, data):
    """Rows and columns of a ``size`` matrix dropped a pair at a time, drawn at random:
    each pair with the rows and columns left after it."""
    rows, cols = list(range(size)), list(range(size))
    while len(rows) > 1:
        row = data.draw(st.sampled_from(rows))
        col = data.draw(st.sampled_from(cols))
        rows.remove(row)
        cols.remove(col)
        yield row, col, rows, cols


@settings(max_examples=150, deadline=None)
@given(matrices(), st.data())
def test_assignment_and_its_shrinking_agree_with_brute_force(cost, data):
    everything = list(range(len(cost)))
    ap = Assignment(cost, everything, everything)
    assert ap.value == cheapest(cost, everything, everything)
    for row, col, rows, cols in dropped(len(cost), data):
        bound = ap.bound_without(row, col)
        ap = ap.without(row, col)
        assert ap.value == cheapest(cost, rows, cols)
        assert bound <= ap.value


@settings(max_examples=150, deadline=None)
@given(matrices(), st.data())
def test_a_capped_repair_gives_up_exactly_when_the_cap_is_reached(cost, data):
    assume(len(cost) > 1)
    rows = list(range(len(cost)))
    ap = Assignment(cost, rows, rows)
    row = data.draw(st.sampled_from(rows))
    col = data.draw(st.sampled_from(rows))
    cap = data.draw(st.integers(1, 12))
    exact = ap.without(row, col)
    capped = ap.without_below(row, col, cap)
    if exact.value >= ap.bound_without(row, col) + cap:
        assert capped is None
    else:
        assert capped is not None and capped.value == exact.value
    # The original is left as it was: dropping again gives the same answer.
    assert ap.without(row, col).value == exact.value


@settings(max_examples=150, deadline=None)
@given(matrices(), st.data())
def test_capped_repairs_agree_with_brute_force_after_shrinking(cost, data):
    # Shrinking moves the potentials away from zero: a repair that stops scanning a
    # row's columns too early would miss a path below the cap.
    rows = list(range(len(cost)))
    cols = list(rows)
    ap = Assignment(cost, rows, cols)
    while len(rows) > 1:
        row = data.draw(st.sampled_from(rows))
        col = data.draw(st.sampled_from(cols))
        cap = data.draw(st.integers(1, 12))
        bound = ap.bound_without(row, col)
        capped = ap.without_below(row, col, cap)
        rows.remove(row)
        cols.remove(col)
        exact = cheapest(cost, rows, cols)
        if exact >= bound + cap:
            assert capped is None
        else:
            assert capped is not None and capped.value == exact
        ap = ap.without(row, col) if capped is None else capped


def _state(ap):
    lists = (ap.row_of, ap.col_of, ap.pot_row, ap.pot_col)
    return ap.value, ap.cols, *(list(x) for x in lists)


def tied_matrices():
    """Few distinct costs: many ties."""
    return square(st.integers(2, 8), 3)


@settings(max_examples=200, deadline=None)
@given(tied_matrices(), st.data())
def test_capped_repairs_take_the_same_path_as_the_uncapped_one(cost, data):
    # The searches by tight columns (cap 1) and by distance buckets (larger caps) take
    # the columns in the order of the heap's: the same matching and potentials.
    everything = list(range(len(cost)))
    ap = Assignment(cost, everything, everything)
    for row, col, rows, cols in dropped(len(cost), data):
        cap = data.draw(st.sampled_from([1, 1, 2, 3, 12]))  # mostly tight searches
        before = _state(ap)
        exact = ap.without(row, col)
        capped = ap.without_below(row, col, cap)
        assert _state(ap) == before  # the original is left as it was
        if capped is not None:
            assert _state(capped) == _state(exact)
            # Repairs of the copy leave the original's potentials, maybe shared, alone.
            capped.without(rows[0], cols[-1])
            assert _state(ap) == before
        ap = exact


def test_a_tight_repair_takes_the_lowest_column_first_as_the_heap_does():
    # Dropping row 0 and column 2 frees row 4 and column 0; two paths of length 0 join
    # them, and the heap's order (lowest column first) picks the one through column 1.
    cost = [
        [0, 1, 1, 1, 0],
        [0, 0, 1, 0, 1],
        [0, 0, 1, 0, 0],
        [0, 0, 1, 1, 0],
        [1, 0, 0, 1, 0],
    ]
    ap = Assignment(cost, list(range(5)), list(range(5)))
    exact = ap.without(0, 2)
    tight = ap.without_below(0, 2, 1)
    assert tight is not None and tight.value == exact.value == 0
    assert tight.col_of == exact.col_of == [-1, 0, 3, 4, 1]


@settings(max_examples=200, deadline=None)
@given(tied_matrices(), st.data())
def test_the_two_mask_repair_and_the_tight_masks_agree_with_the_buckets(cost, data):
    # A cap of 2 has its own search with two masks, and tight searches their own scan
    # of a row's tight columns: both as the general distance buckets find them.
    everything = list(range(len(cost)))
    ap = Assignment(cost, everything, everything)
    for row, col, _, _ in dropped(len(cost), data):
        for r in everything:
            assert ap._tight_row(r) == (ap._ring_row(r)[0],)
        partner, other = ap.col_of[row], ap.row_of[col]
        if partner != col:
            paired = ap._pair_path(other, partner, col)
            assert paired == ap._bucket_path(other, partner, col, 2)
        ap = ap.without(row, col)
