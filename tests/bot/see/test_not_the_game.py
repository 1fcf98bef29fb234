"""Frames that are not the game, and a target that reads as unsolvable: the player never
acts on them and says why (unit tests on drawn frames; the CLI test runs real Fuse)."""

from __future__ import annotations

import numpy as np
import pytest

from logo_bot.bot.errors import LevelFailed
from logo_bot.bot.play.env import LogoEnv
from logo_bot.bot.play.player import Player
from logo_bot.bot.profile import load_profile
from logo_bot.bot.see.vision import Vision
from logo_bot.solvers.board import Board
from tests.bot.fake_frames import WHITE, draw
from tests.bot.fake_game import FakeGame, FakeKeys

PROFILE = load_profile("practice")
LEVEL_2 = Board.from_rows(
    ["..........", ".....1....", "....111...", "...11111..", "....111...", ".....1...."]
)
# two neighbours that both show 1: each would have to be placed after the other
UNSOLVABLE = Board.from_rows(
    ["..........", "....11....", "..........", "..........", "..........", ".........."]
)


class Frames:
    """A console that shows the given frames in turn (the last one stays)."""

    def __init__(self, frames: list[np.ndarray]) -> None:
        self.frames = frames
        self.vision = Vision(PROFILE, 1)
        self.keys = FakeKeys(None)
        self.frame_s = 0.0005
        self.shown = 0

    def frame(self) -> np.ndarray:
        index = min(self.shown, len(self.frames) - 1)
        self.shown += 1
        return self.frames[index]


def player(console) -> Player:
    return Player(LogoEnv(console, poll_s=0.0), PROFILE, settle_frames=2)


def half_drawn(target: Board, rows: int) -> np.ndarray:
    """The level while it is being drawn: the preview's top ``rows`` rows still black."""
    frame = draw(target)
    frame[152 + 8 : 152 + 8 + 8 * rows, 40:160] = 0
    return frame


@pytest.mark.parametrize(
    "frame",
    [
        np.zeros((240, 320, 3), np.uint8),  # blank
        np.full((240, 320, 3), WHITE, np.uint8),  # BASIC's white screen
        np.random.default_rng(1).integers(0, 256, (240, 320, 3), dtype=np.uint8),  # noise
        np.zeros((480, 640, 3), np.uint8),  # another window's size
    ],
    ids=["blank", "white", "noise", "wrong-size"],
)
def test_a_screen_that_is_not_the_game_is_never_played(frame):
    console = Frames([frame])
    with pytest.raises(LevelFailed, match="no level appeared on screen"):
        player(console).wait_level(timeout_s=0.2)
    assert console.keys.sent == []


def test_a_half_drawn_level_is_waited_out_and_read_whole():
    frames = [half_drawn(LEVEL_2, 4), half_drawn(LEVEL_2, 2), draw(LEVEL_2)]
    obs = player(Frames(frames)).wait_level(timeout_s=2)
    assert obs.target == LEVEL_2


def test_an_unsolvable_reading_is_read_again_then_refused_with_the_reason():
    game = FakeGame(PROFILE, UNSOLVABLE)
    notes: list[str] = []
    env = LogoEnv(game, poll_s=0.0)
    env.note = lambda event, **data: notes.append(event)  # type: ignore[method-assign]
    with pytest.raises(LevelFailed, match="cannot be solved: cells 2 5 and 2 6 are neighbours"):
        Player(env, PROFILE, settle_frames=2).play_level()
    assert notes.count("target_unsolvable") == 5, "read again on later frames first"
    assert game.presses == 0


def test_a_misread_that_clears_on_a_later_frame_is_played():
    """One frame reads as unsolvable (a stone caught mid-draw), the next one is right."""
    game = FakeGame(PROFILE, LEVEL_2)
    drawn = game.frame

    first = [True]

    def frame():
        if first[0]:
            first[0] = False
            return draw(UNSOLVABLE)
        return drawn()

    game.frame = frame  # type: ignore[method-assign]
    report = Player(LogoEnv(game, poll_s=0.0), PROFILE, settle_frames=2).play_level(
        LogoEnv(game).observe()
    )
    assert report.end_board == LEVEL_2
