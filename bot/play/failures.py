"""When a level fails: the failure noted and counted, the run given up when a level keeps
failing (or the game never showed), with a picture of what the bot saw, and otherwise the
game brought back (``bot.play.recovery``) for the walkthrough to enter again."""

from __future__ import annotations

import logging
import tempfile
import time
from collections import Counter
from pathlib import Path

from logo_bot.bot.errors import BotError, EmulatorError, GaveUp, LevelGone, MenuFailed
from logo_bot.bot.fuse.session import Session
from logo_bot.bot.play.env import EnvWrapper, LogoEnv
from logo_bot.bot.play.observation import Observation
from logo_bot.bot.play.progress import Progress
from logo_bot.bot.play.recovery import Recovery
from logo_bot.bot.play.run_report import LevelResult, RunReport
from logo_bot.bot.see.annotate import save_annotated

log = logging.getLogger(__name__)


class Failures:
    """Each level's failures since it was last done, and what follows one."""

    def __init__(
        self,
        session: Session,
        env: LogoEnv | EnvWrapper,
        recovery: Recovery,
        report: RunReport,
        progress: Progress,
        max_attempts: int = 5,
        evidence_dir: Path | None = None,
    ) -> None:
        self.session = session
        self.env = env
        self.recovery = recovery
        self.report = report
        self.progress = progress
        self.max_attempts = max_attempts
        self.evidence_dir = evidence_dir
        self.counts: Counter[int] = Counter()  # failures of each level since it was done

    def level_done(self, level: int) -> None:
        self.counts[level] = 0

    def recover(self, level: int, exc: BotError, game_seen: bool) -> None:
        """Note the failure, give up when it keeps happening (or when the game was never
        ``game_seen``), else bring the game back."""
        report = self.report
        reason = getattr(exc, "reason", None) or exc.message
        kind = failure_kind(exc, self.session)
        log.warning("level %d: %s (%s)", level, reason, kind)
        obs = getattr(exc, "obs", None)
        self.env.note("failure", level=level, reason=reason, kind=kind, obs=obs)
        report.recoveries[kind] += 1
        before = report.results.get(level)
        if before is None or before.status != "done":
            attempts = before.attempts + 1 if before else 1
            report.results[level] = LevelResult(level, "failed", None, reason, attempts)
        self.counts[level] += 1
        if not game_seen and self.counts[level] >= 2:
            check = (
                "check that your Fuse shows the game, whole and not covered, and --profile"
                if self.session.attached
                else "check --profile and the game given (--snapshot, --tape, --rom)"
            )
            raise GaveUp(
                f"the game never showed on screen: {reason}",
                hint=f"{check}; " + self.evidence(obs, f"never shown, level {level}"),
            ) from None
        if self.counts[level] >= self.max_attempts:
            raise GaveUp(
                f"level {level} failed {self.counts[level]} times in a row: {reason}",
                hint=self.evidence(obs, f"level {level}: {reason}"),
            ) from None
        self.progress.update(status=f"recovering ({reason[:40]})")
        how = self.recovery.recover(reason)
        report.recoveries[how] += 1
        if how == "restart":
            report.restarts += 1
        self.progress.update(status="")

    def evidence(self, obs: Observation | None, note: str) -> str:
        """Save an annotated picture of ``obs``; returns a sentence naming it."""
        if obs is None:
            try:
                obs = self.env.observe()
            except BotError:
                return "no picture could be taken (Fuse is gone)"
        folder = self.evidence_dir or Path(tempfile.gettempdir())
        path = folder / f"logo-bot-failure-{time.strftime('%Y%m%dT%H%M%S')}.png"
        try:
            save_annotated(path, obs.frame, obs.vision, [note])
        except (OSError, ValueError) as exc:
            return f"no picture could be saved ({exc})"
        return f"see what the bot saw: {path}"


def failure_kind(exc: BaseException, session: Session) -> str:
    """A short name for why a level failed (for reports and the chaos benchmark)."""
    if isinstance(exc, EmulatorError) or not session.fuse.alive():
        return "fuse_died" if not session.fuse.alive() else "emulator"
    if isinstance(exc, LevelGone):
        return "time_up" if exc.screen in ("time_up", "game_over") else "level_gone"
    if isinstance(exc, MenuFailed):
        return "menu"
    return "level_failed"
