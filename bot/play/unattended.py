"""Playing a range of levels unattended: start the game, play, recover, report."""

from __future__ import annotations

import contextlib
import logging
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from bot.errors import (
    BotError,
    EmulatorError,
    GaveUp,
    LevelFailed,
    LevelGone,
    MenuFailed,
    Unreadable,
)
from bot.frames import FPS
from bot.fuse.session import Session
from bot.play.codes import code_table, entry_for
from bot.play.env import EnvWrapper, LogoEnv, Observation
from bot.play.key_probe import KeyProbe
from bot.play.menus import MenuDriver, Step, expand_steps
from bot.play.player import LevelReport, Player
from bot.play.probe_io import probe_keys
from bot.play.progress import Progress
from bot.play.recovery import Recovery
from bot.play.speed import board_area, measure_speed
from bot.profile import Profile
from bot.see.annotate import save_annotated

log = logging.getLogger(__name__)

PAUSED = "PAUSED: another window has the keyboard focus; click the Fuse window to go on"
TAKING_BACK = "another window has the keyboard focus: taking it back in {:.0f} s"
COVERED = "PAUSED: another window covers the Fuse picture; move it away to go on"
RAISING = "another window covers the Fuse picture: raising Fuse in {:.0f} s"


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


class Walkthrough:
    """Plays levels ``first``..``last`` in one game; after any failure it brings the game
    back (``Recovery``), enters again through the last code it knows and plays on."""

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
        self.name = name or profile.start.name
        self.codes = code_table(profile)
        self.progress = progress or Progress(last - first + 1)
        self.max_attempts = max_attempts
        # a level shows within a few emulated seconds; a slow machine gets at least 10 s
        self.level_timeout_s = level_timeout_s or max(10.0, 750 * session.frame_s)
        self.evidence_dir = evidence_dir
        self.player = Player(env, profile)
        self.recovery = Recovery(session, env, profile)
        self.report = RunReport(first, last)  # kept up to date, so an abort can still say
        self.failures: Counter[int] = Counter()  # failures of each level since it was done
        self.game_seen = False
        self.measured_speed: float | None = None
        self.first_from_screen = False  # attached without --levels: from the level shown
        self.probe_wanted = probe  # measure the key timing on the first levels
        self.probe: KeyProbe | None = None
        self._keys_since = self._misses_since = 0  # since the timing last changed
        self._raised = 0  # half frames added to the probed timing in play

    # -- entering -----------------------------------------------------------------------------
    def enter(self, level: int) -> int:
        """Type the start sequence with the best code known for ``level``; returns the
        level the game starts at."""
        start, code = entry_for(level, self.codes)
        steps = expand_steps(
            self.profile.start.sequence, {"code": self.profile.start.code}, self.name, code, start
        )
        resumed = self.resume_entry(steps)
        if resumed is not None:
            return self.finish_entry(*resumed)
        if self.session.attached and self.game_seen and code is None and level > 1:
            raise GaveUp(
                f"the game went back to its start and no code is known to re-enter at "
                f"level {level}: the bot would have to play levels 1-{level - 1} again",
                hint=f"give the code with --set codes.{level}=WORD (or the code of an "
                f"earlier level), or attach with --levels 1-{self.last}",
            )
        self.session.wait_frames(self.profile.start.loaded_wait * FPS)
        self.env.note("enter", level=start, code=code, name=self.name)
        log.info("entering the game at level %d%s", start, f" with code {code}" if code else "")
        self.run_menu(steps)
        return start

    def run_menu(self, steps: list[Step]) -> None:
        driver = MenuDriver(self.env, self.session.frame_s, slower=self.slower_keys)
        try:
            driver.run(steps)
        finally:
            if driver.corrections:
                self.report.run_corrections["menu"] += driver.corrections

    def resume_entry(self, steps: list[Step]) -> tuple[list[Step], str, int | None] | None:
        """When the game already shows a prompt the start sequence types into (a person
        left it at the name entry): the steps from that text on, the prompt, and the start
        level the menu shows; None when no such prompt shows. The steps before it would be
        typed into the prompt (on the practice game ``2 5 ENTER`` would end up in the name
        and start the game)."""
        prompts = [(i, s.within) for i, s in enumerate(steps) if s.echo and s.within]
        if not prompts:
            return None
        obs = self.env.observe()
        for index, prompt in prompts:
            if obs.shows(prompt):
                try:
                    shown = obs.field("menu_start_level")
                except Unreadable:
                    shown = ""
                return steps[index:], prompt, int(shown) if shown.isdigit() else None
        return None

    def finish_entry(self, steps: list[Step], prompt: str, shown: int | None) -> int:
        """Finish the entry the game shows (``resume_entry``): the game then starts at the
        level its menu shows (a code can no longer be typed), 1 when it cannot be read."""
        start = shown or 1
        self.env.note("enter", level=start, code=None, name=self.name, resumed_at=prompt)
        log.info("the game shows the %s: finishing it, the game starts at level %d", prompt, start)
        self.run_menu(steps)
        return start

    @contextlib.contextmanager
    def slower_keys(self, tries: int, most_ms: float = 400) -> Iterator[None]:
        """Keys held and let go 1.5 times longer for each try again (up to ``most_ms``):
        a menu key that had no effect may have been too short for the game."""
        timing = self.session.keys.timing
        factor = 1.5**tries
        longer = replace(
            timing,
            hold_ms=min(most_ms, timing.hold_ms * factor),
            gap_ms=min(most_ms, timing.gap_ms * factor),
        )
        with self.session.timed(longer if tries else timing):
            yield

    def reach(self, level: int) -> Observation:
        """Enter the game with the nearest code at or below ``level`` and play the levels
        on the way; the first observation of ``level`` (``show`` and ``calibrate``)."""
        shown = self.enter(level)
        while True:
            obs = self.player.wait_level()
            if shown >= level:
                return obs
            self.player.play_level(obs)
            self.wait_transition()
            shown += 1

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

    # -- between levels -------------------------------------------------------------------------
    def wait_transition(self, timeout_frames: float = 100) -> None:
        """After the last stone: wait for the level to leave the screen, then skip the
        screens the profile says may be skipped (a code screen) once they are shown,
        learning the code a code screen shows."""
        self.env.wait_for(lambda o: not o.level_shown, timeout_frames)
        skip = self.profile.screens.skip if self.profile.screens else {}
        if not skip:
            return
        obs, _ = self.env.wait_for(lambda o: o.level_shown or o.screen in skip, 250)
        if not obs.level_shown and obs.screen in skip:
            if obs.screen == "code":
                self.learn_code()
            self.env.note("skip_screen", screen=obs.screen, key=skip[obs.screen])
            log.info("skipping the %s screen with %s", obs.screen, skip[obs.screen])
            self.session.wait_frames(3)  # the screen finishes drawing
            self.env.step([skip[obs.screen]], lambda o: o.screen != obs.screen, 20)

    def learn_code(self) -> None:
        """Read the code screen's level and word; a later recovery enters through it."""
        obs, met = self.env.wait_for(_code_readable, 10)
        if not met:
            return
        level, word = int(obs.field("code_level")), obs.field("code_word")
        if self.codes.get(level) != word:
            log.info("learnt the code %s for level %d", word, level)
            self.codes[level] = word
        self.env.note("code_seen", level=level, code=word)

    # -- taking over a game in progress ---------------------------------------------------------
    def take_over(self, timeout_frames: float = 400) -> bool:
        """Attached to a game someone was playing: bring it to a level or to where the
        start sequence begins, from whatever it shows. True when a level is (about to be)
        shown, False when the start sequence must run."""
        deadline = time.monotonic() + timeout_frames * self.session.frame_s
        skip = self.profile.screens.skip if self.profile.screens else {}
        while True:
            obs = self.env.observe()
            screen = obs.screen
            self.env.note("take_over", screen=screen, level_shown=obs.level_shown)
            if obs.level_shown:
                return True
            if screen in ("title", "menu", "name_prompt", "code_prompt", "code_ok", "code_wrong"):
                return False
            if screen == "code" and "code" in skip:
                self.learn_code()
                self.env.step([skip["code"]], lambda o: o.screen != "code", 20)
                return True
            if (screen in skip or screen == "time_up") and self.recovery.leave_to_start(obs):
                return False
            if time.monotonic() > deadline:
                raise MenuFailed(
                    f"the game shows {screen or 'no screen the profile knows'}, and it did not "
                    "move on to a level or a menu",
                    hint="bring the game to its menu or a level, then attach again",
                )
            self.session.wait_frames(5)  # a transition: wait for what comes next

    def start_at_shown(self, level: int) -> None:
        """The run goes from the level the attached game shows to ``last``."""
        self.first_from_screen = False
        if not self.first <= level <= self.last:
            return
        self.first = self.report.first = level
        self.progress.total_levels = self.last - level + 1
        self.env.note("start_level", level=level)

    def measure_speed(self) -> None:
        """Time the cursor's FLASH and play at the speed found (attached runs)."""
        area = board_area(self.profile, self.session.vision.scale)
        reading = measure_speed(self.session.frame, area)
        self.session.set_speed(reading.percent)
        self.measured_speed = self.report.measured_speed = reading.percent
        self.note_timing("profile")
        self.env.note("speed_measured", percent=reading.percent, swaps=reading.swaps)
        log.info("the emulation runs at %.1f %% (%d FLASH swaps)", reading.percent, reading.swaps)

    def probe_keys(self, level: int) -> None:
        """Measure the key timing on this level (``bot.play.key_probe``), going on from
        where an earlier level's probe stopped, and play with what it found."""
        if self.probe is None:
            log.info("probing the key timing on level %d (a few seconds)", level)
        self.probe, result = probe_keys(self.session, self.player, self.probe)
        self.report.key_probe = result.as_dict()
        if result.repeats and result.repeat_delay_frames and result.repeat_every_frames:
            self.player.repeat = (result.repeat_delay_frames, result.repeat_every_frames)
        self.note_timing("probe" if result.usable else "profile")

    def adapt_timing(self, result: LevelReport, most: int = 4) -> None:
        """Probed timing only: when presses are lost or doubled in play (cursor and lost
        action corrections) more than once per 100 keys, hold and let go half a frame
        longer, at most ``most`` times (the probe saw a dozen presses; play sees thousands,
        and a busy machine delays X events)."""
        if self.probe is None or not self.probe.result().usable or self._raised >= most:
            return
        self._keys_since += result.keys_sent
        self._misses_since += result.corrections["cursor"] + result.corrections["lost_action"]
        if self._keys_since < 100:
            return
        if self._misses_since >= 2 and self._misses_since * 100 > self._keys_since:
            t = self.session.keys.timing
            step = self.session.frame_s * 500
            self.session.use_timing(replace(t, hold_ms=t.hold_ms + step, gap_ms=t.gap_ms + step))
            self._raised += 1
            self.report.run_corrections["timing_raised"] += 1
            t = self.session.keys.timing
            self.env.note(
                "timing_raised",
                hold_ms=t.hold_ms,
                gap_ms=t.gap_ms,
                misses=self._misses_since,
                keys_seen=self._keys_since,
            )
            log.info(
                "%d presses of %d went wrong: holding keys %.0f ms and letting go %.0f ms",
                self._misses_since,
                self._keys_since,
                t.hold_ms,
                t.gap_ms,
            )
            self.note_timing("probe")
        self._keys_since = self._misses_since = 0

    def note_timing(self, source: str) -> None:
        timing = self.session.keys.timing
        self.report.key_timing = {
            "source": source,
            "hold_ms": timing.hold_ms,
            "gap_ms": timing.gap_ms,
            "rollover": timing.rollover,
        }

    # -- the run ------------------------------------------------------------------------------
    def run(self) -> RunReport:
        report = self.report = RunReport(self.first, self.last)
        self.note_timing("profile")
        started = time.monotonic()
        self.session.focus_policy.listeners.append(self.on_focus)
        level, enter, done_before = self.first, True, False
        if self.session.attached:
            enter = not self.take_over()
        try:
            while level <= self.last:
                self.progress.update(level=level)
                try:
                    if done_before:
                        done_before = False
                        self.wait_transition()
                    if enter:
                        level, enter = self.enter(level), False
                        self.progress.update(level=level)
                    first = self.player.wait_level(self.level_timeout_s)
                    self.game_seen = True
                    if self.session.attached and self.measured_speed is None:
                        self.measure_speed()
                    level = self.confirm_level(first, level)
                    if self.first_from_screen:
                        self.start_at_shown(level)
                    self.env.note("level_shown", level=level)
                    if self.probe_wanted and not (self.probe and self.probe.complete):
                        self.probe_keys(level)
                        first = self.player.wait_level(self.level_timeout_s)
                    result = self.player.play_level(first)
                except (LevelFailed, EmulatorError, MenuFailed) as exc:
                    self.recover(level, exc)
                    # the person's Fuse may still show the level: play on from its board
                    enter = not (self.session.attached and self.take_over())
                    continue
                self.level_done(level, result)
                level += 1
                done_before = True
            # the game moves on from the last level (its video then shows the end too)
            with contextlib.suppress(EmulatorError):
                self.env.wait_for(lambda o: not o.level_shown, 10)
        except KeyboardInterrupt:
            report.status = "aborted"
            raise
        finally:
            report.seconds = time.monotonic() - started
            self.session.focus_policy.listeners.remove(self.on_focus)
        report.status = "complete" if report.levels_done == self.last - self.first + 1 else "failed"
        return report

    def level_done(self, level: int, result: LevelReport) -> None:
        self.adapt_timing(result)
        report = self.report
        self.env.note("level_done", level=level, keys=result.keys_sent)
        self.failures[level] = 0
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

    # -- when things go wrong -----------------------------------------------------------------
    def recover(self, level: int, exc: BotError) -> None:
        """Note the failure, give up when it keeps happening, else bring the game back."""
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
        self.failures[level] += 1
        if not self.game_seen and self.failures[level] >= 2:
            raise GaveUp(
                f"the game never showed on screen: {reason}",
                hint="check --profile and the game given (--snapshot, --tape, --rom); "
                + self.evidence(obs, f"never shown, level {level}"),
            ) from None
        if self.failures[level] >= self.max_attempts:
            raise GaveUp(
                f"level {level} failed {self.failures[level]} times in a row: {reason}",
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

    def on_focus(self, event: str, data: dict[str, Any]) -> None:
        """The key driver lost or regained the keyboard focus, or found the picture covered:
        say so and note it."""
        if event == "covered":
            self.env.note("picture_covered")
            log.warning("another window covers the Fuse picture: no key is pressed")
            self.progress.update(status="another window covers the Fuse picture: waiting")
            return
        if event == "regained" and data.get("reason") == "covered":
            self.env.note("picture_uncovered", how=data.get("how"), waited_s=data.get("waited_s"))
            self.report.run_corrections[f"cover_{data.get('how', 'regained')}"] += 1
            self.progress.update(status="")
            return
        self.env.note(f"focus_{event}", **{k: v for k, v in data.items() if k != "paused"})
        if event == "paused":
            policy = self.session.focus_policy
            if data.get("covered"):
                log.warning("paused: another window covers the Fuse picture")
                message = RAISING.format(policy.grace_s) if policy.take_back else COVERED
            else:
                log.warning("paused: another window has the keyboard focus")
                message = TAKING_BACK.format(policy.grace_s) if policy.take_back else PAUSED
            self.progress.update(status=message)
        elif event == "regained":
            self.report.run_corrections[f"focus_{data.get('how', 'regained')}"] += 1
            self.progress.update(status="")


def failure_kind(exc: BaseException, session: Session) -> str:
    """A short name for why a level failed (for reports and the chaos benchmark)."""
    if isinstance(exc, EmulatorError) or not session.fuse.alive():
        return "fuse_died" if not session.fuse.alive() else "emulator"
    if isinstance(exc, LevelGone):
        return "time_up" if exc.screen in ("time_up", "game_over") else "level_gone"
    if isinstance(exc, MenuFailed):
        return "menu"
    return "level_failed"


def _code_readable(obs: Observation) -> bool:
    level, word = obs.field("code_level"), obs.field("code_word")
    return level.isdigit() and len(word) >= 3 and word.isalpha()
