"""Vision on frames captured from the real practice game in Fuse (tests/bot/see/fixtures).

The expected readings were derived from the game's rules and the keys pressed when
the frames were captured (fixtures/capture.py), not from the vision layer."""

import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from logo_bot.bot.errors import Unreadable
from logo_bot.bot.profile import load_profile
from logo_bot.bot.see.locate import locate
from logo_bot.bot.see.screens import ScreenReader
from logo_bot.bot.see.vision import Vision, detect_scale

HERE = Path(__file__).resolve().parent / "fixtures"
EXPECTED = json.loads((HERE / "expected.json").read_text())
PROFILE = load_profile("practice")


def frame_of(name: str) -> np.ndarray:
    return np.asarray(Image.open(HERE / f"{name}.png").convert("RGB"))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_reads_as_expected(name):
    want = EXPECTED[name]
    frame = frame_of(name)
    assert detect_scale(PROFILE, frame) == want["scale"]
    vision = Vision(PROFILE, want["scale"])
    assert vision.level_shown(frame) is want["level_shown"]
    screens = ScreenReader(PROFILE, want["scale"])
    assert screens.which(frame) == want.get("screen")
    if want["level_shown"]:
        assert str(vision.preview(frame)) == want["target"]
        assert str(vision.board(frame)) == want["board"]
        assert list(vision.cursor(frame)) == want["cursor"]
        panel = screens.panel(frame)
        for field, value in want["panel"].items():
            assert panel[field] == value


def test_flash_phases_differ_but_read_the_same():
    for scale in (1, 2, 3):
        a, b = frame_of(f"play_{scale}x_a"), frame_of(f"play_{scale}x_b")
        assert not np.array_equal(a, b), "the two fixtures are in opposite FLASH phases"
        vision = Vision(PROFILE, scale)
        assert vision.cursor(a) == vision.cursor(b)
        assert vision.board(a) == vision.board(b)


def test_a_screen_without_the_board_has_no_cursor():
    # During the transition and TIME UP the board stays drawn (only the preview is
    # cleared), so only the game-over screen has no board at all.
    with pytest.raises(Unreadable, match="expected exactly one cell"):
        Vision(PROFILE, 1).cursor(frame_of("game_over_1x"))


@pytest.mark.slow
@pytest.mark.parametrize("scale", [2, 3])  # one test each: side by side, seconds each
def test_every_level_fixture_is_found_by_locate_inside_a_desktop(scale):
    rng = np.random.default_rng(7 + scale)
    window = frame_of(f"play_{scale}x_a")
    desktop = rng.integers(0, 256, (1000, 1300, 3), dtype=np.uint8)
    desktop[20 : 20 + window.shape[0], 30 : 30 + window.shape[1]] = window
    placement = locate(PROFILE, desktop)
    assert (placement.scale, placement.left, placement.top) == (scale, 30, 20)


@pytest.mark.parametrize("name", [n for n in sorted(EXPECTED) if EXPECTED[n]["scale"] == 1])
def test_screen_labels_come_from_the_games_own_pixels(name):
    """The capture script labels TIME UP and GAME OVER from game/'s layout and font,
    not from the ScreenReader under test: both must name the same screens."""
    from tests.bot.see.fixtures.capture import screen_of

    frame = frame_of(name)
    assert screen_of(frame) == (
        EXPECTED[name].get("screen") if name.startswith(("time", "game")) else None
    )
    blank = frame.copy()
    blank[24:216, 32:288] = 0
    assert screen_of(blank) is None
