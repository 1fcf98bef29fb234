"""Why a target has no plan, in words a player understands.

The checks go from the plainest proof to the deepest, and the first that applies gives
the sentence. Every sentence states something true about the target; the deeper ones
describe the stones that are left once the moves forced at the start and at the end
are made.
"""

from __future__ import annotations

from logo_bot.solvers.board import MAX_VALUE, Board
from logo_bot.solvers.groups import (
    can_all_settle,
    components,
    count_ok,
    missing_sources,
    open_clusters,
    sums_reachable,
)
from logo_bot.solvers.propagation import BACK, FRONT, Conflict, State, start
from logo_bot.solvers.search import Search
from logo_bot.solvers.stones import StoneGraph, stone_graph

AMBIGUOUS_RULE = (
    "a stone showing 1 with four neighbouring stones must come before all four or after "
    "all four, and two such stones side by side must do opposite things"
)


def _at(g: StoneGraph, v: int) -> str:
    r, c = g.cell(v)
    return f"{r} {c}"


def _list(g: StoneGraph, stones: list[int] | tuple[int, ...]) -> str:
    names = [_at(g, v) for v in sorted(stones)]
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


def _stones(n: int) -> str:
    return f"{n} stone" if n == 1 else f"{n} stones"


def _neighbours(n: int) -> str:
    return f"{n} neighbouring stone" if n == 1 else f"{n} neighbouring stones"


def _group_name(g: StoneGraph, group: list[int], whole: int) -> str:
    if len(group) == whole:
        return f"the {_stones(len(group))}"
    return f"the {_stones(len(group))} connected to cell {_at(g, min(group))}"


def _value_too_high(g: StoneGraph) -> str | None:
    for v in g.stones:
        value, d = g.value[v], g.degree[v]
        if value - 1 > d:
            if d == 0:
                return (
                    f"cell {_at(g, v)} shows {value} but has no neighbouring stones, "
                    "so it always shows 1"
                )
            return (
                f"cell {_at(g, v)} shows {value} but has only {_neighbours(d)}, so it "
                f"can never reach {value} (each neighbour placed after it raises it by one)"
            )
    return None


def _stone_groups(g: StoneGraph) -> list[list[int]]:
    seen = [False] * len(g.value)
    groups = []
    for s in g.stones:
        if seen[s]:
            continue
        seen[s] = True
        group = [s]
        for v in group:
            for u in g.nbrs(v):
                if not seen[u]:
                    seen[u] = True
                    group.append(u)
        groups.append(sorted(group))
    return groups


def _no_first_or_last(g: StoneGraph, group: list[int]) -> str | None:
    if len(group) < 2:
        return None
    name = _group_name(g, group, g.n)
    last = [v for v in group if g.need[v] == 0]
    first = [v for v in group if g.ambiguous(v) or g.need[v] == g.degree[v]]
    if not last:
        return (
            f"no stone of {name} can be the last of them to be placed: the last one "
            "always shows 1, and none of them does"
        )
    if not first:
        return (
            f"no stone of {name} can be the first of them to be placed: the first one "
            "ends up showing 1 + its number of neighbouring stones (4 wraps to 1), "
            "and none of them does"
        )
    return None


def _clashing_neighbours(g: StoneGraph) -> str | None:
    for v in g.stones:
        for u in g.nbrs(v):
            if u < v or g.ambiguous(u) or g.ambiguous(v):
                continue
            if g.need[u] == 0 and g.need[v] == 0:
                return (
                    f"cells {_at(g, v)} and {_at(g, u)} are neighbours and both show 1: "
                    "each must be placed after all its neighbours, so each would have "
                    "to come after the other"
                )
            du, dv = g.degree[u], g.degree[v]
            if g.need[u] == du and g.need[v] == dv:
                return (
                    f"cells {_at(g, v)} (showing {g.value[v]} with {_neighbours(dv)}) and "
                    f"{_at(g, u)} (showing {g.value[u]} with {_neighbours(du)}) must each "
                    "be placed before all their neighbours, but they are neighbours of "
                    "each other"
                )
    return None


def _counting(g: StoneGraph, group: list[int]) -> str | None:
    edges = sum(g.degree[v] for v in group) // 2
    steps = sum(g.need[v] for v in group)
    clusters = sorted({g.cluster_of[v] for v in group if g.cluster_of[v] >= 0})
    reach = sums_reachable(g, clusters)
    possible = [steps + MAX_VALUE * k for k in range(reach.bit_length()) if reach >> k & 1]
    if edges in possible:
        return None
    name = _group_name(g, group, g.n)
    if len(possible) == 1:
        total = f"they add up to {steps}"
    else:
        shown = ", ".join(str(p) for p in possible[:5]) + (", ..." if len(possible) > 5 else "")
        total = f"they can only add up to one of {shown}"
    return (
        f"{name} have {edges} pairs of neighbours, and each pair raises exactly one of its "
        f"two stones (the one placed first) by one, so the values minus 1 must add up to "
        f"{edges} (a 1 with four neighbouring stones counts 0 or 4); but {total}"
    )


