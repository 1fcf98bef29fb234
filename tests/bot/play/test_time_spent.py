"""Where the time goes: each second charged to the innermost open kind of its phase."""

import threading

import pytest

from logo_bot.bot.play.env import LogoEnv
from logo_bot.bot.play.player import Player
from logo_bot.bot.play.time_spent import IDLE, OUTSIDE, REST, TimeSpent
from logo_bot.bot.profile import load_profile
from tests.bot.fake_game import FakeGame
from tests.bot.play.test_player import LEVEL_2


def nonzero(parts: dict[str, float]) -> dict[str, float]:
    return {k: v for k, v in parts.items() if v}


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def tick(self, seconds: float) -> None:
        self.now += seconds


def test_each_second_goes_to_the_innermost_kind_of_its_phase():
    clock = Clock()
    spent = TimeSpent(clock)
    clock.tick(1)  # before any phase
    with spent.phase("level"):
        clock.tick(2)  # the level's own code
        with spent.on("frame_wait"):
            clock.tick(3)
            with spent.on("grab"):
                clock.tick(4)
            clock.tick(5)
        with spent.on("grab"):
            clock.tick(6)
    with spent.phase("transition"):
        clock.tick(7)
    assert {phase: nonzero(parts) for phase, parts in spent.seconds.items()} == {
        OUTSIDE: {REST: 1},
        "level": {REST: 2, "frame_wait": 8, "grab": 10},
        "transition": {REST: 7},
    }
    assert spent.counts["level"] == {"frame_wait": 1, "grab": 2}
    assert spent.times == {"level": 1, "transition": 1}


def test_parts_add_up_to_the_phase_in_the_report():
    clock = Clock()
    spent = TimeSpent(clock)
    with spent.phase("other"):
        clock.tick(0.5)
        with spent.phase("level"):
            with spent.on("reading"):
                clock.tick(0.25)
            clock.tick(0.125)
        clock.tick(1)
        report = spent.as_dict()  # the time still running is charged first
    assert report["level"] == {
        "seconds": 0.375,
        "times": 1,
        "parts": {REST: 0.125, "reading": 0.25},
        "counts": {"reading": 1},
    }
    assert report["other"]["seconds"] == 1.5
    for phase in report.values():
        assert sum(phase["parts"].values()) == pytest.approx(phase["seconds"])


def test_moved_seconds_leave_their_kind_for_the_parts_a_lower_layer_timed():
    clock = Clock()
    spent = TimeSpent(clock)
    with spent.phase("level"):
        with spent.on("focus_checks"):
            clock.tick(10)
        spent.move("focus_checks", {"keys_held": 4, "keys_up": 3, "key_events": 0})
    assert nonzero(spent.seconds["level"]) == {"focus_checks": 3, "keys_held": 4, "keys_up": 3}


def test_moved_seconds_may_say_how_often_their_kind_began():
    clock = Clock()
    spent = TimeSpent(clock)
    with spent.phase("level"):
        with spent.on("focus_checks"):
            clock.tick(10)
        spent.move("focus_checks", {"grab": 6}, {"grab": 4})
        spent.move("focus_checks", {"grab": 1}, {"grab": 2})
    assert nonzero(spent.seconds["level"]) == {"focus_checks": 3, "grab": 7}
    assert spent.counts["level"] == {"focus_checks": 1, "grab": 6}


def test_an_error_inside_a_kind_closes_it():
    clock = Clock()
    spent = TimeSpent(clock)
    with pytest.raises(RuntimeError), spent.phase("level"), spent.on("planning"):
        clock.tick(2)
        raise RuntimeError
    clock.tick(1)
    spent.as_dict()
    assert nonzero(spent.seconds["level"]) == {"planning": 2}
    assert spent.seconds[OUTSIDE][REST] == 1


def test_other_threads_are_not_measured():
    clock = Clock()
    spent = TimeSpent(clock)

    def capture() -> None:  # a video thread grabbing while the loop plays
        with spent.on("grab"):
            clock.tick(100)

    with spent.phase("level"):
        thread = threading.Thread(target=capture)
        thread.start()
        thread.join()
    assert "grab" not in spent.seconds["level"]
    assert spent.seconds["level"][REST] == 100  # wall time the loop waited


def test_idle_measures_nothing():
    with IDLE.phase("level"), IDLE.on("grab"):
        pass
    assert IDLE.as_dict() == {}


@pytest.mark.parametrize("until_seen", [True, False], ids=["until_seen", "look_after"])
def test_a_level_played_on_the_fake_game_shows_each_part(until_seen):
    """Keys held until seen look while they are down; keys with a fixed hold wait for a
    frame after the burst."""
    profile = load_profile("practice", [f"timing.until_seen={str(until_seen).lower()}"])
    env = LogoEnv(FakeGame(profile, LEVEL_2), poll_s=0.0)
    report = Player(env, profile, settle_frames=2).play_level()
    level = env.spent.as_dict()["level"]
    assert report.keys_sent > 0
    # not as rounded for run.json: the fake's keys are held no time, their overhead only
    # (a few microseconds a key: the sum may round to 0.0000 s on a fast machine)
    seconds = env.spent.seconds["level"]
    parts = ["keys_held", "key_events", "grab", "reading", "planning"]
    for part in parts if until_seen else [*parts, "frame_wait"]:
        assert seconds.get(part, 0) > 0, part
    assert level["counts"]["grab"] >= report.keys_sent // 4
    assert sum(level["parts"].values()) == pytest.approx(level["seconds"], abs=1e-3)
    assert level["seconds"] >= report.seconds - 1e-4  # as rounded for run.json
