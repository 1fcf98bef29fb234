"""Measuring the emulation speed from FLASH swaps, on synthetic flashing frames (the
real game in Fuse: test_speed_fuse.py)."""

import time

import pytest

from bot.errors import Unreadable
from bot.play.speed import FLASH_FRAMES, FULL_SPEED_FPS, board_area, measure_speed
from bot.profile import load_profile
from solvers.board import Board
from tests.bot.fake_frames import draw

PROFILE = load_profile("practice")
STEADY = draw(Board.empty(6, 10), cursor=(3, 4), flash=False)
SWAPPED = draw(Board.empty(6, 10), cursor=(3, 4), flash=True)


def flashing_at(percent: float):
    """Frames of a game emulated at ``percent`` speed, its cursor swapping on FLASH."""
    started = time.monotonic()
    period = FLASH_FRAMES / (FULL_SPEED_FPS * percent / 100)

    def frame():
        return SWAPPED if int((time.monotonic() - started) / period) % 2 else STEADY

    return frame


@pytest.mark.parametrize("percent", [400, 800])
def test_the_speed_is_read_from_the_flash_period(percent):
    reading = measure_speed(flashing_at(percent), board_area(PROFILE, 1))
    assert reading.swaps == 7
    assert reading.percent == pytest.approx(percent, rel=0.1)
    assert reading.frame_s == pytest.approx(100 / (percent * FULL_SPEED_FPS), rel=0.1)


def test_a_still_picture_has_no_speed():
    with pytest.raises(Unreadable, match="flashed 0 times"):
        measure_speed(lambda: STEADY, board_area(PROFILE, 1), timeout_s=0.2)


def test_changes_outside_the_board_do_not_count():
    panel = STEADY.copy()
    frames = iter([STEADY, panel] * 1000)

    def frame():
        nxt = next(frames)
        nxt[230, 300] = (nxt[230, 300] + 1) % 255  # the panel's clock ticking
        return nxt

    with pytest.raises(Unreadable):
        measure_speed(frame, board_area(PROFILE, 1), timeout_s=0.2)
