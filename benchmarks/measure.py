"""Time each contender on each target and check what it says.

A contender turns a target into an ``Answer``: a plan, a proof that there is
none, or nothing (it gave up at its cap). Every plan is checked by forward
simulation with the project's board rules, outside the timed call.
"""

from __future__ import annotations

import gc
import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from logo_bot.solvers.board import Board, Cell, RuleError, play


@dataclass(frozen=True)
class Answer:
    """``solvable`` is None when the contender gave up (a timeout)."""

    solvable: bool | None
    plan: tuple[Cell, ...] | None = None


@dataclass(frozen=True)
class Contender:
    name: str
    run: Callable[[Board], Answer]


@dataclass
class Tally:
    """One contender's times and mistakes over one class of targets."""

    seconds: list[float] = field(default_factory=list)
    timeouts: int = 0
    wrong: int = 0
    plans: list[tuple[Cell, ...] | None] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)

    @property
    def worst(self) -> float:
        return max(self.seconds)


REPEATS = 3
REPEAT_WITHIN_S = 0.05


def timed(run: Callable[[Board], Answer], target: Board) -> tuple[Answer, float]:
    """The fastest of up to ``REPEATS`` calls, repeating only while they have taken less
    than ``REPEAT_WITHIN_S`` in all (so sub-millisecond figures are not one noisy sample);
    the garbage collector runs once before the calls and is held off during each. (Run
    before each call, its walk over every object of the loaded peers evicted the CPU
    caches, adding 60-80 us to a 20 us solve whatever solver came next.)"""
    best = math.inf
    spent = 0.0
    answer = None
    gc.collect()
    for _ in range(REPEATS):
        gc.disable()
        try:
            begin = time.perf_counter()
            answer = run(target)
            seconds = time.perf_counter() - begin
        finally:
            gc.enable()
        best = min(best, seconds)
        spent += seconds
        if spent >= REPEAT_WITHIN_S:
            break
    assert answer is not None
    return answer, best


def plan_reaches(target: Board, plan: tuple[Cell, ...]) -> bool:
    try:
        return play(Board.empty(target.rows, target.cols), plan) == target
    except RuleError:
        return False


def measure(
    contender: Contender, targets: list[Board], solvable: bool, tick: Callable[[], None]
) -> Tally:
    """A ``Tally`` of ``contender`` on ``targets``, all of which are ``solvable`` or not."""
    tally = Tally()
    for target in targets:
        answer, seconds = timed(contender.run, target)
        tally.seconds.append(seconds)
        tally.plans.append(answer.plan)
        if answer.solvable is None:
            tally.timeouts += 1
        elif answer.solvable != solvable or (
            answer.solvable and (answer.plan is None or not plan_reaches(target, answer.plan))
        ):
            tally.wrong += 1
        tick()
    return tally
