"""Plans made before their level shows.

While the game draws the transition after a level, the bot has nothing to do but watch:
it plans the level that the profile's level file says comes next, from the cell the
cursor started the last level at. The plan is used only when the screen then shows that
very target with the cursor on that cell; otherwise the level is planned as it shows.
What the bot plays is still what it reads: the level file only says what to plan early.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from logo_bot.bot.play.codes import level_list
from logo_bot.bot.profile import Profile
from logo_bot.solvers.board import Board, Cell
from logo_bot.solvers.order import Ordering, fewest_presses
from logo_bot.solvers.planner import Unsolvable


@dataclass(frozen=True)
class PlanAhead:
    """An ordering made for ``target`` from ``cursor`` before the level showed, in
    ``seconds``."""

    target: Board
    cursor: Cell
    ordering: Ordering
    seconds: float = 0.0

    def fits(self, target: Board, cursor: Cell) -> bool:
        return target == self.target and cursor == self.cursor


def level_targets(profile: Profile) -> dict[int, Board]:
    """Level number -> target from the profile's level file (``codes.level_list``); none
    without one (the original's profile)."""
    return {lv.number: lv.board for lv in level_list(profile)}


def plan_ahead(target: Board, cursor: Cell, wrap: bool) -> PlanAhead | None:
    """The fewest-presses ordering for ``target`` from ``cursor``; None when it has none."""
    started = time.monotonic()
    try:
        ordering = fewest_presses(target, start=cursor, wrap=wrap)
    except Unsolvable:
        return None
    return PlanAhead(target, cursor, ordering, time.monotonic() - started)
