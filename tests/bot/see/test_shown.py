"""Whether a frame is the game: a level that reads whole with target stones, or a screen
the profile names; anything else of the window's size is "not the game" (exit 7)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from logo_bot.bot.errors import Unreadable
from logo_bot.bot.profile import load_profile
from logo_bot.bot.see.shown import what_is_shown
from logo_bot.solvers.board import Board
from tests.bot.fake_frames import WHITE, draw

FIXTURES = Path(__file__).resolve().parent / "fixtures"
PROFILE = load_profile("practice")
LEVEL_1 = Board.from_rows(
    ["..........", "....2.....", "...212....", "....2.....", "..........", ".........."]
)


def fixture(name: str) -> np.ndarray:
    return np.asarray(Image.open(FIXTURES / f"{name}.png").convert("RGB"))


@pytest.mark.parametrize("scale", [1, 2, 3])
def test_a_level_is_the_game(scale):
    assert what_is_shown(PROFILE, draw(LEVEL_1, scale=scale)) == "level"


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("play_1x_a", "level"),
        ("play_2x_b", "level"),
        ("play_3x_a", "level"),
        ("game_over_1x", "game_over"),
        ("time_up_1x", "time_up"),
        ("transition_1x", "well_done"),
    ],
)
def test_frames_from_the_real_game_are_the_game(name, shown):
    assert what_is_shown(PROFILE, fixture(name)) == shown


def logo() -> np.ndarray:
    """A 640x480 picture of something else: white, with a coloured figure and lines."""
    image = np.full((480, 640, 3), 255, np.uint8)
    yy, xx = np.mgrid[:480, :640]
    image[(yy - 240) ** 2 + (xx - 320) ** 2 < 150**2] = (200, 40, 90)
    image[100:110, 50:590] = (20, 20, 20)
    return image


@pytest.mark.parametrize(
    ("frame", "why"),
    [
        (np.zeros((240, 320, 3), np.uint8), "the preview's level marker is one colour"),
        (np.full((240, 320, 3), WHITE, np.uint8), "the preview's level marker is one colour"),
        (logo(), "no level on it"),
        (
            np.random.default_rng(1).integers(0, 256, (480, 640, 3), dtype=np.uint8),
            "not a Spectrum colour",
        ),
        (draw(Board.empty(6, 10)), "the target has no stones"),
    ],
    ids=["black", "white", "logo", "noise", "empty-target"],
)
def test_a_picture_that_is_not_the_game_is_unreadable_with_a_hint(frame, why):
    with pytest.raises(Unreadable) as info:
        what_is_shown(PROFILE, frame)
    assert info.value.exit_code == 7
    assert info.value.message.startswith("not the game: no level on it")
    assert why in info.value.message
    assert "none of the game's screens (title, menu, ...) either" in info.value.message
    assert info.value.hint is not None and "calibrate --screenshot" in info.value.hint


def test_a_profile_without_a_font_says_it_cannot_tell_other_screens():
    with pytest.raises(Unreadable, match="the logo-part1 profile has no font to tell"):
        what_is_shown(load_profile("logo-part1"), np.zeros((240, 320, 3), np.uint8))
