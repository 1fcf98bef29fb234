"""Getting the game back to where a run can go on, after anything went wrong.

After a failure the game is brought to its title or menu, from where the walkthrough
enters again through the last code it knows. That is done the cheaper way: from a
GAME OVER or final screen by its skip key (Fuse, its movie and its input recording go
on), from TIME UP by waiting for GAME OVER when that is quicker than restarting Fuse,
and from anything else (Fuse dead, a level in a state the bot cannot undo, a screen it
does not know) by restarting Fuse.
"""

from __future__ import annotations

import logging
from functools import partial

from logo_bot.bot.errors import EmulatorError
from logo_bot.bot.fuse.session import Session
from logo_bot.bot.play.env import EnvWrapper, LogoEnv
from logo_bot.bot.play.observation import Observation
from logo_bot.bot.profile import Profile

log = logging.getLogger(__name__)

READY = ("title", "menu")  # screens the start sequence begins from


class Recovery:
    def __init__(self, session: Session, env: LogoEnv | EnvWrapper, profile: Profile) -> None:
        self.session = session
        self.env = env
        self.profile = profile
        screens = profile.screens
        self.skip = dict(screens.skip) if screens else {}
        self.frames = dict(screens.frames) if screens else {}

    def recover(self, reason: str) -> str:
        """Bring the game to its title or menu; returns how: ``"soft"`` (Fuse went on) or
        ``"restart"`` (Fuse was started again)."""
        if self.session.attached:
            return self.recover_attached(reason)
        if not self.session.fuse.alive():
            code = self.session.fuse.process.returncode
            self.env.note("crash", exit=code, reason=f"Fuse exited with status {code}")
            log.warning("Fuse died (exit %s); starting it again", code)
            return self.restart(reason)
        try:
            obs = self.env.observe()
            screen = obs.screen
            if screen in READY:
                return "soft"
            if screen == "time_up" and self.waiting_is_quicker():
                obs, _ = self.env.wait_for(
                    lambda o: o.screen in ("game_over", *READY),
                    self.frames.get("time_up", 75) + 25,
                )
                screen = obs.screen
            if screen in self.skip and screen != "code" and self.leave(obs):
                return "soft"
        except EmulatorError:
            pass  # Fuse died while we looked: restart
        return self.restart(reason)

    def recover_attached(self, reason: str) -> str:
        """The person's Fuse is never restarted: TIME UP, GAME OVER and the final screen
        are left with their keys, and the walkthrough takes the game over from there
        (``EmulatorError`` here when that Fuse has been closed)."""
        obs = self.env.observe()
        if (obs.screen in self.skip and obs.screen != "code") or obs.screen == "time_up":
            self.leave_to_start(obs)
        return "soft"

    def waiting_is_quicker(self) -> bool:
        """TIME UP stays ``frames.time_up`` frames at most (it cannot be skipped); a
        restart costs what the last start of Fuse took."""
        if "time_up" not in self.frames or "game_over" not in self.skip:
            return False
        wait_s = self.frames["time_up"] * self.session.frame_s
        return wait_s < self.session.start_s

    def leave_to_start(self, obs: Observation) -> bool:
        """From TIME UP, GAME OVER or the final screen to the title or menu, without
        restarting Fuse: wait out TIME UP, then press the skip keys."""
        if obs.screen == "time_up":
            obs, _ = self.env.wait_for(
                lambda o: o.screen in ("game_over", *READY), self.frames.get("time_up", 75) + 25
            )
        return self.leave(obs)

    def leave(self, obs: Observation, tries: int = 4) -> bool:
        """Press the skip key of the screen shown until the title or menu shows."""
        screen = obs.screen
        for _ in range(tries):
            if screen in READY:
                return True
            if screen not in self.skip or screen == "code":
                return False
            key = self.skip[screen]
            self.env.note("skip_screen", screen=screen, key=key)
            self.session.wait_frames(3)  # the screen finishes drawing
            # the next screen takes a few frames to draw: wait for one that can be named
            result = self.env.step([key], partial(_another_screen, screen=screen), 25)
            screen = result.obs.screen
        return screen in READY

    def restart(self, reason: str) -> str:
        self.env.note("restart", reason=reason)
        self.session.restart()
        return "restart"


def _another_screen(obs: Observation, screen: str | None) -> bool:
    """Whether ``obs`` shows a named screen other than ``screen``."""
    return obs.screen not in (None, screen)
