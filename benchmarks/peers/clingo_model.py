"""The puzzle as an answer-set program for clingo (a peer the benchmark compares against).

Facts name the stones and their values and the pairs of touching stones; the
program guesses which stone of each pair goes first, requires every stone's
count of later neighbours to match its value (1 + count, round 1..4), and
keeps the guess acyclic with clingo's built-in ``#edge`` acyclicity check.
The plan is a topological order of the guessed "goes first" pairs.
"""

from __future__ import annotations

from benchmarks.peers.graph import stone_graph, topological_order
from logo_bot.solvers.board import Board, Cell

NAME = "clingo"

try:
    import clingo
except ImportError:  # pragma: no cover - depends on the installed extras
    clingo = None

PROGRAM = """
{ first(A,B) } :- adj(A,B).
before(A,B) :- first(A,B).
before(B,A) :- adj(A,B), not first(A,B).
:- stone(S,V), V > 1, #count { T : before(S,T) } != V-1.
:- stone(S,1), K = #count { T : before(S,T) }, K != 0, K != 4.
#edge (A,B) : before(A,B).
#show before/2.
"""


def available() -> bool:
    return clingo is not None


def solve(target: Board) -> tuple[Cell, ...] | None:
    """A plan reaching ``target``, or None when clingo proves there is none."""
    if clingo is None:
        raise RuntimeError("clingo is not installed: pip install -e '.[bench]'")
    stones, edges = stone_graph(target)
    if not stones:
        return ()
    facts = [f"stone({k},{v})." for k, (_, v) in enumerate(stones)]
    facts += [f"adj({a},{b})." for a, b in edges]
    control = clingo.Control(["--models=1", "--warn=none"])
    control.add("base", [], PROGRAM + "\n".join(facts))
    control.ground([("base", [])])
    found: list[tuple[int, int]] = []
    seen: list[bool] = []

    def on_model(model: clingo.Model) -> None:
        seen.append(True)
        for sym in model.symbols(shown=True):
            found.append((sym.arguments[0].number, sym.arguments[1].number))

    result = control.solve(on_model=on_model)
    if result.unsatisfiable:
        return None
    if not seen:
        raise RuntimeError("clingo ended without an answer or a proof")
    order = topological_order(len(stones), found)
    if order is None:
        raise RuntimeError("clingo's answer has a cycle, which #edge should have ruled out")
    return tuple(stones[k][0] for k in order)
