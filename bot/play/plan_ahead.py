"""Plans made before their level shows.

While the game draws the transition after a level, the bot has nothing to do but watch:
it plans the level that the profile's level file says comes next, from the cell the
cursor started the last level at. The plan is used only when the screen then shows that
very target with the cursor on that cell; otherwise the level is planned as it shows.
What the bot plays is still what it reads: the level file only says what to plan early.

Where the level file also gives the level's fewest presses (``presses``, proven by the
generator from cell 1 1 with a cursor that stops at the edges; the full test suite
writes the file again and compares it), a plan from that cell ends its search once it
meets that figure, without proving it again.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from logo_bot.bot.play.codes import level_list
from logo_bot.bot.profile import Profile
from logo_bot.solvers.board import Board, Cell
from logo_bot.solvers.levels import Level
from logo_bot.solvers.order import Ordering, fewest_presses
from logo_bot.solvers.planner import Unsolvable

# where a level file's fewest presses were proven from (``presses``: no wrap)
FEWEST_FROM: Cell = (1, 1)


@dataclass(frozen=True)
class Expected:
    """A level as the profile's level file gives it: its target, and the fewest presses
    proven for it from ``FEWEST_FROM`` with no wrap (None where the file does not say)."""

    target: Board
    fewest: int | None = None

    @classmethod
    def of(cls, level: Level) -> Expected:
        presses = level.meta.get("presses", "")
        return cls(level.board, int(presses) if presses.isdigit() else None)

    def proven_from(self, cursor: Cell, wrap: bool) -> int:
        """The file's fewest presses as a bound on a plan from ``cursor`` (0: none, for
        a cursor that starts elsewhere or wraps)."""
        if self.fewest is None or cursor != FEWEST_FROM or wrap:
            return 0
        return self.fewest


@dataclass(frozen=True)
class PlanAhead:
    """An ordering made for ``target`` from ``cursor`` before the level showed, in
    ``seconds``; ``proven``: its lower bound is the level file's fewest presses."""

    target: Board
    cursor: Cell
    ordering: Ordering
    seconds: float = 0.0
    proven: bool = False

    def fits(self, target: Board, cursor: Cell) -> bool:
        return target == self.target and cursor == self.cursor


def expected_levels(profile: Profile) -> dict[int, Expected]:
    """Level number -> the level as the profile's level file gives it
    (``codes.level_list``); none without one (the original's profile)."""
    return {lv.number: Expected.of(lv) for lv in level_list(profile)}


def plan_ahead(target: Board, cursor: Cell, wrap: bool, fewest: int = 0) -> PlanAhead | None:
    """The fewest-presses ordering for ``target`` from ``cursor``, its search ended by a
    plan of ``fewest`` presses (proven beforehand; 0: none); None when it has none."""
    started = time.monotonic()
    try:
        ordering = fewest_presses(target, start=cursor, wrap=wrap, proven=fewest)
    except Unsolvable:
        return None
    proven = 0 < fewest == ordering.lower_bound
    return PlanAhead(target, cursor, ordering, time.monotonic() - started, proven)
