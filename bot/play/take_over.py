"""Taking over a game someone was playing (``--attach``): from whatever it shows (a
level, a menu, the name entry, a code screen, TIME UP, GAME OVER) to a level or to where
the start sequence begins, and the run's first level taken from the screen."""

from __future__ import annotations

import time

from logo_bot.bot.errors import BotError, MenuFailed, Unreadable
from logo_bot.bot.fuse.session import Session
from logo_bot.bot.play.entering import GameEntry
from logo_bot.bot.play.env import EnvWrapper, LogoEnv
from logo_bot.bot.play.progress import Progress
from logo_bot.bot.play.recovery import Recovery
from logo_bot.bot.play.run_report import RunReport
from logo_bot.bot.profile import Profile

# screens the start sequence types into, or begins from
START_SCREENS = ("title", "menu", "name_prompt", "code_prompt", "code_ok", "code_wrong")


class TakeOver:
    """Brings an attached game to a level or to its start sequence."""

    def __init__(
        self,
        session: Session,
        env: LogoEnv | EnvWrapper,
        profile: Profile,
        entry: GameEntry,
        recovery: Recovery,
        report: RunReport,
        progress: Progress,
    ) -> None:
        self.session = session
        self.env = env
        self.entry = entry  # learns the code a code screen shows
        self.recovery = recovery  # leaves TIME UP and GAME OVER
        self.report = report
        self.progress = progress
        self.profile_name = profile.name
        self.skip = profile.screens.skip if profile.screens else {}

    def take_over(self, timeout_frames: float = 400) -> bool:
        """Bring the game to a level or to where the start sequence begins, from whatever
        it shows. True when a level is (about to be) shown, False when the start sequence
        must run."""
        deadline = time.monotonic() + timeout_frames * self.session.frame_s
        skip = self.skip
        while True:
            obs = self.env.observe()
            screen = obs.screen
            self.env.note("take_over", screen=screen, level_shown=obs.level_shown)
            if obs.level_shown:
                return True
            if screen in START_SCREENS:
                return False
            if screen == "code" and "code" in skip:
                self.entry.learn_code()
                self.env.step([skip["code"]], lambda o: o.screen != "code", 20)
                return True
            if (screen in skip or screen == "time_up") and self.recovery.leave_to_start(obs):
                return False
            if time.monotonic() > deadline:
                raise self.stuck(screen)
            self.session.wait_frames(5)  # a transition: wait for what comes next

    def stuck(self, screen: str | None) -> BotError:
        """What to say when the game did not move on from ``screen``: no picture in the
        window at all, a picture that is not this game, or a screen of the game that
        leads nowhere the bot knows."""
        if screen is not None:
            return MenuFailed(
                f"the game shows {screen}, and it did not move on to a level or a menu",
                hint="bring the game to its menu or a level, then attach again",
            )
        if not self.session.grabber.sees_picture():
            return Unreadable(
                "the Fuse window shows no Spectrum picture (no border of one colour all "
                "round a screen)",
                hint="make the whole Fuse window show: not minimised, covered or tiled "
                "smaller than the picture, then attach again",
            )
        return Unreadable(
            "the Fuse window shows a Spectrum picture, but no screen of the game the "
            f"profile '{self.profile_name}' describes",
            hint="load the game in that Fuse (or choose its profile with --profile), bring "
            "it to its menu or a level, then attach again; where Fuse draws through a "
            "graphics filter (PAL TV blends the colours): F1, Options, Filter..., Normal",
        )

    def start_at_shown(self, level: int) -> bool:
        """The run goes from the level the attached game shows to its last level, when
        that is within the levels asked for (returns whether it is)."""
        report = self.report
        if not report.first <= level <= report.last:
            return False
        report.first = level
        self.progress.total_levels = report.last - level + 1
        self.env.note("start_level", level=level)
        return True
