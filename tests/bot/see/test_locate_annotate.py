import numpy as np
import pytest
from PIL import Image

from logo_bot.bot.errors import Unreadable
from logo_bot.bot.profile import load_profile
from logo_bot.bot.see.annotate import annotate
from logo_bot.bot.see.locate import locate
from logo_bot.bot.see.vision import Vision
from logo_bot.solvers.board import Board, play
from tests.bot.fake_frames import draw

PROFILE = load_profile("practice")
TARGET = Board.from_rows(
    ["..........", "....2.....", "...212....", "....2.....", "..........", ".........."]
)


@pytest.mark.parametrize(
    ("scale", "left", "top"),
    [(1, 0, 0), (2, 37, 11), pytest.param(3, 5, 150, marks=pytest.mark.slow)],
)
def test_the_window_is_found_inside_a_larger_picture(scale, left, top):
    window = draw(TARGET, play(Board.empty(6, 10), [(4, 5)]), cursor=(2, 3), scale=scale)
    rng = np.random.default_rng(scale)
    desktop = rng.integers(0, 256, (900, 1200, 3), dtype=np.uint8)
    if scale == 1:
        desktop = window
    else:
        desktop[top : top + window.shape[0], left : left + window.shape[1]] = window
    placement = locate(PROFILE, desktop)
    assert (placement.scale, placement.left, placement.top) == (scale, left, top)
    assert np.array_equal(placement.crop(desktop, PROFILE), window)


def test_a_picture_without_the_game_is_refused():
    with pytest.raises(Unreadable, match="no game screen with a level"):
        locate(PROFILE, np.zeros((480, 640, 3), np.uint8))


def test_annotated_picture_is_drawn_at_2x_with_notes(tmp_path):
    frame = draw(TARGET, cursor=(6, 10))
    image = annotate(frame, Vision(PROFILE), ["a note"])
    assert image.size[0] == 640 and image.size[1] > 480
    broken = frame.copy()
    broken[40:136, 48:208] = (0, 0, 0)  # the board is gone: no cursor
    picture = np.asarray(annotate(broken, Vision(PROFILE)).convert("RGB"))
    panel = picture[480:].astype(int)
    reddish = (panel[..., 0] > 200) & (panel[..., 1] < 100)
    assert reddish.any(), "the failure is written in red under the picture"
    Image.fromarray(picture).save(tmp_path / "a.png")
