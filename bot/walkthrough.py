"""Playing a range of levels unattended: start the game, play, recover, report."""

from __future__ import annotations

import logging
import time
from collections import Counter
from dataclasses import dataclass, field

from bot.codes import code_table, entry_for
from bot.env import EnvWrapper, LogoEnv
from bot.errors import BotError, EmulatorError
from bot.menus import MenuDriver, expand_steps
from bot.player import LevelFailed, LevelReport, Player
from bot.profile import Profile
from bot.progress import Progress
from bot.session import Session

log = logging.getLogger(__name__)


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
        total: Counter[str] = Counter()
        for result in self.results.values():
            if result.report:
                total.update(result.report.corrections)
        return total


class Walkthrough:
    """Plays levels ``first``..``last`` in one game, re-entering through codes on failure."""

    def __init__(
        self,
        session: Session,
        env: LogoEnv | EnvWrapper,
        profile: Profile,
        first: int,
        last: int,
        name: str | None = None,
        progress: Progress | None = None,
        max_restarts: int = 3,
        level_timeout_s: float = 30.0,
    ) -> None:
        self.session = session
        self.env = env
        self.profile = profile
        self.first, self.last = first, last
        self.name = name or profile.start.name
        self.codes = code_table(profile)
        self.progress = progress or Progress(last - first + 1)
        self.max_restarts = max_restarts
        self.level_timeout_s = level_timeout_s
        self.player = Player(env, profile)
        self.report = RunReport(first, last)  # kept up to date, so an abort can still say

    def enter(self, level: int) -> int:
        """Type the start sequence with the best code for ``level``; returns the level the
        game starts at."""
        start, code = entry_for(level, self.codes)
        steps = expand_steps(
            self.profile.start.sequence, {"code": self.profile.start.code}, self.name, code, start
        )
        self.session.wait_frames(self.profile.start.loaded_wait * 50.08)
        self.env.note("enter", level=start, code=code, name=self.name)
        log.info("entering the game at level %d%s", start, f" with code {code}" if code else "")
        MenuDriver(self.env, self.session.frame_s).run(steps)
        return start

    def wait_transition(self, timeout_frames: float = 100) -> None:
        """After the last stone: wait for the level to leave the screen, then skip the
        screens the profile says may be skipped (a code screen) once they are shown."""
        self.env.wait_for(lambda o: not o.level_shown, timeout_frames)
        skip = self.profile.screens.skip if self.profile.screens else {}
        if not skip:
            return
        obs, _ = self.env.wait_for(lambda o: o.level_shown or o.screen in skip, 250)
        if not obs.level_shown and obs.screen in skip:
            self.env.note("skip_screen", screen=obs.screen, key=skip[obs.screen])
            log.info("skipping the %s screen with %s", obs.screen, skip[obs.screen])
            self.session.wait_frames(3)  # the screen finishes drawing
            self.env.step([skip[obs.screen]], lambda o: o.screen != obs.screen, 20)

    def run(self) -> RunReport:
        report = self.report = RunReport(self.first, self.last)
        started = time.monotonic()
        level = self.enter(self.first)
        try:
            while level <= self.last:
                self.progress.update(level=level)
                try:
                    first = self.player.wait_level(self.level_timeout_s)
                    self.env.note("level_shown", level=level)
                    result = self.player.play_level(first)
                except (LevelFailed, EmulatorError) as exc:
                    level = self.recover(level, exc, report)
                    continue
                self.env.note("level_done", level=level, keys=result.keys_sent)
                if level >= self.first:
                    report.results[level] = LevelResult(level, "done", result)
                    self.progress.level_done(result.keys_sent, sum(result.corrections.values()))
                log.info(
                    "level %d done: %d keys (plan %d, bound %d), corrections %s",
                    level,
                    result.keys_sent,
                    result.planned_presses,
                    result.lower_bound,
                    dict(result.corrections) or "none",
                )
                level += 1
                if level <= self.last:
                    self.wait_transition()
        except KeyboardInterrupt:
            report.status = "aborted"
            raise
        finally:
            report.seconds = time.monotonic() - started
        report.status = (
            "complete" if report.levels_done == self.last - self.first + 1 else ("failed")
        )
        return report

    def recover(self, level: int, exc: BotError, report: RunReport) -> int:
        """Restart Fuse and re-enter at ``level`` through the nearest code."""
        reason = getattr(exc, "reason", None) or str(exc)
        log.warning("level %d failed: %s", level, reason)
        self.env.note("failure", level=level, reason=reason)
        failed = report.results.get(level)
        attempts = failed.attempts + 1 if failed else 1
        report.results[level] = LevelResult(level, "failed", None, reason, attempts)
        if report.restarts >= self.max_restarts:
            raise BotError(
                f"level {level} failed and {report.restarts} restarts are used up: {reason}"
            ) from exc
        report.restarts += 1
        self.progress.update(status=f"restarting ({reason[:40]})")
        self.env.note("restart", level=level, reason=reason)
        self.session.restart()
        self.progress.update(status="")
        return self.enter(level)
