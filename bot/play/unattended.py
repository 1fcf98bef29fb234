"""Playing a range of levels unattended: the level loop.

``Walkthrough.run`` is the whole run: enter the game, then for each level wait for it,
play it (``bot.play.player``), and go on to the next; after a failure bring the game back
and enter again. The parts it calls live in their own modules; read them in this order:

- ``bot.play.entering`` (``GameEntry``): the start sequence typed through the menus
  (``bot.play.menus``, where the run's first key is pressed with ``env.step``) and the
  screens between two levels;
- ``bot.play.player``: one level, planned, pressed and checked; ``bot.play.plan_ahead``:
  the next level planned from the level file while the game draws the transition;
- ``bot.play.failures`` and ``bot.play.recovery``: what follows a failed level;
- ``bot.play.timing``: the speed measured on an attached Fuse, the key probe, and the
  timing lengthened when presses go wrong;
- ``bot.play.take_over``: an attached game taken over from whatever it shows;
- ``bot.play.focus_messages``: what the run says while Fuse lacks the focus;
- ``bot.play.run_report``: what the run reports.
"""

from __future__ import annotations

import contextlib
import logging
import time
from functools import partial
from pathlib import Path

from logo_bot.bot import interrupts, stopping
from logo_bot.bot.errors import EmulatorError, LevelFailed, MenuFailed, Unreadable
from logo_bot.bot.fuse.session import Session
from logo_bot.bot.play.entering import GameEntry
from logo_bot.bot.play.env import EnvWrapper, LogoEnv
from logo_bot.bot.play.failures import Failures
from logo_bot.bot.play.focus_messages import FocusMessages
from logo_bot.bot.play.key_probe import KeyProbe
from logo_bot.bot.play.level_report import LevelReport
from logo_bot.bot.play.observation import Observation
from logo_bot.bot.play.plan_ahead import expected_levels
from logo_bot.bot.play.player import Player
from logo_bot.bot.play.progress import Progress
from logo_bot.bot.play.recovery import Recovery
from logo_bot.bot.play.run_report import LevelResult, RunReport
from logo_bot.bot.play.take_over import TakeOver
from logo_bot.bot.play.timing import RunTiming
from logo_bot.bot.profile import Profile

__all__ = ["LevelResult", "RunReport", "Walkthrough"]

log = logging.getLogger(__name__)


