"""The puzzle as an OR-Tools CP-SAT model (a peer the benchmark compares against).

A plan is an order of the target's stones. A stone ends up showing
1 + (number of its stone neighbours placed after it), counted round 1..4,
so the model has one Boolean per pair of adjacent stones (which goes first),
a count per stone that must match its value, and a position per stone that
the "goes first" Booleans order, which keeps the choices acyclic. The plan is
the stones sorted by position.
"""

from __future__ import annotations

from benchmarks.peers.graph import stone_graph
from logo_bot.solvers.board import Board, Cell

NAME = "CP-SAT"

try:
    from ortools.sat.python import cp_model
except ImportError:  # pragma: no cover - depends on the installed extras
    cp_model = None


def available() -> bool:
    return cp_model is not None


def solve(target: Board, workers: int = 1) -> tuple[Cell, ...] | None:
    """A plan reaching ``target``, or None when the model proves there is none."""
    if cp_model is None:
        raise RuntimeError("OR-Tools is not installed: pip install -e '.[bench]'")
    stones, edges = stone_graph(target)
    if not stones:
        return ()
    model = cp_model.CpModel()
    n = len(stones)
    pos = [model.NewIntVar(0, n - 1, f"p{k}") for k in range(n)]
    later: list[list] = [[] for _ in range(n)]
    for a, b in edges:
        a_first = model.NewBoolVar(f"f{a}_{b}")
        model.Add(pos[a] < pos[b]).OnlyEnforceIf(a_first)
        model.Add(pos[b] < pos[a]).OnlyEnforceIf(a_first.Not())
        later[a].append(a_first)
        later[b].append(a_first.Not())
    for k, (_, value) in enumerate(stones):
        count = cp_model.LinearExpr.Sum(later[k])
        if value == 1:
            # 0 later neighbours, or all four (4 wraps round to 1).
            model.AddLinearExpressionInDomain(count, cp_model.Domain.FromValues([0, 4]))
        else:
            model.Add(count == value - 1)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    status = solver.Solve(model)
    if status == cp_model.INFEASIBLE:
        return None
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise RuntimeError(f"CP-SAT ended undecided: {solver.StatusName(status)}")
    ranked = sorted(range(n), key=lambda k: solver.Value(pos[k]))
    return tuple(stones[k][0] for k in ranked)
