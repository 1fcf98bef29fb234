"""What a walkthrough reports: each level's result and the run's totals, kept up to date
while it plays (an aborted run can still say how far it got)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from logo_bot.bot.play.level_report import LevelReport


@dataclass
class LevelResult:
    level: int
    status: str  # "done" or "failed"
    report: LevelReport | None = None
    reason: str | None = None
    attempts: int = 1


@dataclass
class RunReport:
    first: int
    last: int
    results: dict[int, LevelResult] = field(default_factory=dict)
    restarts: int = 0
    seconds: float = 0.0
    status: str = "running"  # "complete", "failed", "aborted"
    recoveries: Counter[str] = field(default_factory=Counter)  # why, and soft or restart
    run_corrections: Counter[str] = field(default_factory=Counter)  # menus, focus, replays
    measured_speed: float | None = None  # percent, measured from the screen (attached)
    key_probe: dict[str, Any] | None = None  # what the key probe found (ProbeResult.as_dict)
    key_timing: dict[str, Any] | None = None  # the timing played with at the end
    time_spent: dict[str, Any] | None = None  # where the time went (TimeSpent.as_dict)

    @property
    def levels_done(self) -> int:
        return sum(1 for r in self.results.values() if r.status == "done")

    @property
    def keys_sent(self) -> int:
        return sum(r.report.keys_sent for r in self.results.values() if r.report)

    @property
    def planned_presses(self) -> int:
        return sum(r.report.planned_presses for r in self.results.values() if r.report)

    @property
    def corrections(self) -> Counter[str]:
        """Corrections by kind: those in play (cursor, lost_action, wrong_stone, ...) and
        those around it (menu keys, focus taken back, levels played again, ...)."""
        total: Counter[str] = Counter()
        for result in self.results.values():
            if result.report:
                total.update(result.report.corrections)
        total.update(self.run_corrections)
        return total
