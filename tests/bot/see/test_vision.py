import numpy as np
import pytest

from logo_bot.bot.errors import Unreadable
from logo_bot.bot.profile import load_profile
from logo_bot.bot.see.vision import Vision, detect_scale
from logo_bot.solvers.board import Board, play
from tests.bot.fake_frames import draw

PROFILE = load_profile("practice")
TARGET = Board.from_rows(
    ["..........", "....2.....", "...212....", "....2.....", "..........", "1234......"]
)


@pytest.mark.parametrize("scale", [1, 2, 3])
def test_preview_board_and_cursor_at_every_scale(scale):
    board = play(Board.empty(6, 10), [(4, 5), (3, 6), (6, 1), (6, 2)])
    for flash in (False, True):
        frame = draw(TARGET, board, cursor=(6, 2), flash=flash, scale=scale)
        vision = Vision.for_frame(PROFILE, frame)
        assert vision.scale == scale
        assert vision.preview(frame) == TARGET
        assert vision.board(frame) == board
        assert vision.cursor(frame) == (6, 2)
        assert vision.level_shown(frame)


def test_cursor_found_at_every_cell_in_both_phases():
    vision = Vision(PROFILE)
    for r in range(1, 7):
        for c in range(1, 11):
            for flash in (False, True):
                assert vision.cursor_candidates(draw(TARGET, cursor=(r, c), flash=flash)) == [
                    (r, c)
                ]


def test_no_cursor_is_unreadable_with_a_reason():
    with pytest.raises(Unreadable, match="matches no cell"):
        Vision(PROFILE).cursor(draw(TARGET, cursor=None))


def test_transition_has_a_uniform_marker():
    vision = Vision(PROFILE)
    assert not vision.level_shown(draw(None))


def test_foreign_colour_in_the_preview_is_named():
    frame = draw(TARGET)
    frame[152 + 16 : 152 + 24, 40 + 40 : 40 + 48] = (10, 200, 90)
    frame[152 + 16 + 6, 40 + 40 + 3] = (0, 0, 0)
    with pytest.raises(Unreadable, match="preview cell 2 5") as info:
        Vision(PROFILE).preview(frame)
    assert info.value.cell == (2, 5)


def test_a_frame_of_the_wrong_size_is_refused():
    with pytest.raises(Unreadable, match="not the Fuse window"):
        detect_scale(PROFILE, np.zeros((100, 100, 3), np.uint8))
    with pytest.raises(Unreadable, match="expected 640x480"):
        Vision(PROFILE, 2).preview(draw(TARGET))
