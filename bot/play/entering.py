"""Getting into the game and from one level to the next: the profile's start sequence
typed through the menus (with the best level code known, and the player's name), an
entry a person left half done finished, and the screens between two levels skipped (the
codes they show learnt, so that a later entry can start there)."""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import replace

from logo_bot.bot import interrupts
from logo_bot.bot.errors import GaveUp, Unreadable
from logo_bot.bot.frames import FPS
from logo_bot.bot.fuse.session import Session
from logo_bot.bot.play.codes import code_table, entry_for
from logo_bot.bot.play.env import EnvWrapper, LogoEnv
from logo_bot.bot.play.menus import MenuDriver, Step, expand_steps
from logo_bot.bot.play.observation import ByCells, Observation
from logo_bot.bot.play.run_report import RunReport
from logo_bot.bot.profile import Profile

log = logging.getLogger(__name__)


class GameEntry:
    """Enters the game at a level through its menus, and leaves a finished level for the
    next; ``codes`` (level -> code) grows with every code screen seen."""

    def __init__(
        self,
        session: Session,
        env: LogoEnv | EnvWrapper,
        profile: Profile,
        name: str,
        report: RunReport,
    ) -> None:
        self.session = session
        self.env = env
        self.profile = profile
        self.name = name
        self.report = report  # menu corrections are counted in it
        self.codes = code_table(profile)

    # -- entering ---------------------------------------------------------------------------
    def enter(self, level: int, game_seen: bool = False) -> int:
        """Type the start sequence with the best code known for ``level``; returns the
        level the game starts at. ``game_seen``: a level was on screen earlier in the run
        (an attached game that went back to its start may then need a code)."""
        self.env.load_tape()  # a tape OpenSE cannot load by itself, in a Fuse just started
        start, code = entry_for(level, self.codes)
        steps = expand_steps(
            self.profile.start.sequence, {"code": self.profile.start.code}, self.name, code, start
        )
        resumed = self.resume_entry(steps)
        if resumed is not None:
            return self.finish_entry(*resumed)
        if self.session.attached and game_seen and code is None and level > 1:
            raise GaveUp(
                f"the game went back to its start and no code is known to re-enter at "
                f"level {level}: the bot would have to play levels 1-{level - 1} again",
                hint=f"give the code with --set codes.{level}=WORD (or the code of an "
                f"earlier level), or attach with --levels 1-{self.report.last}",
            )
        # a tape plays on for a while after LOAD "" (in real time while Fuse records)
        if self.session.wait_loaded(self.profile.start.loaded_wait * FPS):
            log.info("the tape has loaded")
        self.env.note("enter", level=start, code=code, name=self.name)
        log.info("entering the game at level %d%s", start, f" with code {code}" if code else "")
        self.run_menu(steps)
        return start

    def run_menu(self, steps: list[Step]) -> None:
        driver = MenuDriver(self.env, self.session.wait_frames, slower=self.slower_keys)
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

    # -- between levels ---------------------------------------------------------------------
    def wait_transition(
        self, timeout_frames: float = 100, meanwhile: Callable[[], None] | None = None
    ) -> None:
        """After the last stone: wait for the level to leave the screen, run ``meanwhile``
        (planning the next level while the game draws), sit out most of the screen that
        follows a level (``sit_out``), then skip the screens the profile says may be
        skipped (a code screen) once they are shown, learning the code a code screen
        shows."""
        gone, _ = self.env.wait_for(ByCells(lambda o: not o.level_shown), timeout_frames)
        if meanwhile is not None:
            meanwhile()
        self.sit_out("well_done", gone.at)
        skip = self.profile.screens.skip if self.profile.screens else {}
        if not skip:
            return
        # a screen to skip is read every time Fuse draws (it may be drawn once): from a
        # glimpse's pixels where the watch gives them (``Glimpse.screen``), else a look
        obs, _ = self.env.wait_for(ByCells(lambda o: o.level_shown or o.screen in skip), 250)
        if not obs.level_shown and obs.screen in skip:
            if obs.screen == "code":
                self.learn_code()
            self.env.note("skip_screen", screen=obs.screen, key=skip[obs.screen])
            log.info("skipping the %s screen with %s", obs.screen, skip[obs.screen])
            self.session.wait_frames(3)  # the screen finishes drawing
            self.env.step([skip[obs.screen]], lambda o: o.screen != obs.screen, 20)

    def sit_out(self, screen: str, since: float, share: float = 0.9) -> None:
        """Sleep through ``share`` of the emulated frames ``screen`` stays once shown
        (``[screens.frames]``; none: no sleep), counted from ``since``
        (``time.monotonic``), at the session's speed (a busy Fuse is slower, never
        faster): the level's end shows nothing to read until the next level is drawn, only
        a blinking cell to wake the bot."""
        frames = self.profile.screens.frames.get(screen) if self.profile.screens else None
        if frames:
            left = since + share * frames * self.env.frame_s - time.monotonic()
            if left > 0:
                interrupts.sleep(left)

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


def _code_readable(obs: Observation) -> bool:
    level, word = obs.field("code_level"), obs.field("code_word")
    return level.isdigit() and len(word) >= 3 and word.isalpha()
