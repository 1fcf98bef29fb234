"""Taking over a game someone left (``Walkthrough`` attached) on a fake of the practice
game's menus, TIME UP and GAME OVER: the name entry finished where the person left it."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from bot.play.progress import Progress
from bot.play.unattended import Walkthrough
from bot.profile import load_profile
from bot.x11.keys import KeyTiming
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

    def apply(self, key: str) -> None:
        if self.state == "game_over" and key == "space":
            self.state = "title"
        elif self.state not in ("level", "time_up", "game_over"):
            super().apply(key)

    def observe(self) -> Obs:
        o = super().observe()
        return Obs(o.state, o.start_level, o.typed, o.places)

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

    # what the walkthrough asks of a session
    def wait_frames(self, frames: float) -> None:
        if self.state == "time_up":
            self.state = "game_over"

    @contextlib.contextmanager
    def timed(self, timing: KeyTiming):
        yield


def walkthrough(game: AttachedGame, first: int, last: int) -> Walkthrough:
    walk = Walkthrough(game, game, PROFILE, first, last, progress=Progress(1))  # type: ignore[arg-type]
    walk.measured_speed = 100.0  # as if measured on the level shown
    return walk


def test_at_the_name_prompt_it_finishes_the_name_instead_of_typing_the_start_sequence():
    game = AttachedGame("name", start_level=6)
    game.name = "PER"  # the person typed part of a name
    walk = walkthrough(game, 1, 10)
    assert walk.take_over() is False, "the start sequence is needed"
    assert walk.enter(1) == 6, "the game starts where its menu says (a code the person gave)"
    assert game.state == "level"
    assert game.name == PROFILE.start.name, "the name, not 2 5 ENTER typed into it"
    (enter,) = [data for event, data in game.notes if event == "enter"]
    assert enter["resumed_at"] == "name_prompt" and enter["level"] == 6


def test_at_the_title_it_types_the_whole_start_sequence():
    game = AttachedGame("title")
    walk = walkthrough(game, 1, 10)
    assert walk.take_over() is False
    assert walk.enter(1) == 1 and game.state == "level" and game.name == PROFILE.start.name
    (enter,) = [data for event, data in game.notes if event == "enter"]
    assert "resumed_at" not in enter