def _conflict_sentence(g: StoneGraph, conflict: Conflict) -> str:
    v = conflict.v
    front, back = conflict.front, conflict.back
    if g.ambiguous(v):
        if front and back:
            return (
                f"cell {_at(g, v)} shows 1 with four neighbouring stones, so it must come "
                f"before all four or after all four; but following the moves the target forces, "
                f"{_list(g, front)} must come before it and {_list(g, back)} after it"
            )
        return (
            f"the cells showing 1 with four neighbouring stones around cell {_at(g, v)} "
            f"cannot be ordered: {AMBIGUOUS_RULE}, and the stones forced first and last "
            "around them allow no such choice"
        )
    value, d = g.value[v], g.degree[v]
    if value == 1:
        rule = f"cell {_at(g, v)} shows 1, so it must be placed after all its neighbours"
    elif value - 1 == d:
        rule = (
            f"cell {_at(g, v)} shows {value} with {_neighbours(d)}, so it must be placed "
            "before all of them"
        )
    else:
        rule = (
            f"cell {_at(g, v)} shows {value}, so exactly {value - 1} of its {_neighbours(d)} "
            "must be placed after it"
        )
    forced = "; but following the moves the target forces"
    if conflict.kind == "too-many-later":
        return f"{rule}{forced}, {_list(g, back)} {_must(back)} come after it"
    if value - 1 == d:
        return f"{rule}{forced}, {_list(g, front)} {_must(front)} come before it"
    return (
        f"{rule}{forced}, {_list(g, front)} {_must(front)} come before it, which leaves too "
        "few to come after it"
    )


def _must(stones: tuple[int, ...]) -> str:
    return {1: "must", 2: "must both"}.get(len(stones), "must all")


def _settled_counts(g: StoneGraph, st: State) -> str:
    first = sum(1 for w in st.where if w == FRONT)
    last = sum(1 for w in st.where if w == BACK)
    return (
        f"after the {_stones(first)} forced to come first and the {_stones(last)} forced to "
        "come last"
    )


def _stuck_group(g: StoneGraph, st: State, group_mask: int) -> str:
    group = g.stones_in(group_mask)
    corner = _at(g, min(group))
    head = f"{_settled_counts(g, st)}, the {_stones(len(group))} left around cell {corner}"
    clusters = open_clusters(g, st, group_mask)
    if not clusters:
        return (
            f"{head} are deadlocked: each of them still needs some, but not all, of its "
            "remaining neighbours placed after it, so none of them can be placed first or "
            "last among them"
        )
    if not count_ok(g, st, group_mask, clusters):
        missing = missing_sources(g, st, group_mask)
        edges = g.pairs(group_mask, group_mask) // 2
        return (
            f"{head} have {edges} pairs of neighbours but need {edges - missing} "
            "neighbours placed after them in total, and the stones among them showing 1 "
            "with four neighbouring stones can only change that by 4 each"
        )
    ambiguous = sum(len(g.clusters[c]) for c in clusters)
    if not can_all_settle(g, st, group_mask):
        return (
            f"{head} include some that can never be placed: whichever way the "
            f"{_stones(ambiguous)} among them showing 1 with four neighbouring stones go, "
            "they never get the right number of neighbours placed before and after them"
        )
    return (
        f"{head} include {_stones(ambiguous)} showing 1 with four neighbouring stones; "
        f"{AMBIGUOUS_RULE}, which gives {2 ** len(clusters)} possible choices here, and "
        "none of them leads to an order"
    )


def explain(target: Board, search: Search | None = None) -> str:
    """A sentence saying why ``target`` has no plan (call only when it has none).

    ``search``: a search already run on the target, whose memo saves redoing it.
    """
    g = stone_graph(target) if search is None else search.g
    for check in (_value_too_high, _clashing_neighbours):
        reason = check(g)
        if reason:
            return reason
    for group in _stone_groups(g):
        reason = _no_first_or_last(g, group) or _counting(g, group)
        if reason:
            return reason
    st, conflict = start(g)
    if conflict is not None:
        return _conflict_sentence(g, conflict)
    search = search or Search(g, limit=1)
    for mask in sorted(components(g, st, g.all_mask), key=int.bit_count):
        if search.count_group(st, mask)[0] == 0:
            return _stuck_group(g, st, mask)
    raise ValueError("explain() was called on a target that has a plan")