class Walkthrough:
    """Plays levels ``first``..``last`` in one game; after any failure it brings the game
    back (``Recovery``), enters again through the last code it knows and plays on.
    ``report`` is made here and kept up to date by every part, so an abort can still say
    how far the run got."""

    def __init__(
        self,
        session: Session,
        env: LogoEnv | EnvWrapper,
        profile: Profile,
        first: int,
        last: int,
        name: str | None = None,
        progress: Progress | None = None,
        max_attempts: int = 5,
        level_timeout_s: float | None = None,
        evidence_dir: Path | None = None,
        probe: bool = False,
    ) -> None:
        self.session = session
        self.env = env
        self.profile = profile
        self.first, self.last = first, last
        self.progress = progress or Progress(last - first + 1)
        # a level shows within a few emulated seconds; a slow machine gets at least 10 s
        self.level_timeout_s = level_timeout_s or max(10.0, 750 * session.frame_s)
        self.report = RunReport(first, last)
        self.player = Player(env, profile)
        if session.attached:  # the person chose the controls: learn whether 7 6 5 8 move
            self.player.alternates = None
        self.expected = expected_levels(profile)  # the level file's, to plan a level ahead
        self.recovery = Recovery(session, env, profile)
        self.entry = GameEntry(session, env, profile, name or profile.start.name, self.report)
        self.failures = Failures(
            session, env, self.recovery, self.report, self.progress, max_attempts, evidence_dir
        )
        self.timing = RunTiming(session, env, profile, self.player, self.report, probe)
        self.takeover = TakeOver(
            session, env, profile, self.entry, self.recovery, self.report, self.progress
        )
        self.focus_messages = FocusMessages(session.focus_policy, env, self.progress, self.report)
        self.game_seen = False  # a level was on screen in this run
        self.first_from_screen = False  # attached without --levels: from the level shown

    @property
    def probe(self) -> KeyProbe | None:
        """The key probe, once it has run."""
        return self.timing.probe

    def enter(self, level: int) -> int:
        """Type the start sequence with the best code known for ``level``; returns the
        level the game starts at (``GameEntry.enter``)."""
        shown = self.entry.enter(level, self.game_seen)
        if self.session.attached:  # the sequence may have begun where the person left it
            self.player.alternates = None
        return shown

    def measure_speed(self) -> None:
        """Play at the emulation speed measured from the screen (``RunTiming``)."""
        self.timing.measure_speed()

    def reach(self, level: int) -> Observation:
        """Enter the game with the nearest code at or below ``level`` and play the levels
        on the way; the first observation of ``level`` (``show`` and ``calibrate``)."""
        shown = self.enter(level)
        while True:
            obs = self.player.wait_level()
            if shown >= level:
                return obs
            self.player.play_level(obs)
            self.entry.wait_transition()
            shown += 1

    def plan_ahead(self, level: int) -> None:
        """Plan ``level`` from the level file while the game draws its transition."""
        expected = self.expected.get(level)
        if expected is not None:
            self.player.plan_ahead(expected)

    def confirm_level(self, obs: Observation, expected: int) -> int:
        """The level number the panel shows (when the profile can read it), else
        ``expected``; a difference is noted and the panel believed."""
        if obs.screens is None or not (self.profile.panel or {}).get("level"):
            return expected
        try:
            shown = obs.screens.panel_number(obs.frame, "level")
        except Unreadable:
            return expected
        if shown != expected:
            log.warning("expected level %d, the panel shows %d", expected, shown)
            self.env.note("level_mismatch", expected=expected, shown=shown)
        return shown

    # -- the run ------------------------------------------------------------------------------
    def run(self) -> RunReport:
        """Play the levels; ``report.time_spent`` says where the time went, by phase: the
        levels, the start, the transitions between levels, the probe, recoveries, and
        ``other`` for the rest."""
        with self.env.spent.phase("other"):
            return self._run()

    def _run(self) -> RunReport:
        report = self.report
        self.timing.note_timing("profile")
        started = time.monotonic()
        on_focus = self.focus_messages.on_focus
        self.session.focus_policy.listeners.append(on_focus)
        level, enter, done_before = self.first, True, False
        spent = self.env.spent  # phases of the run; the player's levels are "level"
        try:
            if self.session.attached:
                with spent.phase("start"):
                    enter = not self.takeover.take_over()
            while level <= self.last:
                interrupts.check()  # between levels: a safe point
                self.progress.update(level=level)
                try:
                    with spent.phase("transition"):
                        if done_before:
                            done_before = False
                            self.entry.wait_transition(meanwhile=partial(self.plan_ahead, level))
                    if enter:
                        with spent.phase("start"):
                            level, enter = self.enter(level), False
                        self.progress.update(level=level)
                    with spent.phase("transition"):  # the level appears, steady
                        first = self.player.wait_level(self.level_timeout_s)
                    self.game_seen = True
                    if self.session.attached and self.timing.measured_speed is None:
                        self.timing.measure_speed()
                    level = self.confirm_level(first, level)
                    if self.first_from_screen:
                        self.first_from_screen = False
                        if self.takeover.start_at_shown(level):
                            self.first = level
                    self.env.note("level_shown", level=level)
                    if self.timing.probe_due:
                        with spent.phase("probe"):
                            self.timing.probe_keys(level)
                            first = self.player.wait_level(self.level_timeout_s)
                    result = self.player.play_level(first)
                except (LevelFailed, EmulatorError, MenuFailed, Unreadable) as exc:
                    if isinstance(exc, Unreadable) and not self.game_seen:
                        raise  # never seen: the screen is not the game the profile describes
                    # once the game was seen, a screen misread is a failed attempt
                    with spent.phase("recovery"):
                        self.failures.recover(level, exc, self.game_seen)
                        # the person's Fuse may still show the level: play on from its board
                        enter = not (self.session.attached and self.takeover.take_over())
                    continue
                self.level_done(level, result)
                level += 1
                done_before = True
            # the game moves on from the last level (its video then shows the end too)
            with contextlib.suppress(EmulatorError), spent.phase("transition"):
                self.env.wait_for(lambda o: not o.level_shown, 10)
        except BaseException as exc:  # run.json never says "running" after the run
            report.status, _ = stopping.play_status(exc, None)
            raise
        finally:
            report.seconds = time.monotonic() - started
            report.time_spent = spent.as_dict()
            self.session.focus_policy.listeners.remove(on_focus)
        report.status = "complete" if report.levels_done == self.last - self.first + 1 else "failed"
        return report

    def level_done(self, level: int, result: LevelReport) -> None:
        self.timing.adapt_timing(result)
        report = self.report
        self.env.note("level_done", level=level, keys=result.keys_sent)
        self.failures.level_done(level)
        if level >= self.first:
            before = report.results.get(level)
            if before is not None and before.status == "done":
                report.run_corrections["level_replayed"] += 1
            else:
                attempts = before.attempts + 1 if before else 1
                report.results[level] = LevelResult(level, "done", result, attempts=attempts)
                self.progress.level_done(result.keys_sent, sum(result.corrections.values()))
        log.info(
            "level %d done: %d keys (plan %d, bound %d), corrections %s",
            level,
            result.keys_sent,
            result.planned_presses,
            result.lower_bound,
            dict(result.corrections) or "none",
        )
