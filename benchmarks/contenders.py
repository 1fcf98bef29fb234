"""The solvers the benchmark races, each wrapped as a ``Contender``."""

from __future__ import annotations

from benchmarks.measure import Answer, Contender
from benchmarks.peers import clingo_model, cpsat, reference
from logo_bot.solvers import planner
from logo_bot.solvers.board import Board


def ours() -> Contender:
    def run(target: Board) -> Answer:
        verdict = planner.solve(target)
        return Answer(verdict.solved, verdict.plan)

    return Contender("ours", run)


def published(time_cap_s: float) -> Contender:
    def run(target: Board) -> Answer:
        outcome = reference.solve(target, time_cap_s=time_cap_s)
        return Answer(None if outcome.timed_out else outcome.solved, outcome.plan)

    return Contender("reference", run)


def peers() -> list[Contender | str]:
    """CP-SAT and clingo, or the name of each one that is not installed."""
    found: list[Contender | str] = []
    for module in (cpsat, clingo_model):
        if module.available():

            def run(target: Board, solve=module.solve) -> Answer:
                plan = solve(target)
                return Answer(plan is not None, plan)

            found.append(Contender(module.NAME, run))
        else:
            found.append(module.NAME)
    return found
