"""Between two levels (``bot.play.entering``): the screen after a level is slept
through for most of the frames the profile says it stays, counted from when the level
left the screen, at the session's speed."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from logo_bot.bot.play import entering
from logo_bot.bot.play.entering import GameEntry
from logo_bot.bot.play.run_report import RunReport
from logo_bot.bot.profile import load_profile
from tests.bot.fake_game import VirtualTime


class GoneEnv:
    """The level is gone at once, read at ``gone_at``; nothing else shows."""

    frame_s = 0.01

    def __init__(self, gone_at: float) -> None:
        self.gone_at = gone_at

    def wait_for(self, expect, timeout_frames):
        return SimpleNamespace(at=self.gone_at, level_shown=False, screen=None), True


def entry(profile, env) -> GameEntry:
    return GameEntry(SimpleNamespace(attached=False), env, profile, "BOT", RunReport(1, 1))


@pytest.fixture
def clock(monkeypatch) -> VirtualTime:
    clock = VirtualTime()
    monkeypatch.setattr(entering, "time", clock)
    monkeypatch.setattr(entering.interrupts, "sleep", clock.sleep)
    return clock


def test_the_well_done_screen_is_slept_through_from_when_the_level_went(clock):
    profile = load_profile("practice")
    assert profile.screens.frames["well_done"] == 50
    env = GoneEnv(gone_at=clock.now)
    planned = []

    def plan() -> None:  # planning takes 0.1 s of the 0.5 s
        clock.sleep(0.1)
        planned.append(clock.now)

    entry(profile, env).wait_transition(meanwhile=plan)
    assert planned, "planned first"
    # 90 % of 50 frames of 10 ms after the level went, the planning's time included
    assert clock.now == pytest.approx(env.gone_at + 0.45, abs=0.002)


def test_a_plan_longer_than_the_screen_leaves_no_sleep(clock):
    env = GoneEnv(gone_at=clock.now)
    entry(load_profile("practice"), env).wait_transition(meanwhile=lambda: clock.sleep(0.6))
    assert clock.now == pytest.approx(env.gone_at + 0.6, abs=0.002)


def test_a_profile_that_gives_no_frames_sleeps_not_at_all(clock):
    profile = load_profile("practice", ["screens.frames.well_done=0"])
    env = GoneEnv(gone_at=clock.now)
    entry(profile, env).wait_transition()
    assert clock.now == pytest.approx(env.gone_at, abs=0.002)
