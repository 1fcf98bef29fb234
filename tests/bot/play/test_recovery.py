"""Recovery's choices on a fake game: soft (skip keys) or a restart of Fuse."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from logo_bot.bot.errors import EmulatorError
from logo_bot.bot.play.recovery import Recovery
from logo_bot.bot.profile import load_profile

PROFILE = load_profile("practice")


@dataclass
class Process:
    returncode: int | None = None


@dataclass
class Fuse:
    dead: bool = False
    process: Process = field(default_factory=Process)

    def alive(self) -> bool:
        return not self.dead


@dataclass
class Obs:
    screen: str | None

    @property
    def level_shown(self) -> bool:
        return self.screen == "level"


@dataclass
class Result:
    obs: Obs
    met: bool = True


class Game:
    """A session and an environment at once: screens advance with the skip keys."""

    attached = False  # a Fuse the bot started

    def __init__(self, screen, dead=False, frame_s=0.01, start_s=0.3):
        self.screen = screen
        self.fuse = Fuse(dead)
        self.frame_s, self.start_s = frame_s, start_s
        self.restarts, self.keys, self.notes, self.waited = 0, [], [], 0.0

    # session
    def restart(self):
        self.restarts += 1
        self.fuse = Fuse()
        self.screen = "title"

    def wait_frames(self, frames):
        self.waited += frames * self.frame_s

    # environment
    def observe(self):
        return Obs(self.screen)

    def wait_for(self, expect, timeout_frames):
        if self.screen == "time_up":
            self.waited += 75 * self.frame_s
            self.screen = "game_over"
        return Obs(self.screen), expect(Obs(self.screen))

    def step(self, keys, expect=None, timeout_frames=6):
        self.keys += keys
        self.screen = {"game_over": "title", "final": "title"}.get(self.screen, self.screen)
        return Result(Obs(self.screen))

    def note(self, event, **data):
        self.notes.append(event)


def recover(game: Game) -> str:
    return Recovery(game, game, PROFILE).recover("a test")  # type: ignore[arg-type]


@pytest.mark.parametrize("screen", ["title", "menu"])
def test_from_the_title_or_menu_nothing_is_needed(screen):
    game = Game(screen)
    assert recover(game) == "soft" and not game.keys and game.restarts == 0


@pytest.mark.parametrize("screen", ["game_over", "final"])
def test_game_over_and_final_screens_are_left_with_space(screen):
    game = Game(screen)
    assert recover(game) == "soft"
    assert game.keys == ["space"] and game.restarts == 0 and "skip_screen" in game.notes


def test_time_up_is_waited_out_when_that_is_quicker_than_a_restart():
    game = Game("time_up", frame_s=0.002, start_s=0.3)  # 75 frames = 0.15 s < 0.3 s
    assert recover(game) == "soft"
    assert game.keys == ["space"] and game.restarts == 0


def test_time_up_means_a_restart_when_that_is_quicker():
    game = Game("time_up", frame_s=0.02, start_s=0.3)  # 75 frames = 1.5 s > 0.3 s
    assert recover(game) == "restart"
    assert game.restarts == 1 and not game.keys


@pytest.mark.parametrize("screen", [None, "code", "well_done"])
def test_a_level_or_an_unknown_screen_means_a_restart(screen):
    game = Game(screen)
    assert recover(game) == "restart" and game.restarts == 1 and not game.keys


def test_a_dead_fuse_is_a_crash_and_a_restart():
    game = Game("title", dead=True)
    game.fuse.process.returncode = -9
    assert recover(game) == "restart"
    assert game.notes[:2] == ["crash", "restart"]


def attached(screen: str | None) -> Game:
    game = Game(screen)
    game.attached = True
    return game


@pytest.mark.parametrize("screen", ["level", "title", "menu"])
def test_attached_a_level_or_a_menu_is_played_on_as_it_stands(screen):
    game = attached(screen)
    assert recover(game) == "soft" and game.restarts == 0 and not game.keys


@pytest.mark.parametrize(("screen", "keys"), [("game_over", ["space"]), ("time_up", ["space"])])
def test_attached_end_screens_are_left_even_when_a_restart_would_be_quicker(screen, keys):
    game = attached(screen)
    game.frame_s, game.start_s = 0.02, 0.01  # a restart would be quicker: never for yours
    assert recover(game) == "soft" and game.keys == keys and game.restarts == 0


@pytest.mark.parametrize("screen", [None, "code", "well_done"])
def test_attached_other_screens_are_left_to_the_take_over_never_restarted(screen):
    game = attached(screen)
    assert recover(game) == "soft" and game.restarts == 0 and not game.keys


def test_attached_a_closed_fuse_is_an_error():
    game = attached("level")

    def gone():
        raise EmulatorError("the Fuse the bot was attached to has been closed")

    game.observe = gone
    with pytest.raises(EmulatorError, match="has been closed"):
        recover(game)
    assert game.restarts == 0
