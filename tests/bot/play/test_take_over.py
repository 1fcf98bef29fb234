"""Taking over a game someone left (``Walkthrough`` attached, ``TakeOver``) on a fake of
the practice game's menus, TIME UP and GAME OVER: the name entry finished where the
person left it, and a TIME UP with no code to go back in with said as what to do."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import pytest

from logo_bot.bot.errors import GaveUp, LevelGone, MenuFailed, Unreadable
from logo_bot.bot.play.progress import Progress
from logo_bot.bot.play.time_spent import TimeSpent
from logo_bot.bot.play.unattended import Walkthrough
from logo_bot.bot.profile import load_profile
from logo_bot.bot.x11.keys import KeyTiming
from tests.bot.fake_menu import FakeMenu, MenuObs, Result

PROFILE = load_profile("practice")


@dataclass
class Obs(MenuObs):
    """The fake menu's screen, named as the bot's vision names it."""

    screens = None  # no panel to read the level number from

    @property
    def screen(self) -> str | None:
        if self.state in ("title", "time_up", "game_over"):
            return self.state
        return "menu" if self.shows("menu") else None  # the prompts show on the menu

    @property
    def level_shown(self) -> bool:
        return self.state == "level"

    def shows(self, name: str) -> bool:
        return self.state == name if name in ("time_up", "game_over") else super().shows(name)


class AttachedGame(FakeMenu):
    """The menus (``FakeMenu``), a level and the end of the game: TIME UP turns into
    GAME OVER when the bot waits, and GAME OVER goes to the title with SPACE. It is the
    session too (``attached``: the person's Fuse)."""

    attached = True
    frame_s = 0.0001

    def __init__(self, state: str, **kw: Any) -> None:
        super().__init__(state=state, **kw)
        self.keys = SimpleNamespace(timing=KeyTiming(0, 0))
        self.fuse = SimpleNamespace(alive=lambda: True)
        self.focus_policy = SimpleNamespace(listeners=[])
        self.spent = TimeSpent()  # the environment's account of the time

    def apply(self, key: str) -> None:
        if self.state == "game_over" and key == "space":
            self.state = "title"
        elif self.state not in ("level", "time_up", "game_over"):
            super().apply(key)

    def observe(self) -> Obs:
        o = super().observe()
        return Obs(o.state, o.start_level, o.typed, o.places, o.control)

    def step(self, keys, expect=None, timeout_frames=6) -> Result:
        for key in keys:
            self.key(key)
        return Result(*self.wait_for(expect or (lambda o: True), timeout_frames))

    def wait_for(self, expect, timeout_frames):
        obs = self.observe()
        if not expect(obs) and self.state == "time_up" and timeout_frames:
            self.state = "game_over"  # TIME UP ends by itself
            obs = self.observe()
        return obs, expect(obs)

    def load_tape(self) -> None:
        return None  # the person's Fuse has its game loaded

    # what the walkthrough asks of a session
    def wait_frames(self, frames: float) -> None:
        if self.state == "time_up":
            self.state = "game_over"

    def wait_loaded(self, frames: float) -> bool:
        self.wait_frames(frames)
        return False  # no tape

    @contextlib.contextmanager
    def timed(self, timing: KeyTiming):
        yield


def walkthrough(game: AttachedGame, first: int, last: int) -> Walkthrough:
    walk = Walkthrough(game, game, PROFILE, first, last, progress=Progress(1))  # type: ignore[arg-type]
    walk.timing.measured_speed = 100.0  # as if measured on the level shown
    return walk


def test_at_the_name_prompt_it_finishes_the_name_instead_of_typing_the_start_sequence():
    game = AttachedGame("name", start_level=6)
    game.name = "PER"  # the person typed part of a name
    walk = walkthrough(game, 1, 10)
    assert walk.takeover.take_over() is False, "the start sequence is needed"
    assert walk.enter(1) == 6, "the game starts where its menu says (a code the person gave)"
    assert game.state == "level"
    assert game.name == PROFILE.start.name, "the name, not 2 5 ENTER typed into it"
    (enter,) = [data for event, data in game.notes if event == "enter"]
    assert enter["resumed_at"] == "name_prompt" and enter["level"] == 6


def test_at_the_title_it_types_the_whole_start_sequence():
    game = AttachedGame("title")
    walk = walkthrough(game, 1, 10)
    assert walk.takeover.take_over() is False
    assert walk.enter(1) == 1 and game.state == "level" and game.name == PROFILE.start.name
    (enter,) = [data for event, data in game.notes if event == "enter"]
    assert "resumed_at" not in enter


class TimeRunsOut:
    """A player that sees the level and lets its time run out."""

    def __init__(self, game: AttachedGame) -> None:
        self.game = game

    def wait_level(self, timeout_s: float | None = None) -> Obs:
        assert self.game.state == "level", "waited for a level the game does not show"
        return self.game.observe()

    def play_level(self, obs: Obs):
        self.game.state = "time_up"
        raise LevelGone("the level left the screen: time_up", obs, "time_up")


def test_time_up_with_no_code_known_says_how_to_give_one():
    game = AttachedGame("level")  # level 3, attached: no code opens levels 2-5
    walk = walkthrough(game, 3, 5)
    walk.player = TimeRunsOut(game)  # type: ignore[assignment]
    with pytest.raises(GaveUp) as failed:
        walk.run()
    assert "no code is known to re-enter at level 3" in failed.value.message
    assert "--set codes.3=WORD" in str(failed.value.hint)
    assert game.state == "title", "left at the title, GAME OVER skipped, nothing typed"
    seen = [data["screen"] for event, data in game.notes if event == "take_over"]
    assert seen == [None, "title"], "the level, then the title GAME OVER was left to"


def test_a_take_over_that_fails_leaves_the_report_failed_not_running():
    game = AttachedGame("level")
    walk = walkthrough(game, 1, 3)

    def cannot(*args, **kwargs):
        raise MenuFailed("the game shows no screen the profile knows")

    walk.takeover.take_over = cannot  # type: ignore[method-assign]
    with pytest.raises(MenuFailed):
        walk.run()
    assert walk.report.status == "failed"


class MisreadsTheBoard(TimeRunsOut):
    """A player that sees the level, then cannot read the board in play."""

    def play_level(self, obs: Obs):
        raise Unreadable("the board at cell 3 4 has no known colour")


def test_a_misread_in_play_after_the_game_was_seen_is_a_failed_attempt():
    game = AttachedGame("level")
    walk = walkthrough(game, 3, 5)
    walk.player = MisreadsTheBoard(game)  # type: ignore[assignment]
    attempts = []

    def recover(level, exc, game_seen):
        attempts.append((level, type(exc).__name__, game_seen))
        if len(attempts) == 2:
            raise GaveUp("level 3 failed 2 times in a row")

    walk.failures.recover = recover  # type: ignore[method-assign]
    with pytest.raises(GaveUp):
        walk.run()
    assert attempts == [(3, "Unreadable", True)] * 2, "each misread a failed attempt"
    assert walk.report.status == "failed"


class Shows(AttachedGame):
    """A game stuck on a screen the profile does not know: no Spectrum picture at all in
    the window (``picture`` False), or a picture of something else."""

    def __init__(self, picture: bool) -> None:
        super().__init__("elsewhere")
        self.grabber = SimpleNamespace(sees_picture=lambda: picture)


@pytest.mark.parametrize(
    ("picture", "said"),
    [(False, "shows no Spectrum picture"), (True, "no screen of the game the profile")],
)
def test_a_take_over_that_sees_no_game_says_whether_any_picture_shows(picture, said):
    game = Shows(picture)
    walk = walkthrough(game, 1, 3)
    with pytest.raises(Unreadable) as unreadable:
        walk.takeover.take_over(timeout_frames=1)
    assert said in unreadable.value.reason
    assert ("profile" in unreadable.value.hint) == picture
