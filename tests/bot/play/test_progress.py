"""The progress line's time left: from the time the levels took, pauses for the keyboard
focus left out (else a long pause reads as "~10:09 left" for levels that take seconds)."""

from __future__ import annotations

import io

import pytest

from logo_bot.bot.play import progress as progress_module
from logo_bot.bot.play.focus_messages import FocusMessages
from logo_bot.bot.play.progress import Progress
from logo_bot.bot.play.run_report import RunReport
from logo_bot.bot.x11.focus import FocusPolicy
from tests.bot.fake_game import VirtualTime


class Notes:
    def note(self, event, **data):
        pass


@pytest.fixture
def clock(monkeypatch) -> VirtualTime:
    clock = VirtualTime()
    monkeypatch.setattr(progress_module, "time", clock)
    return clock


def test_a_pause_for_the_focus_is_not_counted_in_the_time_left(clock):
    progress = Progress(4, stream=io.StringIO(), started=clock.monotonic())
    policy = FocusPolicy(take_back=False, wait=True)
    said = FocusMessages(policy, Notes(), progress, RunReport(1, 4))
    clock.sleep(3)
    progress.level_done(keys=20, corrections=0)
    assert progress.line().endswith("| 0:03 | ~0:09 left")
    said.on_focus("lost", {})
    said.on_focus("paused", {"covered": False, "grabbed": False, "paused": True})
    clock.sleep(600)  # the person went away
    assert "~0:09 left" in progress.line(), "not while the pause goes on"
    said.on_focus("regained", {"how": "returned"})
    clock.sleep(3)
    progress.level_done(keys=20, corrections=0)
    assert progress.line().endswith("| 10:06 | ~0:06 left"), "the clock shows the whole run"


def test_pauses_add_up_and_a_second_pause_call_changes_nothing(clock):
    progress = Progress(3, stream=io.StringIO(), started=clock.monotonic())
    for _ in range(2):
        clock.sleep(2)
        progress.pause()
        clock.sleep(50)
        progress.pause()
        clock.sleep(50)
        progress.go_on()
        progress.go_on()
    progress.level_done(keys=10, corrections=0)
    assert progress.paused_s == 200
    assert progress.line().endswith("| 3:24 | ~0:08 left")
