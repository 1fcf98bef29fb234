"""What a run says when Fuse loses the keyboard focus, its picture is covered or Fuse's
own menu shows over it (the session's focus policy tells its listeners), on the progress
line and in the events."""

from __future__ import annotations

import logging
from typing import Any

from logo_bot.bot.play.env import EnvWrapper, LogoEnv
from logo_bot.bot.play.progress import Progress
from logo_bot.bot.play.run_report import RunReport
from logo_bot.bot.x11.focus import FocusPolicy

log = logging.getLogger(__name__)

PAUSED = "PAUSED: another window has the keyboard focus; click the Fuse window to go on"
TAKING_BACK = "another window has the keyboard focus: taking it back in {:.0f} s"
COVERED = "PAUSED: another window covers the Fuse picture; move it away to go on"
RAISING = "another window covers the Fuse picture: raising Fuse in {:.0f} s"
FUSE_MENU = "PAUSED: Fuse's own menu is open; close it (Escape in Fuse) to go on"
ENDED = ("time_up", "game_over", "title")  # screens of a level lost while paused
SHOWS = " (the game shows "  # what is added to the pause message for them
GRABBED = (
    "PAUSED: another program holds the keyboard (a screen locker or a password prompt?); "
    "no key is pressed until it lets go"
)


class FocusMessages:
    """A focus listener (``on_focus``) that says what happens and counts what was done."""

    def __init__(
        self,
        policy: FocusPolicy,
        env: LogoEnv | EnvWrapper,
        progress: Progress,
        report: RunReport,
    ) -> None:
        self.policy = policy
        self.env = env
        self.progress = progress
        self.report = report
        self.seen_while_paused: str | None = None  # the game's screen last seen while paused

    def on_focus(self, event: str, data: dict[str, Any]) -> None:
        """The key driver lost or regained the keyboard focus, or found the picture covered:
        say so and note it."""
        if event == "waiting":
            self.watch_game()
            return
        if event == "regained":
            self.seen_while_paused = None
            self.progress.go_on()
        elif event == "paused":
            self.progress.pause()
        if event == "covered":
            self.env.note("picture_covered")
            log.warning("another window covers the Fuse picture: no key is pressed")
            self.progress.update(status="another window covers the Fuse picture: waiting")
            return
        if event == "fuse_menu":
            self.env.note("fuse_menu_open")
            self.progress.update(status=FUSE_MENU)
            return
        if event == "regained" and data.get("reason") == "fuse_menu":
            self.env.note("fuse_menu_closed", waited_s=data.get("waited_s"))
            self.progress.update(status="")
            return
        if event == "grabbed":
            self.env.note("keyboard_grabbed")
            log.warning("another program holds the keyboard: no key is pressed")
            self.progress.update(status=GRABBED)
            return
        if event == "regained" and data.get("reason") == "grab":
            self.env.note("keyboard_released", waited_s=data.get("waited_s"))
            self.report.run_corrections["keyboard_grab_waited"] += 1
            self.progress.update(status="")
            return
        if event == "regained" and data.get("reason") == "covered":
            self.env.note("picture_uncovered", how=data.get("how"), waited_s=data.get("waited_s"))
            self.report.run_corrections[f"cover_{data.get('how', 'regained')}"] += 1
            self.progress.update(status="")
            return
        self.env.note(f"focus_{event}", **{k: v for k, v in data.items() if k != "paused"})
        if event == "paused":
            policy = self.policy
            if data.get("grabbed"):
                log.warning("paused: another program holds the keyboard")
                message = GRABBED
            elif data.get("covered"):
                log.warning("paused: another window covers the Fuse picture")
                message = RAISING.format(policy.grace_s) if policy.take_back else COVERED
            else:
                message = TAKING_BACK.format(policy.grace_s) if policy.take_back else PAUSED
                log.warning("paused: %s", message.removeprefix("PAUSED: "))
            self.progress.update(status=message)
        elif event == "regained":
            self.report.run_corrections[f"focus_{data.get('how', 'regained')}"] += 1
            self.progress.update(status="")

    def watch_game(self) -> None:
        """While paused the game's clock runs on: say when it shows TIME UP, GAME OVER or
        its title (the level is lost; the bot goes back into the game when it goes on)."""
        try:
            screen = self.env.glance().screen
        except Exception as exc:  # a look while paused never ends the pause
            log.debug("no look while paused: %s", exc)
            return
        if screen not in ENDED or screen == self.seen_while_paused:
            return
        self.seen_while_paused = screen
        words = screen.replace("_", " ")
        self.env.note("paused_screen", screen=screen)
        log.warning("while paused, the game shows %s: the level starts again on going on", words)
        paused = self.progress.status.split(SHOWS)[0]  # the pause message, without the last
        self.progress.update(status=f"{paused}{SHOWS}{words})")
