"""What playing one level came to: its plan, the keys sent, the corrections made."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from logo_bot.solvers.board import Board, Cell


@dataclass
class LevelReport:
    """One level played: the target, the plan and its presses, and what it took."""

    target: Board
    plan: tuple[Cell, ...]
    planned_presses: int
    lower_bound: int
    optimal: bool
    keys_sent: int = 0
    corrections: Counter[str] = field(default_factory=Counter)
    end_board: Board | None = None
    seconds: float = 0.0
    plan_seconds: float = 0.0
    held_moves: int = 0  # straight moves made by holding one key (a repeating game)


@dataclass(frozen=True)
class LevelInPlay:
    """A level being played: its report (which holds the plan) and the board the plan
    leaves after each of its stones (``states[0]`` before the first)."""

    report: LevelReport
    states: tuple[Board, ...]

    @property
    def plan(self) -> tuple[Cell, ...]:
        return self.report.plan
