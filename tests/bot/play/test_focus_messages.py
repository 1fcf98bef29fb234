"""What a run says and notes while the focus is lost, the picture covered, or another
program holds the keyboard."""

from __future__ import annotations

import io

from logo_bot.bot.play.focus_messages import GRABBED, PAUSED, FocusMessages
from logo_bot.bot.play.progress import Progress
from logo_bot.bot.play.run_report import RunReport
from logo_bot.bot.x11.focus import FocusPolicy


class Notes:
    def __init__(self):
        self.notes = []

    def note(self, event, **data):
        self.notes.append((event, data))


def messages(take_back: bool = False):
    policy = FocusPolicy(take_back=take_back, wait=True)
    env, stream = Notes(), io.StringIO()
    progress = Progress(3, stream=stream)
    report = RunReport(1, 3)
    return FocusMessages(policy, env, progress, report), env, progress, report


def test_a_keyboard_grab_is_said_noted_and_counted_when_it_ends():
    said, env, progress, report = messages()
    said.on_focus("grabbed", {})
    said.on_focus("paused", {"covered": False, "grabbed": True, "paused": True})
    assert progress.status == GRABBED
    said.on_focus("regained", {"how": "returned", "waited_s": 2.5, "reason": "grab"})
    assert progress.status == ""
    assert [e for e, _ in env.notes] == ["keyboard_grabbed", "focus_paused", "keyboard_released"]
    assert env.notes[-1][1] == {"waited_s": 2.5}
    assert report.run_corrections == {"keyboard_grab_waited": 1}


def test_a_lost_focus_without_taking_it_back_asks_for_a_click():
    said, _, progress, _ = messages(take_back=False)
    said.on_focus("lost", {})
    said.on_focus("paused", {"covered": False, "grabbed": False, "paused": True})
    assert progress.status == PAUSED


def test_while_paused_the_screens_of_a_lost_level_are_said_once_each():
    """The game's clock runs out during the pause: each new screen is noted once, and the
    pause message says the latest (not every one in a row)."""
    said, env, progress, _ = messages(take_back=False)
    shown = iter(["level", "time_up", "time_up", "game_over", "title", "title"])

    class Look:
        def __init__(self, screen):
            self.screen = None if screen == "level" else screen

    env.glance = lambda: Look(next(shown))
    said.on_focus("lost", {})
    said.on_focus("paused", {"covered": False, "grabbed": False, "paused": True})
    for _ in range(6):
        said.on_focus("waiting", {"waited_s": 1.0})
    seen = [data["screen"] for event, data in env.notes if event == "paused_screen"]
    assert seen == ["time_up", "game_over", "title"]
    assert progress.status == PAUSED + " (the game shows title)"
